// SPDX-License-Identifier: GPL-2.0
/*
 * gpiov2: one input line through the GPIO character device's v2 uAPI,
 * for what libgpiod 1.6's tools (v1 uAPI) cannot do: debounce.
 *
 *   gpiov2 [-d US] [-e rising|falling|both] [-n EVENTS] [-t MS] [-w MS]
 *          CHIPDEV LINE
 *
 * Requests LINE of CHIPDEV (/dev/gpiochipN) as an input, with a debounce
 * period of US microseconds (-d) and edge detection (-e) if asked, then
 * prints, from the line's own info and values:
 *
 *   line 4: value=1 debounce_period_us=1500
 *
 * (debounce_period_us=0 when the line has none).  With -n it then waits
 * for EVENTS edge events (at most -t MS in all, default 10000) and prints
 * each as "rising LINE" or "falling LINE"; with -w it holds the line MS
 * milliseconds before releasing it.  Exit status 1 if an ioctl fails or
 * the events do not come in time (the error on stderr), 2 for bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/gpio.h>

static void usage(void)
{
	fprintf(stderr, "usage: gpiov2 [-d US] [-e rising|falling|both] [-n EVENTS] [-t MS] [-w MS] CHIPDEV LINE\n");
	exit(2);
}

static unsigned long num(const char *s, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end || v > max)
		usage();
	return v;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* What the chip says of the line now: its debounce attribute */
static int line_debounce(int chip, unsigned int line, unsigned int *us)
{
	struct gpio_v2_line_info info;
	unsigned int i;

	memset(&info, 0, sizeof(info));
	info.offset = line;
	if (ioctl(chip, GPIO_V2_GET_LINEINFO_IOCTL, &info) < 0)
		return -errno;
	*us = 0;
	for (i = 0; i < info.num_attrs && i < GPIO_V2_LINE_NUM_ATTRS_MAX; i++) {
		if (info.attrs[i].id == GPIO_V2_LINE_ATTR_ID_DEBOUNCE)
			*us = info.attrs[i].debounce_period_us;
	}
	return 0;
}

static int wait_events(int fd, unsigned long n, unsigned long timeout_ms)
{
	struct gpio_v2_line_event ev;
	long deadline = now_ms() + (long)timeout_ms, left;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t got;
	int ret;

	while (n) {
		left = deadline - now_ms();
		if (left <= 0) {
			fprintf(stderr, "gpiov2: %lu event(s) missing after %lu ms\n",
				n, timeout_ms);
			return 1;
		}
		ret = poll(&pfd, 1, (int)left);
		if (ret < 0) {
			fprintf(stderr, "gpiov2: poll: %s\n", strerror(errno));
			return 1;
		}
		if (!ret)
			continue;
		got = read(fd, &ev, sizeof(ev));
		if (got < 0) {
			fprintf(stderr, "gpiov2: reading events: %s\n",
				strerror(errno));
			return 1;
		}
		if (got != sizeof(ev)) {
			fprintf(stderr, "gpiov2: event of %zd bytes\n", got);
			return 1;
		}
		printf("%s %u\n", ev.id == GPIO_V2_LINE_EVENT_RISING_EDGE ?
		       "rising" : "falling", ev.offset);
		fflush(stdout);
		n--;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long debounce = 0, events = 0, timeout = 10000, hold = 0;
	struct gpio_v2_line_request req;
	struct gpio_v2_line_values vals;
	int opt, chip, ret = 0;
	unsigned int line, us = 0;
	uint64_t edge = 0;
	int have_debounce = 0;

	while ((opt = getopt(argc, argv, "d:e:n:t:w:")) != -1) {
		switch (opt) {
		case 'd':
			debounce = num(optarg, UINT32_MAX);
			have_debounce = 1;
			break;
		case 'e':
			if (!strcmp(optarg, "rising"))
				edge = GPIO_V2_LINE_FLAG_EDGE_RISING;
			else if (!strcmp(optarg, "falling"))
				edge = GPIO_V2_LINE_FLAG_EDGE_FALLING;
			else if (!strcmp(optarg, "both"))
				edge = GPIO_V2_LINE_FLAG_EDGE_RISING |
				       GPIO_V2_LINE_FLAG_EDGE_FALLING;
			else
				usage();
			break;
		case 'n':
			events = num(optarg, 1000000);
			break;
		case 't':
			timeout = num(optarg, 3600000);
			break;
		case 'w':
			hold = num(optarg, 3600000);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2 || (events && !edge))
		usage();
	line = (unsigned int)num(argv[optind + 1], 1023);

	chip = open(argv[optind], O_RDWR);
	if (chip < 0) {
		fprintf(stderr, "gpiov2: %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	memset(&req, 0, sizeof(req));
	req.offsets[0] = line;
	req.num_lines = 1;
	snprintf(req.consumer, sizeof(req.consumer), "gpiov2");
	req.config.flags = GPIO_V2_LINE_FLAG_INPUT | edge;
	if (have_debounce) {
		req.config.num_attrs = 1;
		req.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
		req.config.attrs[0].attr.debounce_period_us = (uint32_t)debounce;
		req.config.attrs[0].mask = 1;
	}
	if (ioctl(chip, GPIO_V2_GET_LINE_IOCTL, &req) < 0) {
		fprintf(stderr, "gpiov2: GPIO_V2_GET_LINE_IOCTL: %s\n",
			strerror(errno));
		close(chip);
		return 1;
	}

	memset(&vals, 0, sizeof(vals));
	vals.mask = 1;
	if (ioctl(req.fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &vals) < 0) {
		fprintf(stderr, "gpiov2: GPIO_V2_LINE_GET_VALUES_IOCTL: %s\n",
			strerror(errno));
		ret = 1;
		goto out;
	}
	ret = line_debounce(chip, line, &us);
	if (ret) {
		fprintf(stderr, "gpiov2: GPIO_V2_GET_LINEINFO_IOCTL: %s\n",
			strerror(-ret));
		ret = 1;
		goto out;
	}
	printf("line %u: value=%u debounce_period_us=%u\n", line,
	       (unsigned int)(vals.bits & 1), us);
	fflush(stdout);

	if (events)
		ret = wait_events(req.fd, events, timeout);
	else if (hold)
		usleep((useconds_t)hold * 1000);
out:
	close(req.fd);
	close(chip);
	return ret;
}
