/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vhdtest: exercises /dev/greybus-vhd (include/uapi/greybus/vhd.h) from
 * userspace.  One file per subcommand; this header holds what they share.
 */
#ifndef VHDTEST_H
#define VHDTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <uapi/greybus/vhd.h>

/* Host-order fields at any alignment (the vhd ABI is host-endian) */
static inline void put_u16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline void put_u32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline uint16_t get_u16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#define VHDTEST_NAME		"vhdtest"
#define VHDTEST_DEVICE		"/dev/" GB_VHD_DEVICE_NAME

/* Options every subcommand understands */
struct vhdtest_opts {
	const char	*device;
	int		verbose;
};

extern struct vhdtest_opts vhdtest_opts;

/* Exit codes */
#define VHDTEST_EXIT_OK		0
#define VHDTEST_EXIT_FAIL	1	/* a check failed */
#define VHDTEST_EXIT_USAGE	2	/* bad command line */
#define VHDTEST_EXIT_ERROR	3	/* could not run at all */

/* Prints "vhdtest: MSG" (plus ": strerror(err)" when err != 0) to stderr */
void vhdtest_err(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void vhdtest_verbose(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Opens the device with O_RDWR | O_CLOEXEC | @flags; -errno on failure */
int vhd_open(int flags);

/* write(); 0 if all @count bytes went, else -errno (-EIO if short) */
int vhd_write_raw(int fd, const void *buf, size_t count);
/* One event of @type with @len payload bytes; 0 or -errno */
int vhd_write_event(int fd, uint32_t type, const void *payload, size_t len);
int vhd_create(int fd, uint16_t num_cports, uint16_t mtu, uint32_t flags);
/* A RECV of @msg_len message bytes on @cport; header size set to match */
int vhd_recv(int fd, uint16_t cport, const void *msg, size_t msg_len);

/*
 * Reads one event into @buf (@size bytes), waiting up to @timeout_ms
 * (-1: forever, 0: not at all).  Returns its length, or -errno
 * (-ETIMEDOUT when nothing came).
 */
ssize_t vhd_read_event(int fd, void *buf, size_t size, int timeout_ms);
/*
 * Reads the first event, which must be CREATED; returns the bus id, or
 * -errno (-EPROTO for any other event).
 */
long vhd_wait_created(int fd, int timeout_ms);

const char *vhd_event_name(uint32_t type);
/* Describes one to-user event on one line of @out */
void vhd_event_print(FILE *out, const void *ev, size_t len);

/*
 * What one open file of the device has been told: the state docs/vhd.md's
 * rules for a write depend on (model.c).
 */
struct vhd_model {
	bool		created;
	uint32_t	version;	/* CREATE's */
	uint16_t	num_cports;
	uint16_t	mtu;
	uint8_t		enabled[GB_VHD_CPORTS_MAX / 8];
};

/* No host (after DESTROY or close) */
void vhd_model_reset(struct vhd_model *m);
/* Follows a write gb-vhd accepted: CREATE and DESTROY change the state */
void vhd_model_apply(struct vhd_model *m, const uint8_t *buf);
bool vhd_model_cport_enabled(const struct vhd_model *m, unsigned int cport);
void vhd_model_cport_set(struct vhd_model *m, unsigned int cport, bool on);
/*
 * The answer to writing @count bytes of @buf: 0 or a positive errno;
 * *either is set when success would be right too.
 */
int vhd_model_expect(const struct vhd_model *m, const uint8_t *buf,
		     size_t count, bool *either);

/* Monotonic time in nanoseconds */
uint64_t vhdtest_now_ns(void);

/* Reproducible pseudo-random numbers (xorshift64*) */
struct vhdtest_rng {
	uint64_t	state;
};

void vhdtest_rng_seed(struct vhdtest_rng *rng, uint64_t seed);
uint64_t vhdtest_rng_next(struct vhdtest_rng *rng);
/* Uniform in [0, n); n > 0 */
uint32_t vhdtest_rng_below(struct vhdtest_rng *rng, uint32_t n);

/* Parses a whole unsigned number (any base strtoul accepts) into *val */
bool vhdtest_parse_ulong(const char *s, unsigned long max,
			 unsigned long *val);

/*
 * Handles the options every subcommand shares (-d, -v); returns false for
 * any other option character.
 */
bool vhdtest_common_opt(int c, const char *arg);
#define VHDTEST_COMMON_LONGOPTS \
	{ "device",	required_argument,	NULL, 'd' }, \
	{ "verbose",	no_argument,		NULL, 'v' }, \
	{ "help",	no_argument,		NULL, 'h' }
#define VHDTEST_COMMON_SHORTOPTS "d:vh"

/* Subcommands: argc/argv start at the subcommand's name */
int vhdtest_cmd_create(int argc, char **argv);
int vhdtest_cmd_echo(int argc, char **argv);
int vhdtest_cmd_abuse(int argc, char **argv);
int vhdtest_cmd_check(int argc, char **argv);
int vhdtest_cmd_stress(int argc, char **argv);
int vhdtest_cmd_fuzz(int argc, char **argv);
int vhdtest_cmd_batch(int argc, char **argv);

#endif /* VHDTEST_H */
