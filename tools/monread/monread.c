// SPDX-License-Identifier: GPL-2.0
/*
 * monread: the kernel monitor's records one line each, for the test
 * suite (gbmon is the tool for people; docs/gbmon.md has the format).
 *
 *   monread [-n] [-c COUNT] [-b BYTES] [FILE]
 *
 * Reads FILE (default: standard input, e.g. a descriptor the shell
 * opened long before) until end of file, COUNT records, or, with -n,
 * until a read would block.  -b sets the read() buffer (default
 * GB_MON_RECORD_MAX).  Each record becomes
 *
 *   msg out req bus=1 hd=1 intf=2 bundle=255 proto=0x00 icport=0
 *	id=0x0003 type=0x04 result=0x00 len=8 cap=8 lost=0 status=0
 *	ft=0 t=123456789 data=0800030004000000
 *
 * (one line; data= the captured bytes in hex, at most 64 of them), and a
 * last line "end records=N lost=L" sums them up, L being every record
 * the kernel said was lost.  A record that breaks the format (version,
 * header length, captured length, alignment) ends the run with status 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <endian.h>
#include <uapi/greybus/monitor.h>

#include "gb_version.h"

static const char *kind_name(unsigned int kind)
{
	switch (kind) {
	case GB_MON_KIND_MESSAGE:
		return "msg";
	case GB_MON_KIND_SEND_ERROR:
		return "senderr";
	case GB_MON_KIND_CANCEL:
		return "cancel";
	case GB_MON_KIND_LOST:
		return "lost";
	}
	return "unknown";
}

static void usage(void)
{
	fprintf(stderr, "usage: monread [-n] [-c COUNT] [-b BYTES] [FILE]\n");
	exit(2);
}

/* Prints one record; its length in the stream, or 0 if it is bad */
static size_t print_record(const unsigned char *p, size_t avail,
			   unsigned long long *lost)
{
	struct gb_mon_hdr h;
	size_t hdr_len, cap, len, i;

	if (avail < sizeof(h)) {
		fprintf(stderr, "monread: %zu bytes left, short of a header\n",
			avail);
		return 0;
	}
	memcpy(&h, p, sizeof(h));
	hdr_len = le16toh(h.hdr_len);
	cap = le32toh(h.cap_len);
	len = (hdr_len + cap + 7) & ~(size_t)7;
	if (h.version != GB_MON_VERSION || hdr_len < sizeof(h) ||
	    len > avail || cap > le32toh(h.msg_len)) {
		fprintf(stderr, "monread: bad record: version %u hdr_len %zu cap_len %zu msg_len %u (%zu bytes left)\n",
			h.version, hdr_len, cap, le32toh(h.msg_len), avail);
		return 0;
	}
	*lost += le32toh(h.lost);

	printf("%s %s %s bus=%u hd=%u intf=%u bundle=%u proto=0x%02x icport=%u id=0x%04x type=0x%02x result=0x%02x len=%u cap=%zu lost=%u status=%d ft=%llu t=%llu data=",
	       kind_name(h.kind),
	       le32toh(h.flags) & GB_MON_F_IN ? "in" : "out",
	       le32toh(h.flags) & GB_MON_F_RESPONSE ? "resp" : "req",
	       le16toh(h.bus_id), le16toh(h.hd_cport_id), h.intf_id,
	       h.bundle_id, h.protocol_id, le16toh(h.intf_cport_id),
	       le16toh(h.operation_id), h.type, h.result,
	       le32toh(h.msg_len), cap, le32toh(h.lost),
	       (int32_t)le32toh(h.status),
	       (unsigned long long)le64toh(h.frame_time),
	       (unsigned long long)le64toh(h.timestamp_ns));
	for (i = 0; i < cap && i < 64; i++)
		printf("%02x", p[hdr_len + i]);
	printf(" flags=0x%x\n", le32toh(h.flags));

	return len;
}

int main(int argc, char **argv)
{
	unsigned long long records = 0, lost = 0, count = 0;
	size_t bufsize = GB_MON_RECORD_MAX;
	int nonblock = 0, fd = 0, opt;
	unsigned char *buf;

	if (argc == 2 && !strcmp(argv[1], "--version")) {
		gb_print_version("monread");
		return 0;
	}
	while ((opt = getopt(argc, argv, "nc:b:")) != -1) {
		switch (opt) {
		case 'n':
			nonblock = 1;
			break;
		case 'c':
			count = strtoull(optarg, NULL, 0);
			break;
		case 'b':
			bufsize = strtoul(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (optind + 1 < argc || !bufsize)
		usage();
	if (optind < argc) {
		fd = open(argv[optind], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "monread: %s: %s\n", argv[optind],
				strerror(errno));
			return 1;
		}
	}
	if (nonblock &&
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0) {
		fprintf(stderr, "monread: O_NONBLOCK: %s\n", strerror(errno));
		return 1;
	}
	buf = malloc(bufsize);
	if (!buf)
		return 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (!count || records < count) {
		ssize_t n = read(fd, buf, bufsize);
		size_t off = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && nonblock)
			break;
		if (n < 0) {
			printf("error %s\n", strerror(errno));
			return 1;
		}
		if (n == 0)
			break;
		while (off < (size_t)n) {
			size_t len = print_record(buf + off, n - off, &lost);

			if (!len)
				return 1;
			off += len;
			records++;
		}
	}
	printf("end records=%llu lost=%llu\n", records, lost);
	free(buf);

	return 0;
}
