# Checks multi-interface modules inserted at run time (every interface enumerated and driven), eject through N-M/eject and N-svc/intf_eject removing the whole module, re-insert at the same id at once, and that every writable attribute refuses junk with EINVAL.
# timeout: 90
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hostile.sh

# write_fails FILE VALUE: writing VALUE to FILE fails with EINVAL
write_fails() {
	local err
	err=$(printf '%s' "$2" | dd of="$1" bs=4096 conv=notrunc 2>&1) &&
		fail "$1 accepted '$2'"
	case $err in
	*"Invalid argument"*) ;;
	*) fail "$1 refused '$2' with '$err', not EINVAL" ;;
	esac
}

gone() {
	[ ! -e $D/1-$1 ]
}

# up IFID N: module IFID with N interfaces, each enabled and its bundle
# driven by gb-test-protocol
up() {
	local i=$1 last=$(($1 + $2 - 1))
	wait_for 20 test -e $D/1-$1.$last.1/test_result ||
		fail "module $1: interface $last not driven: $(ls $D | tr '\n' ' ')"
	assert_file_eq $D/1-$1/num_interfaces "$2"
	while [ $i -le $last ]; do
		wait_file_eq 10 $D/1-$1.$i.1/test_result ok || fail "1-$1.$i.1 not ok"
		assert_file_eq $D/1-$1.$i/status enabled
		assert_file_eq $D/1-$1.$i/interface_id $i
		i=$((i + 1))
	done
}

# module 5 goes away first: the multi-interface one takes its place
gbsim ctl remove 5 >/dev/null || fail "remove 5 failed"
wait_for 10 gone 5 || fail "module 5 not removed"

gbsim ctl insert 5 $M/test-vendor.mnfs intfs=3 >/dev/null || fail "insert 5 intfs=3 failed"
up 5 3
ping_ok 1-5.6.1
ping_ok 1-5.7.1

# Module events that cannot be right, sent as the SVC: each refused with
# its line, nothing created, the modules there undisturbed
svc_event() {	# TYPE HEX LINE
	gbsim ctl request svc "$1" "$2" >/dev/null || fail "gbsim ctl request svc $1 $2 failed"
	once "$3"
}
svc_event svc.module_inserted 06010000 "greybus 1-svc: module 6 inserted: interface 6 is already in use"
svc_event svc.module_inserted 02020000 "greybus 1-svc: module 2 inserted: interface 3 is already in use"
svc_event svc.module_inserted 00010000 "greybus 1-svc: module 0 inserted: interface 0 is already in use"
svc_event svc.module_inserted 09000000 "greybus 1-svc: module 9 inserted with invalid interface count 0"
svc_event svc.module_inserted fa100000 "greybus 1-svc: module 250 inserted with invalid interface count 16"
svc_event svc.module_removed 09 "greybus 1-svc: unexpected module-removed event for module 9"
svc_event svc.module_removed 06 "greybus 1-svc: unexpected module-removed event for module 6"
svc_event svc.intf_oops 0901 "greybus 1-svc: unexpected interface-oops event for interface 9"
[ "$(ls $D | grep -c '^1-')" = 15 ] || fail "devices changed: $(ls $D | tr '\n' ' ')"
up 5 3

# Junk to every writable attribute
for v in 2 -1 yes 0x1 "1 1" abc 10 " "; do
	write_fails $D/1-5/eject "$v"
done
for v in abc 256 -1 0x05 " " 0; do	# 0 is the AP's interface
	write_fails $D/1-svc/intf_eject "$v"
done
for v in 0 2 abc; do
	write_fails $D/1-5.5.1/test_ping "$v"
done
write_fails $D/1-5.5.1/state "$(printf 'a\001b')"
write_fails $D/1-5.5.1/state "$(printf 'line\nline')"
for v in abc 60001 -5; do
	write_fails /sys/module/gb_test_protocol/parameters/ping_timeout_ms "$v"
done
for v in 2 abc; do
	write_fails /sys/module/gb_test_protocol/parameters/hold_requests "$v"
done
echo 0 >$D/1-5/eject || fail "eject 0 failed"
assert_file_eq $D/1-5.6/status enabled
ping_ok 1-5.6.1

# Eject: every interface shut down, intf_eject to the primary, then gone
echo 1 >$D/1-5/eject || fail "eject 1 failed"
wait_for 10 gone 5 || fail "module 5 still there after eject"
grep -q 'AP>SVC .*svc.intf_eject req .*intf=5' log || fail "no intf_eject for 5 in the gbsim log"
for i in 5 6 7; do
	grep -q "AP>MOD .*intf $i:0 control.disconnected req" log ||
		fail "interface $i was not shut down cleanly"
done
grep -q ' 5:\| 6:\| 7:' $CONNS && fail "connections left: $(cat $CONNS)"

# Re-insert at the same interface id at once, with another shape
gbsim ctl insert 5 $M/test-vendor.mnfs intfs=2 >/dev/null || fail "re-insert 5 failed"
up 5 2
ping_ok 1-5.6.1

# The SVC's own eject: no clean shutdown, the module is gone all the same
echo 5 >$D/1-svc/intf_eject || fail "intf_eject 5 failed"
wait_for 10 gone 5 || fail "module 5 still there after intf_eject"

# And once more, a single interface
gbsim ctl insert 5 $M/test-vendor.mnfs >/dev/null || fail "re-insert 5 failed"
up 5 1

ping_ok 1-3.3.1
assert_file_eq $D/1-3/num_interfaces 1
stop
exit 0
