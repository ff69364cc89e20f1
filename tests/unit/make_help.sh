#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make help` lists every public target of the Makefile, one line each:
# each target of a .PHONY line has its '## ' text and is listed, unless it
# is one of INTERNAL_TARGETS, which are not; nothing else is listed.
# Prints "ok - NAME" lines for tests/unit/run; honours $T.
#
# Usage: make_help.sh [IGNORED...]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib/tap.sh"
exec </dev/null
export LC_ALL=C
wanted make-help || exit 0

# The .PHONY lines, continuation lines joined
phony=$(sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$TOP/Makefile" |
	sed -n 's/^\.PHONY:[[:space:]]*//p' | tr -s ' \t' '\n\n' | grep . | sort -u)
internal=$(sed -n 's/^INTERNAL_TARGETS[[:space:]]*:=[[:space:]]*//p' "$TOP/Makefile" | tr -s ' ' '\n' | grep . | sort -u)
out=$(make -s --no-print-directory -C "$TOP" help 2>&1)
listed=$(sed -n 's/^  \([^ ]*\)  *[^ ].*/\1/p' <<<"$out" | sort)

public=$(comm -23 <(echo "$phony") <(echo "$internal"))
if [ -n "$listed" ] && [ "$public" = "$listed" ]; then
	echo "ok - make-help: lists the $(wc -l <<<"$listed") public targets of .PHONY, no internal one"
else
	echo "not ok - make-help: lists exactly the public targets of .PHONY"
	diff <(echo "$public") <(echo "$listed") | sed 's/^/#   (< .PHONY but not INTERNAL_TARGETS, > make help) /'
fi
# one line each, with a text
if [ -n "$listed" ] && ! grep -qvE '^(Greybus for Linux: .*|  [^ ]+ +[^ ].*)$' <<<"$out" &&
   [ "$(wc -l <<<"$listed")" = "$(sort -u <<<"$listed" | wc -l)" ]; then
	echo "ok - make-help: one line per target, each with its text"
else
	echo "not ok - make-help: one line per target, each with its text"
	sed 's/^/#   /' <<<"$out"
fi
