# An audio module is a sound card: inserting the speaker module (its topology compiled by gbsim from manifests/audio-speaker.topo) creates card "GB Audio 3" with the topology's controls (amixer lists them, with the "GB 3" prefix), gb-audio-manager lists the module and announces it with an add uevent carrying SUBSYSTEM, GB_AUDIO_BUNDLE and GB_AUDIO_INTF_ID (and a remove uevent with the same at removal), an integer control round-trips through gbsim, and removal takes card and listing away cleanly; a second insertion brings them back. Hostile topologies (too short, sections that do not add up or overflow, no DAI, an unterminated name) are refused with a 'bad topology' line, no card and the bundle unbound; a malformed .topo file stops gbsim before it starts, with the line and the reason.
# timeout: 150
# tools: amixer
# kmods: snd-soc-core
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/audio.sh

grep -q "Greybus audio module at interface 3" /proc/asound/cards || fail "no long name in /proc/asound/cards: $(cat /proc/asound/cards)"
amixer -c "$C" controls >controls || fail "amixer controls failed"
info "controls: $(tr '\n' ' ' <controls)"
for n in 'GB 3 PB source' 'GB 3 Speaker Volume' 'GB 3 AIF1_RX MUX' 'GB 3 SPK Amp Switch'; do
	grep -q "name='$n'" controls || fail "no control '$n'"
done
[ "$(wc -l <controls)" = 4 ] || fail "expected 4 controls, amixer lists $(wc -l <controls)"
expect_dmesg "1-3.3.1: audio module: 1 dais, 2 controls, 6 widgets, 6 routes"

# gb-audio-manager
m=$(grep -l "^GB Audio 3$" /sys/kernel/gb_audio_manager/module-*/name 2>/dev/null | head -n 1)
[ -n "$m" ] || fail "gb-audio-manager does not list module 3"
m=${m%/name}
assert_file_eq $m/bundle 1-3.3.1
assert_file_eq $m/intf_id 3
assert_file_eq $m/num_controls 2
gbsim ctl log | grep -q "INFO    audio: topology $M/audio-speaker.topo: 1 dais, 2 controls, 6 widgets, 6 routes, 868 bytes" ||
	fail "gbsim did not serve audio-speaker.topo: $(gbsim ctl log | grep 'audio:')"

# The manager's uevents: gbtest-ueventd logs every variable of the
# gb_audio_manager events to /run/gbtest/uevent.env ("SEQNUM KEY=VALUE")
E=/run/gbtest/uevent.env
# uev_seqs ACTION: the sequence numbers, since gbsim started, of the events
# ACTION of $m's kobject
uev_seqs() {
	awk -v s="$UEV0" -v d="DEVPATH=/kernel/gb_audio_manager/${m##*/}" \
		'$1 > s && $2 == d { print $1 }' $E | while read -r q; do
		grep -q "^$q ACTION=$1\$" $E && echo "$q"
	done
}
# uev_check ACTION: exactly one such event, with the manager's variables
uev_check() {
	q=$(uev_seqs "$1")
	[ -n "$q" ] || fail "no $1 uevent for ${m##*/}: $(tail -n 12 $E 2>/dev/null)"
	[ "$(echo "$q" | wc -l)" = 1 ] || fail "$1 uevents for ${m##*/}: $(echo $q)"
	for v in "ACTION=$1" "DEVPATH=/kernel/gb_audio_manager/${m##*/}" \
		SUBSYSTEM=gb_audio_manager GB_AUDIO_BUNDLE=1-3.3.1 GB_AUDIO_INTF_ID=3; do
		grep -qx "$q $v" $E || fail "$1 uevent $q has no $v: $(grep "^$q " $E | cut -d' ' -f2- | tr '\n' ' ')"
	done
	info "$1 uevent $q: $(grep "^$q " $E | cut -d' ' -f2- | tr '\n' ' ')"
}
uevent_settle || fail "uevents did not settle"
uev_check add

# Types as the topology declares them
amixer -c "$C" cget name='GB 3 PB source' >pb || fail "cget PB source failed"
grep -q "type=ENUMERATED.*items=2" pb || fail "PB source is not a 2-item enum: $(cat pb)"
grep -q "Item #1 'AIF2'" pb || fail "PB source items: $(cat pb)"
amixer -c "$C" cget name='GB 3 Speaker Volume' >vol || fail "cget volume failed"
grep -q "type=INTEGER.*values=2,min=0,max=100" vol || fail "Speaker Volume: $(cat vol)"
assert_eq "$(cget 'GB 3 Speaker Volume')" "50,50" "initial volume"

# An integer control through to the module and back
amixer -c "$C" cset name='GB 3 Speaker Volume' 30,70 >/dev/null || fail "cset volume failed"
assert_eq "$(cget 'GB 3 Speaker Volume')" "30,70" "volume after cset"
gbsim ctl log | grep -q "audio 3: set control 1 (Speaker Volume) = 30 70" ||
	fail "gbsim did not see the volume set"
amixer -c "$C" cset name='GB 3 SPK Amp Switch' on >/dev/null || fail "cset switch failed"
assert_eq "$(cget 'GB 3 SPK Amp Switch')" "on" "switch after cset"

# Removal: the card goes, cleanly
gbsim ctl remove 3 || fail "remove failed"
wait_for 20 no_card || fail "card still there after removal: $(cat /proc/asound/cards)"
wait_for 10 test ! -e $B || fail "bundle still there"
wait_for 5 test ! -e $m || fail "gb-audio-manager still lists the module"
uevent_settle || fail "uevents did not settle"
uev_check remove

# And back
gbsim ctl insert 3 $M/audio-speaker.mnfs || fail "insert failed"
wait_for 60 has_card || fail "no card after re-insertion"
C=$(card_num)
assert_eq "$(cget 'GB 3 Speaker Volume')" "50,50" "volume of the new module"

kill -TERM $pid
wait $pid
wait_for 20 no_card || fail "card still there after gbsim left"

# A malformed topology source: gbsim refuses it before it starts (status
# 2), naming the line and the fault
sed 's/^type = mux$/type = muxx/' $M/audio-speaker.topo >bad.topo
ln=$(grep -n '^type = muxx$' bad.topo | cut -d: -f1)
GBSIM_AUDIO_TOPOLOGY=bad.topo gbsim -m 3:$M/audio-speaker.mnfs >out3 2>err3
assert_eq "$?" 2 "gbsim's status with a malformed topology"
grep -qF "gbsim: GBSIM_AUDIO_TOPOLOGY: bad.topo:$ln:8: widget 1: type: unknown widget type 'muxx'" err3 ||
	fail "no clear refusal of bad.topo: $(cat err3)"
info "refused: $(cat err3)"

# Hostile topologies (gbsim sends the file's bytes as they are): each is
# refused with one "bad topology" line, the bundle stays unbound, no card
T=$GBTEST_TMP/tplg
GBSIM_AUDIO_TOPOLOGY_RAW=$T gbsim --ctl "$GBSIM_CTL" -l log2 >out2 2>err2 &
pid=$!
gbsim ctl -w 20 status >/dev/null || fail "second gbsim not up"
# hostile WHY: the topology in $T is refused as WHY says
hostile() {
	gbsim ctl insert 4 $M/audio-speaker.mnfs || fail "insert 4 failed"
	wait_for 30 sh -c "dmesg | grep -q '4.4.1: bad topology: $1'" ||
		fail "no 'bad topology: $1' line: $(dmesg | grep '4.4.1' | tail -n 3)"
	b=$(ls -d /sys/bus/greybus/devices/*-4.4.1)
	# the driver link exists while probe runs (and prints the line)
	wait_for 5 test ! -e "$b/driver" || fail "bundle bound with a bad topology ($1)"
	grep -q "GB Audio 4" /proc/asound/cards && fail "card made from a bad topology ($1)"
	gbsim ctl remove 4 || fail "remove 4 failed"
	wait_for 20 test ! -e "$b" || fail "bundle 4 still there"
	info "refused: $1"
}
head -c 10 /dev/zero >$T
hostile "size 10 "
# one dai of 120 bytes claimed, none sent
{ printf '\1\0\0\0\170'; head -c 19 /dev/zero; } >$T
hostile "sections add up to 144 bytes, topology has 24"
# section sizes that overflow 32 bits
{ printf '\1\0\0\0\377\377\377\377\377\377\377\377\31'; head -c 11 /dev/zero; } >$T
hostile "sections add up to 8589934639 bytes, topology has 24"
# no dai
head -c 24 /dev/zero >$T
hostile "no dai"
# a dai whose name fills its 32 bytes
{ printf '\1\0\0\0\170'; head -c 19 /dev/zero; head -c 120 /dev/zero | tr '\0' A; } >$T
hostile "dai name not terminated"

kill -TERM $pid
wait $pid
unload_all_gb
