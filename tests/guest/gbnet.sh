# SPDX-License-Identifier: GPL-2.0
# The TCP cases' helpers: gbsim nodes on 127.0.0.x and one gbnet in
# front of them.  Source after lib.sh.  Every process started here is
# killed by the runner's cgroup at the end of the case.

M=/usr/share/greybus/manifests
DEV=/sys/bus/greybus/devices
GBNET_CTL=$GBTEST_TMP/gbnet.ctl
export GBNET_CTL

# node_start N MANIFEST [ARGS...]: gbsim serving MANIFEST at 127.0.0.N:4242,
# with its control socket $GBTEST_TMP/nodeN.ctl and log nodeN.log
node_start() {
	local n=$1 m=$2
	shift 2
	gbsim --node tcp:127.0.0.$n:4242 -m 2:$M/$m --ctl "$GBTEST_TMP/node$n.ctl" \
		--log "$GBTEST_TMP/node$n.log" "$@" 2>"$GBTEST_TMP/node$n.err" &
	eval "node_pid_$n=$!"
	gbsim ctl -s "$GBTEST_TMP/node$n.ctl" -w 10 tcp >/dev/null ||
		fail "node $n did not start: $(cat "$GBTEST_TMP/node$n.err")"
}

# node_ctl N ARGS...: gbsim ctl of node N
node_ctl() {
	local n=$1
	shift
	gbsim ctl -s "$GBTEST_TMP/node$n.ctl" "$@"
}

# gbnet_start ARGS...: gbnet with its control socket and log
gbnet_start() {
	gbnet --ctl "$GBNET_CTL" --log "$GBTEST_TMP/gbnet.log" "$@" \
		2>"$GBTEST_TMP/gbnet.err" &
	gbnet_pid=$!
	gbnet ctl -w 10 status >/dev/null ||
		fail "gbnet did not start: $(cat "$GBTEST_TMP/gbnet.err")"
}

# node_intf N: the interface id gbnet gave the node at 127.0.0.N:4242
node_intf() {
	gbnet ctl list | sed -n "s/^127\.0\.0\.$1\(:[0-9]*\)\{0,1\} .* intf=\([0-9-]*\) .*/\2/p"
}

# node_state N: up, down or connecting
node_state() {
	gbnet ctl list | sed -n "s/^127\.0\.0\.$1\(:[0-9]*\)\{0,1\} state=\([a-z]*\) .*/\2/p"
}

# the host device's bus number (greybusN), once there is one
gbnet_bus() {
	local d
	for d in "$DEV"/greybus*; do
		[ -e "$d" ] && { echo "${d##*/greybus}"; return 0; }
	done
	return 1
}

gbnet_tail() {
	echo "gbnet: $(tail -n 15 "$GBTEST_TMP/gbnet.log" 2>/dev/null) $(cat "$GBTEST_TMP/gbnet.err" 2>/dev/null)"
}

# For wait_for, which runs its command again at each try (a "$(...)" in
# its arguments would be read once, before the first):
# node_is N STATE: the node is in that state
node_is() {
	[ "$(node_state "$1")" = "$2" ]
}
# node_field N KEY: KEY=VALUE of the node's line in gbnet ctl list
node_field() {
	gbnet ctl list | sed -n "s/^127\.0\.0\.$1\(:[0-9]*\)\{0,1\} .* $2=\([^ ]*\).*/\2/p"
}
# node_above N KEY VALUE: the node's KEY is above VALUE
node_above() {
	[ "$(node_field "$1" "$2")" -gt "$3" ] 2>/dev/null
}
