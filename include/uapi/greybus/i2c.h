/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * I2C protocol (0x03), in a Bridged-PHY bundle: the functionality query
 * and transfers of several messages in one operation.
 */
#ifndef _UAPI_GREYBUS_I2C_H
#define _UAPI_GREYBUS_I2C_H

#include "greybus.h"

#define GB_I2C_TYPE_FUNCTIONALITY		0x02
#define GB_I2C_TYPE_TRANSFER			0x05

/* The functionality bits are Linux's I2C_FUNC_* */
struct gb_i2c_functionality_response {
	__le32	functionality;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_i2c_functionality_response, 4);

/* Message flags, as Linux's struct i2c_msg has them */
#define GB_I2C_M_RD				0x0001
#define GB_I2C_M_TEN				0x0010
#define GB_I2C_M_RECV_LEN			0x0400
#define GB_I2C_M_NOSTART			0x4000

struct gb_i2c_transfer_op {
	__le16	addr;
	__le16	flags;
	__le16	size;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_i2c_transfer_op, 6);

/*
 * Followed by the data of every write message, concatenated; the
 * response is the data of every read message, concatenated.
 */
struct gb_i2c_transfer_request {
	__le16				op_count;
	struct gb_i2c_transfer_op	ops[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_i2c_transfer_request, 2);

#endif /* _UAPI_GREYBUS_I2C_H */
