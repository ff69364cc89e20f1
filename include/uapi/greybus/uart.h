/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * UART protocol (bridged PHY).  Data to the module is paced by credits:
 * the AP may have GB_UART_CREDITS_MAX bytes outstanding, and the module
 * hands them back with RECEIVE_CREDITS once it has sent them on.
 */
#ifndef _UAPI_GREYBUS_UART_H
#define _UAPI_GREYBUS_UART_H

#include "greybus.h"

#define GB_UART_TYPE_SEND_DATA			0x02
#define GB_UART_TYPE_RECEIVE_DATA		0x03	/* module to AP */
#define GB_UART_TYPE_SET_LINE_CODING		0x04
#define GB_UART_TYPE_SET_CONTROL_LINE_STATE	0x05
#define GB_UART_TYPE_SEND_BREAK			0x06
#define GB_UART_TYPE_SERIAL_STATE		0x07	/* module to AP */
#define GB_UART_TYPE_RECEIVE_CREDITS		0x08	/* module to AP */
#define GB_UART_TYPE_FLUSH_FIFOS		0x09

#define GB_UART_CREDITS_MAX			4096

struct gb_uart_send_data_request {
	__le16	size;
	__u8	data[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_uart_send_data_request, 2);

#define GB_UART_RECV_FLAG_FRAMING		0x01
#define GB_UART_RECV_FLAG_PARITY		0x02
#define GB_UART_RECV_FLAG_OVERRUN		0x04
#define GB_UART_RECV_FLAG_BREAK			0x08

struct gb_uart_recv_data_request {
	__le16	size;
	__u8	flags;			/* GB_UART_RECV_FLAG_* */
	__u8	data[];
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_uart_recv_data_request, 3);

struct gb_uart_receive_credits_request {
	__le16	count;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_uart_receive_credits_request, 2);

#define GB_SERIAL_1_STOP_BITS			0
#define GB_SERIAL_1_5_STOP_BITS			1
#define GB_SERIAL_2_STOP_BITS			2

#define GB_SERIAL_NO_PARITY			0
#define GB_SERIAL_ODD_PARITY			1
#define GB_SERIAL_EVEN_PARITY			2
#define GB_SERIAL_MARK_PARITY			3
#define GB_SERIAL_SPACE_PARITY			4

#define GB_SERIAL_AUTO_RTSCTS_EN		0x01

struct gb_uart_set_line_coding_request {
	__le32	rate;
	__u8	format;			/* GB_SERIAL_*_STOP_BITS */
	__u8	parity;			/* GB_SERIAL_*_PARITY */
	__u8	data_bits;
	__u8	flow_control;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_uart_set_line_coding_request, 8);

/* AP to module */
#define GB_UART_CTRL_DTR			0x01
#define GB_UART_CTRL_RTS			0x02

struct gb_uart_set_control_line_state_request {
	__u8	control;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_uart_set_control_line_state_request, 1);

struct gb_uart_set_break_request {
	__u8	state;			/* 0 off, 1 on */
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_uart_set_break_request, 1);

/* module to AP */
#define GB_UART_CTRL_DCD			0x01
#define GB_UART_CTRL_DSR			0x02
#define GB_UART_CTRL_RI				0x04

struct gb_uart_serial_state_request {
	__u8	control;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_uart_serial_state_request, 1);

#define GB_SERIAL_FLAG_FLUSH_TRANSMITTER	0x01
#define GB_SERIAL_FLAG_FLUSH_RECEIVER		0x02

struct gb_uart_serial_flush_request {
	__u8	flags;
} GB_PACKED;
GB_ASSERT_SIZE(struct gb_uart_serial_flush_request, 1);

#endif /* _UAPI_GREYBUS_UART_H */
