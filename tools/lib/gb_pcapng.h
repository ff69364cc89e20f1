/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pcapng files of Greybus messages, the format Wireshark and tshark read:
 * a Section Header Block, one Interface Description Block per host device
 * (bus id), one Enhanced Packet Block per record.  Link type
 * LINKTYPE_USER0 (147); each packet is a struct gb_mon_hdr (the kernel
 * monitor's record header, include/uapi/greybus/monitor.h) then the
 * Greybus message as on the wire.  docs/gbmon.md is the full contract.
 *
 * Shared by gbmon (-w, -r), gbsim and gbnet (--capture).  The reader
 * takes any file: every length is checked before use, a bad block ends
 * the read with a message naming the offset.
 */
#ifndef GB_PCAPNG_H
#define GB_PCAPNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <uapi/greybus/monitor.h>

#define GB_PCAPNG_LINKTYPE	147	/* LINKTYPE_USER0 */
#define GB_PCAPNG_SNAPLEN	(sizeof(struct gb_mon_hdr) + GB_MON_SNAPLEN_MAX)
#define GB_PCAPNG_HOSTS_MAX	256	/* interfaces per file */

/* ---- Writing ------------------------------------------------------------ */

struct gb_pcapng_writer {
	FILE		*f;
	int		error;		/* first errno met; writes stop */
	uint16_t	nif;
	uint16_t	bus_of_if[GB_PCAPNG_HOSTS_MAX];
};

/* Opens @path ("-": stdout) and writes the section header; -errno */
int gb_pcapng_create(struct gb_pcapng_writer *w, const char *path,
		     const char *appl);
/*
 * One record: @hdr (its bus_id picks the interface, created on first
 * use), then @hdr->cap_len bytes at @data.  The EPB's timestamp is
 * @hdr->timestamp_ns.  Returns 0 or -errno (the first write error).
 */
int gb_pcapng_write(struct gb_pcapng_writer *w, const struct gb_mon_hdr *hdr,
		    const void *data);
/* Flushes (for a reader following the file live) */
int gb_pcapng_flush(struct gb_pcapng_writer *w);
int gb_pcapng_close(struct gb_pcapng_writer *w);

/*
 * A record from a message: fills @hdr for a message of @len bytes at
 * @msg seen at @ts_ns on host @bus_id, CPort @hd_cport, interface @intf
 * (GB_MON_ID_NONE for none) CPort @intf_cport, protocol @protocol
 * (0xff unknown); @in: toward the AP.
 */
void gb_pcapng_msg_hdr(struct gb_mon_hdr *hdr, uint64_t ts_ns,
		       uint16_t bus_id, uint16_t hd_cport, uint8_t intf,
		       uint16_t intf_cport, uint8_t protocol, bool in,
		       const void *msg, size_t len);

/* ---- Reading ------------------------------------------------------------ */

struct gb_pcapng_reader {
	const uint8_t	*data;		/* the whole file */
	size_t		len;
	size_t		off;		/* the next block */
	bool		swapped;	/* section in the other byte order */
	uint16_t	nif;
	uint16_t	linktype[GB_PCAPNG_HOSTS_MAX];
	uint8_t		tsresol[GB_PCAPNG_HOSTS_MAX];	/* if_tsresol */
	char		error[160];
	void		*owned;		/* data, when read from a file */
};

struct gb_pcapng_packet {
	uint16_t	ifindex;
	uint16_t	linktype;
	uint64_t	ts_ns;
	const uint8_t	*data;
	uint32_t	cap_len;
	uint32_t	orig_len;
};

/* Over @len bytes at @data (not copied, must outlive the reader) */
void gb_pcapng_reader_init(struct gb_pcapng_reader *r, const void *data,
			   size_t len);
/* Reads the whole of @path ("-": stdin); -errno, message in r->error */
int gb_pcapng_open(struct gb_pcapng_reader *r, const char *path);
void gb_pcapng_reader_free(struct gb_pcapng_reader *r);
/*
 * The next packet: 1, 0 at the end, -EINVAL on a malformed file
 * (r->error says what and where).  Blocks other than SHB, IDB and EPB
 * are skipped.
 */
int gb_pcapng_next(struct gb_pcapng_reader *r, struct gb_pcapng_packet *pkt);

/*
 * A Greybus packet (link type GB_PCAPNG_LINKTYPE) as a record: its
 * header copied into @hdr (fields a shorter, older header lacks are
 * zero), the message bytes in @msg/@msg_len.  -EINVAL with a reason in
 * @err if the packet cannot hold what its header says.
 */
int gb_pcapng_record(const struct gb_pcapng_packet *pkt,
		     struct gb_mon_hdr *hdr, const uint8_t **msg,
		     size_t *msg_len, char *err, size_t errlen);

#endif /* GB_PCAPNG_H */
