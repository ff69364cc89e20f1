# Audio controls on a suspended bundle, the error path: when the module refuses to resume the bundle (gbsim ctl pm 3 1 refuse-resume), amixer's get and set of an enumerated control and of a DAPM mux fail with an error, nothing reaches the module, and runtime_usage is back to its earlier value; once the module accepts again the controls work (the failed resume is not sticky); removing the module afterwards is clean.
# timeout: 150
# tools: amixer
# kmods: snd-soc-core
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/audio.sh

echo 200 >$B/power/autosuspend_delay_ms
echo 300 >$I/power/autosuspend_delay_ms
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend"
usage=$(cat $B/power/runtime_usage)

gbsim ctl pm 3 1 refuse-resume || fail "pm refuse-resume failed"
gbsim ctl pm 3 | grep -q "bundle 1 .*refuse_resume=1" || fail "gbsim does not show refuse_resume"
ops=$(gbsim ctl log | grep -c "audio 3: [gs]et control") || true

for ctl in 'GB 3 PB source' 'GB 3 AIF1_RX MUX'; do
	# amixer reports a failed read on stderr but exits 0
	amixer -c "$C" cget name="$ctl" >out.get 2>&1
	grep -q "element read error: Remote I/O error" out.get ||
		fail "cget '$ctl' did not fail although the resume failed: $(cat out.get)"
	info "cget '$ctl': $(grep error out.get)"
	if amixer -c "$C" cset name="$ctl" 1 >out.set 2>&1 &&
	   ! grep -q "error" out.set; then
		fail "cset '$ctl' succeeded although the resume failed: $(cat out.set)"
	fi
	info "cset '$ctl': $(grep error out.set)"
	assert_file_eq $B/power/runtime_usage "$usage"
done
expect_dmesg "1-3.3.1: failed to resume"
gbsim ctl log | grep -q "bundle_resume.*refused\|refused.*resume failed" ||
	info "(no refusal line in gbsim's log)"
n=$(gbsim ctl log | grep -c "audio 3: [gs]et control") || true
assert_eq "$n" "$ops" "get/set control operations that reached the module"
if gbsim ctl log | grep -q "to suspended bundle"; then
	fail "an operation reached the suspended bundle"
fi

# Once the module resumes again, so do the controls
gbsim ctl pm 3 1 accept-resume || fail "pm accept-resume failed"
amixer -c "$C" cset name='GB 3 AIF1_RX MUX' 1 >/dev/null || fail "cset failed after the module accepted resumes"
assert_eq "$(cget 'GB 3 AIF1_RX MUX')" 1 "AIF1_RX MUX after recovery"
wait_file_eq 10 $B/power/runtime_status suspended || fail "bundle did not suspend after recovery"
assert_file_eq $B/power/runtime_usage "$usage"

# Removal after the failed resumes: clean, the card goes
gbsim ctl remove 3 || fail "remove failed"
wait_for 20 no_card || fail "card still there after removal"
wait_for 10 test ! -e $B || fail "bundle still there"

kill -TERM $pid
wait $pid
unload_all_gb
