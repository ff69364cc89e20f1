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
 * Both are reported as device type spidev, 8 bits per word, mode 0; the
 * loopback takes up to the controller's maximum, 20 MHz, the flash up to
 * 1 MHz.  The controller does 8 and 16 bits per word, 10 kHz to 20 MHz.
 * A message is one chip-select assertion; a request whose last transfer
 * says INPROGRESS continues the message, so the flash keeps its place in
 * the command across requests.
 *
 * What the AP is told is logged, so a test can compare it with what the
 * kernel applied:
 *
 *   INFO    spi cport 5: master_config bpw_mask=0x00008080 min_speed_hz=10000 max_speed_hz=20000000 mode=0x2f flags=0x00 num_cs=2
 *   INFO    spi cport 5 cs1: device_config name=flash type=spidev mode=0x00 bits_per_word=8 max_speed_hz=1000000
 *
 * Each transfer request logs one line per transfer descriptor, then one
 * for the request with the bytes written and read (the first 32 of each):
 *
 *   INFO    spi cport 5 cs0 xfer 0: len=4 speed_hz=500000 bits_per_word=8 delay_us=0 cs_change=0 write read
 *
 * What master config answers can be changed, to test the AP with a
 * module that lies: GBSIM_SPI="KEY=N,..." or "gbsim ctl spi set
 * KEY=N..." (keys bpw_mask, min_speed_hz, max_speed_hz, mode, flags,
 * num_cs; "defaults" restores them).  The devices behind stay the same.
 *
 * A request is refused (invalid, logged as an ERROR) if a transfer asks
 * for a speed below the controller's minimum or above the device's
 * maximum, bits per word the controller does not do, or a length that is
 * not a whole number of 16-bit words; 0 in speed or bits means the
 * device's own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/spi.h>

#include "ctl.h"
#include "gbsim.h"
#include "log.h"
#include "proto.h"

#define GBSIM_SPI_NUM_CS	2
#define GBSIM_SPI_MIN_HZ	10000
#define GBSIM_SPI_MAX_HZ	20000000
#define GBSIM_SPI_FLASH_HZ	1000000
#define GBSIM_SPI_MODES		(GB_SPI_MODE_CPHA | GB_SPI_MODE_CPOL | \
				 GB_SPI_MODE_CS_HIGH | GB_SPI_MODE_LSB_FIRST | \
				 GB_SPI_MODE_LOOP)
/* 8 and 16 bits per word */
#define GBSIM_SPI_BPW_MASK	((1u << 7) | (1u << 15))
#define GBSIM_SPI_LOG_BYTES	32

static const uint8_t gbsim_spi_jedec_id[] = { 0xef, 0x40, 0x18 };

#define GBSIM_SPI_ENV		"GBSIM_SPI"
#define GBSIM_SPI_MASTER_DEFAULT { GBSIM_SPI_BPW_MASK, GBSIM_SPI_MIN_HZ, \
				   GBSIM_SPI_MAX_HZ, GBSIM_SPI_MODES, 0, \
				   GBSIM_SPI_NUM_CS }

/* What master config says */
static struct gbsim_spi_master {
	uint32_t	bpw_mask;
	uint32_t	min_hz;
	uint32_t	max_hz;
	uint16_t	mode;
	uint16_t	flags;
	uint8_t		num_cs;
} gbsim_spi_master = GBSIM_SPI_MASTER_DEFAULT;
static bool gbsim_spi_knobs_read;

/* What sits on each chip select, as device config tells the AP */
static const struct {
	const char	*name;
	uint32_t	max_hz;
	uint8_t		bpw;
} gbsim_spi_devs[GBSIM_SPI_NUM_CS] = {
	{ "loopback",	GBSIM_SPI_MAX_HZ,	8 },
	{ "flash",	GBSIM_SPI_FLASH_HZ,	8 },
};

/* conn->priv: where the message in progress is, per chip select */
struct gbsim_spi_conn {
	uint64_t	pos[GBSIM_SPI_NUM_CS];	/* bytes clocked so far */
	uint8_t		cmd[GBSIM_SPI_NUM_CS][4];	/* first bytes */
};

/* One KEY=VALUE of GBSIM_SPI (or "spi set"); false if not one */
static bool gbsim_spi_knob(const char *tok)
{
	struct gbsim_spi_master *m = &gbsim_spi_master;
	uint64_t v;

	if (!strcmp(tok, "defaults"))
		*m = (struct gbsim_spi_master)GBSIM_SPI_MASTER_DEFAULT;
	else if (gbsim_knob_num(tok, "bpw_mask", 0xffffffff, &v))
		m->bpw_mask = v;
	else if (gbsim_knob_num(tok, "min_speed_hz", 0xffffffff, &v))
		m->min_hz = v;
	else if (gbsim_knob_num(tok, "max_speed_hz", 0xffffffff, &v))
		m->max_hz = v;
	else if (gbsim_knob_num(tok, "mode", 0xffff, &v))
		m->mode = v;
	else if (gbsim_knob_num(tok, "flags", 0xffff, &v))
		m->flags = v;
	else if (gbsim_knob_num(tok, "num_cs", 0xff, &v))
		m->num_cs = v;
	else
		return false;
	return true;
}

static void gbsim_spi_read_knobs(void)
{
	gbsim_knobs_from_env(GBSIM_SPI_ENV, gbsim_spi_knob,
			     &gbsim_spi_knobs_read);
}

static int gbsim_spi_master_config(struct gbsim_op *op)
{
	const struct gbsim_spi_master *m = &gbsim_spi_master;
	uint8_t *r = op->rsp;

	if (!gbsim_op_len_is(op, 0))
		return GB_OP_INVALID;
	gbsim_spi_read_knobs();
	gbsim_put_le32(r, m->bpw_mask);
	gbsim_put_le32(r + 4, m->min_hz);
	gbsim_put_le32(r + 8, m->max_hz);
	gbsim_put_le16(r + 12, m->mode);
	gbsim_put_le16(r + 14, m->flags);
	r[16] = m->num_cs;
	op->rsp_len = sizeof(struct gb_spi_master_config_response);
	gbsim_log_info("spi cport %u: master_config bpw_mask=0x%08x min_speed_hz=%u max_speed_hz=%u mode=0x%02x flags=0x%02x num_cs=%u",
		       op->hd_cport, m->bpw_mask, m->min_hz, m->max_hz,
		       m->mode, m->flags, m->num_cs);
	return GB_OP_SUCCESS;
}

static int gbsim_spi_device_config(struct gbsim_op *op)
{
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
	r[2] = gbsim_spi_devs[cs].bpw;
	gbsim_put_le32(r + 3, gbsim_spi_devs[cs].max_hz);
	r[7] = GB_SPI_DEVICE_TYPE_SPIDEV;
	memcpy(r + 8, gbsim_spi_devs[cs].name, strlen(gbsim_spi_devs[cs].name));
	op->rsp_len = sizeof(struct gb_spi_device_config_response);
	gbsim_log_info("spi cport %u cs%u: device_config name=%s type=spidev mode=0x00 bits_per_word=%u max_speed_hz=%u",
		       op->hd_cport, cs, gbsim_spi_devs[cs].name,
		       gbsim_spi_devs[cs].bpw, gbsim_spi_devs[cs].max_hz);
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

static void gbsim_spi_hex(struct gb_buf *b, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < GBSIM_SPI_LOG_BYTES; i++)
		gb_buf_printf(b, "%02x", p[i]);
	if (len > GBSIM_SPI_LOG_BYTES)
		gb_buf_printf(b, "...");
	if (!len)
		gb_buf_printf(b, "-");
}

static int gbsim_spi_bad(struct gbsim_op *op, const char *why)
{
	gbsim_log_error("spi cport %u: transfer id=0x%04x: %s",
			op->hd_cport, op->id, why);
	return GB_OP_INVALID;
}

/*
 * Descriptor @i of a request to @cs: logged, and checked against the
 * controller and the device.  GB_OP_SUCCESS or the refusal.
 */
static int gbsim_spi_check_xfer(struct gbsim_op *op, uint8_t cs, size_t i,
				const uint8_t *d)
{
	uint32_t speed = gbsim_get_le32(d), len = gbsim_get_le32(d + 4);
	uint8_t bpw = d[11], flags = d[12];
	uint32_t max = gbsim_spi_devs[cs].max_hz;

	gbsim_log_info("spi cport %u cs%u xfer %zu: len=%u speed_hz=%u bits_per_word=%u delay_us=%u cs_change=%u%s%s",
		       op->hd_cport, cs, i, len, speed, bpw,
		       gbsim_get_le16(d + 8), d[10],
		       flags & GB_SPI_XFER_WRITE ? " write" : "",
		       flags & GB_SPI_XFER_READ ? " read" : "");
	if (!(flags & (GB_SPI_XFER_READ | GB_SPI_XFER_WRITE)))
		return gbsim_spi_bad(op, "a transfer neither reads nor writes");
	if (speed && speed < GBSIM_SPI_MIN_HZ) {
		gbsim_log_error("spi cport %u cs%u: transfer id=0x%04x: xfer %zu: speed_hz %u below the controller's minimum %u",
				op->hd_cport, cs, op->id, i, speed,
				GBSIM_SPI_MIN_HZ);
		return GB_OP_INVALID;
	}
	if (speed > max) {
		gbsim_log_error("spi cport %u cs%u: transfer id=0x%04x: xfer %zu: speed_hz %u above the device's maximum %u",
				op->hd_cport, cs, op->id, i, speed, max);
		return GB_OP_INVALID;
	}
	if (!bpw)
		bpw = gbsim_spi_devs[cs].bpw;
	if (bpw > 32 || !(GBSIM_SPI_BPW_MASK & (1u << (bpw - 1)))) {
		gbsim_log_error("spi cport %u cs%u: transfer id=0x%04x: xfer %zu: %u bits per word not in the mask 0x%08x",
				op->hd_cport, cs, op->id, i, bpw,
				GBSIM_SPI_BPW_MASK);
		return GB_OP_INVALID;
	}
	if (bpw > 8 && len % 2) {
		gbsim_log_error("spi cport %u cs%u: transfer id=0x%04x: xfer %zu: %u bytes are not whole %u-bit words",
				op->hd_cport, cs, op->id, i, len, bpw);
		return GB_OP_INVALID;
	}
	return GB_OP_SUCCESS;
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
	struct gb_buf lb = { logbuf, 0, sizeof(logbuf) };
	uint8_t txlog[GBSIM_SPI_LOG_BYTES], rxlog[GBSIM_SPI_LOG_BYTES];
	size_t nlog_tx = 0, nlog_rx = 0;
	uint32_t len;
	uint16_t count;
	int ret;

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
		ret = gbsim_spi_check_xfer(op, cs, i, d);
		if (ret != GB_OP_SUCCESS)
			return ret;
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
	gb_buf_printf(&lb, " rx=");
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
		gb_op_fullname(GREYBUS_PROTOCOL_SPI, op->type, name,
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

/* "spi set KEY=VALUE...": the master config from now on */
int gbsim_cmd_spi(struct gbsim *sim, int argc, char **argv,
		  struct gbsim_ctl_out *out)
{
	(void)sim;
	gbsim_spi_read_knobs();
	return gbsim_ctl_set_knobs(out, argc, argv, "spi",
				   "bpw_mask, min_speed_hz, max_speed_hz, mode, flags, num_cs, defaults",
				   gbsim_spi_knob);
}

static struct gbsim_proto gbsim_proto_spi = {
	.id		= GREYBUS_PROTOCOL_SPI,
	.name		= "spi",
	.request	= gbsim_spi_request,
	.conn_init	= gbsim_spi_conn_init,
	.conn_fini	= gbsim_spi_conn_fini,
};
GBSIM_PROTO_REGISTER(gbsim_proto_spi);
