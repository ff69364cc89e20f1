# Checks that a CC1352 firmware upload over a line discipline (no device tree, no reset or bootloader-backdoor line) is refused with a clear error and leaves the link alone: on 6.12 gb-hdlc registers /sys/class/firmware/cc1352p7-TTY, an image written to it ends with status idle, error "preparing:hw-error" and a kernel log line naming the missing lines, nothing reaches the peer, and the module behind the link still answers; the upload device goes with the link. Debian's 6.1 kernel has no firmware-upload interface (CONFIG_FW_UPLOAD unset): no upload device at all.
# timeout: 150
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh

need_tool gbsim gbattach
M=/usr/share/greybus/manifests
LB=/sys/class/gb_loopback/gb_loopback0
hdlc_setup
load_gb gb-loopback

cc1352_start -m 2:$M/loopback.mnfs
wait_for 30 test -e $LB || fail "no gb_loopback0: $(cat err)"
port=$(hdlc_stat port)

case $(uname -r) in
6.1.*)
	ls -d /sys/class/firmware/cc1352p7* 2>/dev/null &&
		fail "an upload device on a kernel without CONFIG_FW_UPLOAD"
	kill -TERM $pid
	wait $pid || fail "gbsim exited with $?: $(cat err)"
	exit 0
	;;
esac

FW=/sys/class/firmware/cc1352p7-$port
wait_for 10 test -e $FW/loading || fail "no $FW"
rx_before=$(hdlc_stat rx_bytes)
# any image: the refusal comes before it is looked at
dd if=/dev/zero of=img bs=4096 count=176 2>/dev/null
echo 1 >$FW/loading || fail "cannot start an upload"
cat img >$FW/data || fail "cannot write the image"
echo 0 >$FW/loading
wait_file_eq 30 $FW/status idle || fail "the upload did not end"
assert_file_eq $FW/error "preparing:hw-error"
expect_dmesg "firmware upload refused: cc1352p7-$port has no reset and bootloader-backdoor lines" 10

# the link was not touched: the module still answers
echo 0 >$LB/async
echo 8 >$LB/size
echo 3 >$LB/iteration_max
lb_patient $LB
echo 2 >$LB/type
wait_file_eq 60 $LB/type 0 || fail "the transfers after the refusal did not finish"
assert_file_eq $LB/error 0
[ "$(hdlc_stat rx_bytes)" -gt "$rx_before" ] || fail "nothing came over the link after the refusal"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat err)"
wait_for 10 test ! -e $FW || fail "$FW still there after the link went"
