// SPDX-License-Identifier: GPL-2.0
/*
 * The serial transport: gbsim plays the MCU at the far end of an
 * HDLC-framed serial link (BeaglePlay's CC1352, a standalone Zephyr node;
 * docs/hdlc.md), the SVC and the bridge, over a tty.  tp->device is the
 * tty; with --pty gbsim opens a pseudo-terminal pair itself, keeps the
 * master and prints the slave's path, and with --attach it also runs
 * `gbattach --foreground SLAVE`, so that starting gbsim plugs the link in
 * and stopping it unplugs it, as with vhd.
 *
 * The AP says SVC_START when its host device is up (the SVC then starts
 * over: version, hello, modules) and SVC_STOP before it goes.  There are
 * no CPort events on this link: every CPort counts as enabled while the
 * host device is up.
 *
 * Link faults ("gbsim ctl hdlc ..."): flip a bit in, or drop, the next
 * frames; ignore the AP's next frames; stop reading (the AP's port
 * fills up); inject garbage, lone flags and escapes, an over-long, a
 * truncated or a mis-sized frame, debug text; split writes; reset; a
 * receive-ring stall (the frame the ring wraps in waits until the AP
 * sends a byte after it).
 *
 * --personality cc1352 behaves as the CC1352 greybus-host firmware does
 * where a host can see it (../shared/transports.md): endo 0x4755, AP
 * interface 1, messages of at most 250 bytes taken (longer frames
 * dropped: "HDLC RX Buffer Overflow") and 254 sent, every DME attribute
 * of every module reading 0x0126, the requests it never answers
 * (TimeSync, eject, power monitor samples) left unanswered, a Zephyr log
 * line of debug text when its SVC starts, the first hello after a boot
 * 5.0 s after SVC_START, silence for ever after a second SVC_START
 * without SVC_STOP (until "gbsim ctl hdlc boot"), and its escape state
 * kept across a flag.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cc1352-rom.h"
#include "ctl.h"
#include "gb_cli.h"
#include "gb_hdlc.h"
#include "gb_pace.h"
#include "gbsim.h"
#include "log.h"
#include "loop.h"
#include "transport.h"

#define GBSIM_HDLC_QUEUE_MAX	4096	/* writes waiting for POLLOUT */
#define GBSIM_HDLC_READ_CHUNK	4096
#define GBSIM_HDLC_ATTACH_WAIT_MS	5000
/* --baud: bytes moved per timer tick at most (5.6 ms at 115200 baud) */
#define GBSIM_HDLC_PACE_CHUNK	64

struct gbsim_hdlc_pending {
	size_t		len;
	struct gbsim_hdlc_pending *next;
	uint8_t		data[];
};

struct gbsim_hdlc {
	struct gb_hdlc_rx rx;
	uint8_t		*rxbuf;
	uint8_t		*txbuf;		/* one encoded frame */
	size_t		txbuf_size;
	struct gbsim_hdlc_pending *head, *tail;
	size_t		queued;
	bool		lost;
	char		slave[64];	/* the pty's other end, "" if none */
	pid_t		attach_pid;
	/* faults */
	unsigned int	flip;		/* frames still to corrupt */
	unsigned int	drop;		/* frames still to drop */
	unsigned int	deaf;		/* frames from the AP still to ignore */
	bool		split;		/* write in random pieces */
	bool		hold;		/* read nothing: the port fills up */
	unsigned int	seed;
	/* --baud: each way's line, and the timers waiting for it (0: none) */
	struct gb_pace	tx_pace, rx_pace;
	uint64_t	tx_timer, rx_timer;
	/* counters */
	unsigned long	rx_frames, rx_bad, tx_frames;
	unsigned long long rx_bytes, tx_bytes;
	/* stall: bytes until the receive ring wraps (0: not armed) */
	size_t		stall_in;
	uint8_t		*held;		/* the frame it wrapped in, so far */
	size_t		held_len;
	bool		held_mid;	/* the wrap came inside a frame */
	bool		held_ended;	/* that frame's closing flag is held */
	bool		cc1352;		/* --personality cc1352 */
	/* cc1352's state */
	bool		booted;		/* a start came since its boot */
	bool		started;	/* its SVC runs: START, no STOP since */
	bool		wedged;		/* silent until it boots again */
	uint64_t	boot_timer;	/* the first hello waits for it */
	bool		esc_last;	/* the AP's previous byte escaped */
	bool		esc_kept;	/* an escape then a flag: still set */
	struct cc1352_rom *rom;		/* its ROM bootloader and flash */
	char		fw_version[CC1352_ROM_VERSION_MAX + 1];	/* "" */
	uint32_t	fw_crc;		/* of the flash it last booted */
};

/* What the CC1352 firmware answers to every DME read */
#define GBSIM_CC1352_DME_VALUE	0x0126
/* Its 256-byte receive block: addr, ctrl, CPort id, message, FCS */
#define GBSIM_CC1352_RX_MAX	250
/* Its transmit buffer has no check: more overflows its stack */
#define GBSIM_CC1352_TX_MAX	254
/* Its SVC waits on itself until a semaphore times out, once per boot */
#define GBSIM_CC1352_BOOT_HELLO_MS	5000
#define GBSIM_HDLC_STALL_DEFAULT	4	/* inside the AP's next frame */
#define GBSIM_HDLC_HELD_MAX	65536
#define GBSIM_CC1352_AP_INTF	1
#define GBSIM_CC1352_ENDO	0x4755

static struct gbsim_hdlc *gbsim_hdlc_of(struct gbsim_transport *tp)
{
	return tp->priv;
}

static void gbsim_hdlc_cancel_timers(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);

	if (h->tx_timer)
		gbsim_loop_cancel_timer(tp->loop, h->tx_timer);
	if (h->rx_timer)
		gbsim_loop_cancel_timer(tp->loop, h->rx_timer);
	if (h->boot_timer)
		gbsim_loop_cancel_timer(tp->loop, h->boot_timer);
	h->tx_timer = h->rx_timer = h->boot_timer = 0;
}

/*
 * What to poll for: input unless the receiving line is paced and waits
 * for its timer, output room while bytes wait for it (not for the line).
 */
static void gbsim_hdlc_events(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	short ev = 0;

	if (h->lost)
		return;
	if (!h->rx_timer && !h->hold)
		ev |= POLLIN;
	if (h->head && !h->tx_timer)
		ev |= POLLOUT;
	gbsim_loop_set_events(tp->loop, tp->fd, ev);
}

/* A timer for when n more bytes may cross a paced line */
static uint64_t gbsim_hdlc_pace_timer(struct gbsim_transport *tp,
				      const struct gb_pace *pace, size_t n,
				      gbsim_timer_cb cb)
{
	uint64_t ns = gb_pace_wait_ns(pace, gbsim_now_ns(), n);
	unsigned int ms = (unsigned int)((ns + 999999) / 1000000);

	return gbsim_loop_add_timer(tp->loop, ms ? ms : 1, cb, tp);
}

static void gbsim_hdlc_lost(struct gbsim_transport *tp, int err)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);

	if (h->lost)
		return;
	h->lost = true;
	gbsim_hdlc_cancel_timers(tp);
	gbsim_loop_del_fd(tp->loop, tp->fd);
	gbsim_host_lost(tp->sim, err);
}

/* Write what can go now; 1 = the rest must wait, 0 = all out, < 0 error */
static int gbsim_hdlc_write_some(struct gbsim_transport *tp,
				 const uint8_t *p, size_t len, size_t *done)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);

	*done = 0;
	while (*done < len) {
		size_t n = len - *done;
		ssize_t w;

		if (h->split && n > 1)
			n = 1 + (size_t)rand_r(&h->seed) % n;
		w = write(tp->fd, p + *done, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 1;
		if (w < 0)
			return -errno;
		*done += (size_t)w;
	}
	return 0;
}

static int gbsim_hdlc_queue(struct gbsim_transport *tp, const uint8_t *p,
			    size_t len)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	struct gbsim_hdlc_pending *q;

	if (h->queued >= GBSIM_HDLC_QUEUE_MAX)
		return -ENOBUFS;
	q = malloc(sizeof(*q) + len);
	if (!q)
		return -ENOMEM;
	q->len = len;
	q->next = NULL;
	memcpy(q->data, p, len);
	if (h->tail)
		h->tail->next = q;
	else
		h->head = q;
	h->tail = q;
	h->queued++;
	return 0;
}

static void gbsim_hdlc_flush(struct gbsim_transport *tp);

/* Bytes to the wire, in order behind whatever waits already */
static int gbsim_hdlc_out(struct gbsim_transport *tp, const uint8_t *p,
			  size_t len)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	size_t done;
	int ret;

	if (h->lost)
		return -ENODEV;
	if (h->head || tp->baud) {
		/* a paced line takes its bytes from the queue only */
		ret = gbsim_hdlc_queue(tp, p, len);
		if (!ret && !h->tx_timer)
			gbsim_hdlc_flush(tp);
		return ret;
	}
	ret = gbsim_hdlc_write_some(tp, p, len, &done);
	h->tx_bytes += done;
	if (ret == 1) {
		ret = gbsim_hdlc_queue(tp, p + done, len - done);
		gbsim_hdlc_events(tp);
	}
	return ret;
}

static void gbsim_hdlc_tx_timer(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_transport *tp = ctx;

	(void)loop;
	gbsim_hdlc_of(tp)->tx_timer = 0;
	if (!gbsim_hdlc_of(tp)->lost)
		gbsim_hdlc_flush(tp);
}

/*
 * The queue to the wire, as far as the port takes it and, with --baud,
 * as far as the line's pace allows; then a timer for the line or
 * POLLOUT for the port.
 */
static void gbsim_hdlc_flush(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	struct gbsim_hdlc_pending *q;
	size_t len, done;
	int ret = 0;

	while ((q = h->head)) {
		len = gb_pace_avail(&h->tx_pace, gbsim_now_ns(), q->len);
		if (!len)
			break;
		ret = gbsim_hdlc_write_some(tp, q->data, len, &done);
		gb_pace_take(&h->tx_pace, done);
		h->tx_bytes += done;
		if (ret >= 0 && done < q->len) {
			memmove(q->data, q->data + done, q->len - done);
			q->len -= done;
			break;
		}
		if (ret < 0)
			gbsim_log_error("hdlc: delayed write of %zu bytes failed: %s",
					q->len, strerror(-ret));
		h->head = q->next;
		if (!h->head)
			h->tail = NULL;
		h->queued--;
		free(q);
	}
	if (!h->head) {
		gb_pace_idle(&h->tx_pace);
	} else if (ret != 1 && tp->baud && !h->tx_timer) {
		/* the line, not the port, holds the rest back */
		len = h->head->len < GBSIM_HDLC_PACE_CHUNK ? h->head->len :
		      GBSIM_HDLC_PACE_CHUNK;
		h->tx_timer = gbsim_hdlc_pace_timer(tp, &h->tx_pace, len,
						    gbsim_hdlc_tx_timer);
	}
	gbsim_hdlc_events(tp);
}

/* One frame: encoded, then subject to the flip and drop faults */
static int gbsim_hdlc_frame(struct gbsim_transport *tp, uint8_t addr,
			    const void *head, size_t head_len,
			    const void *body, size_t body_len)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	size_t n;

	if (h->wedged)
		return 0;	/* cc1352: silent */
	n = gb_hdlc_encode(h->txbuf, h->txbuf_size, addr, GB_HDLC_CTRL_UI,
			   head, head_len, body, body_len);
	if (!n)
		return -EMSGSIZE;
	if (h->drop) {
		h->drop--;
		gbsim_log_info("hdlc: frame of %zu bytes dropped (fault)", n);
		return 0;
	}
	if (h->flip) {
		h->flip--;
		/* the control byte, never a flag or an escape either way */
		h->txbuf[2] ^= 0x04;
		gbsim_log_info("hdlc: bit flipped in a frame of %zu bytes (fault)", n);
	}
	h->tx_frames++;
	return gbsim_hdlc_out(tp, h->txbuf, n);
}

/* The host device the AP attached to our pty, from sysfs; 0 if unknown */
static uint32_t gbsim_hdlc_find_bus(struct gbsim_hdlc *h)
{
	return *h->slave ? gb_hdlc_port_bus(h->slave) : 0;
}

/* The AP's SVC_STOP: the SVC goes down, the modules wait for a start */
static void gbsim_hdlc_svc_stop(struct gbsim *sim)
{
	gbsim_log_event("hdlc: SVC_STOP from the AP");
	sim->host_created = false;
	sim->svc_state = GBSIM_SVC_FAILED;	/* callbacks below see no SVC */
	gbsim_cancel_requests(sim, -1);
	gbsim_conns_purge(sim, -1);
	memset(sim->routes, 0, sizeof(sim->routes));
	memset(sim->device_ids, 0, sizeof(sim->device_ids));
	for (unsigned int id = 0; id < GBSIM_INTF_MAX; id++) {
		if (sim->intfs[id]) {
			gbsim_intf_power_off(sim, sim->intfs[id]);
			sim->intfs[id]->vsys = sim->intfs[id]->refclk = false;
		}
		if (sim->modules[id])
			sim->modules[id]->state = GBSIM_MODULE_PLUGGED;
	}
	memset(sim->cport_enabled, 0, sim->num_cports * sizeof(*sim->cport_enabled));
	sim->svc_state = GBSIM_SVC_DOWN;
}

/* cc1352: every module identifies as 0x0126, whatever its config says */
static void gbsim_hdlc_cc1352_identities(struct gbsim *sim)
{
	for (unsigned int id = 0; id < GBSIM_INTF_MAX; id++) {
		struct gbsim_intf *intf = sim->intfs[id];

		if (!intf)
			continue;
		intf->vid = intf->pid = GBSIM_CC1352_DME_VALUE;
		intf->ddbl1_mfr = intf->ddbl1_prod = GBSIM_CC1352_DME_VALUE;
		intf->serial = (uint64_t)GBSIM_CC1352_DME_VALUE << 32 |
			       GBSIM_CC1352_DME_VALUE;
		gbsim_intf_reset_dme(intf);
	}
}

/* cc1352: the SVC requests the firmware logs and never answers */
static int gbsim_hdlc_cc1352_faults(struct gbsim *sim)
{
	static const char *const silent[] = {
		"0x0d", "0x0e", "0x0f", "0x11", "0x15", "0x16", "0x17",
		"0x18", "0x19", "0x1a",
	};
	struct gbsim_ctl_out out = { 0 };
	char type[16];
	int ret = 0;

	for (size_t i = 0; i < sizeof(silent) / sizeof(silent[0]) && !ret; i++) {
		char *argv[] = { "fault", "add", "intf=svc", type, "drop",
				 "sticky", NULL };

		snprintf(type, sizeof(type), "type=%s", silent[i]);
		ret = gbsim_fault_cmd(sim, 6, argv, &out);
		if (ret || out.failed)
			gbsim_log_error("hdlc: cc1352: %.*s", (int)out.len,
					out.p ? out.p : "");
		out.len = 0;
	}
	free(out.p);
	return ret;
}

/*
 * cc1352: a line of its log as debug text, the way Zephyr prints it:
 * uptime, level in colour (ANSI SGR), module, message, CR LF
 */
static void gbsim_hdlc_cc1352_log(struct gbsim_transport *tp, char level,
				  const char *module, const char *msg)
{
	static uint64_t boot_ns;
	uint64_t now = gbsim_now_ns(), ms;
	const char *colour = level == 'e' ? "\x1b[1;31m" :
			     level == 'w' ? "\x1b[1;33m" : "\x1b[0m";
	const char *name = level == 'e' ? "err" : level == 'w' ? "wrn" : "inf";
	char line[200];
	int n;

	if (!boot_ns)
		boot_ns = now;
	ms = (now - boot_ns) / 1000000;
	n = snprintf(line, sizeof(line),
		     "[%02u:%02u:%02u.%03u,000] %s<%s> %s: %s\x1b[0m\r\n",
		     (unsigned int)(ms / 3600000), (unsigned int)(ms / 60000 % 60),
		     (unsigned int)(ms / 1000 % 60), (unsigned int)(ms % 1000),
		     colour, name, module, msg);
	if (n > 0)
		gbsim_hdlc_frame(tp, GB_HDLC_ADDR_DEBUG, line,
				 (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1,
				 NULL, 0);
}

/* The SVC up for the AP: every CPort enabled, version and hello */
static void gbsim_hdlc_svc_up(struct gbsim_transport *tp)
{
	struct gbsim *sim = tp->sim;

	for (unsigned int i = 0; i < sim->num_cports; i++)
		sim->cport_enabled[i] = true;
	gbsim_host_created(sim, gbsim_hdlc_find_bus(gbsim_hdlc_of(tp)));
}

static void gbsim_hdlc_boot_timer(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_transport *tp = ctx;

	(void)loop;
	gbsim_hdlc_of(tp)->boot_timer = 0;
	gbsim_log_info("hdlc: cc1352: its SVC's semaphore timed out: hello");
	gbsim_hdlc_svc_up(tp);
}

static void gbsim_hdlc_stop(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);

	if (h->boot_timer) {
		gbsim_loop_cancel_timer(tp->loop, h->boot_timer);
		h->boot_timer = 0;
	}
	h->started = false;
	gbsim_hdlc_svc_stop(tp->sim);
}

static void gbsim_hdlc_svc_start(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	struct gbsim *sim = tp->sim;

	gbsim_log_event("hdlc: SVC_START from the AP");
	if (!h->cc1352) {
		if (sim->host_created)
			gbsim_hdlc_svc_stop(sim);	/* the AP started over */
		gbsim_hdlc_svc_up(tp);
		return;
	}
	if (h->started) {
		/* the firmware's SVC start fails inside: it says nothing more */
		gbsim_log_warn("hdlc: cc1352: SVC_START without SVC_STOP: silent until it boots again (gbsim ctl hdlc boot)");
		h->wedged = true;
		return;
	}
	h->started = true;
	gbsim_hdlc_cc1352_identities(sim);
	gbsim_hdlc_cc1352_log(tp, 'i', "greybus_host", "SVC start");
	if (h->fw_version[0]) {
		char line[96];

		snprintf(line, sizeof(line), "firmware %s crc32 %08x",
			 h->fw_version, h->fw_crc);
		gbsim_hdlc_cc1352_log(tp, 'i', "main", line);
	}
	if (!h->booted) {
		h->booted = true;
		gbsim_log_info("hdlc: cc1352: first start since its boot: hello in %u ms",
			       GBSIM_CC1352_BOOT_HELLO_MS);
		h->boot_timer = gbsim_loop_add_timer(tp->loop,
						     GBSIM_CC1352_BOOT_HELLO_MS,
						     gbsim_hdlc_boot_timer, tp);
		return;
	}
	gbsim_hdlc_svc_up(tp);
}

/* cc1352: the chip boots again, the AP's SVC_START still to come */
static void gbsim_hdlc_cc1352_boot(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);

	gbsim_log_event("hdlc: cc1352: the firmware boots");
	gbsim_hdlc_stop(tp);
	h->booted = h->wedged = false;
	h->esc_last = h->esc_kept = false;
	gb_hdlc_rx_reset(&h->rx);
}

/* cc1352: its ROM bootloader's answers go out raw, unframed */
static void gbsim_hdlc_rom_emit(void *ctx, const uint8_t *p, size_t len)
{
	gbsim_hdlc_out(ctx, p, len);
}

/* cc1352: a reset with the backdoor low: the ROM bootloader runs */
static void gbsim_hdlc_rom_enter(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);

	gbsim_log_event("hdlc: cc1352: reset with the backdoor low: ROM bootloader");
	gbsim_hdlc_stop(tp);
	h->wedged = false;
	cc1352_rom_enter(h->rom);
}

/*
 * cc1352: a reset with the backdoor released: the flash boots if it holds
 * an image, else the ROM bootloader runs (TI's ROM does that)
 */
static void gbsim_hdlc_rom_reset(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);

	if (!cc1352_rom_flash_valid(h->rom)) {
		gbsim_log_event("hdlc: cc1352: reset: no valid image in flash: ROM bootloader");
		gbsim_hdlc_stop(tp);
		cc1352_rom_enter(h->rom);
		return;
	}
	h->rom->active = false;
	cc1352_rom_version(h->rom, h->fw_version, sizeof(h->fw_version));
	h->fw_crc = cc1352_bl_crc32(h->rom->flash, CC1352_FLASH_SIZE);
	gbsim_log_event("hdlc: cc1352: boots firmware %s, flash crc32 %08x",
			h->fw_version, h->fw_crc);
	gbsim_hdlc_cc1352_boot(tp);
}

static void gbsim_hdlc_rom_input(struct gbsim_transport *tp,
				 const uint8_t *p, size_t len)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	unsigned long bad = h->rom->bad_packets;

	cc1352_rom_feed(h->rom, p, len);
	if (h->rom->bad_packets != bad)
		gbsim_log_warn("hdlc: cc1352: ROM bootloader: %lu malformed packets from the AP",
			       h->rom->bad_packets - bad);
	if (h->rom->boot) {
		h->rom->boot = false;
		gbsim_hdlc_rom_reset(tp);
	}
}

static void gbsim_hdlc_dispatch(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	const uint8_t *f = h->rx.buf;
	size_t plen = h->rx.len - 2;

	h->rx_frames++;
	if (h->deaf) {
		h->deaf--;
		gbsim_log_info("hdlc: frame of %zu bytes from the AP ignored (fault)",
			       plen);
		return;
	}
	switch (f[0]) {
	case GB_HDLC_ADDR_GREYBUS:
		if (plen < GB_HDLC_CPORT_SIZE) {
			gbsim_log_error("hdlc: %zu-byte Greybus frame ignored", plen);
			return;
		}
		gbsim_host_message(tp->sim, (uint16_t)(f[2] | f[3] << 8), f + 4,
				   plen - GB_HDLC_CPORT_SIZE);
		return;
	case GB_HDLC_ADDR_CONTROL:
		if (plen == 1 && f[2] == GB_HDLC_CONTROL_SVC_START) {
			gbsim_hdlc_svc_start(tp);
			return;
		}
		if (plen == 1 && f[2] == GB_HDLC_CONTROL_SVC_STOP) {
			gbsim_hdlc_stop(tp);
			return;
		}
		gbsim_log_warn("hdlc: unknown control frame (%zu bytes, 0x%02x)",
			       plen, plen ? f[2] : 0);
		return;
	default:
		gbsim_log_warn("hdlc: frame for address 0x%02x (%zu bytes) ignored",
			       f[0], plen);
	}
}

/*
 * cc1352: its escape state survives a flag, so after an escape and a
 * flag (an abort) the next byte that is not a flag is taken as escaped.
 * The shared decoder clears the state at the flag: do it for it here.
 */
static void gbsim_hdlc_cc1352_escapes(struct gbsim_hdlc *h, uint8_t *p,
				      size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (p[i] == GB_HDLC_FLAG) {
			if (h->esc_last) {
				h->esc_kept = true;
				h->esc_last = false;
			}
		} else if (h->esc_kept) {
			p[i] ^= GB_HDLC_ESCAPE_XOR;
			h->esc_kept = false;
		} else if (h->esc_last) {
			h->esc_last = false;
		} else if (p[i] == GB_HDLC_ESCAPE) {
			h->esc_last = true;
		}
	}
}

static void gbsim_hdlc_input(struct gbsim_transport *tp, uint8_t *p,
			     size_t len)
{
	static const char *const what[] = {
		[GB_HDLC_RX_BAD_FCS] = "bad FCS",
		[GB_HDLC_RX_ABORT] = "aborted",
		[GB_HDLC_RX_OVERSIZE] = "oversized",
		[GB_HDLC_RX_SHORT] = "short",
	};
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	enum gb_hdlc_rx_result r;
	size_t used;

	if (h->rom && h->rom->active) {
		gbsim_hdlc_rom_input(tp, p, len);
		return;
	}
	if (h->wedged)
		return;
	if (h->cc1352)
		gbsim_hdlc_cc1352_escapes(h, p, len);
	while (len && !h->lost) {
		r = gb_hdlc_rx_feed(&h->rx, p, len, &used);
		p += used;
		len -= used;
		if (r == GB_HDLC_RX_FRAME) {
			gbsim_hdlc_dispatch(tp);
		} else if (r == GB_HDLC_RX_OVERSIZE && h->cc1352) {
			h->rx_bad++;
			gbsim_log_warn("hdlc: cc1352: HDLC RX Buffer Overflow: frame dropped");
			gbsim_hdlc_cc1352_log(tp, 'e', "hdlc_rx",
					      "HDLC RX Buffer Overflow");
		} else if (r != GB_HDLC_RX_MORE) {
			h->rx_bad++;
			gbsim_log_warn("hdlc: %s frame from the AP dropped", what[r]);
		}
	}
}

static void gbsim_hdlc_release(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	uint8_t *held = h->held;

	gbsim_log_info("hdlc: ring: %zu held bytes released by a later byte",
		       h->held_len);
	h->held = NULL;
	gbsim_hdlc_input(tp, held, h->held_len);
	free(held);
	h->held_len = 0;
}

/*
 * Bytes from the AP through the receive ring: with the stall fault armed,
 * the frame the ring wraps in waits there, its closing flag included,
 * until a byte after it arrives (the firmware's ring does that to 2 of 7
 * wraps; ../shared/transports.md).
 */
static void gbsim_hdlc_ring(struct gbsim_transport *tp, uint8_t *p, size_t len)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	size_t i;

	if (h->held) {
		for (i = 0; i < len && !h->held_ended; i++) {
			if (h->held_len < GBSIM_HDLC_HELD_MAX)
				h->held[h->held_len++] = p[i];
			/* the flag that ends a frame, not idle fill */
			if (p[i] == GB_HDLC_FLAG &&
			    (h->held_mid || (h->held_len > 1 &&
			     h->held[h->held_len - 2] != GB_HDLC_FLAG)))
				h->held_ended = true;
		}
		p += i;
		len -= i;
		if (!len)
			return;
		gbsim_hdlc_release(tp);
	}
	if (!h->stall_in || len <= h->stall_in) {
		h->stall_in -= h->stall_in ? len : 0;
		gbsim_hdlc_input(tp, p, len);
		return;
	}
	i = h->stall_in;
	h->stall_in = 0;
	gbsim_hdlc_input(tp, p, i);
	h->held = malloc(GBSIM_HDLC_HELD_MAX);
	if (!h->held) {
		gbsim_hdlc_input(tp, p + i, len - i);
		return;
	}
	h->held_len = 0;
	h->held_ended = false;
	h->held_mid = h->rx.len || h->rx.escape;
	gbsim_log_info("hdlc: ring: wrap %s a frame: held until the AP sends more",
		       h->held_mid ? "inside" : "before");
	gbsim_hdlc_ring(tp, p + i, len - i);
}

static void gbsim_hdlc_rx_timer(struct gbsim_loop *loop, void *ctx);

/*
 * What the port has, as far as the line's pace allows with --baud; the
 * rest waits in the port (whose writer then finds less room) until the
 * timer says the line has carried more.
 */
static void gbsim_hdlc_receive(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	uint8_t buf[GBSIM_HDLC_READ_CHUNK];
	size_t want;
	int waiting;
	ssize_t n;

	for (;;) {
		want = gb_pace_avail(&h->rx_pace, gbsim_now_ns(), sizeof(buf));
		if (!want) {
			/* wake when what waits has crossed, a chunk at most */
			if (ioctl(tp->fd, FIONREAD, &waiting) || waiting < 1)
				waiting = 1;
			if (waiting > GBSIM_HDLC_PACE_CHUNK)
				waiting = GBSIM_HDLC_PACE_CHUNK;
			h->rx_timer = gbsim_hdlc_pace_timer(tp, &h->rx_pace,
							    (size_t)waiting,
							    gbsim_hdlc_rx_timer);
			break;
		}
		n = read(tp->fd, buf, want);
		if (n < 0 && errno == EINTR)
			continue;
		/* a pty master reads EIO while no one has the slave open */
		if ((n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) ||
		    (n < 0 && errno == EIO && h->slave[0])) {
			gb_pace_idle(&h->rx_pace);
			break;
		}
		if (n <= 0) {
			gbsim_hdlc_lost(tp, n < 0 ? -errno : -EPIPE);
			return;
		}
		gb_pace_take(&h->rx_pace, (size_t)n);
		h->rx_bytes += (size_t)n;
		gbsim_hdlc_ring(tp, buf, (size_t)n);
		if (h->lost)
			return;
	}
	gbsim_hdlc_events(tp);
}

static void gbsim_hdlc_rx_timer(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim_transport *tp = ctx;

	(void)loop;
	gbsim_hdlc_of(tp)->rx_timer = 0;
	if (!gbsim_hdlc_of(tp)->lost)
		gbsim_hdlc_receive(tp);
}

static void gbsim_hdlc_ready(struct gbsim_loop *loop, int fd, short revents,
			     void *ctx)
{
	struct gbsim_transport *tp = ctx;

	(void)loop;
	(void)fd;
	if (revents & POLLOUT)
		gbsim_hdlc_flush(tp);
	if (gbsim_hdlc_of(tp)->lost)
		return;
	if (revents & POLLIN) {
		gbsim_hdlc_receive(tp);
	} else if (revents & (POLLERR | POLLNVAL)) {
		gbsim_hdlc_lost(tp, -EPIPE);
	} else if (revents & POLLHUP) {
		/* pty: the slave side closed; wait a little, it may come back */
		if (!gbsim_hdlc_of(tp)->slave[0])
			gbsim_hdlc_lost(tp, -EPIPE);
		else
			usleep(10000);
	}
}

static int gbsim_hdlc_open_pty(struct gbsim_transport *tp, char *err,
			       size_t errlen)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	struct termios t;
	int fd;

	fd = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || grantpt(fd) || unlockpt(fd) ||
	    ptsname_r(fd, h->slave, sizeof(h->slave))) {
		snprintf(err, errlen, "hdlc: cannot open a pty: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	/* raw at once: no echo of our frames before gbattach takes over */
	if (!tcgetattr(fd, &t)) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	tp->fd = fd;
	printf("pty %s\n", h->slave);
	fflush(stdout);
	gbsim_log_info("hdlc: pty %s", h->slave);
	return 0;
}

static int gbsim_hdlc_open_tty(struct gbsim_transport *tp, char *err,
			       size_t errlen)
{
	struct termios t;

	const char *why;

	/*
	 * Only a tty is a serial port: anything else is refused before it is
	 * opened (a character device), or before a byte goes to it (one that
	 * is not a tty), so that a wrong -d never writes frames into a file.
	 */
	if (tp->fd < 0) {
		why = gb_path_mismatch(tp->device, GB_PATH_CHRDEV);
		if (why) {
			snprintf(err, errlen, "%s: %s (hdlc needs the serial port, a tty)",
				 tp->device, why);
			return -ENOTTY;
		}
		tp->fd = open(tp->device, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (tp->fd < 0) {
			snprintf(err, errlen, "cannot open %s: %s", tp->device,
				 strerror(errno));
			return -errno;
		}
	}
	if (tcgetattr(tp->fd, &t)) {
		snprintf(err, errlen, "%s: not a tty (hdlc needs the serial port)",
			 tp->device ? tp->device : "the descriptor");
		return -ENOTTY;
	}
	cfmakeraw(&t);
	cfsetspeed(&t, B115200);
	tcsetattr(tp->fd, TCSANOW, &t);
	return 0;
}

static void gbsim_hdlc_attach(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		gbsim_log_error("hdlc: cannot start gbattach: %s", strerror(errno));
		return;
	}
	if (!pid) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execlp("gbattach", "gbattach", "--foreground", h->slave,
		       (char *)NULL);
		fprintf(stderr, "gbsim: cannot run gbattach: %s\n", strerror(errno));
		_exit(127);
	}
	h->attach_pid = pid;
	gbsim_log_info("hdlc: gbattach --foreground %s (pid %d)", h->slave, (int)pid);
}

static int gbsim_hdlc_open(struct gbsim_transport *tp, char *err, size_t errlen)
{
	struct gbsim_hdlc *h;
	int ret;

	h = calloc(1, sizeof(*h));
	if (!h) {
		snprintf(err, errlen, "hdlc: out of memory");
		return -ENOMEM;
	}
	if (tp->personality && !strcmp(tp->personality, "cc1352")) {
		h->cc1352 = true;
		tp->mtu = GBSIM_CC1352_RX_MAX;
		tp->sim->mtu = GBSIM_CC1352_TX_MAX;
		tp->sim->endo_id = GBSIM_CC1352_ENDO;
		tp->sim->ap_intf_id = GBSIM_CC1352_AP_INTF;
		if (gbsim_hdlc_cc1352_faults(tp->sim)) {
			snprintf(err, errlen, "hdlc: cc1352: cannot set up its silences");
			free(h);
			return -EINVAL;
		}
		h->rom = calloc(1, sizeof(*h->rom));
		if (!h->rom) {
			snprintf(err, errlen, "hdlc: out of memory");
			free(h);
			return -ENOMEM;
		}
		h->rom->emit = gbsim_hdlc_rom_emit;
		h->rom->ctx = tp;
		cc1352_rom_init(h->rom);
		/* the firmware it runs, as far as its bootloader can tell */
		cc1352_rom_make_image(h->rom->flash, "factory");
		gbsim_log_info("hdlc: personality cc1352");
	} else if (tp->personality && strcmp(tp->personality, "full")) {
		snprintf(err, errlen, "hdlc: unknown personality '%s' (full, cc1352)",
			 tp->personality);
		free(h);
		return -EINVAL;
	}
	/* what the AP may send: a message of up to our MTU, and a CPort id */
	h->rx.size = GB_HDLC_OVERHEAD + GB_HDLC_CPORT_SIZE + tp->mtu;
	h->rxbuf = malloc(h->rx.size);
	/* room for the oversized-frame fault too */
	h->txbuf_size = GB_HDLC_ENCODED_MAX(GB_HDLC_CPORT_SIZE + tp->mtu + 64);
	h->txbuf = malloc(h->txbuf_size);
	h->seed = (unsigned int)time(NULL);
	tp->priv = h;
	if (!h->rxbuf || !h->txbuf) {
		snprintf(err, errlen, "hdlc: out of memory");
		ret = -ENOMEM;
		goto err_free;
	}
	h->rx.buf = h->rxbuf;
	gb_hdlc_rx_reset(&h->rx);
	gb_pace_init(&h->tx_pace, tp->baud, gbsim_now_ns());
	gb_pace_init(&h->rx_pace, tp->baud, gbsim_now_ns());
	if (tp->baud)
		gbsim_log_info("hdlc: paced at %u baud (%u bytes/s each way)",
			       tp->baud, tp->baud / 10);

	if (tp->pty)
		ret = gbsim_hdlc_open_pty(tp, err, errlen);
	else
		ret = gbsim_hdlc_open_tty(tp, err, errlen);
	if (ret)
		goto err_free;

	ret = gbsim_loop_add_fd(tp->loop, tp->fd, POLLIN, gbsim_hdlc_ready, tp);
	if (ret) {
		snprintf(err, errlen, "hdlc: out of memory");
		close(tp->fd);
		tp->fd = -1;
		goto err_free;
	}
	if (tp->attach && h->slave[0])
		gbsim_hdlc_attach(tp);
	return 0;

err_free:
	free(h->rxbuf);
	free(h->txbuf);
	free(h);
	tp->priv = NULL;
	return ret;
}

static int gbsim_hdlc_send(struct gbsim_transport *tp, uint16_t cport,
			   const void *msg, size_t len)
{
	uint8_t id[GB_HDLC_CPORT_SIZE] = { (uint8_t)cport, (uint8_t)(cport >> 8) };

	if (gbsim_hdlc_of(tp)->cc1352 && len > GBSIM_CC1352_TX_MAX) {
		gbsim_log_error("hdlc: cc1352: a %zu-byte message would overflow the firmware's stack: not sent",
				len);
		return -EMSGSIZE;
	}
	return gbsim_hdlc_frame(tp, GB_HDLC_ADDR_GREYBUS, id, sizeof(id), msg,
				len);
}

/* Stop gbattach (it detaches the discipline), waiting a bounded time */
static void gbsim_hdlc_detach(struct gbsim_hdlc *h)
{
	int status, waited = 0;

	if (h->attach_pid <= 0)
		return;
	kill(h->attach_pid, SIGTERM);
	while (waitpid(h->attach_pid, &status, WNOHANG) == 0) {
		if (waited >= GBSIM_HDLC_ATTACH_WAIT_MS) {
			gbsim_log_error("hdlc: gbattach still running after %d ms: killed",
					waited);
			kill(h->attach_pid, SIGKILL);
			waitpid(h->attach_pid, &status, 0);
			break;
		}
		usleep(10000);
		waited += 10;
	}
	h->attach_pid = 0;
}

static void gbsim_hdlc_close(struct gbsim_transport *tp)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	struct gbsim_hdlc_pending *q;

	if (!h)
		return;
	gbsim_hdlc_detach(h);
	gbsim_hdlc_cancel_timers(tp);
	if (tp->fd >= 0) {
		gbsim_loop_del_fd(tp->loop, tp->fd);
		close(tp->fd);
		tp->fd = -1;
	}
	while ((q = h->head)) {
		h->head = q->next;
		free(q);
	}
	free(h->held);
	free(h->rom);
	free(h->rxbuf);
	free(h->txbuf);
	free(h);
	tp->priv = NULL;
}

const struct gbsim_transport_ops gbsim_hdlc_transport = {
	.name	= "hdlc",
	.open	= gbsim_hdlc_open,
	.send	= gbsim_hdlc_send,
	.close	= gbsim_hdlc_close,
};

/* ---- gbsim ctl hdlc ---------------------------------------------------- */

static int gbsim_hdlc_raw(struct gbsim_transport *tp, const uint8_t *p,
			  size_t len)
{
	return gbsim_hdlc_out(tp, p, len);
}

static int gbsim_hdlc_count(int argc, char **argv, unsigned int def,
			    unsigned int max, unsigned int *n,
			    struct gbsim_ctl_out *out)
{
	uint64_t v;

	*n = def;
	if (argc < 3)
		return 0;
	if (gbsim_parse_uint(argv[2], max, &v)) {
		gbsim_ctl_fail(out, "hdlc %s: bad count '%.32s' (0..%u)", argv[1],
			       argv[2], max);
		return -EINVAL;
	}
	*n = (unsigned int)v;
	return 0;
}

/*
 * hdlc rom: the cc1352's ROM bootloader.  The case reads the reset and
 * backdoor lines (the guest's GPIOs) and says what the chip saw:
 * "bootloader" (a reset with the backdoor low), "reset" (one without);
 * "fault CMD KIND" arms a fault for the next CMD (or "any"); alone,
 * its state and the firmware it last booted.
 */
static int gbsim_hdlc_rom_ctl(struct gbsim_transport *tp, int argc,
			      char **argv, struct gbsim_ctl_out *out)
{
	struct gbsim_hdlc *h = gbsim_hdlc_of(tp);
	struct cc1352_rom *rom = h->rom;

	if (!rom) {
		gbsim_ctl_fail(out, "hdlc rom: only the cc1352 personality has one");
		return -EINVAL;
	}
	if (argc < 2) {
		gbsim_ctl_printf(out, "mode=%s synced=%d commands=%lu bad_packets=%lu data_bytes=%lu fault=%s firmware=%s crc32=%08x flash_valid=%d\n",
				 rom->active ? "bootloader" : "firmware",
				 rom->synced, rom->commands, rom->bad_packets,
				 rom->data_bytes, cc1352_rom_fault_name(rom->fault),
				 h->fw_version[0] ? h->fw_version : "-",
				 h->fw_crc, cc1352_rom_flash_valid(rom));
		return 0;
	}
	if (!strcmp(argv[1], "bootloader")) {
		gbsim_hdlc_rom_enter(tp);
	} else if (!strcmp(argv[1], "reset")) {
		gbsim_hdlc_rom_reset(tp);
	} else if (!strcmp(argv[1], "fault")) {
		enum cc1352_rom_fault f;
		uint8_t cmd;

		if (argc != 4 || cc1352_rom_cmd_parse(argv[2], &cmd) ||
		    cc1352_rom_fault_parse(argv[3], &f)) {
			gbsim_ctl_fail(out, "hdlc rom fault CMD KIND: CMD any|ping|download|get_status|send_data|reset|crc32|bank_erase, KIND none|nack|silent|status|reset|corrupt|garbage");
			return -EINVAL;
		}
		rom->fault_cmd = cmd;
		rom->fault = f;
	} else {
		gbsim_ctl_fail(out, "hdlc rom: unknown subcommand '%.32s'", argv[1]);
		return -EINVAL;
	}
	return 0;
}

int gbsim_cmd_hdlc(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out)
{
	struct gbsim_transport *tp = sim->tp;
	struct gbsim_hdlc *h;
	uint8_t buf[512];
	unsigned int n;
	int ret = 0;

	if (!tp || tp->ops != &gbsim_hdlc_transport || !tp->priv) {
		gbsim_ctl_fail(out, "hdlc: not running over the hdlc transport");
		return -ENODEV;
	}
	h = gbsim_hdlc_of(tp);
	if (argc < 2) {
		gbsim_ctl_printf(out, "rx_frames=%lu rx_bad=%lu tx_frames=%lu rx_bytes=%llu tx_bytes=%llu baud=%u flip=%u drop=%u split=%d held=%zu wedged=%d pty=%s\n",
				 h->rx_frames, h->rx_bad, h->tx_frames,
				 h->rx_bytes, h->tx_bytes, tp->baud, h->flip,
				 h->drop, h->split, h->held ? h->held_len : 0,
				 h->wedged, h->slave[0] ? h->slave : "-");
		return 0;
	}
	if (!strcmp(argv[1], "flip")) {
		ret = gbsim_hdlc_count(argc, argv, 1, 1000000, &h->flip, out);
	} else if (!strcmp(argv[1], "drop")) {
		ret = gbsim_hdlc_count(argc, argv, 1, 1000000, &h->drop, out);
	} else if (!strcmp(argv[1], "deaf")) {
		ret = gbsim_hdlc_count(argc, argv, 1, 1000000, &h->deaf, out);
	} else if (!strcmp(argv[1], "split")) {
		h->split = argc < 3 || strcmp(argv[2], "off");
	} else if (!strcmp(argv[1], "hold")) {
		h->hold = argc < 3 || strcmp(argv[2], "off");
		gbsim_hdlc_events(tp);
	} else if (!strcmp(argv[1], "garbage")) {
		/* random bytes, no flag among them, then a flag: one bad frame */
		ret = gbsim_hdlc_count(argc, argv, 64, sizeof(buf) - 1, &n, out);
		if (ret)
			return ret;
		for (unsigned int i = 0; i < n; i++) {
			buf[i] = (uint8_t)rand_r(&h->seed);
			if (buf[i] == GB_HDLC_FLAG)
				buf[i] = 0x55;
		}
		buf[n] = GB_HDLC_FLAG;
		ret = gbsim_hdlc_raw(tp, buf, n + 1);
	} else if (!strcmp(argv[1], "noise")) {
		/* idle flags, a lone escape before a flag (an abort), flags */
		static const uint8_t noise[] = { 0x7e, 0x7e, 0x7e, 0x7d, 0x7e,
						 0x7e, 0x7e };

		ret = gbsim_hdlc_raw(tp, noise, sizeof(noise));
	} else if (!strcmp(argv[1], "oversize")) {
		/* a well-formed Greybus frame 64 bytes over our MTU */
		size_t len = tp->mtu + 64;

		if (len > sizeof(buf))
			len = sizeof(buf);
		memset(buf, 0, len);
		buf[0] = (uint8_t)len;
		buf[1] = (uint8_t)(len >> 8);
		ret = gbsim_hdlc_frame(tp, GB_HDLC_ADDR_GREYBUS,
				       (const uint8_t[]){ 0, 0 }, 2, buf, len);
	} else if (!strcmp(argv[1], "truncated")) {
		/* a Greybus frame with half a header */
		ret = gbsim_hdlc_frame(tp, GB_HDLC_ADDR_GREYBUS,
				       (const uint8_t[]){ 0, 0 }, 2,
				       (const uint8_t[]){ 8, 0, 1, 0 }, 4);
	} else if (!strcmp(argv[1], "badsize")) {
		/* a header saying 12 bytes on a frame of 8 */
		ret = gbsim_hdlc_frame(tp, GB_HDLC_ADDR_GREYBUS,
				       (const uint8_t[]){ 0, 0 }, 2,
				       (const uint8_t[]){ 12, 0, 0, 0, 0x02, 0, 0, 0 }, 8);
	} else if (!strcmp(argv[1], "badcport")) {
		/* a valid message on a CPort the bridge does not have */
		ret = gbsim_hdlc_frame(tp, GB_HDLC_ADDR_GREYBUS,
				       (const uint8_t[]){ 0xff, 0x0f }, 2,
				       (const uint8_t[]){ 8, 0, 0, 0, 0x02, 0, 0, 0 }, 8);
	} else if (!strcmp(argv[1], "debug")) {
		const char *text = argc > 2 ? argv[2] : "gbsim debug text";

		ret = gbsim_hdlc_frame(tp, GB_HDLC_ADDR_DEBUG, text, strlen(text),
				       NULL, 0);
	} else if (!strcmp(argv[1], "address")) {
		/* a frame for an address nobody serves */
		ret = gbsim_hdlc_frame(tp, 0x42, "?", 1, NULL, 0);
	} else if (!strcmp(argv[1], "reset")) {
		/* the MCU starts over: a new version and hello */
		gbsim_svc_reset(sim);
	} else if (!strcmp(argv[1], "stall")) {
		/* the receive ring wraps N bytes into what the AP sends next */
		ret = gbsim_hdlc_count(argc, argv, GBSIM_HDLC_STALL_DEFAULT,
				       1000000, &n, out);
		if (!ret)
			h->stall_in = n ? n : 1;
	} else if (!strcmp(argv[1], "rom")) {
		ret = gbsim_hdlc_rom_ctl(tp, argc - 1, argv + 1, out);
	} else if (!strcmp(argv[1], "boot")) {
		if (!h->cc1352) {
			gbsim_ctl_fail(out, "hdlc boot: only the cc1352 personality boots");
			return -EINVAL;
		}
		gbsim_hdlc_cc1352_boot(tp);
	} else {
		gbsim_ctl_fail(out, "hdlc: unknown subcommand '%.32s'", argv[1]);
		return -EINVAL;
	}
	if (ret && !out->failed)
		gbsim_ctl_fail(out, "hdlc %s: %s", argv[1], strerror(-ret));
	return ret;
}
