// SPDX-License-Identifier: GPL-2.0
/*
 * i2crdwr: one I2C transfer through i2c-dev's I2C_RDWR, for what
 * i2ctransfer (i2c-tools 4.3) cannot do: 10-bit addresses.
 *
 *   i2crdwr [-t] DEV ADDR wHEX|rN...
 *   i2crdwr -F DEV
 *
 * Each wHEX argument is a write message of those bytes, each rN a read
 * message of N bytes, all to ADDR in one transfer; -t sets I2C_M_TEN on
 * every message.  The bytes of every read message are printed as hex, one
 * line per read.  -F prints the adapter's functionality (I2C_FUNCS) as
 * "functionality=0xXXXXXXXX ten_bit=yes|no".  Exit status 1 if the ioctl
 * fails (its error on stderr), 2 for bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/i2c.h>
#include <linux/i2c-dev.h>

#include "gb_hex.h"

#define I2CRDWR_MAX_MSGS	I2C_RDWR_IOCTL_MAX_MSGS
#define I2CRDWR_MAX_LEN		8192

static void usage(void)
{
	fprintf(stderr, "usage: i2crdwr [-t] DEV ADDR wHEX|rN...\n"
		"       i2crdwr -F DEV\n");
	exit(2);
}

static int open_dev(const char *path)
{
	int fd = open(path, O_RDWR);

	if (fd < 0) {
		fprintf(stderr, "i2crdwr: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

static int show_funcs(const char *path)
{
	unsigned long funcs;
	int fd = open_dev(path);

	if (ioctl(fd, I2C_FUNCS, &funcs) < 0) {
		fprintf(stderr, "i2crdwr: I2C_FUNCS: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	printf("functionality=0x%08lx ten_bit=%s\n", funcs,
	       funcs & I2C_FUNC_10BIT_ADDR ? "yes" : "no");
	return 0;
}

/* One message from wHEX or rN; 0, or -1 if it is not one */
static int parse_msg(const char *a, struct i2c_msg *m)
{
	unsigned long len;
	char *end;
	ssize_t n;

	if (a[0] == 'r') {
		errno = 0;
		len = strtoul(a + 1, &end, 0);
		if (errno || !a[1] || *end || !len || len > I2CRDWR_MAX_LEN)
			return -1;
		m->flags |= I2C_M_RD;
		m->len = (uint16_t)len;
		m->buf = calloc(1, len);
		return m->buf ? 0 : -1;
	}
	if (a[0] != 'w' || !a[1])
		return -1;
	m->buf = malloc(strlen(a + 1) / 2 + 1);
	if (!m->buf)
		return -1;
	n = gb_hex_decode(a + 1, NULL, m->buf, I2CRDWR_MAX_LEN);
	if (n < 0)
		return -1;
	m->len = (uint16_t)n;
	return 0;
}

int main(int argc, char **argv)
{
	struct i2c_msg msgs[I2CRDWR_MAX_MSGS];
	struct i2c_rdwr_ioctl_data data;
	int opt, fd, n, i, j, ten = 0, funcs = 0;
	unsigned long addr;
	char *end;

	while ((opt = getopt(argc, argv, "tF")) != -1) {
		switch (opt) {
		case 't':
			ten = 1;
			break;
		case 'F':
			funcs = 1;
			break;
		default:
			usage();
		}
	}
	if (funcs) {
		if (ten || argc - optind != 1)
			usage();
		return show_funcs(argv[optind]);
	}
	n = argc - optind - 2;
	if (n < 1 || n > I2CRDWR_MAX_MSGS)
		usage();
	errno = 0;
	addr = strtoul(argv[optind + 1], &end, 0);
	if (errno || !*argv[optind + 1] || *end || addr > 0xffff)
		usage();

	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < n; i++) {
		msgs[i].addr = (uint16_t)addr;
		msgs[i].flags = ten ? I2C_M_TEN : 0;
		if (parse_msg(argv[optind + 2 + i], &msgs[i]))
			usage();
	}

	fd = open_dev(argv[optind]);
	data.msgs = msgs;
	data.nmsgs = (uint32_t)n;
	if (ioctl(fd, I2C_RDWR, &data) < 0) {
		fprintf(stderr, "i2crdwr: I2C_RDWR: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	for (i = 0; i < n; i++) {
		if (!(msgs[i].flags & I2C_M_RD))
			continue;
		for (j = 0; j < msgs[i].len; j++)
			printf("%02x", msgs[i].buf[j]);
		printf("\n");
	}
	return 0;
}
