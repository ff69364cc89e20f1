/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * SPI protocol (bridged PHY): a module's SPI controller and the devices on
 * its chip selects.  Mode and flag bits have the values of Linux's SPI_*.
 */
#ifndef _UAPI_GREYBUS_SPI_H
#define _UAPI_GREYBUS_SPI_H

#include "greybus.h"

#define GB_SPI_TYPE_MASTER_CONFIG		0x02
#define GB_SPI_TYPE_DEVICE_CONFIG		0x03
#define GB_SPI_TYPE_TRANSFER			0x04

#define GB_SPI_MODE_CPHA			0x01
#define GB_SPI_MODE_CPOL			0x02
#define GB_SPI_MODE_CS_HIGH			0x04
#define GB_SPI_MODE_LSB_FIRST			0x08
#define GB_SPI_MODE_3WIRE			0x10
#define GB_SPI_MODE_LOOP			0x20
#define GB_SPI_MODE_NO_CS			0x40
#define GB_SPI_MODE_READY			0x80

#define GB_SPI_FLAG_HALF_DUPLEX			0x01
#define GB_SPI_FLAG_NO_RX			0x02
#define GB_SPI_FLAG_NO_TX			0x04

/* master config: no request payload */
struct gb_spi_master_config_response {
	__le32	bits_per_word_mask;	/* bit n-1 set: n bits per word */
	__le32	min_speed_hz;
	__le32	max_speed_hz;
	__le16	mode;			/* GB_SPI_MODE_* supported */
	__le16	flags;			/* GB_SPI_FLAG_* */
	__u8	num_chipselect;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_spi_master_config_response, 17);

struct gb_spi_device_config_request {
	__u8	chip_select;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_spi_device_config_request, 1);

#define GB_SPI_DEVICE_TYPE_SPIDEV		0x00
#define GB_SPI_DEVICE_TYPE_SPI_NOR		0x01
#define GB_SPI_DEVICE_TYPE_MODALIAS		0x02	/* driver in @name */

#define GB_SPI_DEVICE_NAME_LEN			32

struct gb_spi_device_config_response {
	__le16	mode;
	__u8	bits_per_word;
	__le32	max_speed_hz;
	__u8	device_type;		/* GB_SPI_DEVICE_TYPE_* */
	__u8	name[GB_SPI_DEVICE_NAME_LEN];	/* NUL-padded */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_spi_device_config_response, 40);

#define GB_SPI_XFER_READ			0x01
#define GB_SPI_XFER_WRITE			0x02
#define GB_SPI_XFER_INPROGRESS			0x04	/* goes on in the next request */

/* One transfer of a message; 0 in speed or bits: the device's default */
struct gb_spi_transfer {
	__le32	speed_hz;
	__le32	len;
	__le16	delay_usecs;
	__u8	cs_change;
	__u8	bits_per_word;
	__u8	xfer_flags;		/* GB_SPI_XFER_* */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_spi_transfer, 13);

/*
 * The descriptors are followed by the write data of every WRITE transfer,
 * in order; the response is the read data of every READ transfer.
 */
struct gb_spi_transfer_request {
	__u8	chip_select;
	__u8	mode;
	__le16	count;
	struct gb_spi_transfer transfers[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_spi_transfer_request, 4);

#endif /* _UAPI_GREYBUS_SPI_H */
