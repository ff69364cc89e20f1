// SPDX-License-Identifier: GPL-2.0
/*
 * The GPIO protocol (0x02), module side: GBSIM_GPIO_LINES lines, each
 * with a direction, the value the AP drives on it, the level the outside
 * world puts on it (the control command "gpio"), and an interrupt (type,
 * mask, debounce).  A line reads its driven value as an output and its
 * outside level as an input.  Every change is one INFO line, so a test
 * reads from the log what the AP asked for:
 *
 *   INFO    gpio cport 3 line 2: active=1 dir=out value=1 level=0 irq=masked type=none debounce=0
 *
 * An outside level change on an unmasked line sends IRQ_EVENT when the
 * line's type matches it (an edge in its direction, or the new level for
 * the level types), logged as "gpio cport 3 line 2: irq event".
 * Requests for a line past the last are refused with "invalid", as are
 * values other than 0 and 1 and unknown interrupt types.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/greybus/gpio.h>

#include <gb_msg.h>

#include "gbsim.h"
#include "log.h"
#include "proto.h"
#include "proto-gpio.h"

struct gbsim_gpio_line {
	bool		active;
	bool		out;		/* direction */
	bool		value;		/* driven by the AP */
	bool		level;		/* from outside */
	bool		masked;
	uint8_t		type;		/* GB_GPIO_IRQ_TYPE_* */
	uint16_t	debounce;	/* microseconds */
};

/* conn->priv */
struct gbsim_gpio_conn {
	struct gbsim_gpio_line line[GBSIM_GPIO_LINES];
};

static const char *gbsim_gpio_type_name(uint8_t type)
{
	switch (type) {
	case GB_GPIO_IRQ_TYPE_NONE:
		return "none";
	case GB_GPIO_IRQ_TYPE_EDGE_RISING:
		return "rising";
	case GB_GPIO_IRQ_TYPE_EDGE_FALLING:
		return "falling";
	case GB_GPIO_IRQ_TYPE_EDGE_BOTH:
		return "both";
	case GB_GPIO_IRQ_TYPE_LEVEL_HIGH:
		return "high";
	case GB_GPIO_IRQ_TYPE_LEVEL_LOW:
		return "low";
	}
	return NULL;
}

static void gbsim_gpio_log_line(const struct gbsim_conn *conn,
				unsigned int which)
{
	const struct gbsim_gpio_line *l =
		&((struct gbsim_gpio_conn *)conn->priv)->line[which];

	gbsim_log_info("gpio cport %u line %u: active=%d dir=%s value=%d level=%d irq=%s type=%s debounce=%u",
		       conn->hd_cport, which, l->active, l->out ? "out" : "in",
		       l->value, l->level, l->masked ? "masked" : "unmasked",
		       gbsim_gpio_type_name(l->type), l->debounce);
}

/* The line a request names, or NULL (logged) */
static struct gbsim_gpio_line *gbsim_gpio_which(struct gbsim_op *op,
						size_t len)
{
	struct gbsim_gpio_conn *gc = op->conn->priv;
	uint8_t which;

	if (!gbsim_op_len_is(op, len))
		return NULL;
	which = op->req[0];
	if (which >= GBSIM_GPIO_LINES) {
		gbsim_log_error("gpio cport %u: %s id=0x%04x: no line %u (%u of them)",
				op->hd_cport, gb_op_name(GREYBUS_PROTOCOL_GPIO, op->type),
				op->id, which, GBSIM_GPIO_LINES);
		return NULL;
	}
	return &gc->line[which];
}

static bool gbsim_gpio_bool(struct gbsim_op *op, uint8_t v)
{
	if (v <= 1)
		return true;
	gbsim_log_error("gpio cport %u: %s id=0x%04x: value %u is not 0 or 1",
			op->hd_cport, gb_op_name(GREYBUS_PROTOCOL_GPIO, op->type), op->id, v);
	return false;
}

/* Requests with an answer byte */
static int gbsim_gpio_query(struct gbsim_op *op, struct gbsim_gpio_line *l)
{
	if (op->type == GB_GPIO_TYPE_GET_DIRECTION)
		op->rsp[0] = l->out ? GB_GPIO_DIRECTION_OUT :
				      GB_GPIO_DIRECTION_IN;
	else
		op->rsp[0] = l->out ? l->value : l->level;
	op->rsp_len = 1;
	return GB_OP_SUCCESS;
}

static int gbsim_gpio_request(struct gbsim_op *op)
{
	struct gbsim_gpio_line *l;
	char name[96];

	op->rsp_len = 0;
	if (op->type == GB_GPIO_TYPE_LINE_COUNT) {
		if (!gbsim_op_len_is(op, 0))
			return GB_OP_INVALID;
		op->rsp[0] = GBSIM_GPIO_LINES - 1;
		op->rsp_len = 1;
		return GB_OP_SUCCESS;
	}

	switch (op->type) {
	case GB_GPIO_TYPE_GET_DIRECTION:
	case GB_GPIO_TYPE_GET_VALUE:
		l = gbsim_gpio_which(op, sizeof(struct gb_gpio_which_request));
		if (!l)
			return GB_OP_INVALID;
		return gbsim_gpio_query(op, l);
	case GB_GPIO_TYPE_ACTIVATE:
	case GB_GPIO_TYPE_DEACTIVATE:
	case GB_GPIO_TYPE_DIRECTION_IN:
	case GB_GPIO_TYPE_IRQ_MASK:
	case GB_GPIO_TYPE_IRQ_UNMASK:
		l = gbsim_gpio_which(op, sizeof(struct gb_gpio_which_request));
		if (!l)
			return GB_OP_INVALID;
		if (op->type == GB_GPIO_TYPE_ACTIVATE)
			l->active = true;
		else if (op->type == GB_GPIO_TYPE_DEACTIVATE)
			l->active = false;
		else if (op->type == GB_GPIO_TYPE_DIRECTION_IN)
			l->out = false;
		else
			l->masked = op->type == GB_GPIO_TYPE_IRQ_MASK;
		break;
	case GB_GPIO_TYPE_DIRECTION_OUT:
	case GB_GPIO_TYPE_SET_VALUE:
		l = gbsim_gpio_which(op, 2);
		if (!l || !gbsim_gpio_bool(op, op->req[1]))
			return GB_OP_INVALID;
		if (op->type == GB_GPIO_TYPE_DIRECTION_OUT)
			l->out = true;
		l->value = op->req[1];
		break;
	case GB_GPIO_TYPE_SET_DEBOUNCE:
		l = gbsim_gpio_which(op,
				     sizeof(struct gb_gpio_set_debounce_request));
		if (!l)
			return GB_OP_INVALID;
		l->debounce = gbsim_get_le16(op->req + 1);
		break;
	case GB_GPIO_TYPE_IRQ_TYPE:
		l = gbsim_gpio_which(op, sizeof(struct gb_gpio_irq_type_request));
		if (!l)
			return GB_OP_INVALID;
		if (!gbsim_gpio_type_name(op->req[1])) {
			gbsim_log_error("gpio cport %u: irq_type id=0x%04x: bad type 0x%02x",
					op->hd_cport, op->id, op->req[1]);
			return GB_OP_INVALID;
		}
		l->type = op->req[1];
		break;
	default:
		gb_op_fullname(GREYBUS_PROTOCOL_GPIO, op->type, name,
				  sizeof(name));
		gbsim_log_warn("cport %u: %s id=0x%04x: unknown gpio operation",
			       op->hd_cport, name, op->id);
		return GB_OP_PROTOCOL_BAD;
	}
	gbsim_gpio_log_line(op->conn, op->req[0]);
	return GB_OP_SUCCESS;
}

/* Does a change of the outside level to @level fire @l's interrupt? */
static bool gbsim_gpio_fires(const struct gbsim_gpio_line *l, bool level)
{
	switch (l->type) {
	case GB_GPIO_IRQ_TYPE_EDGE_RISING:
		return level;
	case GB_GPIO_IRQ_TYPE_EDGE_FALLING:
		return !level;
	case GB_GPIO_IRQ_TYPE_EDGE_BOTH:
		return true;
	case GB_GPIO_IRQ_TYPE_LEVEL_HIGH:
		return level;
	case GB_GPIO_IRQ_TYPE_LEVEL_LOW:
		return !level;
	}
	return false;
}

int gbsim_gpio_drive(struct gbsim_conn *conn, unsigned int which, bool level)
{
	struct gbsim_gpio_conn *gc = conn->priv;
	struct gbsim_gpio_line *l;
	uint8_t req = (uint8_t)which;
	bool changed;
	int ret;

	if (!gc || conn->protocol != GREYBUS_PROTOCOL_GPIO)
		return -EPROTOTYPE;
	if (which >= GBSIM_GPIO_LINES)
		return -ERANGE;
	l = &gc->line[which];
	changed = l->level != level;
	l->level = level;
	gbsim_gpio_log_line(conn, which);
	if (!changed || l->out || l->masked || !gbsim_gpio_fires(l, level))
		return 0;
	ret = gbsim_send_request_id(conn->sim, conn->hd_cport,
				    GB_GPIO_TYPE_IRQ_EVENT, 0, &req,
				    sizeof(req), 0, NULL, NULL);
	if (ret < 0)
		return ret;
	gbsim_log_info("gpio cport %u line %u: irq event", conn->hd_cport,
		       which);
	return 0;
}

static int gbsim_gpio_conn_init(struct gbsim_conn *conn)
{
	struct gbsim_gpio_conn *gc = calloc(1, sizeof(*gc));

	if (!gc)
		return -ENOMEM;
	for (unsigned int i = 0; i < GBSIM_GPIO_LINES; i++)
		gc->line[i].masked = true;
	conn->priv = gc;
	return 0;
}

static void gbsim_gpio_conn_fini(struct gbsim_conn *conn)
{
	free(conn->priv);
	conn->priv = NULL;
}

static struct gbsim_proto gbsim_proto_gpio = {
	.id		= GREYBUS_PROTOCOL_GPIO,
	.name		= "gpio",
	.request	= gbsim_gpio_request,
	.conn_init	= gbsim_gpio_conn_init,
	.conn_fini	= gbsim_gpio_conn_fini,
};
GBSIM_PROTO_REGISTER(gbsim_proto_gpio);
