// SPDX-License-Identifier: GPL-2.0
/*
 * ffrumble: play one FF_RUMBLE effect on an evdev device, the way a game
 * does (upload with EVIOCSFF, start with an EV_FF event, stop, erase).
 *
 *   ffrumble DEVICE LENGTH_MS [STOP_AFTER_MS]
 *
 * The effect lasts LENGTH_MS (0: until stopped).  With STOP_AFTER_MS the
 * effect is stopped that long after the start; otherwise the tool waits
 * LENGTH_MS plus a little and exits.  fftest needs a terminal; this does
 * not.  It prints "played at SECONDS" (CLOCK_MONOTONIC, read just before
 * the start event is written), so that a test can time the effect on the
 * kernel's clock (a tracepoint's "mono" trace clock is the same clock).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

static int play(int fd, int id, int value)
{
	struct input_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_FF;
	ev.code = id;
	ev.value = value;
	return write(fd, &ev, sizeof(ev)) == sizeof(ev) ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct ff_effect effect;
	struct timespec played;
	long length, stop = -1;
	char *end;
	int fd;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: ffrumble DEVICE LENGTH_MS [STOP_AFTER_MS]\n");
		return 2;
	}
	length = strtol(argv[2], &end, 10);
	if (*end || length < 0 || length > 65535) {
		fprintf(stderr, "ffrumble: bad length '%s'\n", argv[2]);
		return 2;
	}
	if (argc == 4) {
		stop = strtol(argv[3], &end, 10);
		if (*end || stop < 0) {
			fprintf(stderr, "ffrumble: bad stop time '%s'\n", argv[3]);
			return 2;
		}
	}

	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "ffrumble: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}

	memset(&effect, 0, sizeof(effect));
	effect.type = FF_RUMBLE;
	effect.id = -1;
	effect.u.rumble.strong_magnitude = 0xc000;
	effect.u.rumble.weak_magnitude = 0x4000;
	effect.replay.length = length;
	if (ioctl(fd, EVIOCSFF, &effect) < 0) {
		fprintf(stderr, "ffrumble: upload: %s\n", strerror(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &played);
	if (play(fd, effect.id, 1)) {
		fprintf(stderr, "ffrumble: play: %s\n", strerror(errno));
		return 1;
	}
	printf("playing effect %d for %ld ms\n", effect.id, length);
	printf("played at %lld.%06ld\n", (long long)played.tv_sec,
	       played.tv_nsec / 1000);
	fflush(stdout);

	if (stop >= 0) {
		sleep_ms(stop);
		if (play(fd, effect.id, 0)) {
			fprintf(stderr, "ffrumble: stop: %s\n", strerror(errno));
			return 1;
		}
		printf("stopped\n");
	} else {
		sleep_ms(length + 200);
	}
	if (ioctl(fd, EVIOCRMFF, effect.id) < 0) {
		fprintf(stderr, "ffrumble: erase: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}
