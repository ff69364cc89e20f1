#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gbnet's command line and device checks, without a kernel: options
# refused before anything is opened (--user with an id out of range), a
# device path that is not the vhd character device refused before a byte
# is written to it, and a descriptor that never runs dry (/dev/zero as
# --device-fd) read a bounded number of times per wake-up, so SIGTERM
# still stops gbnet and the log stays short.  The same device code is
# gbsim's (tools/lib/svc/vhd.c): gbsim is checked on the same file.
# Prints "ok - NAME" lines for tests/unit/run; honours $T.
#
# Usage: gbnet.sh GBNET_BINARY [MANIFEST_DIR]

GBNET=${1:?usage: gbnet.sh GBNET [MANIFEST_DIR]}
case $GBNET in /*) ;; *) GBNET=$PWD/$GBNET ;; esac
GBSIM=$(dirname "$GBNET")/gbsim
. "$(dirname "$0")/lib/tap.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
exec </dev/null

# its checks run whatever T says: their lines are filtered here
report() { wanted "$1" || return 0; tap_report "$@"; }

# run_for SECONDS CMD...: the command's status, 124 if it had to be killed
run_for() {
	timeout -s KILL "$@" >out 2>err
}

# --user with a uid that does not fit: refused up front, exit 2
for u in 4294967296 4294967295 -1 12abc 0x10 ''; do
	printf 'keep me\n' >file
	run_for 10 "$GBNET" --user "$u" -d "$WORK/file"
	rc=$?
	good=0
	[ $rc = 2 ] && grep -q -- "--user" err && [ "$(cat file)" = "keep me" ] && good=1
	report "gbnet: --user '$u' refused before the device is opened" $good \
		"exit $rc" "$(cat err)" "file: $(od -c file | head -3)"
done

# -d PATH: only the vhd character device; nothing written to anything else
printf 'keep me\n' >file
run_for 10 "$GBNET" -d "$WORK/file"
rc=$?
good=0
[ $rc = 1 ] && grep -q "not a character device" err && [ "$(cat file)" = "keep me" ] &&
	good=1
report "gbnet: -d on a regular file refused, the file untouched" $good \
	"exit $rc" "$(cat err)" "file: $(od -c file | head -3)"

run_for 10 "$GBNET" -d /dev/zero
rc=$?
good=0
[ $rc = 1 ] && grep -q "not the greybus-vhd device" err && good=1
report "gbnet: -d on another character device refused" $good "exit $rc" "$(cat err)"

printf 'keep me\n' >file
run_for 10 "$GBSIM" -d "$WORK/file"
rc=$?
good=0
[ $rc != 0 ] && [ $rc != 124 ] && grep -q "not a character device" err &&
	[ "$(cat file)" = "keep me" ] && good=1
report "gbsim: -d on a regular file refused, the file untouched" $good \
	"exit $rc" "$(cat err)" "file: $(od -c file | head -3)"

# A descriptor that is always readable and never says EAGAIN
"$GBNET" --device-fd 3 --log "$WORK/log" 3<>/dev/zero >out 2>err &
pid=$!
for _ in $(seq 100); do
	grep -q "endo" "$WORK/log" 2>/dev/null && break
	sleep 0.1
done
kill -TERM $pid 2>/dev/null
for _ in $(seq 100); do
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
stopped=0
if kill -0 $pid 2>/dev/null; then
	kill -KILL $pid
else
	stopped=1
fi
wait $pid
rc=$?
lines=$(wc -l <err)
good=0
[ $stopped = 1 ] && [ $rc = 0 ] && [ "$lines" -lt 40 ] && good=1
report "gbnet: a device that never runs dry: SIGTERM stops it, $lines lines on stderr" \
	$good "stopped=$stopped exit $rc" "$(head -5 err)"
exit 0
