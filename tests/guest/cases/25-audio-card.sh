# An audio module is a sound card: inserting the speaker module creates card "GB Audio 3" with the topology's controls (amixer lists them, with the "GB 3" prefix), gb-audio-manager lists the module, an integer control round-trips through gbsim, and removal takes card and listing away cleanly; a second insertion brings them back.
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
expect_dmesg "1-3.3.1: audio module: 1 dais, 2 controls, 4 widgets, 5 routes"

# gb-audio-manager
m=$(grep -l "^GB Audio 3$" /sys/kernel/gb_audio_manager/module-*/name 2>/dev/null | head -n 1)
[ -n "$m" ] || fail "gb-audio-manager does not list module 3"
m=${m%/name}
assert_file_eq $m/bundle 1-3.3.1
assert_file_eq $m/intf_id 3
assert_file_eq $m/num_controls 2
grep -q "GB_AUDIO_BUNDLE=1-3.3.1" /run/gbtest/uevent.log || info "(uevent log has no GB_AUDIO_BUNDLE line)"

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

# And back
gbsim ctl insert 3 $M/audio-speaker.mnfs || fail "insert failed"
wait_for 60 has_card || fail "no card after re-insertion"
C=$(card_num)
assert_eq "$(cget 'GB 3 Speaker Volume')" "50,50" "volume of the new module"

kill -TERM $pid
wait $pid
wait_for 20 no_card || fail "card still there after gbsim left"
unload_all_gb
