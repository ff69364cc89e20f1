# Checks interface activation and enable unwinding: a failure injected at each step in turn (vsys, refclk, UniPro, activate, DME, device id, route, connection create, control version, manifest size, manifest), 20 rounds each, leaves the interface failed and powered off, and a failed Control connected leaves the bundle unbound; re-insertion then works, with no duplicate sysfs names, no warning and no leak.
# timeout: 150
# 260 insertions and removals: over ES2 on a loaded host their wall time
# outgrew the time-out, so the guest's clock counts its instructions
# clock: icount
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

ROUNDS=${ROUNDS:-20}
c() {
	gbsim ctl "$@"
}
gone() {
	! ls $D | grep -q '^1-5\(\.\|$\)'
}
remove5() {
	c remove 5 || fail "remove 5 failed"
	wait_for 10 gone || fail "module 5 still there after removal: $(ls $D | tr '\n' ' ')"
}
insert5() {
	c insert 5 $M/test-vendor.mnfs || fail "insert 5 failed"
}

remove5
for step in svc.intf_vsys_enable svc.intf_refclk_enable svc.intf_unipro_enable \
	svc.intf_activate svc.dme_peer_get svc.dme_peer_set svc.intf_device_id \
	svc.route_create svc.conn_create control.version \
	control.get_manifest_size control.get_manifest; do
	r=0
	while [ $r -lt $ROUNDS ]; do
		r=$((r + 1))
		c fault add intf=5 type=$step result=invalid >/dev/null ||
			fail "fault add for $step failed"
		insert5
		wait_file_eq 10 $D/1-5.5/status failed ||
			fail "$step round $r: interface 5 not failed"
		[ -e $D/1-5.5.ctrl ] && fail "$step round $r: control device left behind"
		ls $D | grep -q '^1-5\.5\.[0-9]' && fail "$step round $r: a bundle left behind"
		remove5
	done
	# Every fault acted (gbsim keeps at most 256, spent ones included)
	c faults | grep -v 'remaining=0' && fail "$step: a fault did not act: $(c faults)"
	c fault clear || fail "fault clear failed"
	# What failed was undone, and nothing is left for the next time
	insert5
	wait_file_eq 20 $D/1-5.5.1/test_result ok || fail "after $step: module 5 does not work"
	assert_file_eq $D/1-5.5/status enabled
	c list | grep -q '^  intf 5 active=1' || fail "after $step: gbsim's interface 5 not active"
	remove5
	info "$step: $ROUNDS failures, then a working interface"
done
# Control connected is sent for the bundle's connection: its failure fails
# the bundle's probe, the interface stays enabled, the bundle unbound
n_refused() {
	grep -c "MOD>AP  cport .* intf 5:0 control.connected rsp .*result=invalid" log
}
r=0
while [ $r -lt $ROUNDS ]; do
	r=$((r + 1))
	n0=$(n_refused)
	c fault add intf=5 type=control.connected result=invalid >/dev/null ||
		fail "fault add for control.connected failed"
	insert5
	wait_file_eq 10 $D/1-5.5/status enabled ||
		fail "control.connected round $r: interface 5 not enabled"
	wait_for 10 test -e $D/1-5.5.1 || fail "control.connected round $r: no bundle"
	_refused() {
		[ "$(n_refused)" -gt "$n0" ]
	}
	wait_for 10 _refused || fail "control.connected round $r: not refused"
	uevent_settle
	[ -e $D/1-5.5.1/driver ] && fail "control.connected round $r: bundle bound"
	remove5
done
insert5
wait_file_eq 20 $D/1-5.5.1/test_result ok || fail "after control.connected: module 5 does not work"
remove5
info "control.connected: $ROUNDS failed bundle probes, then a working interface"

c faults | grep -v 'remaining=0' && fail "a fault did not act: $(c faults)"
c fault clear || fail "fault clear failed"

dmesg_since_case | grep -E 'cannot create duplicate filename|kobject_add_internal failed' &&
	fail "duplicate sysfs name"
[ "$(n_dmesg 'failed to activate interface 5')" -ge 1 ] || fail "no activation failure logged"
[ "$(n_dmesg 'failed to enable interface 5')" -ge 1 ] || fail "no enable failure logged"

# The device ids were all given back: the other module still works and
# module 5 takes its place again
insert5
wait_file_eq 20 $D/1-5.5.1/test_result ok || fail "module 5 not back at the end"
ping_ok 1-3.3.1
ping_ok 1-5.5.1
stop
