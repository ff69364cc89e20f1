// SPDX-License-Identifier: GPL-2.0
/*
 * The ES2 transport: gbsim plays an APBridgeA USB bridge as a functionfs
 * gadget (docs/es2.md).  tp->device is the functionfs mount (default
 * /dev/ffs-es2); the gadget around it (configfs, ids, the UDC) is set up
 * by tests/guest/es2.sh.  Once the descriptors are written, gbsim binds
 * the gadget to the first UDC itself, so that starting gbsim plugs the
 * bridge in and stopping it unplugs it, as with vhd.
 *
 * ep0 (vendor requests, ARPC) runs in the event loop; the three bulk
 * endpoints run on threads (es2-pump.h).  ep1: CPort data to the AP,
 * ep2: ARPC answers, ep3: CPort data from the AP.
 */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>

#include <uapi/greybus/es2.h>

#include "ctl.h"
#include "gb_cli.h"
#include "es2-pump.h"
#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "transport.h"

#define GBSIM_ES2_DEFAULT_FFS		"/dev/ffs-es2"
#define GBSIM_ES2_DEFAULT_GADGET	"/sys/kernel/config/usb_gadget/gb-es2"
#define GBSIM_ES2_GADGET_ENV		"GBSIM_ES2_GADGET"
#define GBSIM_ES2_UDC_DIR		"/sys/class/udc"

struct gbsim_es2 {
	int		ep0, ep[3];
	int		ep_desc[2];	/* ep1, ep2 again, O_NONBLOCK (es2-pump.h) */
	int		rx;		/* loop's end of the reader's socket */
	struct gbsim_es2_pump data_in, arpc_in, data_out;
	char		udc_file[PATH_MAX];	/* written to bind, "" if not */
	bool		enabled;	/* configured by the host */
	bool		lost;
	uint8_t		buf[GB_ES2_MSG_SIZE_MAX];
	uint8_t		ctrl[4096];	/* ep0 data stage */
};

/* Descriptors: one vendor interface, two bulk IN and one bulk OUT */
struct gbsim_es2_speed {
	struct usb_interface_descriptor intf;
	struct usb_endpoint_descriptor_no_audio ep[3];
} __attribute__((packed));

static void gbsim_es2_fill_speed(struct gbsim_es2_speed *s, uint16_t maxp)
{
	static const uint8_t addr[3] = {
		1 | USB_DIR_IN, 2 | USB_DIR_IN, 3 | USB_DIR_OUT,
	};

	s->intf = (struct usb_interface_descriptor){
		.bLength = USB_DT_INTERFACE_SIZE,
		.bDescriptorType = USB_DT_INTERFACE,
		.bNumEndpoints = 3,
		.bInterfaceClass = USB_CLASS_VENDOR_SPEC,
		.iInterface = 1,
	};
	for (int i = 0; i < 3; i++)
		s->ep[i] = (struct usb_endpoint_descriptor_no_audio){
			.bLength = USB_DT_ENDPOINT_SIZE,
			.bDescriptorType = USB_DT_ENDPOINT,
			.bEndpointAddress = addr[i],
			.bmAttributes = USB_ENDPOINT_XFER_BULK,
			.wMaxPacketSize = htole16(maxp),
		};
}

static int gbsim_es2_write_descriptors(int ep0)
{
	struct {
		struct usb_functionfs_descs_head_v2 head;
		__le32 fs_count, hs_count;
		struct gbsim_es2_speed fs, hs;
	} __attribute__((packed)) d = {
		.head = {
			.magic = htole32(FUNCTIONFS_DESCRIPTORS_MAGIC_V2),
			.length = htole32(sizeof(d)),
			.flags = htole32(FUNCTIONFS_HAS_FS_DESC |
					 FUNCTIONFS_HAS_HS_DESC),
		},
		.fs_count = htole32(4),
		.hs_count = htole32(4),
	};
	struct {
		struct usb_functionfs_strings_head head;
		__le16 lang;
		char str[sizeof("APBridgeA")];
	} __attribute__((packed)) s = {
		.head = {
			.magic = htole32(FUNCTIONFS_STRINGS_MAGIC),
			.length = htole32(sizeof(s)),
			.str_count = htole32(1),
			.lang_count = htole32(1),
		},
		.lang = htole16(0x0409),
		.str = "APBridgeA",
	};

	gbsim_es2_fill_speed(&d.fs, 64);
	gbsim_es2_fill_speed(&d.hs, 512);
	if (write(ep0, &d, sizeof(d)) != (ssize_t)sizeof(d))
		return -errno ? -errno : -EIO;
	if (write(ep0, &s, sizeof(s)) != (ssize_t)sizeof(s))
		return -errno ? -errno : -EIO;
	return 0;
}

static void gbsim_es2_lost(struct gbsim_transport *tp, int err)
{
	struct gbsim_es2 *es2 = tp->priv;

	if (es2->lost)
		return;
	es2->lost = true;
	gbsim_host_lost(tp->sim, err);
}

/*
 * The host device gb-es2 registered for us: the newest greybusN behind
 * a USB device (gb-vhd's sit under the misc device).  0 if none.
 */
static uint32_t gbsim_es2_find_bus(void)
{
	char path[PATH_MAX], link[PATH_MAX];
	uint32_t best = 0;
	struct dirent *de;
	unsigned int n;
	DIR *d;
	ssize_t len;

	d = opendir("/sys/bus/greybus/devices");
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (sscanf(de->d_name, "greybus%u", &n) != 1)
			continue;
		snprintf(path, sizeof(path), "/sys/bus/greybus/devices/%s",
			 de->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (strstr(link, "/usb") && n > best)
			best = n;
	}
	closedir(d);
	return best;
}

/*
 * ep0 after a SETUP: an IN request is answered by write() and stalled by
 * read(), an OUT request takes its data by read() and is stalled by
 * write(); a stall "fails" with EL2HLT.
 */
static void gbsim_es2_ctrl_answer(struct gbsim_es2 *es2, const void *data,
				  size_t len)
{
	if (write(es2->ep0, data, len) < 0)
		gbsim_log_warn("es2: ep0 answer of %zu bytes failed: %s", len,
			       strerror(errno));
}

static void gbsim_es2_ctrl_stall(struct gbsim_es2 *es2, bool in,
				 const struct usb_ctrlrequest *req)
{
	ssize_t n;

	gbsim_log_warn("es2: vendor request 0x%02x (type 0x%02x, value %u, length %u) refused",
		       req->bRequest, req->bRequestType, le16toh(req->wValue),
		       le16toh(req->wLength));
	if (in)
		n = read(es2->ep0, es2->ctrl, 0);
	else
		n = write(es2->ep0, es2->ctrl, 0);
	if (n < 0 && errno != EL2HLT)
		gbsim_log_warn("es2: ep0 stall failed: %s", strerror(errno));
}

/*
 * "es2 set arpc_silent=N": the next N ARPC requests are carried out but
 * never answered, as by a bridge whose answer is lost.  Read and written
 * in the event loop only (ep0 and ctl both run there).
 */
static uint64_t gbsim_es2_arpc_silent;

static bool gbsim_es2_knob(const char *tok)
{
	if (!strcmp(tok, "defaults"))
		gbsim_es2_arpc_silent = 0;
	else if (!gbsim_knob_num(tok, "arpc_silent", 1000000, &gbsim_es2_arpc_silent))
		return false;
	return true;
}

int gbsim_cmd_es2(struct gbsim *sim, int argc, char **argv,
		  struct gbsim_ctl_out *out)
{
	(void)sim;
	return gbsim_ctl_set_knobs(out, argc, argv, "es2",
				   "arpc_silent, defaults", gbsim_es2_knob);
}

static int gbsim_es2_arpc_answer(struct gbsim_transport *tp, uint16_t id,
				 uint8_t result)
{
	struct gbsim_es2 *es2 = tp->priv;
	struct gb_es2_arpc_rsp rsp = { .id = htole16(id), .result = result };

	return gbsim_es2_writer_queue(&es2->arpc_in, &rsp, sizeof(rsp));
}

/* One ARPC request: the same cport events gb-vhd reports */
static void gbsim_es2_arpc(struct gbsim_transport *tp, const uint8_t *data,
			   size_t len)
{
	struct gb_es2_arpc_hdr hdr;
	const uint8_t *p = data + sizeof(hdr);
	size_t plen;
	uint8_t result = GB_ES2_ARPC_OK;
	uint16_t cport;
	const char *what;
	uint32_t arg = 0;

	if (len < sizeof(hdr)) {
		gbsim_log_error("es2: %zu-byte arpc request is too short", len);
		return;
	}
	memcpy(&hdr, data, sizeof(hdr));
	plen = len - sizeof(hdr);
	if (le16toh(hdr.size) != len) {
		gbsim_log_error("es2: arpc id %u says %u bytes, got %zu",
				le16toh(hdr.id), le16toh(hdr.size), len);
		result = GB_ES2_ARPC_INVALID;
		goto answer;
	}

	switch (hdr.type) {
	case GB_ES2_ARPC_CPORT_CONNECTED:
		what = "connected";
		break;
	case GB_ES2_ARPC_CPORT_FLUSH:
		what = "flush";
		break;
	case GB_ES2_ARPC_CPORT_CLEAR:
		what = "clear";
		break;
	case GB_ES2_ARPC_CPORT_QUIESCE:
		what = "quiesce";
		break;
	case GB_ES2_ARPC_CPORT_SHUTDOWN:
		what = "shutdown";
		break;
	default:
		gbsim_log_error("es2: unknown arpc type 0x%02x", hdr.type);
		result = GB_ES2_ARPC_INVALID;
		goto answer;
	}
	if (plen < 2 ||
	    (hdr.type == GB_ES2_ARPC_CPORT_QUIESCE && plen < 6) ||
	    (hdr.type == GB_ES2_ARPC_CPORT_SHUTDOWN && plen < 5)) {
		gbsim_log_error("es2: arpc %s with %zu payload bytes", what, plen);
		result = GB_ES2_ARPC_INVALID;
		goto answer;
	}
	cport = (uint16_t)(p[0] | p[1] << 8);
	if (hdr.type == GB_ES2_ARPC_CPORT_QUIESCE)
		arg = (uint32_t)(p[2] | p[3] << 8);	/* peer_space */
	if (hdr.type == GB_ES2_ARPC_CPORT_SHUTDOWN)
		arg = p[4];				/* phase */
	gbsim_host_cport_event(tp->sim, what, cport, arg);

answer:
	if (gbsim_es2_arpc_silent) {
		gbsim_es2_arpc_silent--;
		gbsim_log_info("es2: arpc type 0x%02x id %u left unanswered (arpc_silent)",
			       hdr.type, le16toh(hdr.id));
		return;
	}
	if (gbsim_es2_arpc_answer(tp, le16toh(hdr.id), result))
		gbsim_log_error("es2: arpc answer id %u dropped", le16toh(hdr.id));
}

static void gbsim_es2_setup(struct gbsim_transport *tp,
			    const struct usb_ctrlrequest *req)
{
	struct gbsim_es2 *es2 = tp->priv;
	bool in = req->bRequestType & USB_DIR_IN;
	uint16_t value = le16toh(req->wValue);
	uint16_t length = le16toh(req->wLength);
	struct gb_es2_cport_flags flags;
	ssize_t n;

	if ((req->bRequestType & USB_TYPE_MASK) != USB_TYPE_VENDOR)
		goto stall;

	if (in) {
		switch (req->bRequest) {
		case GB_ES2_REQ_CPORT_COUNT: {
			__le16 count = htole16(tp->num_cports);

			if (length < sizeof(count))
				goto stall;
			gbsim_es2_ctrl_answer(es2, &count, sizeof(count));
			return;
		}
		case GB_ES2_REQ_LOG:
			gbsim_es2_ctrl_answer(es2, es2->ctrl, 0);
			return;
		default:
			goto stall;
		}
	}

	/* OUT: refuse before taking the data, the only way to say no */
	switch (req->bRequest) {
	case GB_ES2_REQ_CPORT_FLAGS:
		if (length != sizeof(flags) || value >= tp->num_cports)
			goto stall;
		break;
	case GB_ES2_REQ_RESET_CPORT:
	case GB_ES2_REQ_LATENCY_TAG_EN:
	case GB_ES2_REQ_LATENCY_TAG_DIS:
		if (length || value >= tp->num_cports)
			goto stall;
		break;
	case GB_ES2_REQ_ARPC_RUN:
		if (length > sizeof(es2->ctrl))
			goto stall;
		break;
	default:
		goto stall;
	}

	n = read(es2->ep0, es2->ctrl, length);
	if (n < 0) {
		gbsim_log_warn("es2: vendor request 0x%02x: data stage failed: %s",
			       req->bRequest, strerror(errno));
		return;
	}

	switch (req->bRequest) {
	case GB_ES2_REQ_CPORT_FLAGS:
		memcpy(&flags, es2->ctrl, sizeof(flags));
		if (value == GB_SVC_CPORT_ID && !tp->sim->host_created)
			gbsim_host_created(tp->sim, gbsim_es2_find_bus());
		gbsim_host_cport_event(tp->sim, "enable", value,
				       le32toh(flags.flags));
		break;
	case GB_ES2_REQ_RESET_CPORT:
		gbsim_host_cport_event(tp->sim, "disable", value, 0);
		break;
	case GB_ES2_REQ_LATENCY_TAG_EN:
	case GB_ES2_REQ_LATENCY_TAG_DIS:
		gbsim_log_event("cport %u latency tag %s", value,
				req->bRequest == GB_ES2_REQ_LATENCY_TAG_EN ?
				"on" : "off");
		break;
	case GB_ES2_REQ_ARPC_RUN:
		gbsim_es2_arpc(tp, es2->ctrl, (size_t)n);
		break;
	}
	return;

stall:
	gbsim_es2_ctrl_stall(es2, in, req);
}

static void gbsim_es2_ep0_ready(struct gbsim_loop *loop, int fd,
				short revents, void *ctx)
{
	struct gbsim_transport *tp = ctx;
	struct gbsim_es2 *es2 = tp->priv;
	struct usb_functionfs_event ev;
	ssize_t n;

	(void)loop;
	if (!(revents & POLLIN)) {
		if (revents & (POLLHUP | POLLERR | POLLNVAL)) {
			gbsim_loop_del_fd(tp->loop, fd);
			gbsim_es2_lost(tp, -EPIPE);
		}
		return;
	}

	/* one at a time: a SETUP must be answered before the next read */
	for (;;) {
		n = read(fd, &ev, sizeof(ev));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EIDRM))
			return;
		if (n != (ssize_t)sizeof(ev)) {
			gbsim_log_error("es2: ep0 read failed: %s",
					n < 0 ? strerror(errno) : "short event");
			gbsim_loop_del_fd(tp->loop, fd);
			gbsim_es2_lost(tp, n < 0 ? -errno : -EIO);
			return;
		}

		switch (ev.type) {
		case FUNCTIONFS_ENABLE:
			gbsim_log_info("es2: configured by the host");
			es2->enabled = true;
			break;
		case FUNCTIONFS_DISABLE:
			/* a reset before the host configured us is no loss */
			if (!es2->enabled)
				break;
			/* fall through */
		case FUNCTIONFS_UNBIND:
			/*
			 * Unbound from the UDC: no host will configure us
			 * again, even if it never did (an unplug during
			 * enumeration).
			 */
			es2->enabled = false;
			gbsim_log_info("es2: %s by the host",
				       ev.type == FUNCTIONFS_DISABLE ?
				       "disabled" : "unbound");
			gbsim_es2_lost(tp, -ENODEV);
			return;
		case FUNCTIONFS_SETUP:
			gbsim_es2_setup(tp, &ev.u.setup);
			break;
		default:
			break;	/* bind, suspend, resume */
		}
	}
}

/* Messages from the AP: one bulk transfer each, CPort id in pad[0] */
static void gbsim_es2_rx_ready(struct gbsim_loop *loop, int fd, short revents,
			       void *ctx)
{
	struct gbsim_transport *tp = ctx;
	struct gbsim_es2 *es2 = tp->priv;
	uint16_t cport;
	ssize_t n;

	(void)loop;
	(void)revents;
	for (;;) {
		n = recv(fd, es2->buf, sizeof(es2->buf), MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		if ((size_t)n < sizeof(struct gb_operation_msg_hdr)) {
			gbsim_log_error("es2: %zd-byte transfer from the AP is shorter than a header: dropped",
					n);
			continue;
		}
		cport = es2->buf[GB_ES2_CPORT_PAD];
		es2->buf[GB_ES2_CPORT_PAD] = 0;
		gbsim_host_message(tp->sim, cport, es2->buf, (size_t)n);
		if (es2->lost)
			return;
	}
}

/* Write the first UDC's name into the gadget's UDC file: plug in. */
static int gbsim_es2_bind(struct gbsim_es2 *es2, char *err, size_t errlen)
{
	const char *gadget = getenv(GBSIM_ES2_GADGET_ENV);
	char name[256] = "";
	struct dirent *de;
	DIR *d;
	int fd, ret = 0;

	if (!gadget || !*gadget)
		gadget = GBSIM_ES2_DEFAULT_GADGET;
	snprintf(es2->udc_file, sizeof(es2->udc_file), "%s/UDC", gadget);
	if (access(es2->udc_file, W_OK)) {
		gbsim_log_info("es2: no %s: leaving the UDC to whoever set up the gadget",
			       es2->udc_file);
		es2->udc_file[0] = '\0';
		return 0;
	}

	d = opendir(GBSIM_ES2_UDC_DIR);
	if (d) {
		while ((de = readdir(d)))
			if (de->d_name[0] != '.') {
				snprintf(name, sizeof(name), "%s", de->d_name);
				break;
			}
		closedir(d);
	}
	if (!name[0]) {
		snprintf(err, errlen, "es2: no UDC in %s (is dummy_hcd loaded?)",
			 GBSIM_ES2_UDC_DIR);
		es2->udc_file[0] = '\0';
		return -ENODEV;
	}

	fd = open(es2->udc_file, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, name, strlen(name)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "es2: cannot bind %s to %s: %s", gadget,
			 name, strerror(errno));
		es2->udc_file[0] = '\0';
	} else {
		gbsim_log_info("es2: gadget %s bound to %s", gadget, name);
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

static void gbsim_es2_unbind(struct gbsim_es2 *es2)
{
	int fd;

	if (!es2->udc_file[0])
		return;
	fd = open(es2->udc_file, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "\n", 1) < 0 && errno != ENODEV)
			gbsim_log_warn("es2: cannot unbind the gadget: %s",
				       strerror(errno));
		close(fd);
	}
	es2->udc_file[0] = '\0';
}

static void gbsim_es2_free(struct gbsim_transport *tp)
{
	struct gbsim_es2 *es2 = tp->priv;

	gbsim_es2_unbind(es2);
	gbsim_es2_pump_stop(&es2->data_in);
	gbsim_es2_pump_stop(&es2->arpc_in);
	gbsim_es2_pump_stop(&es2->data_out);
	if (es2->data_in.failed || es2->arpc_in.failed)
		gbsim_log_info("es2: %lu messages and %lu arpc answers did not reach the AP",
			       es2->data_in.failed, es2->arpc_in.failed);
	if (es2->rx >= 0) {
		gbsim_loop_del_fd(tp->loop, es2->rx);
		close(es2->rx);
	}
	for (int i = 0; i < 3; i++)
		if (es2->ep[i] >= 0)
			close(es2->ep[i]);
	for (int i = 0; i < 2; i++)
		if (es2->ep_desc[i] >= 0)
			close(es2->ep_desc[i]);
	if (es2->ep0 >= 0) {
		gbsim_loop_del_fd(tp->loop, es2->ep0);
		close(es2->ep0);	/* functionfs lets the gadget go */
	}
	free(es2);
	tp->priv = NULL;
	tp->fd = -1;
}

static int gbsim_es2_open(struct gbsim_transport *tp, char *err, size_t errlen)
{
	const char *dir = tp->device;
	char path[PATH_MAX];
	struct gbsim_es2 *es2;
	int ret;

	if (!dir || !strcmp(dir, GBSIM_DEFAULT_DEVICE))
		dir = GBSIM_ES2_DEFAULT_FFS;
	if (gb_path_mismatch(dir, GB_PATH_DIR)) {
		snprintf(err, errlen, "%s: not a directory (es2 needs the functionfs mount)",
			 dir);
		return -ENOTDIR;
	}
	if (tp->mtu > GB_ES2_MSG_SIZE_MAX || tp->num_cports > GB_ES2_CPORTS_MAX) {
		snprintf(err, errlen, "es2: the bridge carries at most %u cports and %u-byte messages (asked %u, %u)",
			 GB_ES2_CPORTS_MAX, GB_ES2_MSG_SIZE_MAX,
			 tp->num_cports, tp->mtu);
		return -EINVAL;
	}

	es2 = calloc(1, sizeof(*es2));
	if (!es2) {
		snprintf(err, errlen, "es2: out of memory");
		return -ENOMEM;
	}
	es2->ep0 = es2->rx = -1;
	es2->ep[0] = es2->ep[1] = es2->ep[2] = -1;
	es2->ep_desc[0] = es2->ep_desc[1] = -1;
	es2->data_in.sock = es2->arpc_in.sock = es2->data_out.sock = -1;
	tp->priv = es2;

	snprintf(path, sizeof(path), "%s/ep0", dir);
	es2->ep0 = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (es2->ep0 < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open %s: %s%s", path,
			 strerror(errno),
			 errno == ENOENT ? " (is the gadget set up? tests/guest/es2.sh)" : "");
		goto err_free;
	}
	ret = gbsim_es2_write_descriptors(es2->ep0);
	if (ret) {
		snprintf(err, errlen, "%s refused the APBridgeA descriptors: %s",
			 path, strerror(-ret));
		goto err_free;
	}
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/ep%d", dir, i + 1);
		es2->ep[i] = open(path, O_RDWR | O_CLOEXEC);
		if (es2->ep[i] < 0) {
			ret = -errno;
			snprintf(err, errlen, "cannot open %s: %s", path,
				 strerror(errno));
			goto err_free;
		}
		if (i == 2)
			break;
		es2->ep_desc[i] = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (es2->ep_desc[i] < 0) {
			ret = -errno;
			snprintf(err, errlen, "cannot open %s again: %s", path,
				 strerror(errno));
			goto err_free;
		}
	}

	ret = gbsim_es2_writer_start(&es2->data_in, es2->ep[0],
				     es2->ep_desc[0], GB_ES2_MSG_SIZE_MAX);
	if (!ret)
		ret = gbsim_es2_writer_start(&es2->arpc_in, es2->ep[1],
					     es2->ep_desc[1],
					     GB_ES2_ARPC_RSP_SIZE_MAX);
	if (!ret) {
		es2->rx = gbsim_es2_reader_start(&es2->data_out, es2->ep[2],
						 GB_ES2_MSG_SIZE_MAX);
		ret = es2->rx < 0 ? es2->rx : 0;
	}
	if (ret) {
		snprintf(err, errlen, "es2: cannot start the endpoint threads: %s",
			 strerror(-ret));
		goto err_free;
	}

	ret = gbsim_loop_add_fd(tp->loop, es2->rx, POLLIN, gbsim_es2_rx_ready, tp);
	if (!ret)
		ret = gbsim_loop_add_fd(tp->loop, es2->ep0, POLLIN,
					gbsim_es2_ep0_ready, tp);
	if (ret) {
		snprintf(err, errlen, "es2: out of memory");
		goto err_free;
	}

	ret = gbsim_es2_bind(es2, err, errlen);
	if (ret)
		goto err_free;
	tp->fd = es2->ep0;
	return 0;

err_free:
	gbsim_es2_free(tp);
	return ret;
}

static int gbsim_es2_send(struct gbsim_transport *tp, uint16_t cport,
			  const void *msg, size_t len)
{
	struct gbsim_es2 *es2 = tp->priv;
	uint8_t buf[GB_ES2_MSG_SIZE_MAX];

	if (es2->lost)
		return -ENODEV;
	if (cport > GB_ES2_CPORTS_MAX)
		return -EINVAL;
	if (len > sizeof(buf))
		return -EMSGSIZE;
	memcpy(buf, msg, len);
	if (len > GB_ES2_CPORT_PAD)
		buf[GB_ES2_CPORT_PAD] = (uint8_t)cport;
	return gbsim_es2_writer_queue(&es2->data_in, buf, len);
}

static void gbsim_es2_close(struct gbsim_transport *tp)
{
	if (tp->priv)
		gbsim_es2_free(tp);
}

const struct gbsim_transport_ops gbsim_es2_transport = {
	.name	= "es2",
	.open	= gbsim_es2_open,
	.send	= gbsim_es2_send,
	.close	= gbsim_es2_close,
};
