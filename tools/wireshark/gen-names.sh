#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The dissector's protocol and operation names come from the tools' own
# decoders (tools/lib/decode, through `gbmon --list-operations`), so
# gbmon, gbsim's log and Wireshark name everything alike.  This rewrites
# the generated block of greybus.lua; with --check it only says whether
# the block is current (tests/unit/gbmon.sh runs that).
#
#   tools/wireshark/gen-names.sh [--check] GBMON [LUAFILE]
set -eu
check=
[ "${1:-}" = --check ] && { check=1; shift; }
gbmon=$1
lua=${2:-$(dirname "$0")/greybus.lua}
block=$(mktemp)
new=$(mktemp)
trap 'rm -f "$block" "$new"' EXIT

"$gbmon" --list-operations | awk '
{
	p = $1; t = $3
	if (!(p in pname)) { pname[p] = $2; order[n++] = p }
	ops[p] = ops[p] sprintf("\t\t[%s] = \"%s\",\n", t, $4)
}
END {
	print "-- BEGIN GENERATED NAMES (tools/wireshark/gen-names.sh)"
	print "local PROTOCOL_NAMES = {"
	for (i = 0; i < n; i++)
		printf("\t[%s] = \"%s\",\n", order[i], pname[order[i]])
	print "}"
	print "local OP_NAMES = {"
	for (i = 0; i < n; i++)
		printf("\t[%s] = {\n%s\t},\n", order[i], ops[order[i]])
	print "}"
	print "-- END GENERATED NAMES"
}' >"$block"

awk -v blockfile="$block" '
/^-- BEGIN GENERATED NAMES/ { while ((getline l < blockfile) > 0) print l; skip = 1; next }
/^-- END GENERATED NAMES/ { skip = 0; next }
!skip { print }' "$lua" >"$new"

if [ -n "$check" ]; then
	cmp -s "$new" "$lua" || { echo "$lua: generated names are stale: run $0" >&2; exit 1; }
	exit 0
fi
cat "$new" >"$lua"
