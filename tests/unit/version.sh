#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One --version format for every tool a user runs (the Makefile's
# USER_TOOLS) and for the control clients `gbsim ctl` and `gbnet ctl`:
# -V and --version print exactly "TOOL (greybus tools) VERSION" and
# "commit HASH", dist/version's, and exit 0.
# Prints "ok - NAME" lines for tests/unit/run; honours $T.
#
# Usage: version.sh BINDIR/ANYTHING [IGNORED...]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BINDIR=$(dirname "${1:?usage: version.sh BINDIR/NAME}")
. "$(dirname "$0")/lib/tap.sh"
exec </dev/null
export LC_ALL=C
wanted version || exit 0
want_v=$("$TOP/dist/version")
want_c=$("$TOP/dist/version" --commit)
tools=$(sed -n 's/^USER_TOOLS[[:space:]]*:=[[:space:]]*//p' "$TOP/Makefile")
[ -n "$tools" ] || { echo "not ok - version: no USER_TOOLS in the Makefile"; exit 0; }

for cmd in $tools "gbsim ctl" "gbnet ctl"; do
	tool=${cmd%% *}
	bad=
	for opt in -V --version; do
		# shellcheck disable=SC2086
		out=$("$BINDIR"/$cmd $opt 2>&1); rc=$?
		[ $rc = 0 ] && [ "$out" = "$tool (greybus tools) $want_v"$'\n'"commit $want_c" ] ||
			bad="$bad $opt: exit $rc, '$out'"
	done
	if [ -z "$bad" ]; then
		echo "ok - version: $cmd -V and --version: '$tool (greybus tools) $want_v', 'commit ${want_c:0:12}...'"
	else
		echo "not ok - version: $cmd -V and --version"
		echo "#  $bad"
	fi
done
