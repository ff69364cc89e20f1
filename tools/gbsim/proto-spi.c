// SPDX-License-Identifier: GPL-2.0
/*
 * The SPI protocol (0x0b), module side: a controller with two devices.
 *
 *   CS0 "loopback": MISO wired to MOSI, so every byte read is the byte
 *        written in the same clock (0x00 for a read-only transfer).
 *   CS1 "flash": a JEDEC flash-like device.  0x9f answers the id
 *        GBSIM_SPI_JEDEC_ID (Winbond W25Q128: ef 40 18); 0x03 ADDR24 reads
 *        a pattern (byte at address a = a & 0xff ^ 0xa5); anything else
 *        reads 0xff.
 *
 * Both are reported as device type spidev.  A message is one chip-select
 * assertion; a request whose last transfer says INPROGRESS continues the
 * message, so the flash keeps its place in the command across requests.
 * Each transfer request is logged as an INFO line with the bytes written
 * and read (the first 32 of each).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/spi.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"

#define GBSIM_SPI_NUM_CS	2
#define GBSIM_SPI_MIN_HZ	10000
#define GBSIM_SPI_MAX_HZ	20000000
#define GBSIM_SPI_DEV_HZ	1000000
#define GBSIM_SPI_MODES		(GB_SPI_MODE_CPHA | GB_SPI_MODE_CPOL | \
				 GB_SPI_MODE_CS_HIGH | GB_SPI_MODE_LSB_FIRST | \
				 GB_SPI_MODE_LOOP)
/* 8 and 16 bits per word */
#define GBSIM_SPI_BPW_MASK	((1u << 7) | (1u << 15))
#define GBSIM_SPI_LOG_BYTES	32

static const uint8_t gbsim_spi_jedec_id[] = { 0xef, 0x40, 0x18 };

/* conn->priv: where the message in progress is, per chip select */
struct gbsim_spi_conn {
	uint64_t	pos[GBSIM_SPI_NUM_CS];	/* bytes clocked so far */
	uint8_t		cmd[GBSIM_SPI_NUM_CS][4];	/* first bytes */
};

static const char *gbsim_spi_op_name(uint8_t type)
{
	switch (type) {
	case GB_SPI_TYPE_MASTER_CONFIG:
		return "master_config";
	case GB_SPI_TYPE_DEVICE_CONFIG:
		return "device_config";
	case GB_SPI_TYPE_TRANSFER:
		return "transfer";
	default:
		return NULL;
	}
}

static int gbsim_spi_master_config(struct gbsim_op *op)
{
	uint8_t *r = op->rsp;

	if (!gbsim_op_len_is(op, 0))
		return GB_OP_INVALID;
	gbsim_put_le32(r, GBSIM_SPI_BPW_MASK);
	gbsim_put_le32(r + 4, GBSIM_SPI_MIN_HZ);
	gbsim_put_le32(r + 8, GBSIM_SPI_MAX_HZ);
	gbsim_put_le16(r + 12, GBSIM_SPI_MODES);
	gbsim_put_le16(r + 14, 0);
	r[16] = GBSIM_SPI_NUM_CS;
	op->rsp_len = sizeof(struct gb_spi_master_config_response);
	return GB_OP_SUCCESS;
}

static int gbsim_spi_device_config(struct gbsim_op *op)
{
	static const char *const names[GBSIM_SPI_NUM_CS] = {
		"loopback", "flash"
	};
	uint8_t *r = op->rsp;
	uint8_t cs;

	if (!gbsim_op_len_is(op, 1))
		return GB_OP_INVALID;
	cs = op->req[0];
	if (cs >= GBSIM_SPI_NUM_CS) {
		gbsim_log_error("spi cport %u: device_config id=0x%04x: no chip select %u",
				op->hd_cport, op->id, cs);
		return GB_OP_INVALID;
	}
	memset(r, 0, sizeof(struct gb_spi_device_config_response));
	gbsim_put_le16(r, 0);
	r[2] = 8;
	gbsim_put_le32(r + 3, GBSIM_SPI_DEV_HZ);
	r[7] = GB_SPI_DEVICE_TYPE_SPIDEV;
	memcpy(r + 8, names[cs], strlen(names[cs]));
	op->rsp_len = sizeof(struct gb_spi_device_config_response);
	return GB_OP_SUCCESS;
}

/* The byte the device on @cs answers to @tx, the @pos-th of the message */
static uint8_t gbsim_spi_clock(struct gbsim_spi_conn *sc, uint8_t cs,
			       uint8_t tx)
{
	uint64_t pos = sc->pos[cs]++;
	uint8_t *cmd = sc->cmd[cs];
	uint32_t addr;

	if (cs == 0)
		return tx;
	if (pos < sizeof(sc->cmd[cs]))
		cmd[pos] = tx;
	if (pos == 0)
		return 0xff;
	if (cmd[0] == 0x9f)
		return pos <= sizeof(gbsim_spi_jedec_id) ?
		       gbsim_spi_jedec_id[pos - 1] : 0xff;
	if (cmd[0] == 0x03 && pos >= 4) {
		addr = ((uint32_t)cmd[1] << 16 | cmd[2] << 8 | cmd[3]) +
		       (uint32_t)(pos - 4);
		return (uint8_t)((addr & 0xff) ^ 0xa5);
	}
	return 0xff;
}

static void gbsim_spi_hex(struct gbsim_buf *b, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < GBSIM_SPI_LOG_BYTES; i++)
		gbsim_buf_printf(b, "%02x", p[i]);
	if (len > GBSIM_SPI_LOG_BYTES)
		gbsim_buf_printf(b, "...");
	if (!len)
		gbsim_buf_printf(b, "-");
}

static int gbsim_spi_bad(struct gbsim_op *op, const char *why)
{
	gbsim_log_error("spi cport %u: transfer id=0x%04x: %s",
			op->hd_cport, op->id, why);
	return GB_OP_INVALID;
}

static int gbsim_spi_transfer(struct gbsim_op *op)
{
	struct gbsim_spi_conn *sc = op->conn->priv;
	size_t hdr = sizeof(struct gb_spi_transfer_request);
	size_t desc = sizeof(struct gb_spi_transfer);
	size_t wr_total = 0, rd_total = 0, wr = 0, rd = 0, i, j;
	uint8_t cs, flags = 0, tx, rx;
	const uint8_t *d, *wdata;
	char logbuf[256];
	struct gbsim_buf lb = { logbuf, 0, sizeof(logbuf) };
	uint8_t txlog[GBSIM_SPI_LOG_BYTES], rxlog[GBSIM_SPI_LOG_BYTES];
	size_t nlog_tx = 0, nlog_rx = 0;
	uint32_t len;
	uint16_t count;

	if (op->req_len < hdr)
		return gbsim_spi_bad(op, "shorter than its header");
	cs = op->req[0];
	count = gbsim_get_le16(op->req + 2);
	if (cs >= GBSIM_SPI_NUM_CS)
		return gbsim_spi_bad(op, "no such chip select");
	if (!count)
		return gbsim_spi_bad(op, "no transfers");
	if (op->req_len < hdr + (size_t)count * desc)
		return gbsim_spi_bad(op, "shorter than its descriptors");
	for (i = 0; i < count; i++) {
		d = op->req + hdr + i * desc;
		len = gbsim_get_le32(d + 4);
		flags = d[12];
		if (!(flags & (GB_SPI_XFER_READ | GB_SPI_XFER_WRITE)))
			return gbsim_spi_bad(op, "a transfer neither reads nor writes");
		if (flags & GB_SPI_XFER_WRITE)
			wr_total += len;
		if (flags & GB_SPI_XFER_READ)
			rd_total += len;
	}
	if (op->req_len != hdr + count * desc + wr_total)
		return gbsim_spi_bad(op, "write data does not match the descriptors");
	if (!gbsim_op_rsp_fits(op, rd_total))
		return GB_OP_OVERFLOW;

	wdata = op->req + hdr + count * desc;
	for (i = 0; i < count; i++) {
		d = op->req + hdr + i * desc;
		len = gbsim_get_le32(d + 4);
		flags = d[12];
		for (j = 0; j < len; j++) {
			tx = flags & GB_SPI_XFER_WRITE ? wdata[wr++] : 0;
			rx = gbsim_spi_clock(sc, cs, tx);
			if (flags & GB_SPI_XFER_READ)
				op->rsp[rd++] = rx;
			if (nlog_tx < GBSIM_SPI_LOG_BYTES)
				txlog[nlog_tx++] = tx;
			if (nlog_rx < GBSIM_SPI_LOG_BYTES)
				rxlog[nlog_rx++] = rx;
		}
	}
	/* a message ends with the request unless it says it goes on */
	if (!(flags & GB_SPI_XFER_INPROGRESS)) {
		sc->pos[cs] = 0;
		memset(sc->cmd[cs], 0, sizeof(sc->cmd[cs]));
	}
	op->rsp_len = rd_total;

	gbsim_spi_hex(&lb, txlog, nlog_tx);
	gbsim_buf_printf(&lb, " rx=");
	gbsim_spi_hex(&lb, rxlog, nlog_rx);
	gbsim_log_info("spi cport %u cs%u: %u transfer(s) write=%zu read=%zu mode=0x%02x tx=%s%s",
		       op->hd_cport, cs, count, wr_total, rd_total, op->req[1],
		       logbuf,
		       flags & GB_SPI_XFER_INPROGRESS ? " inprogress" : "");
	return GB_OP_SUCCESS;
}

static int gbsim_spi_request(struct gbsim_op *op)
{
	char name[96];

	op->rsp_len = 0;
	switch (op->type) {
	case GB_SPI_TYPE_MASTER_CONFIG:
		return gbsim_spi_master_config(op);
	case GB_SPI_TYPE_DEVICE_CONFIG:
		return gbsim_spi_device_config(op);
	case GB_SPI_TYPE_TRANSFER:
		return gbsim_spi_transfer(op);
	default:
		gbsim_op_fullname(GREYBUS_PROTOCOL_SPI, op->type, name,
				  sizeof(name));
		gbsim_log_warn("cport %u: %s id=0x%04x: unknown spi operation",
			       op->hd_cport, name, op->id);
		return GB_OP_PROTOCOL_BAD;
	}
}

static int gbsim_spi_conn_init(struct gbsim_conn *conn)
{
	conn->priv = calloc(1, sizeof(struct gbsim_spi_conn));
	return conn->priv ? 0 : -ENOMEM;
}

static void gbsim_spi_conn_fini(struct gbsim_conn *conn)
{
	free(conn->priv);
	conn->priv = NULL;
}

static void gbsim_spi_describe(uint8_t type, bool response, const uint8_t *p,
			       size_t len, struct gbsim_buf *out)
{
	if (response) {
		if (type == GB_SPI_TYPE_TRANSFER)
			gbsim_buf_printf(out, " len=%zu", len);
		else if (type == GB_SPI_TYPE_MASTER_CONFIG && len >= 17)
			gbsim_buf_printf(out, " num_cs=%u", p[16]);
		return;
	}
	if (type == GB_SPI_TYPE_DEVICE_CONFIG && len >= 1)
		gbsim_buf_printf(out, " cs=%u", p[0]);
	else if (type == GB_SPI_TYPE_TRANSFER && len >= 4)
		gbsim_buf_printf(out, " cs=%u count=%u", p[0],
				 gbsim_get_le16(p + 2));
}

static struct gbsim_proto gbsim_proto_spi = {
	.id		= GREYBUS_PROTOCOL_SPI,
	.name		= "spi",
	.request	= gbsim_spi_request,
	.conn_init	= gbsim_spi_conn_init,
	.conn_fini	= gbsim_spi_conn_fini,
	.describe	= gbsim_spi_describe,
	.op_name	= gbsim_spi_op_name,
};
GBSIM_PROTO_REGISTER(gbsim_proto_spi);
