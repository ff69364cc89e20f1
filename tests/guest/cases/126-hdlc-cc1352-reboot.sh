# Checks gb-hdlc against a CC1352 that keeps running while the host restarts (gbsim's cc1352 personality): the first hello after the firmware's boot comes 5 s after SVC_START and the modules then enumerate; a host that sent SVC_START and went away without SVC_STOP (its frame written raw to the tty) leaves the firmware started, and the next attach still enumerates, because gb-hdlc sends SVC_STOP before every SVC_START (a second start alone leaves the firmware silent for ever); a start lost on the way is tried again after gb-hdlc's bound (10 s, over the firmware's 5).
# timeout: 200
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach
M=/usr/share/greybus/manifests
CTL=$GBTEST_TMP/ctl
hdlc_setup
# the bound scales with the guest's speed, always over the firmware's 5 s
echo $((10000 * GB_TSCALE)) >/sys/module/gb_hdlc/parameters/start_timeout_ms
gbsim --pty --personality cc1352 --ctl $CTL -l log -m 2:$M/log.mnfs >out 2>err &
gpid=$!
wait_for 10 grep -q '^pty ' out || fail "gbsim printed no pty: $(cat err)"
pty=$(sed -n 's/^pty //p' out)
on_fail() {
	tail -n 30 log
	ls $GB_DEVS
}
attach() {
	gbattach --foreground "$pty" >attach.out 2>attach.err &
	apid=$!
}
detach() {
	kill -TERM $apid
	wait $apid || fail "gbattach exited with $? ($1): $(cat attach.err)"
	wait_for 15 sh -c "! ls $GB_DEVS | grep -q ." ||
		fail "devices left ($1): $(ls $GB_DEVS | tr '\n' ' ')"
}
_tree() {
	local b
	b=$(hdlc_bus) || return 1
	test -e "$GB_DEVS/${b#greybus}-2.2.1"
}
tree_up() {
	wait_for "$2" _tree ||
		fail "the module did not enumerate ($1): $(ls $GB_DEVS | tr '\n' ' ')"
}
_svc_up() {
	local b
	b=$(hdlc_bus) || return 1
	test -e "$GB_DEVS/${b#greybus}-svc"
}

# the firmware just booted: its first hello waits 5 s
attach
wait_for 10 hdlc_bus >/dev/null || fail "no host device"
t0=$(_gb_now_cs)
wait_for 30 _svc_up || fail "no SVC hello: $(ls $GB_DEVS | tr '\n' ' ')"
waited=$(( $(_gb_now_cs) - t0 ))
# the host device appears just before SVC_START goes out
[ "$waited" -ge 480 ] || fail "the first hello came $waited cs after SVC_START, before 5 s"
grep -q 'cc1352: first start since its boot: hello in 5000 ms' log ||
	fail "gbsim did not play the boot"
tree_up "after the boot" 30
detach "after the boot"

# a host sends SVC_START and dies before its SVC_STOP: the firmware runs on
_starts_past() { [ "$(grep -c 'SVC_START from the AP' log)" -gt "$1" ]; }
n=$(grep -c 'SVC_START from the AP' log)
(
	stty raw -echo <&3 || exit 1
	printf '\176\003\003\001\111\022\176' >&3
	wait_for 10 _starts_past "$n" || exit 2
	# what the firmware said to it goes with it
	timeout 1 cat <&3 >/dev/null
	exit 0
) 3<>"$pty" || fail "the raw SVC_START did not reach gbsim: $?"
grep -q 'silent until it boots again' log && fail "the raw start wedged gbsim"

# the host comes back: a stop, then a start, and the module is back
n=$(grep -c 'SVC_STOP from the AP' log)
attach
tree_up "after the host's restart" 20
[ "$(grep -c 'SVC_STOP from the AP' log)" -gt "$n" ] || fail "no SVC_STOP before the start"
grep -q 'silent until it boots again' log && fail "gbsim saw a second start without a stop"
detach "after the host's restart"

# the stop and the start are lost on the way: gb-hdlc starts it again
gbsim ctl -s $CTL hdlc deaf 2 || fail "gbsim ctl hdlc deaf failed"
attach
expect_dmesg "pts[0-9]*: the peer's SVC did not start in [0-9]* ms: starting it again" 30
[ "$(grep -c 'from the AP ignored (fault)' log)" = 2 ] || fail "gbsim did not ignore the stop and the start"
tree_up "after a lost version request" 30
detach "at the end"

kill -TERM $gpid
wait $gpid || fail "gbsim exited with $?: $(cat err)"
unload_all_gb
exit 0
