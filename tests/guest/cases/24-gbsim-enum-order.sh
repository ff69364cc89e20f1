# Checks that gbsim's log shows activation and enumeration in protocol order, hello to bundle activate.
# timeout: 60
. /usr/lib/gbtest/lib.sh

need_tool gbsim
M=/usr/share/greybus/manifests
for m in test-vendor; do
	[ -r "$M/$m.mnfs" ] || fail "no $M/$m.mnfs in the guest"
done
DEV=/sys/bus/greybus/devices
LOG=$GBTEST_TMP/gbsim.log

load_gb greybus gb-vhd
# a bundle a driver binds to: only then are its connections made
gbsim --log "$LOG" --module 2:$M/test-vendor.mnfs 2>"$GBTEST_TMP/gbsim.err" &
pid=$!
wait_for 20 test -e "$DEV/1-2.2.1/driver" ||
	fail "no driver bound to 1-2.2.1: $(ls $DEV 2>&1 | tr '\n' ' ')"
uevent_settle 10

# Each step is the first matching line after the previous step.  As in
# Linux, the bundle is activated before its driver's probe sets up the
# bundle's connection (SVC connection create, then Control connected).
last=0
for step in \
	'SVC>AP  cport 0 svc[.]svc_hello req' \
	'SVC>AP  cport 0 svc[.]module_inserted req .*intf=2 ' \
	'AP>SVC  cport 0 svc[.]intf_vsys_enable req .*intf=2' \
	'AP>SVC  cport 0 svc[.]intf_refclk_enable req .*intf=2' \
	'AP>SVC  cport 0 svc[.]intf_unipro_enable req .*intf=2' \
	'AP>SVC  cport 0 svc[.]intf_activate req .*intf=2' \
	'AP>SVC  cport 0 svc[.]conn_create req .*intf2=2 cport2=0 ' \
	'AP>MOD  cport [0-9]* intf 2:0 control[.]version req' \
	'AP>MOD  cport [0-9]* intf 2:0 control[.]get_manifest_size req' \
	'AP>MOD  cport [0-9]* intf 2:0 control[.]get_manifest req' \
	'AP>MOD  cport [0-9]* intf 2:0 control[.]bundle_activate req .*bundle=1' \
	'AP>SVC  cport 0 svc[.]conn_create req .*intf2=2 cport2=1 ' \
	'AP>MOD  cport [0-9]* intf 2:0 control[.]connected req .*cport=1' \
	'AP>MOD  cport [0-9]* intf 2:1 test[.]echo req'
do
	n=$(awk -v after="$last" -v re="$step" 'NR > after && $0 ~ re { print NR; exit }' "$LOG")
	[ -n "$n" ] || fail "no '$step' after line $last of the gbsim log"
	info "line $n: $step"
	last=$n
done

kill -TERM "$pid"
wait "$pid" || fail "gbsim exited with $?: $(cat "$GBTEST_TMP/gbsim.err")"
exit 0
