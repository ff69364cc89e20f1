# SPDX-License-Identifier: GPL-2.0
# The setup the TimeSync cases (35-39) share, sourced after lib.sh: greybus
# and gb-vhd loaded, $TS and $FT the debugfs files of greybus1 (see
# docs/timesync.md), gbsim started by ts_start with its control socket in
# $GBSIM_CTL and its log in ./log.

need_tool gbsim
load_gb greybus gb-vhd

M=/usr/share/greybus/manifests
D=/sys/bus/greybus/devices
TS=/sys/kernel/debug/greybus/greybus1/timesync
FT=/sys/kernel/debug/greybus/greybus1/frame_time
export GBSIM_CTL=$GBTEST_TMP/ctl

# ts_start GBSIM-ARGS...: run gbsim in the background ($pid)
ts_start() {
	gbsim --ctl "$GBSIM_CTL" -l log "$@" >out 2>err &
	pid=$!
	wait_for 20 test -e $TS || fail "no $TS: $(cat err)"
}

# ts_field NAME: the value of "NAME: value" in $TS
ts_field() {
	sed -n "s/^$1: //p" $TS
}

_ts_state_is() {
	[ "$(ts_field state)" = "$1" ]
}

# ts_wait_state TIMEOUT STATE: wait until the state is STATE, else fail
ts_wait_state() {
	wait_for "$1" _ts_state_is "$2" ||
		fail "timesync state '$(ts_field state)' after $1 s, want '$2': $(cat $TS)"
}

# ts_members: the names of the members, sorted, on one line
ts_members() {
	sed -n 's/^member \([^:]*\):.*/\1/p' $TS | sort | tr '\n' ' '
}

# ts_series: how many strobe series gbsim has emitted (or dropped)
ts_series() {
	gbsim ctl log | grep -c 'timesync series [0-9]*:' || true
}

# ts_enabled IFID: wait until interface IFID of module IFID is enabled and
# the uevent handler is done with it (a driver it loads late would resume
# a suspended interface behind the case's back)
ts_enabled() {
	wait_file_eq 30 $D/1-$1.$1/status enabled ||
		fail "interface $1 not enabled: $(cat err | tail -n 3)"
	uevent_settle 60 || fail "uevent handler still behind after 60 s"
}
