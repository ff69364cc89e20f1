# Checks an interface's voltage_now, current_now and power_now (ABI document): each read is an SVC pwrmon interface sample of its type (gbsim logs it) and shows gbsim's 3.8 V / 100 mA / 380 mW in uV, uA and uW, also while the interface is suspended (the SVC measures, the interface is not woken); an SVC error (invalid, short) fails the read with an error and the next read works (no answer at all is case 114); writes are refused.
# timeout: 90
. /usr/lib/gbtest/lib.sh

need_tool gbsim
load_gb greybus gb-vhd gb-test-protocol
D=/sys/bus/greybus/devices
I=$D/1-4.4

cp /usr/share/greybus/manifests/test-vendor.mnfs test.mnfs
export GBSIM_CTL=$GBTEST_TMP/ctl
gbsim --ctl "$GBSIM_CTL" -l log -m 4:test.mnfs >out 2>err &
pid=$!
wait_for 10 test -e $I.1/test_result || fail "test driver did not bind: $(cat err)"

assert_file_eq $I/voltage_now 3800000
assert_file_eq $I/current_now 100000
assert_file_eq $I/power_now 380000
n=$(grep -c 'svc.pwrmon_intf_sample_get req' log)
assert_eq "$n" 3 "pwrmon requests for three reads"

# Suspended: read without waking it
echo 100 >$I.1/power/autosuspend_delay_ms
echo 100 >$I/power/autosuspend_delay_ms
wait_file_eq 10 $I/power/runtime_status suspended || fail "interface did not suspend"
assert_file_eq $I/voltage_now 3800000
assert_file_eq $I/power/runtime_status suspended

# Bad answers: errors, then it works again.  Read with the shell's read
# (read(2)): busybox cat tries sendfile(2) first and takes EINVAL from it
# for "no sendfile here", reading the file a second time.
gbsim ctl fault add type=svc.pwrmon_intf_sample_get result=invalid >/dev/null ||
	fail "fault add failed"
read -r v <$I/current_now 2>e && fail "current_now read succeeded against an invalid answer: $v"
info "invalid answer: $(cat e)"
gbsim ctl fault add type=svc.pwrmon_intf_sample_get short=2 >/dev/null ||
	fail "fault add failed"
read -r v <$I/current_now 2>e && fail "current_now read succeeded against a short answer: $v"
info "short answer: $(cat e)"
grep -q "pwrmon_intf_sample_get rsp id=0x[0-9a-f]* result=invalid" log ||
	fail "gbsim did not answer invalid"
assert_file_eq $I/current_now 100000

printf 1 >$I/voltage_now 2>/dev/null && fail "voltage_now accepted a write"

kill -TERM "$pid"
wait "$pid"
unload_all_gb
exit 0
