#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every header of include/uapi/greybus compiles on its own in userspace,
# twice in a row (its include guard), with -Wall -Wextra -Werror, as C11,
# GNU C11, C99 and GNU C99 with gcc and as C++11 and C++98 with g++:
# a header that uses something it does not include, or anything the
# kernel's uapi headers do not export, fails here.  Each mode also builds
# a wrong GB_ASSERT_SIZE(), which must fail: between them the modes take
# each of the ways greybus.h has of checking a size in userspace.  The
# headers include nothing but <linux/...> uapi headers and each other.
# Prints "ok - NAME" lines for tests/unit/run; honours $T.
#
# Usage: uapi_headers.sh [IGNORED...]

TOP=$(cd "$(dirname "$0")/../.." && pwd)
HDRS=$TOP/include/uapi/greybus
. "$(dirname "$0")/lib/tap.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
exec </dev/null

# C++ cannot take a structure field named class (manifest.h, see greybus.h).
CXX_SKIP="manifest.h"

report() {	# NAME OK [FILE WITH DIAGNOSTICS]
	if [ "$2" = 1 ]; then
		echo "ok - $1"
	else
		echo "not ok - $1"
		[ -n "${3:-}" ] && head -n 30 "$3" | sed 's/^/# /'
	fi
}

# compile COMPILER-AND-FLAGS LANG SOURCE LOG: compile SOURCE to nothing
compile() {
	$1 -x "$2" -Wall -Wextra -Werror -I"$TOP/include" -c -o /dev/null "$3" \
		>>"$4" 2>&1
}

modes=(
	"gcc -std=c11:c"
	"gcc -std=gnu11:c"
	"gcc -std=c99:c"
	"gcc -std=gnu99:c"
	"g++ -std=c++11:c++"
	"g++ -std=c++98:c++"
)

for m in "${modes[@]}"; do
	cc=${m%:*} lang=${m##*:}
	name="uapi headers alone: $cc"
	if wanted "$name"; then
		log=$WORK/log n=0 good=1
		: >"$log"
		for h in "$HDRS"/*.h; do
			b=$(basename "$h")
			[ "$lang" = c++ ] && [[ " $CXX_SKIP " == *" $b "* ]] && continue
			src=$WORK/one.$lang
			printf '#include <uapi/greybus/%s>\n#include <uapi/greybus/%s>\n' \
				"$b" "$b" >"$src"
			compile "$cc" "$lang" "$src" "$log" || good=0
			n=$((n + 1))
		done
		[ $n -gt 0 ] || { echo "no headers in $HDRS" >"$log"; good=0; }
		report "$name ($n headers)" $good "$log"
	fi

	name="uapi GB_ASSERT_SIZE rejects a wrong size: $cc"
	if wanted "$name"; then
		log=$WORK/log good=1
		src=$WORK/right.$lang
		printf '#include <uapi/greybus/greybus.h>\n%s\n%s\n' \
			'struct gb_t3 { __u8 b[3]; } GB_PACKED;' \
			'GB_ASSERT_SIZE(struct gb_t3, 3);' >"$src"
		printf 'the right size was rejected:\n' >"$log"
		compile "$cc" "$lang" "$src" "$log" || good=0
		if [ $good = 1 ]; then
			src=$WORK/wrong.$lang
			printf '#include <uapi/greybus/greybus.h>\n%s\n%s\n' \
				'struct gb_t3 { __u8 b[3]; } GB_PACKED;' \
				'GB_ASSERT_SIZE(struct gb_t3, 4);' >"$src"
			printf 'a wrong size compiled\n' >"$log"
			compile "$cc" "$lang" "$src" /dev/null && good=0
		fi
		report "$name" $good "$log"
	fi
done

name="uapi headers include only linux/ uapi headers and each other"
if wanted "$name"; then
	bad=$(grep -HnE '^[[:space:]]*#[[:space:]]*include' "$HDRS"/*.h |
		grep -vE '#[[:space:]]*include[[:space:]]+(<linux/[a-z0-9_/]+\.h>|"[a-z0-9_]+\.h")')
	if [ -z "$bad" ]; then
		report "$name" 1
	else
		printf '%s\n' "$bad" >"$WORK/log"
		report "$name" 0 "$WORK/log"
	fi
fi
exit 0
