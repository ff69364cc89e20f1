# Checks gb-raw: autoloaded for a raw bundle, /dev/gb/raw0 (class gb_raw), a write reaching gbsim as a send and its echo read back byte for byte, one packet per read, poll (readable only with a packet queued), a read too small refused, oversized writes refused, a bad send from the module refused, and a blocked reader woken with an error when the module goes.
# timeout: 90
# tools: perl
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
R=/dev/gb/raw0
LOG=$GBTEST_TMP/gbsim.log
export GBSIM_CTL=$GBTEST_TMP/ctl

load_gb greybus gb-vhd
gbsim --ctl "$GBSIM_CTL" -l "$LOG" -m 2:$M/raw.mnfs 2>gbsim.err &
pid=$!
wait_for 30 test -c $R || fail "no $R: $(ls /dev/gb 2>&1) $(cat gbsim.err)"
test -e '/sys/class/gb_raw/gb!raw0' || fail "no gb!raw0 in class gb_raw"
grep -q '^gb_raw ' /proc/modules || fail "gb-raw not autoloaded"

exec 3<>$R
printf 'hello\000\001\377raw' >pkt
assert_eq "$(wc -c <pkt)" 11 "test packet size"
dd if=pkt bs=8192 count=1 >&3 2>/dev/null || fail "write failed"
grep -q 'raw echo 11 bytes' "$LOG" || fail "gbsim did not get 11 bytes: $(grep raw "$LOG" | tail -5)"
got=$(dd bs=8192 count=1 <&3 2>/dev/null | od -An -tx1 | tr -d ' \n')
assert_eq "$got" 68656c6c6f0001ff726177 "echo of 11 bytes"
printf 'one' >&3
printf 'two!' >&3
assert_eq "$(dd bs=8192 count=1 <&3 2>/dev/null)" one "first packet"
assert_eq "$(dd bs=8192 count=1 <&3 2>/dev/null)" two! "second packet"
printf 'abcdef' >&3
dd bs=2 count=1 <&3 >/dev/null 2>err && fail "a 2-byte read of a 6-byte packet succeeded"
assert_eq "$(dd bs=8192 count=1 <&3 2>/dev/null)" abcdef "packet after a short read"
head -c 8193 /dev/zero | dd bs=8193 count=1 >&3 2>/dev/null && fail "an 8193-byte write succeeded"
head -c 1024 /dev/urandom >big
dd if=big bs=1024 count=1 >&3 2>/dev/null || fail "a 1024-byte write failed"
dd bs=8192 count=1 <&3 >back 2>/dev/null
cmp -s big back || fail "the 1024-byte echo differs ($(wc -c <back) bytes)"
exec 3<&-

# poll: not readable while nothing is queued, readable once the echo is
if command -v perl >/dev/null 2>&1; then
	out=$(perl -e '
		open(my $f, "+<", $ARGV[0]) or die "open: $!";
		my $r = ""; vec($r, fileno($f), 1) = 1;
		my $w = $r;
		print scalar(select(my $x = $r, undef, undef, 0.3)), " ";
		print scalar(select(undef, my $y = $w, undef, 0)), " ";
		syswrite($f, "polled") == 6 or die "write: $!";
		print scalar(select($x = $r, undef, undef, 5)), " ";
		sysread($f, my $b, 8192); print "$b\n";
	' $R 2>&1)
	assert_eq "$out" "0 1 1 polled" "poll before/after the echo"
else
	info "no perl in the guest: poll not checked"
fi

# a send from the module whose size field lies
gbsim ctl request 2:1 raw.send 0900000061 >/dev/null
expect_dmesg 'gb!raw0: send request of 1 bytes says 9'
gbsim ctl request 2:1 raw.send 00 >/dev/null
expect_dmesg 'gb!raw0: send request too short'

# a failing send: write() gets the error
gbsim ctl fault add intf=2 type=raw.send result=invalid >/dev/null
printf 'x' >$R 2>/dev/null && fail "a refused send reported success"
gbsim ctl fault clear >/dev/null

# a reader blocked in read() when the module goes: woken with an error
dd if=$R bs=8192 count=1 >out 2>err &
reader=$!
wait_for 10 held_open $R || fail "the reader did not open $R: $(cat err)"
sleep 0.5	# no data comes: dd stays in read()
kill -0 $reader 2>/dev/null || fail "the reader did not block"
gbsim ctl remove 2 >/dev/null || fail "remove failed"
wait_for 10 test ! -e $R || fail "$R still there after removal"
wait $reader && fail "the blocked read succeeded after removal"
grep -qi 'no such device' err || fail "read error was not ENODEV: $(cat err)"

kill -TERM $pid
wait $pid || fail "gbsim exited with $?: $(cat gbsim.err)"
unload_all_gb
