// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer of the module side (`gbsim ctl fuzz`): while it runs, gbsim
 * lies to the AP.  A share of what gbsim sends on module connections (its
 * answers and its own requests) is mutated on the way out: bytes flipped,
 * payload cut short or grown, a bogus result, a wrong operation id or
 * type, a header whose size lies, a duplicate, nothing at all.  And every
 * few milliseconds a message nobody asked for goes out on a random live
 * connection: requests of random types with random payloads (too short,
 * too long, bogus results, unidirectional or not), responses to
 * operations the AP never started, truncated headers, oversized messages.
 *
 * Every decision comes from one pseudo-random generator seeded by the
 * seed the log names (`INFO fuzz: start seed=...`), so a run is replayed
 * by giving the same seed; what the AP does in between (timing) still
 * decides which message each decision meets.  The run stops after
 * `count` mutated messages (mutations and unsolicited messages together).
 *
 * What gbsim's transport refuses (gb-vhd checks the header and the MTU)
 * is counted as refused: the AP's transport is being tested then, not
 * the core.  Answers of the AP to the unsolicited requests are expected
 * and only logged.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "gbsim.h"
#include "log.h"
#include "loop.h"

#define GBSIM_FUZZ_COUNT_MAX	100000000UL
#define GBSIM_FUZZ_INTERVAL_MAX	10000
#define GBSIM_FUZZ_BURST_MAX	64
#define GBSIM_FUZZ_GROW_MAX	64	/* bytes a grown payload gains */

enum gbsim_fuzz_mut {
	GBSIM_MUT_FLIP,		/* 1..4 payload bytes get random values */
	GBSIM_MUT_RANDOM,	/* the whole payload random */
	GBSIM_MUT_CUT,		/* payload cut short */
	GBSIM_MUT_GROW,		/* random bytes appended */
	GBSIM_MUT_RESULT,	/* a random result, payload kept */
	GBSIM_MUT_ID,		/* a random operation id */
	GBSIM_MUT_TYPE,		/* another type, direction bit kept */
	GBSIM_MUT_TWICE,	/* sent two times */
	GBSIM_MUT_SIZE,		/* header size disagrees with the bytes */
	GBSIM_MUT_DROP,		/* not sent at all */
	GBSIM_MUT_NUM,
};

static const char *const gbsim_fuzz_mut_names[GBSIM_MUT_NUM] = {
	"flip", "random", "cut", "grow", "result", "id", "type", "twice",
	"size", "drop",
};

/* How often each mutation is picked, out of the sum */
static const unsigned int gbsim_fuzz_mut_weight[GBSIM_MUT_NUM] = {
	[GBSIM_MUT_FLIP] = 20, [GBSIM_MUT_RANDOM] = 10, [GBSIM_MUT_CUT] = 15,
	[GBSIM_MUT_GROW] = 10, [GBSIM_MUT_RESULT] = 12, [GBSIM_MUT_ID] = 8,
	[GBSIM_MUT_TYPE] = 8, [GBSIM_MUT_TWICE] = 8, [GBSIM_MUT_SIZE] = 4,
	[GBSIM_MUT_DROP] = 5,
};

enum gbsim_fuzz_uns {
	GBSIM_UNS_REQ,		/* a request of a small (likely known) type */
	GBSIM_UNS_REQ_ANY,	/* a request of any type */
	GBSIM_UNS_RSP,		/* a response to nothing the AP sent */
	GBSIM_UNS_BAD_RESULT,	/* a request with a result set */
	GBSIM_UNS_TRUNC,	/* fewer bytes than a header */
	GBSIM_UNS_SIZE,		/* header size disagrees */
	GBSIM_UNS_HUGE,		/* beyond the MTU */
	GBSIM_UNS_NUM,
};

static const unsigned int gbsim_fuzz_uns_weight[GBSIM_UNS_NUM] = {
	[GBSIM_UNS_REQ] = 45, [GBSIM_UNS_REQ_ANY] = 10, [GBSIM_UNS_RSP] = 20,
	[GBSIM_UNS_BAD_RESULT] = 10, [GBSIM_UNS_TRUNC] = 5,
	[GBSIM_UNS_SIZE] = 5, [GBSIM_UNS_HUGE] = 5,
};

struct gbsim_fuzz {
	struct gbsim_hook hook;
	bool		running;
	uint64_t	seed;
	uint64_t	state;		/* the generator */
	unsigned long	count;		/* stop after this many */
	unsigned int	rate;		/* % of gbsim's messages mutated */
	unsigned int	interval_ms;	/* between bursts of unsolicited ones */
	unsigned int	burst;		/* unsolicited messages a burst */
	int		intf;		/* only this interface, -1: all */
	bool		svc;		/* bridge CPort 0 too */
	uint64_t	timer;
	uint64_t	start_ns, end_ns;
	/* what was done */
	unsigned long	mutated;	/* of gbsim's own messages */
	unsigned long	unsolicited;
	unsigned long	refused;	/* the transport would not take it */
	unsigned long	answers;	/* responses of the AP to ours */
	unsigned long	by_mut[GBSIM_MUT_NUM];
	uint8_t		buf[GB_OPERATION_MSG_SIZE_MAX + GBSIM_FUZZ_GROW_MAX];
};

/* splitmix64: small, fast, and the same sequence everywhere */
static uint64_t gbsim_fuzz_next(struct gbsim_fuzz *fz)
{
	uint64_t z = (fz->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* 0..n-1 (n > 0) */
static uint32_t gbsim_fuzz_below(struct gbsim_fuzz *fz, uint32_t n)
{
	return (uint32_t)(gbsim_fuzz_next(fz) % n);
}

static unsigned int gbsim_fuzz_pick(struct gbsim_fuzz *fz,
				    const unsigned int *weight, unsigned int n)
{
	unsigned int sum = 0, r;

	for (unsigned int i = 0; i < n; i++)
		sum += weight[i];
	r = gbsim_fuzz_below(fz, sum);
	for (unsigned int i = 0; i < n; i++) {
		if (r < weight[i])
			return i;
		r -= weight[i];
	}
	return 0;
}

static void gbsim_fuzz_fill(struct gbsim_fuzz *fz, uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)gbsim_fuzz_next(fz);
}

/*
 * A payload length: mostly small (where the drivers' length checks are),
 * sometimes anything up to max.
 */
static size_t gbsim_fuzz_len(struct gbsim_fuzz *fz, size_t max)
{
	size_t len;

	switch (gbsim_fuzz_below(fz, 8)) {
	case 0:
		len = 0;
		break;
	case 1:
		len = max;
		break;
	case 2:
		len = gbsim_fuzz_below(fz, (uint32_t)max + 1);
		break;
	default:
		len = gbsim_fuzz_below(fz, 33);
		break;
	}
	return len > max ? max : len;
}

/* A random result: mostly the defined ones, sometimes anything */
static uint8_t gbsim_fuzz_result(struct gbsim_fuzz *fz)
{
	if (gbsim_fuzz_below(fz, 4))
		return (uint8_t)(1 + gbsim_fuzz_below(fz, 10));
	return (uint8_t)gbsim_fuzz_next(fz);
}

static void gbsim_fuzz_done(struct gbsim *sim, struct gbsim_fuzz *fz,
			    const char *why)
{
	if (!fz->running)
		return;
	fz->running = false;
	fz->end_ns = gbsim_now_ns();
	if (fz->timer)
		gbsim_loop_cancel_timer(sim->loop, fz->timer);
	fz->timer = 0;
	gbsim_log_info("fuzz: %s: seed=0x%016llx sent=%lu mutated=%lu unsolicited=%lu refused=%lu answers=%lu in %llu ms",
		       why, (unsigned long long)fz->seed,
		       fz->mutated + fz->unsolicited, fz->mutated,
		       fz->unsolicited, fz->refused, fz->answers,
		       (unsigned long long)((fz->end_ns - fz->start_ns) / 1000000));
}

static void gbsim_fuzz_tally(struct gbsim *sim, struct gbsim_fuzz *fz)
{
	if (fz->mutated + fz->unsolicited >= fz->count)
		gbsim_fuzz_done(sim, fz, "done");
}

static bool gbsim_fuzz_wants(struct gbsim *sim, const struct gbsim_fuzz *fz,
			     uint16_t hd_cport)
{
	const struct gbsim_conn *conn;

	if (hd_cport == GB_SVC_CPORT_ID)
		return fz->svc;
	if (hd_cport >= sim->num_cports || !sim->cport_enabled[hd_cport])
		return false;
	conn = sim->conns[hd_cport];
	if (!conn || gbsim_conn_stale(sim, conn))
		return false;
	return fz->intf < 0 || conn->intf_id == fz->intf;
}

static void gbsim_fuzz_inject(struct gbsim *sim, struct gbsim_fuzz *fz,
			      uint16_t hd_cport, const uint8_t *msg,
			      size_t len)
{
	if (gbsim_inject(sim, hd_cport, msg, len))
		fz->refused++;
}

/*
 * A message gbsim is about to send: mutated in place (it may shrink, not
 * grow), or replaced by a copy of our own that is injected instead.
 */
static enum gbsim_hook_action gbsim_fuzz_send(struct gbsim_hook *hook,
					      struct gbsim *sim,
					      struct gbsim_hook_msg *m)
{
	const size_t hlen = sizeof(struct gb_operation_msg_hdr);
	struct gbsim_fuzz *fz = hook->priv;
	size_t plen, n, len;
	unsigned int mut;

	if (!fz->running || m->len < hlen || !gbsim_fuzz_wants(sim, fz, m->hd_cport))
		return GBSIM_HOOK_PASS;
	if (gbsim_fuzz_below(fz, 100) >= fz->rate)
		return GBSIM_HOOK_PASS;
	plen = m->len - hlen;
	mut = gbsim_fuzz_pick(fz, gbsim_fuzz_mut_weight, GBSIM_MUT_NUM);
	if (!plen && mut <= GBSIM_MUT_CUT)
		mut = GBSIM_MUT_GROW;	/* nothing to flip or cut */
	fz->mutated++;
	fz->by_mut[mut]++;

	switch (mut) {
	case GBSIM_MUT_FLIP:
		for (n = 1 + gbsim_fuzz_below(fz, 4); n; n--)
			m->msg[hlen + gbsim_fuzz_below(fz, (uint32_t)plen)] =
				(uint8_t)gbsim_fuzz_next(fz);
		break;
	case GBSIM_MUT_RANDOM:
		gbsim_fuzz_fill(fz, m->msg + hlen, plen);
		break;
	case GBSIM_MUT_CUT:
		m->len = hlen + gbsim_fuzz_below(fz, (uint32_t)plen);
		gbsim_put_le16(m->msg, (uint16_t)m->len);
		break;
	case GBSIM_MUT_GROW:
		n = 1 + gbsim_fuzz_below(fz, GBSIM_FUZZ_GROW_MAX);
		len = m->len + n;
		memcpy(fz->buf, m->msg, m->len);
		gbsim_fuzz_fill(fz, fz->buf + m->len, n);
		gbsim_put_le16(fz->buf, (uint16_t)len);
		gbsim_fuzz_inject(sim, fz, m->hd_cport, fz->buf, len);
		gbsim_fuzz_tally(sim, fz);
		return GBSIM_HOOK_DROP;
	case GBSIM_MUT_RESULT:
		m->msg[5] = gbsim_fuzz_result(fz);
		break;
	case GBSIM_MUT_ID:
		gbsim_put_le16(m->msg + 2, (uint16_t)gbsim_fuzz_next(fz));
		break;
	case GBSIM_MUT_TYPE:
		m->msg[4] = (uint8_t)((m->msg[4] & GB_MSG_TYPE_RESPONSE) |
				      gbsim_fuzz_below(fz, 0x80));
		break;
	case GBSIM_MUT_TWICE:
		m->copies = 2;
		break;
	case GBSIM_MUT_SIZE:
		gbsim_put_le16(m->msg, (uint16_t)(m->len + 1 +
				gbsim_fuzz_below(fz, 16)));
		break;
	case GBSIM_MUT_DROP:
		gbsim_fuzz_tally(sim, fz);
		return GBSIM_HOOK_DROP;
	}
	gbsim_fuzz_tally(sim, fz);
	return GBSIM_HOOK_PASS;
}

/* The live connections the fuzzer may talk on, into hd (at most max) */
static unsigned int gbsim_fuzz_targets(struct gbsim *sim,
				       const struct gbsim_fuzz *fz,
				       uint16_t *hd, unsigned int max)
{
	unsigned int n = 0;

	if (fz->svc && sim->host_created && n < max)
		hd[n++] = GB_SVC_CPORT_ID;
	for (unsigned int i = 1; i < sim->num_cports && n < max; i++)
		if (gbsim_fuzz_wants(sim, fz, (uint16_t)i))
			hd[n++] = (uint16_t)i;
	return n;
}

/* One message nobody asked for, on hd_cport */
static void gbsim_fuzz_unsolicited(struct gbsim *sim, struct gbsim_fuzz *fz,
				   uint16_t hd_cport)
{
	const size_t hlen = sizeof(struct gb_operation_msg_hdr);
	size_t max = sim->mtu - hlen, plen = gbsim_fuzz_len(fz, max), len;
	uint8_t *msg = fz->buf, type, result = 0;
	uint16_t id = (uint16_t)gbsim_fuzz_next(fz);
	unsigned int kind;

	kind = gbsim_fuzz_pick(fz, gbsim_fuzz_uns_weight, GBSIM_UNS_NUM);
	switch (kind) {
	case GBSIM_UNS_REQ:
		type = (uint8_t)(1 + gbsim_fuzz_below(fz, 16));
		break;
	case GBSIM_UNS_BAD_RESULT:
		type = (uint8_t)(1 + gbsim_fuzz_below(fz, 16));
		result = gbsim_fuzz_result(fz);
		break;
	case GBSIM_UNS_RSP:
		type = (uint8_t)(GB_MSG_TYPE_RESPONSE | gbsim_fuzz_below(fz, 0x80));
		result = gbsim_fuzz_below(fz, 2) ? 0 : gbsim_fuzz_result(fz);
		break;
	default:
		type = (uint8_t)gbsim_fuzz_next(fz);
		break;
	}
	if (kind == GBSIM_UNS_HUGE)
		plen = max + 1 + gbsim_fuzz_below(fz, GBSIM_FUZZ_GROW_MAX);
	/* a quarter of the requests expects no answer */
	if (!(type & GB_MSG_TYPE_RESPONSE) && !gbsim_fuzz_below(fz, 4))
		id = GB_OPERATION_ID_NONE;
	len = hlen + plen;
	gbsim_put_le16(msg, (uint16_t)len);
	gbsim_put_le16(msg + 2, id);
	msg[4] = type;
	msg[5] = result;
	msg[6] = msg[7] = 0;
	gbsim_fuzz_fill(fz, msg + hlen, plen);
	if (kind == GBSIM_UNS_TRUNC)
		len = gbsim_fuzz_below(fz, hlen);
	else if (kind == GBSIM_UNS_SIZE)
		gbsim_put_le16(msg, (uint16_t)gbsim_fuzz_next(fz));
	fz->unsolicited++;
	gbsim_fuzz_inject(sim, fz, hd_cport, msg, len);
}

static void gbsim_fuzz_tick(struct gbsim_loop *loop, void *ctx)
{
	struct gbsim *sim = ctx;
	struct gbsim_fuzz *fz = sim->fuzz;
	uint16_t hd[64];
	unsigned int n;

	fz->timer = 0;
	if (!fz->running)
		return;
	n = gbsim_fuzz_targets(sim, fz, hd, sizeof(hd) / sizeof(hd[0]));
	for (unsigned int i = 0; i < fz->burst && n && fz->running; i++) {
		gbsim_fuzz_unsolicited(sim, fz, hd[gbsim_fuzz_below(fz, n)]);
		gbsim_fuzz_tally(sim, fz);
	}
	if (fz->running)
		fz->timer = gbsim_loop_add_timer(loop, fz->interval_ms,
						 gbsim_fuzz_tick, sim);
}

bool gbsim_fuzz_answer(struct gbsim *sim, uint16_t hd_cport,
		       const uint8_t *msg, size_t len)
{
	struct gbsim_fuzz *fz = sim->fuzz;

	if (!fz || (!fz->running && !fz->start_ns))
		return false;
	fz->answers++;
	gbsim_log_from_ap(sim, hd_cport, msg, len,
			  "fuzz: answers nothing gbsim is waiting for");
	return true;
}

void gbsim_fuzz_fini(struct gbsim *sim)
{
	struct gbsim_fuzz *fz = sim->fuzz;

	if (!fz)
		return;
	if (fz->timer)
		gbsim_loop_cancel_timer(sim->loop, fz->timer);
	gbsim_hook_del(sim, &fz->hook);
	free(fz);
	sim->fuzz = NULL;
}

static void gbsim_fuzz_status(const struct gbsim_fuzz *fz,
			      struct gbsim_ctl_out *out)
{
	uint64_t end = fz->running ? gbsim_now_ns() : fz->end_ns;

	if (!fz->start_ns) {
		gbsim_ctl_printf(out, "fuzz running=0 never started\n");
		return;
	}
	gbsim_ctl_printf(out, "fuzz running=%d seed=0x%016llx count=%lu sent=%lu mutated=%lu unsolicited=%lu refused=%lu answers=%lu ms=%llu\n",
			 fz->running, (unsigned long long)fz->seed, fz->count,
			 fz->mutated + fz->unsolicited, fz->mutated,
			 fz->unsolicited, fz->refused, fz->answers,
			 (unsigned long long)((end - fz->start_ns) / 1000000));
	gbsim_ctl_printf(out, "mutations");
	for (unsigned int i = 0; i < GBSIM_MUT_NUM; i++)
		gbsim_ctl_printf(out, " %s=%lu", gbsim_fuzz_mut_names[i],
				 fz->by_mut[i]);
	gbsim_ctl_printf(out, "\n");
}

static int gbsim_fuzz_num(struct gbsim_ctl_out *out, const char *key,
			  const char *val, uint64_t min, uint64_t max,
			  uint64_t *v)
{
	if (gbsim_parse_uint(val, max, v) || *v < min)
		return gbsim_ctl_fail(out, "bad %s '%s' (%llu..%llu)", key, val,
				      (unsigned long long)min,
				      (unsigned long long)max);
	return 0;
}

static int gbsim_fuzz_start(struct gbsim *sim, int argc, char **argv,
			    struct gbsim_ctl_out *out)
{
	struct gbsim_fuzz *fz = sim->fuzz;
	uint64_t seed, count = 10000, rate = 30, interval = 5, burst = 1;
	uint64_t intf = 0;
	bool have_seed = false, have_intf = false, svc = false;

	for (int i = 2; i < argc; i++) {
		const char *w = argv[i], *v = strchr(w, '=');
		size_t k = v ? (size_t)(v - w) : strlen(w);
		int r = 0;

		v = v ? v + 1 : "";
#define KEY(name) (k == sizeof(name) - 1 && !strncmp(w, name, k))
		if (KEY("seed")) {
			r = gbsim_fuzz_num(out, "seed", v, 0, UINT64_MAX, &seed);
			have_seed = true;
		} else if (KEY("count")) {
			r = gbsim_fuzz_num(out, "count", v, 1,
					   GBSIM_FUZZ_COUNT_MAX, &count);
		} else if (KEY("rate")) {
			r = gbsim_fuzz_num(out, "rate", v, 0, 100, &rate);
		} else if (KEY("interval")) {
			r = gbsim_fuzz_num(out, "interval", v, 1,
					   GBSIM_FUZZ_INTERVAL_MAX, &interval);
		} else if (KEY("burst")) {
			r = gbsim_fuzz_num(out, "burst", v, 0,
					   GBSIM_FUZZ_BURST_MAX, &burst);
		} else if (KEY("intf")) {
			r = gbsim_fuzz_num(out, "interface", v, 0,
					   GBSIM_INTF_MAX - 1, &intf);
			have_intf = true;
		} else if (!strcmp(w, "svc")) {
			svc = true;
		} else {
			return gbsim_ctl_fail(out, "unknown word '%s'", w);
		}
#undef KEY
		if (r)
			return -1;
	}
	if (!rate && !burst)
		return gbsim_ctl_fail(out, "rate=0 and burst=0: nothing to do");
	if (fz && fz->running)
		return gbsim_ctl_fail(out, "already running: fuzz stop first");
	if (!have_seed)
		seed = gbsim_now_ns() ^ ((uint64_t)getpid() << 32);

	if (!fz) {
		fz = calloc(1, sizeof(*fz));
		if (!fz)
			return gbsim_ctl_fail(out, "out of memory");
		fz->hook.name = "fuzz";
		fz->hook.send = gbsim_fuzz_send;
		fz->hook.priv = fz;
		gbsim_hook_add(sim, &fz->hook);
		sim->fuzz = fz;
	}
	memset(&fz->mutated, 0, sizeof(*fz) - offsetof(struct gbsim_fuzz, mutated));
	fz->seed = fz->state = seed;
	fz->count = count;
	fz->rate = (unsigned int)rate;
	fz->interval_ms = (unsigned int)interval;
	fz->burst = (unsigned int)burst;
	fz->intf = have_intf ? (int)intf : -1;
	fz->svc = svc;
	fz->start_ns = gbsim_now_ns();
	fz->running = true;
	gbsim_log_info("fuzz: start seed=0x%016llx count=%lu rate=%u%% interval=%u ms burst=%u%s%s",
		       (unsigned long long)seed, fz->count, fz->rate,
		       fz->interval_ms, fz->burst, svc ? " svc" : "",
		       have_intf ? " intf" : "");
	if (fz->burst) {
		fz->timer = gbsim_loop_add_timer(sim->loop, fz->interval_ms,
						 gbsim_fuzz_tick, sim);
		if (!fz->timer) {
			fz->running = false;
			return gbsim_ctl_fail(out, "out of memory");
		}
	}
	gbsim_ctl_printf(out, "seed=0x%016llx\n", (unsigned long long)seed);
	return 0;
}

int gbsim_cmd_fuzz(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out)
{
	const char *sub = argc >= 2 ? argv[1] : "status";

	if (!strcmp(sub, "start"))
		return gbsim_fuzz_start(sim, argc, argv, out);
	if (argc > 2)
		return gbsim_ctl_fail(out, "usage: fuzz start [KEY=VALUE...] | fuzz stop | fuzz [status]");
	if (!strcmp(sub, "stop")) {
		if (sim->fuzz)
			gbsim_fuzz_done(sim, sim->fuzz, "stopped");
	} else if (strcmp(sub, "status")) {
		return gbsim_ctl_fail(out, "usage: fuzz start [KEY=VALUE...] | fuzz stop | fuzz [status]");
	}
	if (sim->fuzz)
		gbsim_fuzz_status(sim->fuzz, out);
	else
		gbsim_ctl_printf(out, "fuzz running=0 never started\n");
	return 0;
}
