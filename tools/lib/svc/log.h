/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gbsim's message log: one line per message seen or sent, and per
 * host-device event.  docs/gbsim.md documents the format; tests grep it,
 * so change it only together with that document.
 */
#ifndef GBSIM_LOG_H
#define GBSIM_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <decode/gb_decode.h>

enum gbsim_dir {
	GBSIM_AP_TO_SVC,
	GBSIM_SVC_TO_AP,
	GBSIM_AP_TO_MOD,
	GBSIM_MOD_TO_AP,
};

/* verbose: 0 = nothing on stderr but problems, 1 = the log, 2 = + data */
int gbsim_log_open(const char *path, int verbose, char *err, size_t errlen);
/*
 * Also write every message logged (sent or received; not those dropped
 * before sending) to a pcapng capture at @path, as gbmon -w does
 * (docs/gbmon.md): the far end's view of the same link.  Closed by
 * gbsim_log_close().
 */
int gbsim_log_capture(const char *path, char *err, size_t errlen);
/* Warnings and errors on stderr start with "PROG: " (default "gbsim") */
void gbsim_log_set_prog(const char *prog);
void gbsim_log_close(void);
int gbsim_log_verbosity(void);

/*
 * One Greybus message.  intf_id < 0 for the SVC connection (or a bridge
 * CPort with no connection).  note, if not NULL, ends the line (e.g.
 * "dropped: ...").
 */
void gbsim_log_msg(enum gbsim_dir dir, uint16_t hd_cport, int intf_id,
		   int intf_cport, int protocol, const uint8_t *msg,
		   size_t len, const char *note);

/* Free-form lines, tagged EVENT, INFO, WARN or ERROR */
void gbsim_log_event(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
void gbsim_log_info(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
void gbsim_log_warn(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
void gbsim_log_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * The last GBSIM_LOG_KEEP lines are kept in memory whatever the sinks
 * (the control socket's "log" command): line i (0 = oldest, newline
 * included), and a tap that sees every new line as it is emitted.  The
 * tap must not log.
 */
#define GBSIM_LOG_KEEP		10000
typedef void (*gbsim_log_tap_fn)(const char *line, size_t len, void *ctx);

size_t gbsim_log_kept(void);
const char *gbsim_log_kept_line(size_t i);
void gbsim_log_set_tap(gbsim_log_tap_fn fn, void *ctx);

/* Short lower-case names of result codes ("success", "protocol_bad"...) */
const char *gbsim_result_name(uint8_t result);

#endif /* GBSIM_LOG_H */
