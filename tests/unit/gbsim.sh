#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gbsim refuses a path that is not what it must be, in one line and
# before writing a byte to it: a file or /dev/null for hdlc's serial port
# (a tty), a file for es2's functionfs mount (a directory), a directory
# for the config file or the log, a file that is not a socket for the
# control socket.  No kernel needed: nothing gets as far as a host device.
# Prints "ok - NAME" lines for tests/unit/run; honours $T.
#
# Usage: gbsim.sh GBSIM_BINARY MANIFEST_DIR
GBSIM=${1:?usage: gbsim.sh GBSIM MANIFEST_DIR}
MANIFESTS=${2:?usage: gbsim.sh GBSIM MANIFEST_DIR}
case $GBSIM in /*) ;; *) GBSIM=$PWD/$GBSIM ;; esac
case $MANIFESTS in /*) ;; *) MANIFESTS=$PWD/$MANIFESTS ;; esac
. "$(dirname "$0")/lib/tap.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
exec </dev/null
M=1:$MANIFESTS/loopback.mnfs

# refuses NAME STATUS STDERR-LINE ARGS...: exit status, the whole
# stderr, and the file 'plain' as it was (bytes and time)
refuses() {
	local name="gbsim: $1" st=$2 want=$3 got rc before after
	shift 3
	wanted "$name" || return 0
	printf 'not a device\n' >plain
	touch -d @1000000000 plain
	before=$(stat -c '%s %Y' plain; md5sum <plain)
	got=$(timeout 20 "$GBSIM" "$@" 2>&1 >/dev/null); rc=$?
	after=$(stat -c '%s %Y' plain; md5sum <plain)
	if [ "$rc" = "$st" ] && [ "$got" = "$want" ] && [ "$before" = "$after" ]; then
		echo "ok - $name"
	else
		echo "not ok - $name"
		printf '# exit %s (want %s)\n# got:  %s\n# want: %s\n' "$rc" "$st" "$got" "$want"
		[ "$before" = "$after" ] || echo "# the file was changed"
	fi
}

mkdir -p adir
refuses "hdlc: a file is no serial port" 1 \
	"gbsim: plain: not a character device (hdlc needs the serial port, a tty)" \
	--transport hdlc -d plain -m "$M"
refuses "hdlc: /dev/null is no serial port" 1 \
	"gbsim: /dev/null: not a tty (hdlc needs the serial port)" \
	--transport hdlc -d /dev/null -m "$M"
refuses "es2: a file is no functionfs mount" 1 \
	"gbsim: plain: not a directory (es2 needs the functionfs mount)" \
	--transport es2 -d plain -m "$M"
refuses "a directory is no config file" 2 \
	"gbsim: config adir: a directory, not a file" \
	-c adir
refuses "a directory is no log file" 2 \
	"gbsim: cannot open log file adir: Is a directory" \
	--transport hdlc --pty -l adir -m "$M"
refuses "a file that is not a socket is no control socket" 1 \
	"gbsim: control socket plain: exists and is not a socket" \
	--transport hdlc --pty --ctl plain -m "$M"
