# Checks the raw ECHO_REQUEST/ECHO_REPLY round trip (the transport baseline) and prints its latency.
# transport: vhd
# timeout: 120
. /usr/lib/gbtest/lib.sh

load_gb gb-vhd
for size in 0 64 2048; do
	line=$(vhdtest echo --count 300 --size "$size") || fail "vhdtest echo --size $size failed"
	info "$line"
	case $line in
	"echo size=$size count=300 min_us="*median_us=*p99_us=*) ;;
	*) fail "unexpected vhdtest echo output: $line" ;;
	esac
done
line=$(vhdtest echo --count 50 --size 65539 --create) || fail "largest echo with a host device failed"
info "$line"
exit 0
