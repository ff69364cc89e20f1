#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gbfw without a device: every usage error is one line naming the reason
# and exits 2 before any device is opened; long options; a path that is
# not gb-firmware's device is refused before it is opened; the hint when
# gb-firmware is not loaded; `list` and the firmware file name from a fake
# sysfs tree laid out as the kernel lays it out.  Prints "ok - NAME"
# lines for tests/unit/run; honours $T.
#
# Usage: gbfw.sh GBFW_BINARY [MANIFEST_DIR]
GBFW=${1:?usage: gbfw.sh GBFW [MANIFEST_DIR]}
case $GBFW in /*) ;; *) GBFW=$PWD/$GBFW ;; esac
. "$(dirname "$0")/lib/tap.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
exec </dev/null

# expect NAME STATUS STDERR-LINE ARGS...: exit status and the whole stderr
expect() {
	local name="gbfw: $1" st=$2 want=$3 got rc
	shift 3
	wanted "$name" || return 0
	got=$("$GBFW" "$@" 2>&1 >/dev/null); rc=$?
	if [ "$rc" = "$st" ] && [ "$got" = "$want" ]; then
		echo "ok - $name"
	else
		echo "not ok - $name"
		printf '# exit %s (want %s)\n# got:  %s\n# want: %s\n' "$rc" "$st" "$got" "$want"
	fi
}

# A fake sysfs: no gb_firmware module, no devices
mkdir -p nosys
S=(--sysfs "$WORK/nosys")
expect "unknown command" 2 "gbfw: unknown command 'bogus'; try 'gbfw --help'" bogus
expect "no command" 2 "gbfw: no command; try 'gbfw --help'"
expect "load without a tag" 2 "gbfw: 'load' takes TAG [unipro|internal]; try 'gbfw --help'" load
expect "too many arguments" 2 "gbfw: 'uid' takes no argument; try 'gbfw --help'" uid x
expect "a tag too long" 2 "gbfw: tag 'abcdefghij' longer than 9 characters; try 'gbfw --help'" load abcdefghij
expect "a bad load method" 2 "gbfw: load method 'flash' is neither unipro nor internal; try 'gbfw --help'" load s3fw flash
expect "unknown long option" 2 "gbfw: unknown option '--frobnicate'; try 'gbfw --help'" --frobnicate load x
expect "unknown short option" 2 "gbfw: unknown option '-z'; try 'gbfw --help'" -z load x
expect "option without its argument" 2 "gbfw: option '--timeout' needs an argument; try 'gbfw --help'" --timeout
expect "bad timeout" 2 "gbfw: timeout '10s' is not a number from 1 to 3600000; try 'gbfw --help'" --timeout 10s load x
expect "bad baud" 2 "gbfw: baud rate '0' is not a number from 1 to 100000000; try 'gbfw --help'" -b 0 load x
expect "timeout on a command that does not wait" 2 \
	"gbfw: 'uid' waits for nothing: no --timeout or --image; try 'gbfw --help'" -t 100 uid
expect "a regular file is no device" 2 "gbfw: $WORK/nosys: not a character device" --device "$WORK/nosys" "${S[@]}" intf-version
expect "a missing device, gb-firmware not loaded" 1 \
	"gbfw: $WORK/none: No such file or directory (gb-firmware is not loaded: modprobe gb-firmware)" \
	"${S[@]}" -d "$WORK/none" intf-version
mkdir -p nosys/module/gb_firmware
expect "a missing device, gb-firmware loaded: no hint" 1 \
	"gbfw: $WORK/none: No such file or directory" "${S[@]}" -d "$WORK/none" intf-version
expect "list without devices" 1 "gbfw: no firmware-management devices" "${S[@]}" list
rm -rf nosys/module
expect "list without gb-firmware" 1 \
	"gbfw: no firmware-management devices (gb-firmware is not loaded: modprobe gb-firmware)" "${S[@]}" list

# The kernel's layout: class device -> bundle, whose parent is the interface
i=sys/devices/virtual/greybus/greybus1/1-2
mkdir -p "$i/1-2.1/gb_fw_mgmt/gb-fw-mgmt-3" sys/class/gb_fw_mgmt sys/module/gb_firmware
printf '0x00000126\n' >"$i/ddbl1_manufacturer_id"
printf '0x00001000\n' >"$i/ddbl1_product_id"
printf '0xfffe0001\n' >"$i/vendor_id"
printf '0x00000005\n' >"$i/product_id"
ln -s ../.. "$i/1-2.1/gb_fw_mgmt/gb-fw-mgmt-3/device"
ln -s "../../../$i/1-2.1/gb_fw_mgmt/gb-fw-mgmt-3" sys/class/gb_fw_mgmt/gb-fw-mgmt-3
if wanted "gbfw: list"; then
	out=$("$GBFW" --sysfs "$WORK/sys" list 2>&1)
	want="device=/dev/gb-fw-mgmt-3 interface=1-2 firmware=gmp_00000126_00001000_fffe0001_00000005_TAG.tftf"
	[ "$out" = "$want" ] && echo "ok - gbfw: list" ||
		printf 'not ok - gbfw: list\n# got:  %s\n# want: %s\n' "$out" "$want"
fi
expect "load names the file the module will request" 1 \
	"gbfw: the module will request /lib/firmware/gmp_00000126_00001000_fffe0001_00000005_s3fw.tftf
gbfw: $WORK/gb-fw-mgmt-3: No such file or directory" \
	--sysfs "$WORK/sys" -d "$WORK/gb-fw-mgmt-3" load s3fw
expect "--image sets the wait; a missing image is an error" 1 "gbfw: $WORK/none.tftf: No such file or directory" \
	--sysfs "$WORK/sys" --image "$WORK/none.tftf" -d "$WORK/gb-fw-mgmt-3" load s3fw
expect "--help" 0 "" --help
if wanted "gbfw: --help lists the long options"; then
	h=$("$GBFW" --help)
	miss=; for o in --device --timeout --image --baud --sysfs --quiet --help --version list; do
		grep -q -- "$o" <<<"$h" || miss="$miss $o"; done
	[ -z "$miss" ] && echo "ok - gbfw: --help lists the long options" ||
		echo "not ok - gbfw: --help lists the long options (missing:$miss)"
fi
if wanted "gbfw: --version"; then
	v=$("$GBFW" --version)
	[[ $v =~ ^gbfw\ \(greybus\ tools\)\ [0-9]+\.[0-9]+\.[0-9]+.*$'\n'commit\ [0-9a-f]{40}$|^gbfw\ \(greybus\ tools\)\ [0-9.]+$'\n'commit\ unknown$ ]] &&
		echo "ok - gbfw: --version" || printf 'not ok - gbfw: --version\n# %s\n' "$v"
fi
