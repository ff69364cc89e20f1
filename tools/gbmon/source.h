/* SPDX-License-Identifier: GPL-2.0 */
/* Record sources: the kernel monitor, a pcapng file (source.c) */
#ifndef GBMON_SOURCE_H
#define GBMON_SOURCE_H

#include <signal.h>

#include <gb_pcapng.h>

#include "gbmon.h"

/* Set by SIGINT/SIGTERM: the sources stop at the next record */
extern volatile sig_atomic_t gbmon_stop;

/* Also writes each record to @w unless NULL */
int gbmon_read_monitor(struct gbmon *gm, struct gb_pcapng_writer *w,
		       const char *path);
int gbmon_read_pcapng(struct gbmon *gm, struct gb_pcapng_writer *w,
		      const char *path, char *err, size_t errlen);
/* One monitor record at @p (@len bytes available); @used: its padded size */
int gbmon_feed(struct gbmon *gm, struct gb_pcapng_writer *w,
	       const uint8_t *p, size_t len, size_t *used);

#endif
