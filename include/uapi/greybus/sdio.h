/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * SDIO protocol (bridged PHY): a module's SD/MMC host controller.  The AP
 * sends each SD command (COMMAND) and then, for a command with data, the
 * data blocks (TRANSFER); the module reports card insertion, removal and
 * the write-protect switch with EVENT.
 */
#ifndef _UAPI_GREYBUS_SDIO_H
#define _UAPI_GREYBUS_SDIO_H

#include "greybus.h"

#define GB_SDIO_TYPE_GET_CAPABILITIES		0x02
#define GB_SDIO_TYPE_SET_IOS			0x03
#define GB_SDIO_TYPE_COMMAND			0x04
#define GB_SDIO_TYPE_TRANSFER			0x05
#define GB_SDIO_TYPE_EVENT			0x06	/* module to AP */

#define GB_SDIO_CAP_NONREMOVABLE		0x00000001
#define GB_SDIO_CAP_4_BIT_DATA			0x00000002
#define GB_SDIO_CAP_8_BIT_DATA			0x00000004
#define GB_SDIO_CAP_MMC_HS			0x00000008
#define GB_SDIO_CAP_SD_HS			0x00000010
#define GB_SDIO_CAP_ERASE			0x00000020
#define GB_SDIO_CAP_1_2V_DDR			0x00000040
#define GB_SDIO_CAP_1_8V_DDR			0x00000080
#define GB_SDIO_CAP_POWER_OFF_CARD		0x00000100
#define GB_SDIO_CAP_UHS_SDR12			0x00000200
#define GB_SDIO_CAP_UHS_SDR25			0x00000400
#define GB_SDIO_CAP_UHS_SDR50			0x00000800
#define GB_SDIO_CAP_UHS_SDR104			0x00001000
#define GB_SDIO_CAP_UHS_DDR50			0x00002000
#define GB_SDIO_CAP_DRIVER_TYPE_A		0x00004000
#define GB_SDIO_CAP_DRIVER_TYPE_C		0x00008000
#define GB_SDIO_CAP_DRIVER_TYPE_D		0x00010000
#define GB_SDIO_CAP_HS200_1_2V			0x00020000
#define GB_SDIO_CAP_HS200_1_8V			0x00040000
#define GB_SDIO_CAP_HS400_1_2V			0x00080000
#define GB_SDIO_CAP_HS400_1_8V			0x00100000

/*
 * Voltage ranges (ocr, vdd): bit 0 is 1.65-1.95 V, bit n (1..16) is
 * (1.9 + n / 10) V to (2.0 + n / 10) V, i.e. Linux's MMC_VDD_* >> 7.
 */
#define GB_SDIO_VDD_165_195			0x00000001
#define GB_SDIO_VDD_32_33			0x00002000
#define GB_SDIO_VDD_33_34			0x00004000
#define GB_SDIO_VDD_ALL				0x0001ffff
#define GB_SDIO_VDD_SHIFT			7

/* get capabilities: no request payload */
struct gb_sdio_get_caps_response {
	__le32	caps;			/* GB_SDIO_CAP_* */
	__le32	ocr;			/* GB_SDIO_VDD_* the slot supplies */
	__le32	f_min;			/* Hz */
	__le32	f_max;
	__le16	max_blk_count;		/* blocks per data command */
	__le16	max_blk_size;		/* bytes per block */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_sdio_get_caps_response, 20);

#define GB_SDIO_BUSMODE_OPENDRAIN		0x00
#define GB_SDIO_BUSMODE_PUSHPULL		0x01

#define GB_SDIO_POWER_OFF			0x00
#define GB_SDIO_POWER_UP			0x01
#define GB_SDIO_POWER_ON			0x02
#define GB_SDIO_POWER_UNDEFINED			0x03

#define GB_SDIO_BUS_WIDTH_1			0x00
#define GB_SDIO_BUS_WIDTH_4			0x02
#define GB_SDIO_BUS_WIDTH_8			0x03

#define GB_SDIO_TIMING_LEGACY			0x00
#define GB_SDIO_TIMING_MMC_HS			0x01
#define GB_SDIO_TIMING_SD_HS			0x02
#define GB_SDIO_TIMING_UHS_SDR12		0x03
#define GB_SDIO_TIMING_UHS_SDR25		0x04
#define GB_SDIO_TIMING_UHS_SDR50		0x05
#define GB_SDIO_TIMING_UHS_SDR104		0x06
#define GB_SDIO_TIMING_UHS_DDR50		0x07
#define GB_SDIO_TIMING_MMC_DDR52		0x08
#define GB_SDIO_TIMING_MMC_HS200		0x09
#define GB_SDIO_TIMING_MMC_HS400		0x0a

#define GB_SDIO_SIGNAL_VOLTAGE_330		0x00
#define GB_SDIO_SIGNAL_VOLTAGE_180		0x01
#define GB_SDIO_SIGNAL_VOLTAGE_120		0x02

#define GB_SDIO_SET_DRIVER_TYPE_B		0x00
#define GB_SDIO_SET_DRIVER_TYPE_A		0x01
#define GB_SDIO_SET_DRIVER_TYPE_C		0x02
#define GB_SDIO_SET_DRIVER_TYPE_D		0x03

/* set ios: no response payload */
struct gb_sdio_set_ios_request {
	__le32	clock;			/* Hz, 0: clock off */
	__le32	vdd;			/* one GB_SDIO_VDD_* bit, 0: off */
	__u8	bus_mode;		/* GB_SDIO_BUSMODE_* */
	__u8	power_mode;		/* GB_SDIO_POWER_* */
	__u8	bus_width;		/* GB_SDIO_BUS_WIDTH_* */
	__u8	timing;			/* GB_SDIO_TIMING_* */
	__u8	signal_voltage;		/* GB_SDIO_SIGNAL_VOLTAGE_* */
	__u8	drv_type;		/* GB_SDIO_SET_DRIVER_TYPE_* */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_sdio_set_ios_request, 14);

/* cmd_flags: the response the command expects */
#define GB_SDIO_RSP_NONE			0x00
#define GB_SDIO_RSP_PRESENT			0x01
#define GB_SDIO_RSP_136				0x02
#define GB_SDIO_RSP_CRC				0x04
#define GB_SDIO_RSP_BUSY			0x08
#define GB_SDIO_RSP_OPCODE			0x10

/* cmd_type */
#define GB_SDIO_CMD_AC				0x00
#define GB_SDIO_CMD_ADTC			0x01
#define GB_SDIO_CMD_BC				0x02
#define GB_SDIO_CMD_BCR				0x03

struct gb_sdio_command_request {
	__u8	cmd;			/* the SD command index */
	__u8	cmd_flags;		/* GB_SDIO_RSP_* */
	__u8	cmd_type;		/* GB_SDIO_CMD_* */
	__le32	cmd_arg;
	__le16	data_blocks;		/* blocks TRANSFER moves next, or 0 */
	__le16	data_blksz;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_sdio_command_request, 11);

/*
 * resp[0..3] as Linux's mmc_command.resp: a short response in resp[0], a
 * 136-bit one (CID, CSD) as its 128 bits from the most significant word.
 */
struct gb_sdio_command_response {
	__le32	resp[4];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_sdio_command_response, 16);

#define GB_SDIO_DATA_WRITE			0x01
#define GB_SDIO_DATA_READ			0x02
#define GB_SDIO_DATA_STREAM			0x04

/* data_blocks * data_blksz bytes follow a write request or a read response */
struct gb_sdio_transfer_request {
	__u8	data_flags;		/* GB_SDIO_DATA_* */
	__le16	data_blocks;
	__le16	data_blksz;
	__u8	data[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_sdio_transfer_request, 5);

struct gb_sdio_transfer_response {
	__le16	data_blocks;		/* what was moved */
	__le16	data_blksz;
	__u8	data[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_sdio_transfer_response, 4);

/*
 * event (unidirectional): a card came or went; GB_SDIO_WP gives the
 * write-protect switch of the card in the slot with every event (set:
 * read only), so an event of 0 says the switch was released.
 */
#define GB_SDIO_CARD_INSERTED			0x01
#define GB_SDIO_CARD_REMOVED			0x02
#define GB_SDIO_WP				0x04

struct gb_sdio_event_request {
	__u8	event;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_sdio_event_request, 1);

#endif /* _UAPI_GREYBUS_SDIO_H */
