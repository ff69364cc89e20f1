// SPDX-License-Identifier: GPL-2.0
/*
 * The answer gb-vhd owes to a write, as docs/vhd.md states it, given what
 * the file has been told so far.  abuse and fuzz both check against it.
 */
#include <endian.h>
#include <errno.h>

#include <uapi/greybus/greybus.h>

#include "vhdtest.h"

bool vhd_model_cport_enabled(const struct vhd_model *m, unsigned int cport)
{
	return cport < GB_VHD_CPORTS_MAX &&
	       (m->enabled[cport / 8] & (1u << (cport % 8)));
}

void vhd_model_cport_set(struct vhd_model *m, unsigned int cport, bool on)
{
	if (cport >= GB_VHD_CPORTS_MAX)
		return;
	if (on)
		m->enabled[cport / 8] |= 1u << (cport % 8);
	else
		m->enabled[cport / 8] &= ~(1u << (cport % 8));
}

void vhd_model_reset(struct vhd_model *m)
{
	memset(m, 0, sizeof(*m));
}

void vhd_model_apply(struct vhd_model *m, const uint8_t *buf)
{
	const uint8_t *p = buf + sizeof(struct gb_vhd_event_hdr);

	switch (get_u32(buf)) {
	case GB_VHD_CREATE:
		vhd_model_reset(m);
		m->created = true;
		m->version = get_u32(p);
		m->num_cports = get_u16(p + 4);
		m->mtu = get_u16(p + 6);
		break;
	case GB_VHD_DESTROY:
		vhd_model_reset(m);
		break;
	default:
		break;
	}
}

static int vhd_model_create(const struct vhd_model *m, const uint8_t *p,
			    uint32_t len)
{
	if (m->created || len != sizeof(struct gb_vhd_create))
		return EINVAL;
	if (get_u32(p) < GB_VHD_VERSION || get_u32(p) > GB_VHD_VERSION_MAX ||
	    (get_u32(p + 8) & ~(uint32_t)GB_VHD_CREATE_FLAGS) ||
	    get_u16(p + 4) < 1 || get_u16(p + 4) > GB_VHD_CPORTS_MAX ||
	    get_u16(p + 6) < GB_VHD_MTU_MIN)
		return EINVAL;
	return 0;
}

static int vhd_model_recv(const struct vhd_model *m, const uint8_t *p,
			  uint32_t len)
{
	size_t size;
	uint16_t cport;

	if (!m->created || len < sizeof(struct gb_vhd_message) +
				 sizeof(struct gb_operation_msg_hdr))
		return EINVAL;
	size = len - sizeof(struct gb_vhd_message);
	cport = get_u16(p);
	if (get_u16(p + 2) || cport >= m->num_cports || size > m->mtu)
		return EINVAL;
	if (cport && !vhd_model_cport_enabled(m, cport))
		return EINVAL;
	if (le16toh(get_u16(p + 4)) != size)
		return EINVAL;
	return 0;
}

/*
 * A strobe dated up to a second after our clock reading may be in the
 * past when gb-vhd reads its own: then either answer is right.
 */
static int vhd_model_strobe(const struct vhd_model *m, const uint8_t *p,
			    uint32_t len, bool *either)
{
	struct gb_vhd_strobe s;
	uint64_t now;

	if (!m->created || len != sizeof(s))
		return EINVAL;
	memcpy(&s, p, sizeof(s));
	now = vhdtest_now_ns();
	if (s.timestamp_ns <= now)
		return 0;
	if (s.timestamp_ns - now < 1000000000ULL)
		*either = true;
	return EINVAL;
}

/* The fuzzed hosts have no modules, so no bundle to name */
static int vhd_model_authorize(const struct vhd_model *m, const uint8_t *p,
			       uint32_t len)
{
	if (!m->created || m->version < GB_VHD_VERSION_AUTH ||
	    len != sizeof(struct gb_vhd_authorize) || p[3] > 1)
		return EINVAL;
	if (p[0] == GB_VHD_AUTH_DEFAULT)
		return p[1] || p[2] ? EINVAL : 0;
	if (p[0] == GB_VHD_AUTH_BUNDLE)
		return ENODEV;
	return EINVAL;
}

int vhd_model_expect(const struct vhd_model *m, const uint8_t *buf,
		     size_t count, bool *either)
{
	const size_t hdr = sizeof(struct gb_vhd_event_hdr);
	const uint8_t *p = buf + hdr;
	uint32_t len;

	*either = false;
	if (count < hdr || count > GB_VHD_EVENT_SIZE_MAX)
		return EINVAL;
	len = get_u32(buf + 4);
	if (len != count - hdr)
		return EINVAL;

	switch (get_u32(buf)) {
	case GB_VHD_ECHO_REQUEST:
		return 0;
	case GB_VHD_CREATE:
		return vhd_model_create(m, p, len);
	case GB_VHD_DESTROY:
		return m->created && !len ? 0 : EINVAL;
	case GB_VHD_RECV:
		return vhd_model_recv(m, p, len);
	case GB_VHD_TIMESYNC_STROBE:
		return vhd_model_strobe(m, p, len, either);
	case GB_VHD_AUTHORIZE:
		return vhd_model_authorize(m, p, len);
	default:
		return EINVAL;
	}
}
