// SPDX-License-Identifier: GPL-2.0
/*
 * Where records come from: the kernel monitor's debugfs file (a stream of
 * whole records, each padded to 8 bytes) or a pcapng file.  Every record
 * is checked before it reaches gbmon_record(); what does not fit is
 * reported, never read past.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gb_pcapng.h>

#include "gbmon.h"
#include "source.h"

volatile sig_atomic_t gbmon_stop;

static int gbmon_save(struct gb_pcapng_writer *w, const struct gb_mon_hdr *h,
		      const uint8_t *msg)
{
	struct gb_mon_hdr copy = *h;

	if (!w)
		return 0;
	copy.hdr_len = htole16(sizeof(copy));
	return gb_pcapng_write(w, &copy, msg);
}

/* One record of @len bytes at @p: 0, or -EINVAL if it is not one */
int gbmon_feed(struct gbmon *gm, struct gb_pcapng_writer *w,
	       const uint8_t *p, size_t len, size_t *used)
{
	struct gb_mon_hdr h = { 0 };
	size_t hlen, cap;

	if (len < 4)
		return -EINVAL;
	hlen = (size_t)(p[2] | p[3] << 8);
	if (hlen < 8 || hlen > len)
		return -EINVAL;
	memcpy(&h, p, hlen < sizeof(h) ? hlen : sizeof(h));
	cap = le32toh(h.cap_len);
	if (hlen < sizeof(h) && hlen < offsetof(struct gb_mon_hdr, cap_len) + 4)
		cap = 0;
	if (cap > len - hlen)
		return -EINVAL;
	*used = (hlen + cap + 7) & ~(size_t)7;
	if (*used > len)
		*used = len;
	gbmon_record(gm, &h, p + hlen, cap);
	return gbmon_save(w, &h, p + hlen) ? -EIO : 0;
}

int gbmon_read_monitor(struct gbmon *gm, struct gb_pcapng_writer *w,
		       const char *path)
{
	size_t bufsz = GB_MON_RECORD_MAX + 8;
	uint8_t *buf = malloc(bufsz);
	int fd, err = 0;

	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		free(buf);
		return err;
	}
	while (!gbmon_stop) {
		ssize_t n = read(fd, buf, bufsz);
		size_t off = 0, used;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (!n)
			break;	/* the host device is gone */
		while (off < (size_t)n) {
			if (gbmon_feed(gm, w, buf + off, (size_t)n - off, &used)) {
				gbmon_note(gm, "malformed monitor record; the rest of this read is skipped");
				break;
			}
			off += used;
		}
		if (w)
			gb_pcapng_flush(w);
	}
	close(fd);
	free(buf);
	return err;
}

int gbmon_read_pcapng(struct gbmon *gm, struct gb_pcapng_writer *w,
		      const char *path, char *err, size_t errlen)
{
	struct gb_pcapng_reader r;
	struct gb_pcapng_packet pkt;
	int ret;

	ret = gb_pcapng_open(&r, path);
	if (ret) {
		snprintf(err, errlen, "%s", r.error);
		return ret;
	}
	while (!gbmon_stop && (ret = gb_pcapng_next(&r, &pkt)) > 0) {
		struct gb_mon_hdr h;
		const uint8_t *msg;
		size_t len;
		char why[96];

		if (gb_pcapng_record(&pkt, &h, &msg, &len, why, sizeof(why))) {
			gbmon_note(gm, why);
			continue;
		}
		gbmon_record(gm, &h, msg, len);
		if (gbmon_save(w, &h, msg)) {
			ret = -EIO;
			snprintf(err, errlen, "cannot write the capture");
			break;
		}
	}
	if (ret < 0 && !err[0])
		snprintf(err, errlen, "%s: %s", path, r.error);
	gb_pcapng_reader_free(&r);
	return ret < 0 ? ret : 0;
}
