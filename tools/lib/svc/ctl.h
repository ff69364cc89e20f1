/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control socket: a Unix SOCK_SEQPACKET socket on which `gbsim ctl`
 * (or any client) scripts the network while gbsim runs.  docs/gbsim.md
 * documents the commands; this is the wire format both ends share.
 *
 * Request: one datagram, the command's words, each followed by a NUL
 * byte ("status" NUL, or "remove" NUL "2" NUL).  A datagram without any
 * NUL is split at blanks instead, so a plain-text client works too.
 *
 * Reply: one or more datagrams, each starting with a kind byte:
 *   'D'  output, more datagrams follow
 *   'O'  the last datagram: the command succeeded (output may follow)
 *   'E'  the last datagram: the command failed; an error message follows
 * `log -f` sends 'D' datagrams until the client goes away.
 */
#ifndef GBSIM_CTL_H
#define GBSIM_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GBSIM_CTL_ENV		"GBSIM_CTL"
#define GBSIM_CTL_REQ_MAX	(256 * 1024)	/* largest request datagram */
#define GBSIM_CTL_CHUNK		(32 * 1024)	/* largest reply datagram */
#define GBSIM_CTL_WORDS_MAX	4096

#define GBSIM_CTL_MORE		'D'
#define GBSIM_CTL_OK		'O'
#define GBSIM_CTL_ERR		'E'

struct gbsim;
struct gbsim_ctl;

/* Text a command produces; grows as needed (out of memory: cut) */
struct gbsim_ctl_out {
	char	*p;
	size_t	len, max;
	bool	failed;		/* the command failed: p is the message */
	bool	follow;		/* log -f: keep the client for new lines */
};

void gbsim_ctl_printf(struct gbsim_ctl_out *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Fail the command: out's text becomes this message alone; returns -1 */
int gbsim_ctl_fail(struct gbsim_ctl_out *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A protocol by name ("control") or number; -1 if none */
int gbsim_ctl_protocol(const char *name);
/*
 * An operation type by number or name: "PROTOCOL.OPERATION" sets
 * *protocol (-EXDEV if it was >= 0 and differs), a bare "OPERATION" needs
 * *protocol >= 0.  -ENOENT for names nobody knows.
 */
int gbsim_ctl_op_type(const char *name, int *protocol, uint8_t *type);

/* Run one command (gbsim: ctl-cmd.c); the words are writable */
typedef void (*gbsim_ctl_run_fn)(struct gbsim *sim, int argc, char **argv,
				 struct gbsim_ctl_out *out);
void gbsim_ctl_run(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out);

/*
 * The server (ctl.c): listen at path (stale sockets are replaced); each
 * command goes to run
 */
struct gbsim_ctl *gbsim_ctl_open(struct gbsim *sim, const char *path,
				 gbsim_ctl_run_fn run, char *err,
				 size_t errlen);
/* Close every client, remove the socket */
void gbsim_ctl_close(struct gbsim_ctl *ctl);

/* The fault and faults commands (fault.c) */
/* ctl-pm.c: the "pm" command */
int gbsim_cmd_pm(struct gbsim *sim, int argc, char **argv,
		 struct gbsim_ctl_out *out);
/* ctl-gpio.c: the "gpio" command */
int gbsim_cmd_gpio(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out);
/* ctl-auth.c: the "authorize" command (vhd hosts of ABI version 2) */
int gbsim_cmd_authorize(struct gbsim *sim, int argc, char **argv,
			struct gbsim_ctl_out *out);
/* The connection "IFID:CPORT" (or "svc") names (ctl-cmd.c) */
int gbsim_ctl_target(struct gbsim *sim, const char *word,
		     struct gbsim_ctl_out *out, uint16_t *hd_cport,
		     int *protocol);
/* timesync.c: the "timesync" command */
int gbsim_cmd_timesync(struct gbsim *sim, int argc, char **argv,
		       struct gbsim_ctl_out *out);
int gbsim_fault_cmd(struct gbsim *sim, int argc, char **argv,
		    struct gbsim_ctl_out *out);
/* fuzz.c: the "fuzz" command (mutated answers, unsolicited messages) */
int gbsim_cmd_fuzz(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out);
/* proto-hid.c: the "hid" command (type keys, show the keyboard) */
int gbsim_cmd_hid(struct gbsim *sim, int argc, char **argv,
		  struct gbsim_ctl_out *out);

/*
 * "NAME set KEY=VALUE...": each token to @set, which takes "defaults"
 * too; the error names @keys.  Callers read their environment first.
 */
int gbsim_ctl_set_knobs(struct gbsim_ctl_out *out, int argc, char **argv,
			const char *name, const char *keys,
			bool (*set)(const char *tok));

/* proto-power-supply.c: the "psy" command (lies of the battery) */
int gbsim_cmd_psy(struct gbsim *sim, int argc, char **argv,
		  struct gbsim_ctl_out *out);
/* proto-light.c: the "lights" command (the LED controller's knobs) */
int gbsim_cmd_lights(struct gbsim *sim, int argc, char **argv,
		     struct gbsim_ctl_out *out);
/* hdlc.c: the "hdlc" command (link faults of the serial transport) */
int gbsim_cmd_hdlc(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out);
/* es2.c: the "es2" command (ARPC answers the bridge withholds) */
int gbsim_cmd_es2(struct gbsim *sim, int argc, char **argv,
		  struct gbsim_ctl_out *out);
/* proto-spi.c: the "spi" command (the master config's answer) */
int gbsim_cmd_spi(struct gbsim *sim, int argc, char **argv,
		  struct gbsim_ctl_out *out);

/* node.c: the "tcp" command (TCP node faults) */
int gbsim_cmd_tcp(struct gbsim *sim, int argc, char **argv,
		  struct gbsim_ctl_out *out);

/* proto-sdio.c: the "sdio" command (the card and its switch, knobs) */
int gbsim_cmd_sdio(struct gbsim *sim, int argc, char **argv,
		   struct gbsim_ctl_out *out);

/* Who runs the client: names in messages, the socket's variable, help */
struct gbsim_ctl_client_info {
	const char	*prog;		/* "gbsim" */
	const char	*env;		/* GBSIM_CTL_ENV */
	const char	*default_path;	/* without -s or env; NULL: none */
	void		(*usage)(FILE *out);
};

/* Each command's usage, a line each (gbsim: ctl-cmd.c's table) */
void gbsim_ctl_print_commands(FILE *out);
/* `gbsim ctl ...` (gbsim's ctl-usage.c); argv[0] is "ctl" */
int gbsim_ctl_main(int argc, char **argv);
/* `PROG ctl ...` (ctl-client.c); argv[0] is "ctl" */
int gbsim_ctl_client(const struct gbsim_ctl_client_info *who, int argc,
		     char **argv);


#endif /* GBSIM_CTL_H */
