#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mnfc through its command line: every compiler error path (exit status and
# the exact message), the blob checker's explanations, the options, and a
# compile -> decompile -> compile round trip of every manifests/*.mnfs.
# Prints "ok - NAME" lines for tests/unit/run; honours $T.
#
# Usage: mnfc.sh MNFC_BINARY MANIFEST_DIR

MNFC=${1:?usage: mnfc.sh MNFC MANIFEST_DIR}
MANIFESTS=${2:?usage: mnfc.sh MNFC MANIFEST_DIR}
MANIFESTS=$(cd "$MANIFESTS" && pwd)
. "$(dirname "$0")/lib/tap.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
exec </dev/null
failed=0

# expect NAME STATUS STREAM WANT -- ARGS...: run mnfc with ARGS, require the
# exit status and a line of STREAM (out|err) equal to WANT ("" = no check).
expect() {
	local name=$1 status=$2 stream=$3 want=$4
	shift 5
	wanted "mnfc: $name" || return 0
	"$MNFC" "$@" >out.txt 2>err.txt
	local rc=$? good=1 file=out.txt
	[ "$stream" = err ] && file=err.txt
	[ $rc = "$status" ] || good=0
	if [ -n "$want" ] && ! grep -qxF -- "$want" $file; then
		good=0
	fi
	report "mnfc: $name" $good "exit $rc, want $status" "want $stream: $want" \
		"stdout: $(cat out.txt)" "stderr: $(cat err.txt)"
}

H='[manifest-header]
version-major = 0
version-minor = 1
'

# src NAME STATUS MESSAGE SOURCE: compile SOURCE as case.mnfs, expect the
# exit status and MESSAGE on stderr.
src() {
	printf '%s' "$4" >case.mnfs
	expect "source: $1" "$2" err "$3" -- -o case.mnfb case.mnfs
}

src "syntax error" 1 "case.mnfs:4:1: expected '[section]', 'key = value' or a comment" \
"${H}garbage line
"
src "key outside of any section" 1 "case.mnfs:1:1: key outside of any section" \
"class = 1
$H"
src "unknown section" 1 "case.mnfs:4:2: unknown section [module-descriptor]" \
"${H}[module-descriptor]
"
src "missing ]" 1 "case.mnfs:4:1: missing ']' after section name" \
"${H}[bundle-descriptor 1
"
src "text after ]" 1 "case.mnfs:4:23: unexpected text after ']'" \
"${H}[bundle-descriptor 1] x
"
src "empty section name" 1 "case.mnfs:4:1: empty section name" \
"${H}[]
"
src "blanks around section name" 1 \
"case.mnfs:4:2: section name ' bundle-descriptor 1' has leading or trailing blanks" \
"${H}[ bundle-descriptor 1]
"
src "section without id" 1 \
"case.mnfs:4:2: section [bundle-descriptor] needs an id, e.g. [bundle-descriptor 1]" \
"${H}[bundle-descriptor]
"
src "header with an id" 1 "case.mnfs:1:18: section [manifest-header] takes no id" \
"[manifest-header 1]
version-major = 0
version-minor = 1
"
src "two spaces before id" 1 \
"case.mnfs:4:20: [bundle-descriptor  1]: one space must separate the section type from its id" \
"${H}[bundle-descriptor  1]
"
src "id not a number" 1 "case.mnfs:4:20: bundle-descriptor: 'x' is not a number" \
"${H}[bundle-descriptor x]
"
src "bundle id out of range" 1 \
"case.mnfs:4:20: bundle-descriptor: value 256 is out of range (0..255)" \
"${H}[bundle-descriptor 256]
"
src "cport id out of range" 1 \
"case.mnfs:4:19: cport-descriptor: value 4096 is out of range (0..4095)" \
"${H}[cport-descriptor 4096]
"
src "id with a leading zero" 1 \
"case.mnfs:4:20: bundle-descriptor: '01': a decimal number cannot start with 0 (write 0x.. for hex)" \
"${H}[bundle-descriptor 01]
"
src "string id 0" 1 \
'case.mnfs:4:20: string-descriptor 0: string id 0 is reserved (it means "no string")' \
"${H}[string-descriptor 0]
string = x
"
src "duplicate section" 1 \
"case.mnfs:6:20: duplicate section [bundle-descriptor 1]: already declared at line 4" \
"${H}[bundle-descriptor 1]
class = 0x10
[bundle-descriptor 0x1]
class = 0x11
"
src "duplicate header" 1 \
"case.mnfs:4:2: duplicate section [manifest-header]: already declared at line 1" \
"${H}[manifest-header]
"
src "duplicate interface" 1 \
"case.mnfs:7:2: duplicate section [interface-descriptor]: already declared at line 4" \
"${H}[interface-descriptor]
vendor-string-id = 0
product-string-id = 0
[interface-descriptor]
"
src "unknown key" 1 "case.mnfs:5:1: bundle-descriptor 1: unknown key 'clas'" \
"${H}[bundle-descriptor 1]
clas = 0x10
"
src "features outside the interface" 1 \
"case.mnfs:5:1: bundle-descriptor 1: unknown key 'features'" \
"${H}[bundle-descriptor 1]
features = 1
"
src "duplicate key" 1 \
"case.mnfs:6:1: bundle-descriptor 1: duplicate key 'class': already set at line 5" \
"${H}[bundle-descriptor 1]
class = 0x10
class = 0x11
"
src "missing key name" 1 "case.mnfs:5:1: missing key name before '='" \
"${H}[bundle-descriptor 1]
= 0x10
"
src "missing key" 1 "case.mnfs:4:1: cport-descriptor 1: missing key 'protocol'" \
"${H}[cport-descriptor 1]
bundle = 1
"
src "missing value" 1 "case.mnfs:5:8: bundle-descriptor 1: class: missing value" \
"${H}[bundle-descriptor 1]
class =
"
src "value not a number" 1 \
"case.mnfs:5:9: bundle-descriptor 1: class: 'audio' is not a number" \
"${H}[bundle-descriptor 1]
class = audio
"
src "value out of range" 1 \
"case.mnfs:5:9: bundle-descriptor 1: class: value 256 is out of range (0..255)" \
"${H}[bundle-descriptor 1]
class = 256
"
src "negative value" 1 \
"case.mnfs:5:9: bundle-descriptor 1: class: value -1 is out of range (0..255)" \
"${H}[bundle-descriptor 1]
class = -1
"
src "features out of range" 1 \
"case.mnfs:6:12: interface-descriptor: features: value 0x100 is out of range (0..255)" \
"${H}[interface-descriptor]
vendor-string-id = 0
features = 0x100
product-string-id = 0
"
src "version-major not 0" 1 \
"case.mnfs:2:17: manifest-header: version-major must be 0, not 1" \
"[manifest-header]
version-major = 1
version-minor = 1
"
src "version-minor not 1" 1 \
"case.mnfs:3:17: manifest-header: version-minor must be 1, not 2" \
"[manifest-header]
version-major = 0
version-minor = 2
"
src "missing manifest-header" 1 "case.mnfs: missing [manifest-header] section" \
"[bundle-descriptor 1]
class = 0x10
"
src "missing header key" 1 "case.mnfs:1:1: manifest-header: missing key 'version-minor'" \
"[manifest-header]
version-major = 0
"
src "bundle 0 with a non-control class" 1 \
"case.mnfs:5:9: bundle-descriptor 0: bundle 0 must have class 0x00 (control), not 0x10" \
"${H}[bundle-descriptor 0]
class = 0x10
"
src "control class on another bundle" 1 \
"case.mnfs:5:9: bundle-descriptor 2: class 0x00 (control) is reserved for bundle 0" \
"${H}[bundle-descriptor 2]
class = 0
"
src "cport 0 with a non-control protocol" 1 \
"case.mnfs:6:12: cport-descriptor 0: cport 0 must use protocol 0x00 (control), not 0x02" \
"${H}[cport-descriptor 0]
bundle = 0
protocol = 0x02
"
src "cport 0 outside bundle 0" 1 \
"case.mnfs:5:10: cport-descriptor 0: cport 0 must be in bundle 0, not 1" \
"${H}[cport-descriptor 0]
bundle = 1
protocol = 0
[bundle-descriptor 1]
class = 0x10
"
printf '%s' "${H}
[interface-descriptor]
vendor-string-id = 0
product-string-id = 0

[bundle-descriptor 1]
class = 0x12
[cport-descriptor 2]
bundle = 3
protocol = 0x13
" >audio.mnfs
expect "source: cport whose bundle is not declared" 1 err \
	"audio.mnfs:12:10: cport-descriptor 2: bundle 3 is not declared" -- -o x.mnfb audio.mnfs
src "vendor string not declared" 1 \
"case.mnfs:5:20: interface-descriptor: vendor string 1 is not declared" \
"${H}[interface-descriptor]
vendor-string-id = 1
product-string-id = 0
"
src "product string not declared" 1 \
"case.mnfs:6:21: interface-descriptor: product string 7 is not declared" \
"${H}[interface-descriptor]
vendor-string-id = 1
product-string-id = 7
[string-descriptor 1]
string = v
"
long=$(printf '%0256d' 0)
src "string longer than 255 bytes" 1 \
"case.mnfs:5:10: string-descriptor 1: string is 256 bytes, longer than 255" \
"${H}[string-descriptor 1]
string = $long
"
src "continuation line" 1 \
"case.mnfs:6:3: indented line after a value: configparser would continue the value with it; continuation lines are not supported (unindent it, or put the value on one line)" \
"${H}[bundle-descriptor 1]
class = 0x10
  more
"
# configparser continues a value across blank and comment lines too
src "continuation after a blank line" 1 \
"case.mnfs:7:3: indented line after a value: configparser would continue the value with it; continuation lines are not supported (unindent it, or put the value on one line)" \
"${H}[bundle-descriptor 1]
class = 0x10

  more
"
src "indented section header after a blank line" 1 \
"case.mnfs:7:2: indented line after a value: configparser would continue the value with it; continuation lines are not supported (unindent it, or put the value on one line)" \
"${H}[bundle-descriptor 1]
class = 0x10

 [cport-descriptor 1]
bundle = 1
protocol = 2
"
src "comment at the margin after a value" 0 "" \
"${H}[bundle-descriptor 1]
class = 0x10
; a comment at the margin

[cport-descriptor 1]
bundle = 1
protocol = 2
"
# Manifesto's (Python 2) configparser appends an indented comment line to
# the value above it, across blank lines too: refused, never compiled
# into other bytes than Manifesto's
src "indented comment after a value" 1 \
"case.mnfs:7:3: indented comment after a value: Manifesto's configparser would continue the value with it; start the comment at the margin" \
"${H}[bundle-descriptor 1]
class = 0x10
; a comment at the margin
  ; an indented one
"
src "indented comment after a blank line after a string" 1 \
"case.mnfs:7:2: indented comment after a value: Manifesto's configparser would continue the value with it; start the comment at the margin" \
"${H}[string-descriptor 1]
string = Vendor

 # more about the vendor
"
# Manifesto cuts a string at its first ';' when a blank comes before it
src "string: inline comment cut as Manifesto does" 0 "" \
"${H}[string-descriptor 1]
string = Vendor ; a comment
"
wanted "mnfc: string: inline comment cut as Manifesto does: the bytes" && {
	"$MNFC" -o inl.mnfb case.mnfs 2>/dev/null; "$MNFC" -d inl.mnfb >inl.txt 2>&1
	grep -qx 'string = Vendor' inl.txt
	report "mnfc: string: inline comment cut as Manifesto does: the bytes" $([ $? = 0 ] && echo 1 || echo 0) "$(cat inl.txt)"
}
src "string: a ';' after no blank is text, and so is all after it" 0 "" \
"${H}[string-descriptor 1]
string = a;b ; c
"
wanted "mnfc: string: a ';' after no blank: the bytes" && {
	"$MNFC" -o semi.mnfb case.mnfs 2>/dev/null; "$MNFC" -d semi.mnfb >semi.txt 2>&1
	grep -qx 'string = a;b ; c' semi.txt
	report "mnfc: string: a ';' after no blank: the bytes" $([ $? = 0 ] && echo 1 || echo 0) "$(cat semi.txt)"
}
src "string: starting with ';'" 1 \
"case.mnfs:5:10: string-descriptor 1: string starts with ';', which Manifesto's configparser may take for a comment; write it otherwise" \
"${H}[string-descriptor 1]
string = ;x
"
src "indented key after a section header and a blank line" 0 "" \
"${H}[bundle-descriptor 1]

  class = 0x10
"
src "control character" 1 \
"case.mnfs:5:11: control character 0x01 in source (is this a binary manifest? try -I mnfb)" \
"${H}[string-descriptor 1]
string = a$(printf '\001')b
"
big=$H
s255=$(printf '%0255d' 0)
for i in $(seq 1 255); do big+="[string-descriptor $i]
string = $s255
"; done
src "manifest larger than 65535 bytes" 1 \
"case.mnfs:500:1: string-descriptor 249: the manifest grows to 65740 bytes here, more than the 65535 a manifest can hold" \
"$big"
src "largest string list that fits compiles" 0 "" "$(printf '%s' "$big" | head -n 499)"

# ---- blobs -----------------------------------------------------------------

"$MNFC" -o audio.mnfb "$MANIFESTS/audio.mnfs" 2>/dev/null
# header, interface, bundle 1, cport 1, then cport 2 in the undeclared bundle 3
printf '\x24\x00\x00\x01\x08\x00\x01\x00\x00\x00\x00\x00\x08\x00\x03\x00\x01\x10\x00\x00\x08\x00\x04\x00\x01\x00\x01\x10\x08\x00\x04\x00\x02\x00\x03\x10' >bad.mnfb
# valid, but version 0.2
printf '\x1c\x00\x00\x02\x08\x00\x01\x00\x00\x00\x00\x00\x08\x00\x03\x00\x01\x10\x00\x00\x08\x00\x04\x00\x01\x00\x01\x10' >v02.mnfb
: >empty.mnfb

expect "check: valid blob" 0 out \
	"audio.mnfb: valid manifest: 84 bytes, version 0.1, 2 strings, 1 bundle, 2 cports" -- --check audio.mnfb
expect "check: quiet" 0 out "" -- --check -q audio.mnfb
wanted "mnfc: check: quiet prints nothing" && {
	"$MNFC" --check -q audio.mnfb >out.txt 2>&1
	report "mnfc: check: quiet prints nothing" $([ -s out.txt ] && echo 0 || echo 1) "$(cat out.txt)"
}
expect "check: invalid blob is explained" 1 out \
	"bad.mnfb: offset 0x1c: cport descriptor 2: bundle 3 is not declared" -- --check bad.mnfb
expect "check: empty file" 1 out "empty.mnfb: offset 0x0: manifest is empty" -- --check empty.mnfb
expect "check: source file" 0 out \
	"$MANIFESTS/timesync.mnfs: valid manifest: 80 bytes, version 0.1, 2 strings, 1 bundle, 1 cport, features 0x01" \
	-- --check "$MANIFESTS/timesync.mnfs"
printf '%s' "${H}[bundle-descriptor 1]
clas = 1
" >case.mnfs
expect "check: source with an error" 1 err "case.mnfs:5:1: bundle-descriptor 1: unknown key 'clas'" -- --check case.mnfs
expect "check: standard input" 1 out "<stdin>: offset 0x1c: cport descriptor 2: bundle 3 is not declared" \
	-- --check - <bad.mnfb

expect "decompile: invalid blob" 1 err \
	"mnfc: bad.mnfb: offset 0x1c: cport descriptor 2: bundle 3 is not declared" -- -d bad.mnfb
expect "decompile: version .mnfs cannot express" 1 err \
	"mnfc: v02.mnfb: offset 0x0: manifest version 0.2 cannot be written as .mnfs, which only has 0.1" -- -d v02.mnfb
expect "decompile: source forced as blob" 1 err \
	"mnfc: case.mnfs: offset 0x0: header size 27995 does not match the manifest length 85" -- -d -I mnfb case.mnfs
expect "compile: blob forced as source" 1 err \
	"audio.mnfb:1: NUL byte in source (is this a binary manifest? try -I mnfb)" -- -I mnfs -o x audio.mnfb
cp audio.mnfb audio.bin
expect "check: blob without the .mnfb name" 0 out \
	"audio.bin: valid manifest: 84 bytes, version 0.1, 2 strings, 1 bundle, 2 cports" -- --check audio.bin
cp "$MANIFESTS/timesync.mnfs" timesync.txt
expect "check: source without the .mnfs name" 0 out \
	"timesync.txt: valid manifest: 80 bytes, version 0.1, 2 strings, 1 bundle, 1 cport, features 0x01" \
	-- --check timesync.txt

# Sources whose first two bytes, read as a little-endian number, equal
# their length must still be read as source, from a file of any name and
# from standard input.
for start in '; ' '[m' '#x'; do
	want=$(printf '%s' "$start" | od -An -tu2 --endian=little | tr -d ' ')
	if [ "$start" = '[m' ]; then
		printf '%s\n' '[manifest-header]' 'version-major = 0' 'version-minor = 1'
		grep -v -e '^\[manifest-header\]' -e '^version-m' "$MANIFESTS/timesync.mnfs"
	else
		printf '%s padding comment\n' "$start"
		cat "$MANIFESTS/timesync.mnfs"
	fi >lensrc.txt
	# pad with comment lines of at most 200 bytes to exactly $want bytes
	while have=$(stat -c %s lensrc.txt); [ "$have" -lt "$want" ]; do
		n=$((want - have))
		[ $n -gt 200 ] && n=200
		if [ $n = 1 ]; then echo; else printf ';%*s\n' $((n - 2)) '' | tr ' ' x; fi >>lensrc.txt
	done
	wanted "mnfc: source of length $want starting '$start'" && {
		good=1
		[ "$(stat -c %s lensrc.txt)" = "$want" ] || good=0
		"$MNFC" --check lensrc.txt >out.txt 2>&1 || good=0
		grep -q 'valid manifest: 80 bytes' out.txt || good=0
		"$MNFC" --check - <lensrc.txt >>out.txt 2>&1 || good=0
		grep -q '^<stdin>: valid manifest: 80 bytes' out.txt || good=0
		report "mnfc: source of length $want starting '$start'" $good "$(cat out.txt)"
	}
done

# Rules Linux's parser enforces: --check refuses what greybus.ko refuses,
# with the kernel's reason; compiling still works, with the warning.
printf '%s' "${H}[interface-descriptor]
vendor-string-id = 1
product-string-id = 1
[string-descriptor 1]
string = Acme
[bundle-descriptor 1]
class = 0x10
[cport-descriptor 1]
bundle = 1
protocol = 0x10
" >shared.mnfs
expect "check: vendor and product share a string" 1 out \
	"shared.mnfs: offset 0x4: interface descriptor: vendor and product both name string 1; Linux uses each string once" \
	-- --check shared.mnfs
expect "compile: warns on a shared string" 0 err \
	"mnfc: warning: shared.mnfs: greybus.ko would reject this manifest: offset 0x4: interface descriptor: vendor and product both name string 1; Linux uses each string once" \
	-- -o shared.mnfb shared.mnfs
printf '%s' "${H}[interface-descriptor]
vendor-string-id = 0
product-string-id = 0
[bundle-descriptor 255]
class = 0x10
[cport-descriptor 1]
bundle = 255
protocol = 0x10
" >b255.mnfs
"$MNFC" -o b255.mnfb b255.mnfs 2>/dev/null
wanted "mnfc: decompile: round trip of a bundle 255 and a shared string" && {
	good=1
	for f in b255 shared; do
		"$MNFC" -d $f.mnfb >rt.mnfs 2>rt.err && "$MNFC" -o rt.mnfb rt.mnfs 2>>rt.err &&
			cmp -s $f.mnfb rt.mnfb || good=0
	done
	report "mnfc: decompile: round trip of a bundle 255 and a shared string" $good "$(cat rt.err)"
}
expect "check: bundle id 255" 1 out \
	"b255.mnfs: offset 0xc: bundle descriptor 255: bundle id 255 is reserved (it means no bundle)" \
	-- --check b255.mnfs

printf '%s' "$H" >nointf.mnfs
expect "compile: warns when greybus.ko would reject" 0 err \
	"mnfc: warning: nointf.mnfs: greybus.ko would reject this manifest: offset 0x0: no interface descriptor" \
	-- -o nointf.mnfb nointf.mnfs

# ---- options ---------------------------------------------------------------

expect "option: --help" 0 out "Usage: mnfc [-o OUT] [-I mnfs|mnfb] [-O mnfs|mnfb] FILE|-" -- --help
expect "option: --help lists exit status" 0 out "Exit status: 0 on success, 1 if the input is not a valid manifest or" -- --help
expect "option: --version" 0 out "" -- --version
wanted "mnfc: option: --version text" && {
	"$MNFC" --version >out.txt
	grep -q '^mnfc (greybus tools) [0-9]' out.txt
	report "mnfc: option: --version text" $([ $? = 0 ] && echo 1 || echo 0) "$(cat out.txt)"
}
expect "option: unknown option" 2 err "mnfc: unknown option '--frobnicate'; try 'mnfc --help'" -- --frobnicate x
expect "option: unknown short option" 2 err "mnfc: unknown option '-z'; try 'mnfc --help'" -- -z x
expect "option: option without its argument" 2 err "mnfc: option '-o' needs an argument; try 'mnfc --help'" -- -o
expect "option: no input file" 2 err "mnfc: no input file (use - for standard input); try 'mnfc --help'" --
expect "option: two input files" 2 err "mnfc: too many input files, starting at 'b'; try 'mnfc --help'" -- a b
expect "option: bad format name" 2 err "mnfc: unknown format 'xml' (use mnfs or mnfb); try 'mnfc --help'" -- -I xml a
expect "option: missing input file" 2 err "mnfc: nope.mnfs: No such file or directory" -- nope.mnfs
expect "option: unwritable output" 2 err "mnfc: /nonexistent/x.mnfb: No such file or directory" \
	-- -o /nonexistent/x.mnfb "$MANIFESTS/audio.mnfs"
expect "option: --check with -o" 2 err "mnfc: --check writes no manifest; drop -o, -d and -O; try 'mnfc --help'" \
	-- --check -o x audio.mnfb
expect "option: -d with -O mnfb" 2 err "mnfc: -d contradicts -O mnfb; try 'mnfc --help'" -- -d -O mnfb audio.mnfb
mkdir -p adir
expect "option: a directory for the input" 2 err "mnfc: adir: Is a directory" -- adir
expect "option: a directory for the output" 2 err "mnfc: adir: Is a directory" -- -o adir "$MANIFESTS/audio.mnfs"

# stdin to stdout, both ways, and -o -
wanted "mnfc: stdin and stdout" && {
	good=1
	"$MNFC" - <"$MANIFESTS/audio.mnfs" >s1.mnfb 2>err.txt || good=0
	cmp -s s1.mnfb audio.mnfb || good=0
	"$MNFC" -d - <audio.mnfb >s1.mnfs 2>>err.txt || good=0
	"$MNFC" -o - s1.mnfs >s2.mnfb 2>>err.txt || good=0
	cmp -s s2.mnfb audio.mnfb || good=0
	report "mnfc: stdin and stdout" $good "$(cat err.txt)"
}
wanted "mnfc: -O mnfs on source normalises it" && {
	good=1
	"$MNFC" -O mnfs "$MANIFESTS/audio.mnfs" >n.mnfs 2>err.txt || good=0
	grep -qx 'string = Simple Audio Interface' n.mnfs || good=0
	report "mnfc: -O mnfs on source normalises it" $good "$(cat err.txt)" "$(cat n.mnfs)"
}

# The article's manifest, against bytes worked out by hand (see
# tests/unit/mnfs_test.c for the arithmetic: 4 + 8 + 20 + 28 + 8 + 8 + 8 = 84).
wanted "mnfc: article manifest bytes" && {
	want="54 00 00 01 08 00 01 00 01 02 00 00 14 00 02 00 0b 01 50 72 6f 6a 65 63 74 20 41 72 61 00 00 00 1c 00 02 00 16 02 53 69 6d 70 6c 65 20 41 75 64 69 6f 20 49 6e 74 65 72 66 61 63 65 08 00 03 00 01 12 00 00 08 00 04 00 01 00 01 12 08 00 04 00 02 00 01 13"
	got=$(od -An -v -tx1 audio.mnfb | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
	report "mnfc: article manifest bytes" $([ "$got" = "$want" ] && echo 1 || echo 0) \
		"got  $got" "want $want"
}

# Every example manifest: compile -> decompile -> compile gives identical bytes.
for f in "$MANIFESTS"/*.mnfs; do
	name="mnfc: round trip $(basename "$f")"
	wanted "$name" || continue
	good=1
	"$MNFC" -o a.mnfb "$f" 2>err.txt || good=0
	"$MNFC" -d -o a.mnfs a.mnfb 2>>err.txt || good=0
	"$MNFC" -o b.mnfb a.mnfs 2>>err.txt || good=0
	cmp -s a.mnfb b.mnfb || good=0
	# and the decompiled source is stable under a second round
	"$MNFC" -d -o b.mnfs b.mnfb 2>>err.txt || good=0
	cmp -s a.mnfs b.mnfs || good=0
	[ -s err.txt ] && good=0	# no warnings for the examples either
	report "$name" $good "$(cat err.txt)"
done

exit $failed
