# Checks an interface's power attributes against an SVC that never answers power sample requests (gbsim's cc1352 personality, as the firmware): the first read fails when its request times out and the kernel says once that the attributes are not supported; every later read of voltage_now, current_now or power_now fails at once, without a request (gbsim saw exactly one).
# timeout: 90
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach
M=/usr/share/greybus/manifests
I=$GB_DEVS/1-2.2
hdlc_setup
cc1352_start -m 2:$M/loopback.mnfs
wait_for 30 test -e "$I.1" || fail "node 2 did not enumerate: $(ls $GB_DEVS | tr '\n' ' ')"
[ -e $I/current_now ] || fail "no current_now on $I"

# read(2) through the shell's read: busybox cat would retry after sendfile
read -r v <$I/current_now 2>e && fail "current_now read succeeded without an answer: $v"
info "first read: $(cat e)"
expect_dmesg '1-2.2: the SVC did not answer a power sample request'
assert_eq "$(grep -c 'AP>SVC .*svc.pwrmon_intf_sample_get req' log)" 1 "sample requests after the first read"

for a in current_now power_now voltage_now current_now; do
	read -r v <$I/$a 2>/dev/null && fail "$a read succeeded: $v"
done
assert_eq "$(grep -c 'AP>SVC .*svc.pwrmon_intf_sample_get req' log)" 1 "sample requests after five reads"
assert_eq "$(dmesg_since_case | grep -c 'did not answer a power sample request')" 1 "log lines"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 sh -c "! ls $GB_DEVS | grep -q ." || fail "devices left: $(ls $GB_DEVS)"
unload_all_gb
exit 0
