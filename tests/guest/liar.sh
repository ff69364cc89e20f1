# SPDX-License-Identifier: GPL-2.0
# Shared by the cases that plug a lying module in at interface 5 beside a
# working bystander of the same class (106, 107), sourced after lib.sh
# with gbsim running and $D, $M set. The case sets LIAR_MNFS (the liar's
# manifest) and LIAR_DEFAULTS (the gbsim ctl words that undo its knobs),
# and defines liar_left (prints what of the liar is still registered in
# its class) and bystander_ok WHAT (fails unless the bystander works).
#
# bad WHAT REGEX CTL-WORDS...: set a knob or fault with gbsim ctl, plug
# the liar in, wait for one more kernel line "1-5.5.1: REGEX", check that
# its probe failed and left nothing registered, clear the knob, unplug
# it, and check the bystander.

_more() { [ "$(dmesg_since_case | grep -cE "$1")" -gt "$2" ]; }
_liar_unbound() { [ ! -e $D/1-5.5.1/driver ] && [ -z "$(liar_left)" ]; }

bad() {
	local what=$1 regex="1-5\.5\.1: $2" n
	shift 2
	n=$(dmesg_since_case | grep -cE "$regex")
	gbsim ctl "$@" >/dev/null || fail "$what: gbsim ctl $*"
	gbsim ctl insert 5 "$LIAR_MNFS" >/dev/null || fail "insert ($what)"
	wait_for 20 _more "$regex" "$n" ||
		fail "$what: no line matching '$regex': $(dmesg_since_case | grep 1-5 | tail -3)"
	# the probe goes on a little after its line: give it time to unwind
	wait_for 10 _liar_unbound || fail "$what: bundle bound or device left: $(liar_left)"
	uevent_settle 10
	test -e $D/1-5.5.1/driver && fail "$what: bundle bound"
	[ -z "$(liar_left)" ] || fail "$what: registered: $(liar_left)"
	gbsim ctl fault clear >/dev/null
	gbsim ctl $LIAR_DEFAULTS >/dev/null
	gbsim ctl remove 5 >/dev/null || fail "remove ($what)"
	wait_for 10 test ! -e $D/1-5 || fail "1-5 still there ($what)"
	bystander_ok "$what"
	info "$what: refused"
}
