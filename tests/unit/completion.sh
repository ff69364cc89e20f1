#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dist/bash-completion against the tools themselves (their sanitizer
# builds): for each of gbsim, mnfc, lsgb, gbfw, gbnet and gbattach,
#   - every option its --help shows taking an argument (and the ctl
#     client's, for gbsim and gbnet) has an arm of the completion's
#     `case $prev`, so its value is never completed as an option or a
#     command, and the arms name no option the tool does not have;
#   - the command words offered are the tool's commands: gbfw's usage
#     lines, gbnet ctl -h's, and gbsim's control socket's own `help`
#     (a gbsim on a pseudo-terminal, no kernel needed).
# Prints "ok - NAME" lines for tests/unit/run; honours $T.
#
# Usage: completion.sh BINDIR/ANYTHING [IGNORED...]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BINDIR=$(dirname "${1:?usage: completion.sh BINDIR/NAME}")
COMP=$TOP/dist/bash-completion
. "$(dirname "$0")/lib/tap.sh"
exec </dev/null
export LC_ALL=C
wanted completion || exit 0
W=$(mktemp -d)
trap 'rm -rf "$W"; [ -n "${sim:-}" ] && kill "$sim" 2>/dev/null' EXIT

# help_opts: option lines of a help text on stdin -> "NAME ARG" per
# option name (ARG 1 when it takes a value: one space or '=' then a word)
help_opts() {
	perl -ne 'next unless /^\s{1,8}(?:(-\w),\s)?(--?[\w-]+)(?:(=|\s)(\S))?/;
		my $arg = defined $4 ? 1 : 0;
		print "$1 $arg\n" if defined $1; print "$2 $arg\n"'
}
# body TOOL: the completion function of TOOL
body() { sed -n "/^_gb_$1()/,/^}/p" "$COMP" | sed -e :a -e '/\\$/{N;s/\\\n//;ba' -e '}'; }
# arms TOOL: every option named by a case pattern of its function
arms() {
	body "$1" | sed -n 's/^[[:space:]]*\(-[^)]*\))[[:space:]].*/\1/p; s/^[[:space:]]*\(-[^)]*\))$/\1/p' |
		tr -d ')' | tr '|' '\n' | tr -d ' \t' | grep -vx -- '-\*' | grep . | sort -u
}
# words TOOL WORD: the compgen -W list of its function that holds WORD
words() {
	body "$1" | grep -o "compgen -W '[^']*'" | sed "s/compgen -W '//; s/'\$//" |
		grep -w -- "$2" | head -n 1 | tr ' ' '\n' | grep . | sort
}

for tool in gbsim mnfc lsgb gbfw gbnet gbattach; do
	name="completion: $tool's options that take a value have their case arm"
	{
		"$BINDIR/$tool" --help 2>&1
		case $tool in gbsim | gbnet) "$BINDIR/$tool" ctl -h 2>&1 ;; esac
	} | help_opts | sort -u >"$W/$tool.opts"
	if ! [ -s "$W/$tool.opts" ]; then
		echo "not ok - $name (no options in $tool --help)"; continue
	fi
	arms "$tool" >"$W/$tool.arms"
	missing=$(awk '$2 == 1 { print $1 }' "$W/$tool.opts" | sort -u | comm -23 - "$W/$tool.arms")
	stale=$(comm -13 <(cut -d' ' -f1 "$W/$tool.opts" | sort -u) "$W/$tool.arms")
	if [ -z "$missing$stale" ]; then
		echo "ok - $name ($(awk '$2 == 1' "$W/$tool.opts" | wc -l)), and no other"
	else
		echo "not ok - $name, and no other"
		[ -n "$missing" ] && echo "#   no arm for: $(echo $missing)"
		[ -n "$stale" ] && echo "#   arms for options $tool does not have: $(echo $stale)"
	fi
done

cmp_words() {	# NAME WANT-FILE HAVE-FILE
	if [ -s "$2" ] && diff -q "$2" "$3" >/dev/null; then
		echo "ok - $1: $(tr '\n' ' ' <"$2" | sed 's/ $//')"
	else
		echo "not ok - $1"
		diff "$2" "$3" | grep '^[<>]' | sed 's/^</#   the tool has:/; s/^>/#   the completion has:/'
	fi
}

# gbfw: the commands of its usage lines
"$BINDIR/gbfw" --help 2>&1 | sed -n 's/^\(Usage\|  or\): *gbfw \(\[[^]]*\]\.*  *\)*\([a-z-]*\).*/\3/p' | sort -u >"$W/gbfw.cmds"
words gbfw intf-version >"$W/gbfw.words"
cmp_words "completion: gbfw's commands are its usage lines'" "$W/gbfw.cmds" "$W/gbfw.words"

# gbnet ctl: the Commands: section of gbnet ctl -h
"$BINDIR/gbnet" ctl -h 2>&1 | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\).*/\1/p' | sort -u >"$W/gbnet.cmds"
words gbnet status >"$W/gbnet.words"
cmp_words "completion: gbnet ctl's commands are gbnet ctl -h's" "$W/gbnet.cmds" "$W/gbnet.words"

# gbsim ctl: what a running gbsim's help command lists
"$BINDIR/gbsim" --transport hdlc --pty --ctl "$W/ctl" >"$W/gbsim.log" 2>&1 &
sim=$!
"$BINDIR/gbsim" ctl -w 20 -s "$W/ctl" help 2>&1 | awk '{ print $1 }' | sort -u >"$W/gbsim.cmds"
kill "$sim" 2>/dev/null; wait "$sim" 2>/dev/null; sim=
words gbsim insert >"$W/gbsim.words"
cmp_words "completion: gbsim ctl's commands are those of gbsim's control socket" "$W/gbsim.cmds" "$W/gbsim.words"
