# SPDX-License-Identifier: GPL-2.0
# The arm64 guest (make check-arm64, docs/testing.md): sourced by
# tests/run when GB_ARCH=arm64, after its own functions, which it
# replaces where an arm64 guest differs.  Everything else (cases, image,
# TAP, time-outs, the runner in the guest) is tests/run's.
#
#   kernel     Debian's arm64 kernel of line KVER (default 6.12), the
#              release of the arm64 headers make cross-arm64 builds
#              against; image and modules fetched, never installed
#              (tests/arm64/fetch)
#   userland   busybox-static, kmod and the stock client tools (gpiod,
#              i2c-tools) from Debian's arm64 packages, with their arm64
#              libraries; our tools static from make cross-arm64
#   machine    QEMU virt, TCG, Cortex-A57; the console and the results
#              channel on virtio consoles (hvc0, hvc1), so that the PL011
#              UART is the CC1352's, as main_uart6 is on a BeaglePlay
#   dtb        QEMU's own (dumpdtb) plus the CC1352 node as BeaglePlay's
#              k3-am625-beagleplay.dts shapes it (tests/arm64/dtb)
#   CC1352     the PL011's other end is a third virtio console in the
#              guest (hvc2), the two joined by socat (tests/arm64/uart-relay
#              says why not by QEMU itself), so gbsim --personality cc1352
#              runs in the guest like every other gbsim
#              (tests/guest/serdev.sh)
#
# Environment (besides tests/run's): KVER (a line, default 6.12),
# ARM64_KBUILD (a kernel tree built for arm64, tests/arm64/debug-kernel's:
# its Image and modules instead of Debian's; make check-arm64-debug),
# ARM64_CPU (default cortex-a57: no pointer authentication for TCG to
# emulate, which costs -cpu max a third of its speed).

# shellcheck shell=bash

ARM64_LINE=${KVER:-6.12}
case $ARM64_LINE in *-arm64) ARM64_LINE=$(echo "$ARM64_LINE" | cut -d. -f1-2) ;; esac
ARM64_CPU=${ARM64_CPU:-cortex-a57}
QEMU=${QEMU_ARM64:-qemu-system-aarch64}
command -v "$QEMU" >/dev/null || die "$QEMU not found; run 'make deps'"
command -v socat >/dev/null || die "socat not found; run 'make deps'"
# the stock tools (and what they link against) a case may ask for
ARM64_USERLAND="busybox-static kmod libkmod2 liblzma5 libssl3 libzstd1 libc6
	gpiod libgpiod2 libgcc-s1 libstdc++6 i2c-tools libi2c0"

if [ -n "${ARM64_KBUILD:-}" ]; then
	# make check-arm64-debug: the sanitizer kernel tests/arm64/debug-kernel
	# built, its modules installed beside the tree (modules_install ran
	# depmod)
	KVER=$(cat "$ARM64_KBUILD/include/config/kernel.release") ||
		die "no kernel release in $ARM64_KBUILD"
	KERNEL=$ARM64_KBUILD/arch/arm64/boot/Image
	KMODDIR=$(dirname "$ARM64_KBUILD")/mods/lib/modules/$KVER
else
	# The arm64 release of the headers make cross-arm64 used: the version
	# of the amd64 kernel of the line installed here.
	ARM64_AMD=$("$TOP/tests/kver" "$ARM64_LINE") ||
		die "no amd64 kernel of line $ARM64_LINE installed; run 'make deps KVER=$ARM64_LINE'"
	ARM64_PKGVER=$(dpkg-query -W -f='${Version}' "linux-headers-$ARM64_AMD") ||
		die "linux-headers-$ARM64_AMD is not installed"
	KVER=${ARM64_AMD%-amd64}-arm64
	ARM64_KDIR=$("$TOP/tests/arm64/fetch" "kernel-$KVER" \
		"linux-image-$KVER-unsigned=$ARM64_PKGVER") || die "cannot fetch the arm64 kernel $KVER"
	KERNEL=$ARM64_KDIR/boot/vmlinuz-$KVER
	KMODDIR=$ARM64_KDIR/lib/modules/$KVER
	# the package leaves modules.dep to its postinst: made here, once
	[ -s "$KMODDIR/modules.dep" ] || depmod -b "$ARM64_KDIR" "$KVER" ||
		die "depmod of the fetched arm64 modules failed"
fi
# shellcheck disable=SC2086
ARM64_ROOT=$("$TOP/tests/arm64/fetch" userland $ARM64_USERLAND) ||
	die "cannot fetch the arm64 userland"
TOOLS_BIN=$BUILD/arm64/bin
[ -r "$KERNEL" ] || die "cannot read the kernel image $KERNEL"
[ -x "$TOOLS_BIN/gbsim" ] || die "no aarch64 tools in $TOOLS_BIN (make cross-arm64 builds them)"

CMDLINE_BASE=${CMDLINE_BASE/console=ttyS0,115200/console=hvc0}
CMDLINE_BASE=${CMDLINE_BASE/ no_timer_check/}
CMDLINE_BASE+=" gbtest.results=hvc1 gbtest.export=hvc3"

# Same Debian version on both sides (make deps and ARM64_USERLAND take
# the candidate of one archive): the host's busybox lists the applets the
# arm64 one has, which cannot run here.
busybox_applets() {
	busybox "$1"
}

# arm64_libs FILE: the arm64 libraries FILE needs (DT_NEEDED, with
# theirs), copied from the fetched userland to the same paths, and the
# loader its program header names.
arm64_libs() {
	local f=$1 lib p interp
	interp=$(aarch64-linux-gnu-readelf -l "$f" 2>/dev/null |
		sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	if [ -n "$interp" ] && [ ! -e "$ROOT$interp" ]; then
		install -D -m 0755 "$(readlink -f "$ARM64_ROOT$interp")" "$ROOT$interp"
	fi
	for lib in $(aarch64-linux-gnu-readelf -d "$f" 2>/dev/null |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		for p in /lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu; do
			[ -e "$ARM64_ROOT$p/$lib" ] || continue
			if [ ! -e "$ROOT$p/$lib" ]; then
				install -D -m 0755 "$(readlink -f "$ARM64_ROOT$p/$lib")" "$ROOT$p/$lib"
				arm64_libs "$ROOT$p/$lib"
			fi
			continue 2
		done
		warn "$(basename "$f") needs $lib, not in the fetched arm64 userland"
	done
}

copy_elf() {
	install -D -m 0755 "$1" "$ROOT$2"
	arm64_libs "$1"
}

pack_base() {
	local a
	install -m 0755 "$ARM64_ROOT/bin/busybox" "$ROOT/bin/busybox"
	busybox_applets --list-full | while read -r a; do
		[ -e "$ROOT/$a" ] || ln -s /bin/busybox "$ROOT/$a"
	done
	copy_elf "$ARM64_ROOT/bin/kmod" /bin/kmod
	for a in modprobe insmod rmmod lsmod depmod modinfo; do
		drop_command "$a"
		ln -s /bin/kmod "$ROOT/sbin/$a"
	done
}

install_client_tools() {
	local t p d
	for t in $(directive_union tools); do
		p=
		for d in /usr/bin /usr/sbin /bin /sbin; do
			[ -x "$ARM64_ROOT$d/$t" ] && { p=$ARM64_ROOT$d/$t; break; }
		done
		if [ -z "$p" ]; then
			# cases of every architecture are packed: only say it once
			[ -n "${ARM64_TOOLS_NOTED:-}" ] ||
				warn "arm64: client tools not in ARM64_USERLAND are not packed (the first: $t)"
			ARM64_TOOLS_NOTED=1
			continue
		fi
		drop_command "$t"
		copy_elf "$p" "/usr/bin/$t"
	done
}

# loopback_test built as tests/run does, with the cross compiler
LOOPBACK_CC=aarch64-linux-gnu-gcc
LOOPBACK_TEST_DIR=$BUILD/arm64/loopback_test

# QEMU's machine as the guest boots it, less what a device tree does not
# describe (virtio-pci devices are found on the PCI bus)
arm64_machine() {
	ARM64_MACHINE=(-machine virt -accel "$QEMU_ACCEL" -cpu "$ARM64_CPU" -smp "$1" -m "$2")
}

qemu_argv() {
	local smp=$QEMU_SMP dtb
	[ "${BOOT_CLOCK:-}" = icount ] && smp=1
	arm64_machine "$smp" "$1"
	dtb=$OUT/virt-cc1352-$smp-$1.dtb
	[ -s "$dtb" ] || "$TOP/tests/arm64/dtb" "$dtb" "$QEMU" "${ARM64_MACHINE[@]}" ||
		die "cannot make the guest's device tree"
	QARGV=("$TOP/tests/arm64/uart-relay" "$OUT/uart" "$OUT/peer.sock"
		"$QEMU" "${ARM64_MACHINE[@]}"
		-nodefaults -no-user-config -display none -monitor none -no-reboot
		-kernel "$KERNEL" -initrd "$OUT/boot.cpio.gz" -dtb "$dtb"
		-append "$CMDLINE_BASE${2:+ $2}"
		-device virtio-serial-pci,id=vser
		-chardev "file,id=con,path=$3,append=on" -device virtconsole,bus=vser.0,chardev=con
		-chardev "file,id=res,path=$4,append=on" -device virtconsole,bus=vser.0,chardev=res
		-chardev "pipe,id=uart,path=$OUT/uart" -serial chardev:uart
		-chardev "socket,id=peer,path=$OUT/peer.sock,server=on,wait=off"
		-device virtconsole,bus=vser.0,chardev=peer
		-chardev "file,id=exp,path=${4%.log}.export,append=on" -device virtconsole,bus=vser.0,chardev=exp)
	case ${BOOT_CLOCK:-} in
	"" | host) [ -z "$QEMU_ICOUNT" ] || QARGV+=(-icount "$QEMU_ICOUNT") ;;
	icount) QARGV+=(-icount shift=0,align=off,sleep=off) ;;
	*) die "unknown clock '$BOOT_CLOCK' (host or icount)" ;;
	esac
}
