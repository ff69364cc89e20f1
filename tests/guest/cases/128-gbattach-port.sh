# Checks that gbattach leaves a port as it found it, as ldattach does: attaching with gb-hdlc not loaded (nor loadable by its alias) fails with an error that names the fix, in the foreground and the background, and the port's settings (stty -g) are the ones it had; attached, the port is raw at 115200 under discipline 29 and gbattach holds no capability; detached by SIGTERM, the settings are back; a path that is not a tty (a file, a FIFO, /dev/null, nothing) is refused, the file unchanged.
# timeout: 90
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach
M=/usr/share/greybus/manifests
CTL=$GBTEST_TMP/ctl
cd "$GBTEST_TMP" || fail "no scratch directory"

# gb-hdlc not loaded, and its alias (tty-ldisc-29) loading nothing
BL=/etc/modprobe.d/gbtest-128-gb-hdlc.conf
trap 'rm -f "$BL"' EXIT
mkdir -p /etc/modprobe.d
echo 'blacklist gb_hdlc' >"$BL"
grep -q '^gb_hdlc ' /proc/modules && fail "gb-hdlc is loaded before the case"

gbsim --pty --ctl "$CTL" -l log -m 2:$M/loopback.mnfs >out 2>err &
gpid=$!
on_fail() {
	cat err attach.err fail.err 2>/dev/null
	tail -n 20 log
	stty -F "$pty" 2>&1
}
wait_for 10 grep -q '^pty ' out || fail "gbsim printed no pty: $(cat err)"
pty=$(sed -n 's/^pty //p' out)

# settings raw mode would change: 9600 baud, cooked, no echo
stty -F "$pty" 9600 -echo || fail "stty cannot set up $pty"
before=$(stty -F "$pty" -g)

# ---- attaching fails: the error names the fix, the port is as it was
gbattach --foreground "$pty" >fail.out 2>fail.err
assert_eq "$?" 1 "exit status of a failed attach"
grep -q "gb-hdlc is not loaded .*: modprobe gb-hdlc\$" fail.err ||
	fail "the error does not name the fix: $(cat fail.err)"
grep -q 'Invalid argument' fail.err && fail "a bare errno: $(cat fail.err)"
grep -q '^gb_hdlc ' /proc/modules && fail "the alias loaded gb-hdlc despite the blacklist"
assert_eq "$(stty -F "$pty" -g)" "$before" "settings after a failed attach (foreground)"
gbattach "$pty" >fail.out 2>fail.err
assert_eq "$?" 1 "exit status of a failed attach in the background"
grep -q "modprobe gb-hdlc\$" fail.err || fail "background: $(cat fail.err)"
assert_eq "$(stty -F "$pty" -g)" "$before" "settings after a failed attach (background)"

# ---- attached: raw at 115200 under discipline 29, no capability held
hdlc_setup
gbattach --foreground "$pty" >attach.out 2>attach.err &
apid=$!
wait_for 30 test -e "$GB_DEVS/1-2.2.1" ||
	fail "the module did not enumerate: $(ls $GB_DEVS | tr '\n' ' ')"
grep -q '^greybus1$' attach.out || fail "gbattach did not name greybus1: $(cat attach.out)"
now=$(stty -F "$pty")
case $now in
"speed 115200 baud; line = 29;"*) ;;
*) fail "attached port is not at 115200 under discipline 29: $now" ;;
esac
[ "$(stty -F "$pty" -g)" = "$before" ] && fail "attaching changed no setting"
for f in CapInh CapPrm CapEff CapBnd CapAmb; do
	assert_eq "$(sed -n "s/^$f:[[:space:]]*//p" /proc/$apid/status)" \
		0000000000000000 "gbattach's $f once attached"
done
assert_eq "$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' /proc/$apid/status)" 1 \
	"gbattach's NoNewPrivs"

# ---- detached: the tree goes, the settings come back
kill -TERM $apid
wait $apid || fail "gbattach exited with $? on SIGTERM: $(cat attach.err)"
wait_for 15 sh -c "! ls $GB_DEVS | grep -q ." ||
	fail "devices left after detach: $(ls $GB_DEVS | tr '\n' ' ')"
assert_eq "$(stty -F "$pty" -g)" "$before" "settings after detach"
[ -s attach.err ] && fail "gbattach complained on detach: $(cat attach.err)"

# ---- not a tty: refused before it is opened
printf 'not a serial port\n' >file
cp file file.orig
touch -d '2020-01-02 03:04:05' file
stamp=$(stat -c '%Y %s' file)
mkfifo fifo
refused() {
	gbattach --foreground "$1" >refused.out 2>refused.err
	assert_eq "$?" 1 "exit status for $1"
	grep -q "$2" refused.err || fail "gbattach $1: $(cat refused.err), want '$2'"
}
refused file 'not a tty but a regular file; refused, nothing done'
refused fifo 'not a tty but a FIFO'
refused /dev/null 'not a tty: no tty driver has device 1:3'
refused "$GBTEST_TMP" 'not a tty but a directory'
refused /dev/ttyNONE 'no such port'
cmp -s file file.orig || fail "gbattach changed the file it refused"
assert_eq "$(stat -c '%Y %s' file)" "$stamp" "the refused file's mtime and size"
gbattach --speed 12345 "$pty" 2>/dev/null
assert_eq "$?" 2 "exit status for a bad speed"
assert_eq "$(stty -F "$pty" -g)" "$before" "settings after a bad option"

kill -TERM $gpid
wait $gpid || fail "gbsim exited with $?: $(cat err)"
unload_all_gb
exit 0
