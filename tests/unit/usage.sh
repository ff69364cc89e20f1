#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One usage-error form for every tool a user runs (the Makefile's
# USER_TOOLS, tools/lib/gb_cli.h): an unknown option is one line on
# stderr, "TOOL: unknown option '--bogus'; try 'TOOL --help'", nothing on
# stdout, exit status 2.
# Prints "ok - NAME" lines for tests/unit/run; honours $T.
#
# Usage: usage.sh BINDIR/ANYTHING [IGNORED...]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BINDIR=$(dirname "${1:?usage: usage.sh BINDIR/NAME}")
. "$(dirname "$0")/lib/tap.sh"
exec </dev/null
export LC_ALL=C
wanted usage || exit 0
tools=$(sed -n 's/^USER_TOOLS[[:space:]]*:=[[:space:]]*//p' "$TOP/Makefile")
[ -n "$tools" ] || { echo "not ok - usage: no USER_TOOLS in the Makefile"; exit 0; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

for tool in $tools; do
	"$BINDIR/$tool" --bogus >"$W/out" 2>"$W/err"; rc=$?
	want="$tool: unknown option '--bogus'; try '$tool --help'"
	if [ $rc = 2 ] && [ ! -s "$W/out" ] && [ "$(cat "$W/err")" = "$want" ]; then
		echo "ok - usage: $tool --bogus: \"$want\", exit 2"
	else
		echo "not ok - usage: $tool --bogus"
		echo "#  exit $rc, stdout '$(head -c 200 "$W/out")', stderr '$(head -c 300 "$W/err")'"
	fi
done
