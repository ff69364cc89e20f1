# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell unit tests (tests/unit/*.sh) before they leave
# their own directory: what T picks, and one TAP line a check.
#
#   wanted NAME              true if T is empty or NAME contains it
#   tap_report NAME OK [DIAGNOSTIC...]
#                            "ok - NAME" if OK is 1, else "not ok - NAME"
#                            and each DIAGNOSTIC line as a "# " comment;
#                            a failure sets failed=1
#   report                   tap_report, unless a script filters its
#                            lines itself (it defines report after this)

wanted() { [ -z "${T:-}" ] || [[ $1 == *"$T"* ]]; }

tap_report() {
	local name=$1 good=$2 line
	shift 2
	if [ "$good" = 1 ]; then
		echo "ok - $name"
		return 0
	fi
	echo "not ok - $name"
	failed=1
	for line in "$@"; do
		printf '%s\n' "$line" | sed 's/^/# /'
	done
}

report() { tap_report "$@"; }
