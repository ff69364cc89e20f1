# SPDX-License-Identifier: GPL-2.0
# The emulated ES2 bridge (docs/es2.md): a configfs gadget with one
# functionfs function on dummy_hcd, which `gbsim --transport es2` drives.
# Source after lib.sh; cases need '# kmods: configfs libcomposite usb_f_fs
# dummy_hcd'.
#
#   es2_setup       load the modules, build the gadget, mount functionfs
#                   (idempotent; unbinds a gadget left bound); with
#                   GB_ES2_NO_HOST set, without loading our gb-es2 (the
#                   side-by-side benchmark loads Linux's instead)
#   es2_unplug      unbind the gadget from the UDC: the USB device goes
#   es2_teardown    undo es2_setup (gbsim must have exited)
#   es2_use         es2_setup, and make every later `gbsim` of the case
#                   run over ES2 (lib.sh does it when GB_TRANSPORT=es2)
#   es2_rerun CASE  run case CASE instead, with GB_TRANSPORT=es2
#
# gbsim binds the gadget to the UDC itself once its descriptors are
# written, and the gadget goes when gbsim closes functionfs.

GB_ES2_GADGET=/sys/kernel/config/usb_gadget/gb-es2
GB_ES2_FFS=/dev/ffs-es2
GB_ES2_BIN=/run/gbtest/es2bin

_es2_mounted() {
	awk -v m="$1" '$2 == m { found = 1 } END { exit !found }' /proc/mounts
}

es2_setup() {
	local g=$GB_ES2_GADGET m
	for m in configfs libcomposite usb_f_fs dummy_hcd; do
		modprobe "$m" || { echo "es2_setup: modprobe $m failed" >&2; return 1; }
	done
	[ -n "${GB_ES2_NO_HOST:-}" ] ||
		modprobe gb-es2 || { echo "es2_setup: modprobe gb-es2 failed" >&2; return 1; }
	_es2_mounted /sys/kernel/config ||
		mount -t configfs none /sys/kernel/config || return 1
	if [ ! -d "$g" ]; then
		mkdir "$g" "$g/strings/0x409" "$g/configs/c.1" \
			"$g/configs/c.1/strings/0x409" "$g/functions/ffs.es2" || return 1
		echo 0x18d1 >"$g/idVendor"
		echo 0x1eaf >"$g/idProduct"
		echo 0x0200 >"$g/bcdUSB"
		echo gbsim >"$g/strings/0x409/manufacturer"
		echo APBridgeA >"$g/strings/0x409/product"
		echo 0000 >"$g/strings/0x409/serialnumber"
		echo es2 >"$g/configs/c.1/strings/0x409/configuration"
		ln -s "$g/functions/ffs.es2" "$g/configs/c.1/" || return 1
	fi
	[ -n "$(cat "$g/UDC" 2>/dev/null)" ] && echo >"$g/UDC"
	if ! _es2_mounted "$GB_ES2_FFS"; then
		mkdir -p "$GB_ES2_FFS"
		mount -t functionfs es2 "$GB_ES2_FFS" || return 1
	fi
	return 0
}

es2_unplug() {
	echo >"$GB_ES2_GADGET/UDC"
}

es2_teardown() {
	local g=$GB_ES2_GADGET
	[ -d "$g" ] || return 0
	[ -n "$(cat "$g/UDC" 2>/dev/null)" ] && echo >"$g/UDC"
	_es2_mounted "$GB_ES2_FFS" && umount "$GB_ES2_FFS"
	rm -f "$g/configs/c.1/ffs.es2"
	rmdir "$g/configs/c.1/strings/0x409" "$g/configs/c.1" \
		"$g/functions/ffs.es2" "$g/strings/0x409" "$g"
}

# Sets the gadget up, and puts a `gbsim` earlier on PATH that adds
# --transport es2; `gbsim ctl` and the like pass straight through.
es2_use() {
	es2_setup || fail "es2_use: cannot set up the ES2 gadget"
	if [ ! -x "$GB_ES2_BIN/gbsim" ]; then
		mkdir -p "$GB_ES2_BIN"
		cat >"$GB_ES2_BIN/gbsim.new" <<'WRAP'
#!/bin/sh
case $1 in
ctl|-h|--help|-V|--version) exec /usr/bin/gbsim "$@" ;;
esac
exec /usr/bin/gbsim --transport es2 "$@"
WRAP
		chmod 0755 "$GB_ES2_BIN/gbsim.new"
		mv "$GB_ES2_BIN/gbsim.new" "$GB_ES2_BIN/gbsim"
	fi
	case :$PATH: in
	*:"$GB_ES2_BIN":*) ;;
	*) PATH=$GB_ES2_BIN:$PATH; export PATH ;;
	esac
}

# es2_rerun NN-topic: run that case instead of this one, with every gbsim
# over ES2 (the cases 100-109 do only this).
es2_rerun() {
	[ -r "$GBTEST_DIR/cases/$1.sh" ] || fail "es2_rerun: no case $1 in the guest"
	GB_TRANSPORT=es2
	export GB_TRANSPORT
	exec sh "$GBTEST_DIR/cases/$1.sh"
}
