/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gbmon: the Greybus monitor's records as one line per operation.
 * main.c reads records (the kernel monitor, or a pcapng file) and hands
 * each to gbmon_record(); ops.c matches requests with their responses
 * and prints them (text or JSON lines).  docs/gbmon.md is the manual.
 */
#ifndef GBMON_H
#define GBMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <uapi/greybus/monitor.h>

/* What is shown; -1 = any */
struct gbmon_filter {
	int	host;
	int	intf;
	int	bundle;
	int	cport;		/* the interface's CPort, or the host's for the SVC */
	int	protocol;
	bool	errors;		/* only failed, cancelled, malformed, lost */
};

struct gbmon_opts {
	struct gbmon_filter filter;
	bool	json;
	FILE	*out;
};

struct gbmon;

struct gbmon *gbmon_new(const struct gbmon_opts *opts);
/*
 * One record: @hdr (hdr_len already checked, fields a shorter header
 * lacks zero), then @len captured message bytes at @msg.  Any bytes are
 * fine: what does not make sense is shown as malformed.
 */
void gbmon_record(struct gbmon *gm, const struct gb_mon_hdr *hdr,
		  const uint8_t *msg, size_t len);
/* A line about the input itself ("malformed pcapng ...") */
void gbmon_note(struct gbmon *gm, const char *what);
/* Prints the requests still waiting for a response, then frees */
void gbmon_finish(struct gbmon *gm);

/*
 * "malformed: size 12 > 8 received" into @buf if the message framing is
 * wrong (returns true), for a message of @msg_len bytes of which @len
 * were captured.
 */
bool gbmon_malformed(const uint8_t *msg, size_t len, size_t msg_len,
		     char *buf, size_t buflen);

#endif /* GBMON_H */
