# SPDX-License-Identifier: GPL-2.0
# Discovery cases' helpers: Debian's avahi-daemon on the guest's system
# D-Bus (dbus-daemon), both with their packaged configuration (tests/run
# packs it with the programs: '# tools: dbus-daemon avahi-daemon
# avahi-publish avahi-browse'), and services announced with avahi-publish.
# The guest has no network card: avahi works on lo, where every
# announcement is also heard.  Source after lib.sh.  Every process started
# here is killed by the runner's cgroup at the end of the case; what they
# leave in /run is cleared by the next avahi_start.

AVAHI_TOOLS="dbus-daemon avahi-daemon avahi-publish avahi-browse"

# avahi_start: the system bus, then avahi-daemon on it; returns once the
# daemon has said its start-up is complete (its host name established)
avahi_start() {
	rm -rf /run/dbus /run/avahi-daemon
	mkdir -p /run/dbus
	ip link set lo up
	dbus-daemon --system --nofork --nopidfile >"$GBTEST_TMP/dbus.log" 2>&1 &
	dbus_pid=$!
	wait_for 20 test -S /run/dbus/system_bus_socket ||
		fail "no system bus: $(cat "$GBTEST_TMP/dbus.log")"
	# in the foreground, its log on stderr (Debian's unit gives -s, for
	# syslog, which the guest does not run)
	avahi-daemon >"$GBTEST_TMP/avahi.log" 2>&1 &
	avahi_pid=$!
	wait_for 30 grep -q 'Server startup complete' "$GBTEST_TMP/avahi.log" ||
		fail "avahi-daemon did not start: $(cat "$GBTEST_TMP/avahi.log")"
}

# avahi_publish_addr NAME ADDR: NAME.local resolves to ADDR (an A or AAAA
# record, without the reverse record), until avahi_withdraw NAME-addr
avahi_publish_addr() {
	avahi-publish -a -R "$1.local" "$2" >"$GBTEST_TMP/pub-$1-addr.log" 2>&1 &
	eval "avahi_pub_$(echo "$1" | tr -c 'a-zA-Z0-9\n' _)_addr=$!"
	wait_for 30 grep -q 'Established under name' "$GBTEST_TMP/pub-$1-addr.log" ||
		fail "address of $1 not published: $(cat "$GBTEST_TMP/pub-$1-addr.log")"
}

# avahi_publish_node NAME PORT [TXT...]: a _greybus._tcp service NAME on
# host NAME.local, port PORT, until avahi_withdraw NAME
avahi_publish_node() {
	local name=$1 port=$2
	shift 2
	avahi-publish -s -H "$name.local" "$name" _greybus._tcp "$port" "$@" \
		>"$GBTEST_TMP/pub-$name.log" 2>&1 &
	eval "avahi_pub_$(echo "$name" | tr -c 'a-zA-Z0-9\n' _)=$!"
	wait_for 30 grep -q 'Established under name' "$GBTEST_TMP/pub-$name.log" ||
		fail "service $name not published: $(cat "$GBTEST_TMP/pub-$name.log")"
}

# avahi_withdraw NAME | NAME-addr: end that avahi-publish (its records
# go, with avahi's goodbye announcement)
avahi_withdraw() {
	local v pid
	v=avahi_pub_$(echo "$1" | sed 's/-addr$//' | tr -c 'a-zA-Z0-9\n' _)
	case $1 in *-addr) v=${v}_addr ;; esac
	eval "pid=\${$v:-}"
	[ -n "$pid" ] || fail "avahi_withdraw: nothing published as $1"
	kill "$pid"
	wait "$pid" 2>/dev/null
	return 0
}
