# SPDX-License-Identifier: GPL-2.0
# The serial link (docs/hdlc.md): gb-hdlc's line discipline on a
# pseudo-terminal whose other end gbsim plays (`gbsim --pty --attach`
# opens the pair and runs gbattach on the slave).  Source after lib.sh.
#
#   hdlc_setup          load greybus and gb-hdlc; links made from now on
#                       carry messages up to HDLC_MTU bytes toward the
#                       peer (default: gb-hdlc's own, 250, a CC1352's)
#   hdlc_use            hdlc_setup with gbsim's own limit (2048), and make
#                       every later `gbsim` of the case run over the link
#                       (lib.sh does it when GB_TRANSPORT=hdlc)
#   hdlc_bus            the greybusN of the (one) serial link, or nothing
#   hdlc_stat NAME      a counter of that link (greybusN/hdlc/NAME)
#   hdlc_rerun CASE     run case CASE instead, with GB_TRANSPORT=hdlc
#   cc1352_start ARG... gbsim as BeaglePlay's CC1352 (--personality
#                       cc1352) on a pty it attaches, with ARGs (its
#                       modules, --ctl ...): log in ./log, stdout ./out,
#                       stderr ./err, its pid in $pid; a failing case
#                       shows the log's tail and err (on_fail: redefine
#                       it after the call to show more)

GB_HDLC_BIN=/run/gbtest/hdlcbin
GB_DEVS=/sys/bus/greybus/devices

hdlc_setup() {
	load_gb greybus gb-hdlc
	echo "${HDLC_MTU:-0}" >/sys/module/gb_hdlc/parameters/mtu ||
		fail "hdlc_setup: cannot set gb-hdlc's mtu to ${HDLC_MTU:-0}"
}

hdlc_bus() {
	local d
	for d in "$GB_DEVS"/greybus*; do
		[ -r "$d/hdlc/port" ] && { basename "$d"; return 0; }
	done
	return 1
}

hdlc_stat() {
	local b
	b=$(hdlc_bus) || { echo "?"; return 1; }
	cat "$GB_DEVS/$b/hdlc/$1"
}

hdlc_use() {
	HDLC_MTU=2048 hdlc_setup
	if [ ! -x "$GB_HDLC_BIN/gbsim" ]; then
		mkdir -p "$GB_HDLC_BIN"
		cat >"$GB_HDLC_BIN/gbsim.new" <<'WRAP'
#!/bin/sh
case $1 in
ctl|-h|--help|-V|--version) exec /usr/bin/gbsim "$@" ;;
esac
exec /usr/bin/gbsim --pty --attach "$@" >/dev/null
WRAP
		chmod 0755 "$GB_HDLC_BIN/gbsim.new"
		mv "$GB_HDLC_BIN/gbsim.new" "$GB_HDLC_BIN/gbsim"
	fi
	case :$PATH: in
	*:"$GB_HDLC_BIN":*) ;;
	*) PATH=$GB_HDLC_BIN:$PATH; export PATH ;;
	esac
}

hdlc_rerun() {
	[ -r "$GBTEST_DIR/cases/$1.sh" ] || fail "hdlc_rerun: no case $1 in the guest"
	GB_TRANSPORT=hdlc
	export GB_TRANSPORT
	exec sh "$GBTEST_DIR/cases/$1.sh"
}

cc1352_start() {
	gbsim --pty --attach --personality cc1352 -l log "$@" >out 2>err &
	pid=$!
	on_fail() {
		tail -n 30 log
		cat err
	}
}
