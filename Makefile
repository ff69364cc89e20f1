# SPDX-License-Identifier: GPL-2.0
#
# Greybus for Linux: one-command build and test.  `make help` lists the
# targets, one line each: that line is written after '## ' on the
# target's rule, and tests/unit/make_help.sh checks every target of
# .PHONY has one (or is in INTERNAL_TARGETS).
#
# Kernel: KVER, a line (KVER=6.12: its newest installed release) or a full
# release; by default the newest installed 6.1.* (Debian 12's line), else
# the newest of any line; installed means both /lib/modules/VER/build and
# /boot/vmlinuz-VER (tests/kver is the rule).  KBUILD (its build tree),
# KERNEL (its bzImage).
#
#   make check-all       unit tests, the guest suite on 6.1 and on 6.12
#                        and over ES2 and HDLC, the arm64 cross build
#                        and guest, the packages: one closing count
#   make cross-arm64     every module against Debian's arm64 6.12 headers,
#                        the tools static for aarch64
#   make check-arm64     that, then the serdev cases on an arm64 guest
#                        (QEMU virt, Debian's arm64 6.12, a device tree
#                        with BeaglePlay's CC1352 node; T= works)
#   make check-arm64-debug  the same guest on an arm64 KASAN/lockdep
#                        kernel cross-built once from linux-source-6.1

SHELL   := /bin/bash
TOP     := $(CURDIR)
BUILD   := $(TOP)/build
NPROC   := $(shell nproc 2>/dev/null || echo 2)

# KVER is what the caller asked for, KREL the release it names.  Recursive
# on purpose: evaluated in recipes, after 'deps' has installed the kernel
# packages on a fresh machine.
ifdef KBUILD
KREL     = $(or $(KVER),$(shell cat $(KBUILD)/include/config/kernel.release 2>/dev/null))
KERNEL  ?= $(firstword $(wildcard $(KBUILD)/arch/x86/boot/bzImage) /boot/vmlinuz-$(KREL))
else
KREL     = $(shell $(TOP)/tests/kver '$(KVER)')
KBUILD   = /lib/modules/$(KREL)/build
KERNEL  ?= /boot/vmlinuz-$(KREL)
endif
RUN      = KVER='$(KREL)' KERNEL='$(KERNEL)' BUILD='$(BUILD)' GB_KMOD_DIR='$(KSRC)' tests/run
EXTRA    = $(foreach d,$(EXTRA_TESTS),-c '$(d)')

# Build in parallel unless the caller already chose a -j.
JOBS     = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))
KMAKE    = $(MAKE) $(JOBS) -C $(KBUILD)

DEB_PKGS := qemu-system-x86 busybox-static \
	    cpio kmod sparse linux-source-6.1 build-essential gcc make libc6-dev \
	    linux-libc-dev clang libclang-rt-14-dev perl xz-utils gzip coreutils jq xxd \
	    i2c-tools gpiod
DEB_PKGS += evtest
DEB_PKGS += alsa-utils
# tests/unit/gbmon.sh: the Wireshark dissector under tshark, fuzzed captures (editcap)
DEB_PKGS += tshark
# gbnet's discovery cases: Debian's avahi-daemon on its system D-Bus in
# the guest, nodes announced with avahi-publish (avahi-utils)
DEB_PKGS += dbus-daemon dbus-system-bus-common avahi-daemon avahi-utils
# TLS in gbnet and gbsim (OpenSSL: its static archives for the static
# build); the TLS cases make their keys with openssl(1) in the guest
DEB_PKGS += libssl-dev openssl
# make cross-arm64: the cross compiler; the arm64 headers are fetched by
# tests/arm64-headers, which needs the arm64 architecture known to dpkg
DEB_PKGS += gcc-aarch64-linux-gnu libc6-dev-arm64-cross
# make check-arm64: QEMU's arm64 machines, dtc for the guest's device
# tree, socat between its UART and the chip's end (tests/arm64/uart-relay);
# the arm64 kernel and userland are fetched by tests/arm64/fetch
DEB_PKGS += qemu-system-arm device-tree-compiler socat
# The kernel KVER names (its line's image and headers: tests/kver)
KERNEL_PKGS = $(shell $(TOP)/tests/kver --packages '$(KVER)')

SELFTEST := $(TOP)/tests/selftest

.PHONY: all deps kernel-check modules tools unit check check-all cross-arm64 check-arm64 check-harness check-busy shell demo bench bench-compare lint fuzz guest-fuzz guest-stress debug-kernel check-debug check-arm64-debug clean help

all: modules tools ## the modules and the tools (the default)

# make help: every public target with the one line after '## ' on its
# rule, so a target and its help are written together; the targets of
# .PHONY without one are INTERNAL_TARGETS (tests/unit/make_help.sh checks
# both ways).
INTERNAL_TARGETS := kernel-check dist-tools dist-man
help: ## this list
	@echo "Greybus for Linux: make TARGET [KVER=6.1|6.12] [VAR=VALUE...] (README.md, docs/)"
	@sed -n 's/^\([a-zA-Z0-9_./-]*\):.* ## \(.*\)/\1\t\2/p' $(firstword $(MAKEFILE_LIST)) | \
		while IFS=$$'\t' read -r t h; do printf '  %-18s %s\n' "$$t" "$$h"; done

# Quiet and idempotent: apt runs only when a package is missing.
deps: ## install what is missing with apt (root, or sudo)
	@sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; update=; \
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then \
		echo "deps: adding the arm64 architecture to dpkg (arm64 kernel headers)"; \
		$$sudo dpkg --add-architecture arm64 || exit 1; update=1; \
	fi; \
	missing=; for p in $(DEB_PKGS) $(KERNEL_PKGS); do \
		dpkg-query -W -f='$${db:Status-Abbrev}' $$p 2>/dev/null | grep -q '^ii' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing$$update" ]; then \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq || exit 1; \
	fi; \
	if [ -n "$$missing" ]; then \
		echo "deps: installing$$missing"; \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
			--no-install-recommends $$missing >/dev/null || exit 1; \
	fi

kernel-check: deps
	@[ -n "$(KREL)" ] || { echo "no kernel$(if $(KVER), of line $(KVER)) found with both /lib/modules/VER/build and /boot/vmlinuz-VER" >&2; exit 1; }
	@[ -d "$(KBUILD)" ] || { echo "no kernel build tree $(KBUILD)" >&2; exit 1; }
	@[ -r "$(KERNEL)" ] || { echo "cannot read the kernel image $(KERNEL)" >&2; exit 1; }

# Where the modules are built: kernel/ itself, unless KSRC names a copy
# of it (tests/check-all builds each kernel line's modules in one of its
# own, so that two suites can run at once).
KSRC ?= $(TOP)/kernel
modules: deps kernel-check ## build the kernel modules for KVER (default: the newest 6.1)
	$(KMAKE) M=$(KSRC) modules

tools: deps ## build the user-space tools into build/bin
	$(MAKE) $(JOBS) -C tools TOP=$(TOP) BUILD=$(BUILD)

# Host-side unit tests; tests/unit/run prints TAP and honours $T.
UNIT = if [ -x tests/unit/run ]; then \
		T='$(T)' TOP=$(TOP) BUILD=$(BUILD) KVER='$(KREL)' KBUILD='$(KBUILD)' tests/unit/run; \
	else \
		echo "\# no unit tests (tests/unit/run)"; \
	fi

unit: deps ## host-side unit tests (T=STRING picks some)
	@$(UNIT)

# Unit tests first; their results are folded into the closing count of
# the guest suite, so its last line covers the whole run. The unit TAP
# goes to a file of this run's own (build/ may be shared by several runs)
# and is kept as build/unit.tap.
check: deps modules tools ## unit tests, then the guest suite in QEMU (T=REGEX, EXTRA_TESTS=DIR)
	@mkdir -p $(BUILD); tap=$$(mktemp $(BUILD)/.unit.XXXXXX); \
	{ $(UNIT); } | tee $$tap; \
	rc=$${PIPESTATUS[0]}; \
	$(RUN) $(if $(T),-t '$(T)') $(EXTRA) -a $$tap:$$rc; \
	st=$$?; mv -f $$tap $(BUILD)/unit.tap; exit $$st

# Everything CI verifies, one TAP stream and one closing count
# "N passed, N failed, N skipped": the unit tests once, the guest suite for
# each entry of CHECK_KERNELS, a kernel line with an optional :TRANSPORT
# (its packages installed by deps if missing), then each target of
# CHECK_TAP, host-side checks that print TAP lines themselves (append
# yours: CHECK_TAP += check-foo); suites and targets are one queue of
# jobs, taken by two lanes in this order, the longest first (a run on
# two cores: 6.12 26 min, 6.1 22, over ES2 16, over HDLC 14, check-arm64
# 4, check-dist 4, check-tarball 3; 49 min in all).  tests/check-all.
CHECK_KERNELS ?= 6.12 6.1 6.1:es2 6.1:hdlc
# (check-arm64 does what cross-arm64 does, then boots its own guest)
CHECK_TAP     ?= check-arm64 check-dist check-tarball
check-all: deps ## everything CI verifies: both kernels, ES2, HDLC, arm64, packages
	@MAKE='$(MAKE)' BUILD='$(BUILD)' CHECK_KERNELS='$(CHECK_KERNELS)' \
		CHECK_TAP='$(strip $(CHECK_TAP))' T='$(T)' EXTRA_TESTS='$(EXTRA_TESTS)' \
		tests/check-all

# Every module against Debian's arm64 headers of the 6.12 line (fetched,
# never installed: tests/arm64-headers says why), the tools static for
# aarch64; TAP, logs in build/arm64/
CROSS_LINE ?= 6.12
cross-arm64: deps ## every module against arm64 6.12 headers, the tools static for aarch64
	@$(MAKE) --no-print-directory deps KVER=$(CROSS_LINE)
	@TOP=$(TOP) BUILD=$(BUILD) KVER=$(CROSS_LINE) MAKE='$(MAKE)' NPROC=$(NPROC) tests/cross-arm64

# The arm64 guest (tests/arm64/guest.sh): Debian's arm64 kernel of the
# CROSS_LINE with a device tree that puts a CC1352 on its UART; first
# what make cross-arm64 does (its TAP, then the guest's), then the
# cases ARM64_T (T= overrides) booted with the modules and tools it
# built; the closing count covers both
ARM64_T ?= ^(00|18[0-9]|19[0-2])-
ARM64_OUT = $(BUILD)/arm64/guest
check-arm64: deps ## cross-arm64, then the serdev cases on an arm64 guest with a device tree
	@$(MAKE) --no-print-directory deps KVER=$(CROSS_LINE)
	@mkdir -p $(ARM64_OUT); \
	TOP=$(TOP) BUILD=$(BUILD) KVER=$(CROSS_LINE) MAKE='$(MAKE)' NPROC=$(NPROC) \
		tests/cross-arm64 >$(ARM64_OUT)/cross.tap; rc=$$?; \
	cat $(ARM64_OUT)/cross.tap; \
	GB_ARCH=arm64 KVER=$(CROSS_LINE) BUILD=$(BUILD) GB_KMOD_DIR=$(BUILD)/arm64/src/kernel \
		GB_TRANSPORT=serdev tests/run -o $(ARM64_OUT) -t '$(or $(T),$(ARM64_T))' $(EXTRA) \
		-a $(ARM64_OUT)/cross.tap:$$rc

# The arm64 guest on a KASAN/lockdep/kmemleak kernel (issue 33): Debian
# ships no arm64 debug flavour, so tests/arm64/debug-kernel cross-builds
# one (once, cached outside the tree) from linux-source-6.1, trimmed to
# QEMU virt; our modules are built against it (tests/cross-arm64), then
# the serdev and firmware-upload cases ARM64_DEBUG_T (T= overrides) run
# with timeouts stretched as for check-debug.  Not part of check-all; the
# log is kept in build/check-arm64-debug.log.
ARM64_DEBUG_T ?= ^(00|18[0-6]|19[0-2])-
ARM64_DEBUG_OUT = $(BUILD)/debug/arm64/guest
check-arm64-debug: deps ## the serdev/upload cases on an arm64 KASAN/lockdep kernel (T= works)
	@d=$$(TOP=$(TOP) tests/arm64/debug-kernel) || exit 1; \
	mkdir -p $(ARM64_DEBUG_OUT); \
	set -o pipefail; \
	{ TOP=$(TOP) BUILD=$(BUILD)/debug ARM64_KBUILD=$$d MAKE='$(MAKE)' NPROC=$(NPROC) \
		tests/cross-arm64 >$(ARM64_DEBUG_OUT)/cross.tap; rc=$$?; \
	cat $(ARM64_DEBUG_OUT)/cross.tap; \
	GB_ARCH=arm64 ARM64_KBUILD=$$d BUILD=$(BUILD)/debug \
		GB_KMOD_DIR=$(BUILD)/debug/arm64/src/kernel GB_TRANSPORT=serdev \
		QEMU_MEM=1G GBTEST_TIMEOUT_SCALE=$(DEBUG_TSCALE) GBTEST_BOOT_ALLOWANCE=240 \
		tests/run -o $(ARM64_DEBUG_OUT) -t '$(or $(T),$(ARM64_DEBUG_T))' $(EXTRA) \
		-a $(ARM64_DEBUG_OUT)/cross.tap:$$rc; } 2>&1 | tee $(BUILD)/check-arm64-debug.log

# The harness must catch a failing case, a kernel WARN, a hang, and a
# guest that dies; tests/selftest/check knows what each case must yield.
check-harness: deps modules tools ## self-test of the test harness
	$(KMAKE) M=$(SELFTEST)/kmod modules
	@KVER='$(KREL)' KERNEL='$(KERNEL)' BUILD='$(BUILD)' $(SELFTEST)/check

# A few cases while CPU hogs compete with QEMU (tests/busy): every case
# must hold on a busy machine.  BUSY_T picks the cases, BUSY_HOGS the hogs;
# stress-ng (BUSY_PKGS) is installed on demand, not by every deps run.
BUSY_PKGS ?= stress-ng
check-busy: deps modules tools ## a few cases beside CPU hogs (BUSY_T=REGEX)
	@$(MAKE) --no-print-directory deps DEB_PKGS='$(BUSY_PKGS)' KERNEL_PKGS=
	@KVER='$(KREL)' KERNEL='$(KERNEL)' BUILD='$(BUILD)' GB_KMOD_DIR='$(KSRC)' \
		BUSY_T='$(BUSY_T)' tests/busy $(EXTRA)

shell: deps modules tools ## an interactive shell in the test guest
	@$(RUN) --shell $(EXTRA)

demo: deps modules tools ## boot a guest and show the Greybus stack at work
	@$(RUN) --demo

# Not part of 'check': figures, not verdicts. Deterministic by default
# (QEMU counts instructions); BENCH_ICOUNT=0 for the host's clock;
# BENCH_REPS=N (default 2, or 5 with BENCH_ICOUNT=0); BENCH_ONLY="PART..."
# runs some parts only (bench/run lists them)
bench: deps modules tools ## the benchmarks in a guest, bench/results/DATE.md
	@KVER='$(KREL)' KERNEL='$(KERNEL)' BUILD='$(BUILD)' bench/run

# Not part of 'check' either: Linux's greybus, gb-es2 and gb-loopback are
# built from the kernel source package into build/linux-greybus first
# Linux's stack comes from the source package of the kernel's own line
# (linux-source-6.1 or linux-source-6.12), installed here if missing.
bench-compare: deps modules tools kernel-check ## the benchmarks on Linux's own Greybus and on ours
	@$(MAKE) --no-print-directory deps DEB_PKGS=linux-source-$$(tests/kver --line '$(KVER)')
	@KVER='$(KREL)' KBUILD='$(KBUILD)' KERNEL='$(KERNEL)' BUILD='$(BUILD)' bench/compare

# Long guest runs (tests/long), not part of 'check': case 110 with
# GBSIM_FUZZ_N mutated messages (GBSIM_FUZZ_SEED to replay a run), case
# 111 with STRESS_CYCLES insert/remove cycles (docs/testing.md has figures)
GBSIM_FUZZ_N  ?= 100000
STRESS_CYCLES ?= 1000
LONG = KVER='$(KREL)' KERNEL='$(KERNEL)' BUILD='$(BUILD)' tests/long
guest-fuzz: deps modules tools ## case 110 long: GBSIM_FUZZ_N messages
	@$(LONG) 110-gbsim-fuzz $$(( 300 + $(GBSIM_FUZZ_N) / 40 )) GBSIM_FUZZ_N=$(GBSIM_FUZZ_N) \
		$(if $(GBSIM_FUZZ_SEED),GBSIM_FUZZ_SEED=$(GBSIM_FUZZ_SEED))

guest-stress: deps modules tools ## case 111 long: STRESS_CYCLES insert/remove cycles
	@$(LONG) 111-stress-short $$(( 300 + $(STRESS_CYCLES) * 3 )) STRESS_CYCLES=$(STRESS_CYCLES) \
		$(if $(STRESS_SEED),STRESS_SEED=$(STRESS_SEED))

# libFuzzer targets (tests/fuzz): the kernel's manifest checker and the
# tools' parsers; fails on any finding.  FUZZ_RUNS=N caps executions.
FUZZ_TIME ?= 60
# The KASAN/lockdep/kmemleak kernel (issue 11), cached outside the tree;
# not part of 'check' (tests/debug-kernel says where and how).
debug-kernel: deps ## build (once, cached) a KASAN/lockdep/kmemleak kernel
	@TOP=$(TOP) tests/debug-kernel

# The whole suite on that kernel: modules rebuilt against it, its own
# modules packed, timeouts stretched, a kmemleak scan after every
# case; the log is kept in build/check-debug.log.  no5lvl: with QEMU's
# 5-level paging, 6.1's KASAN sometimes reports a "wild-memory-access"
# when an interrupt comes while identify_cpu() rebuilds the boot CPU's
# feature bits (most likely: LA57 reads as off, the direct map's addresses
# then look wild); that report taints the kernel, which turns lockdep
# off for the whole run.  4-level paging has no such window.
DEBUG_TSCALE ?= 4
check-debug: deps ## the guest suite on the debug kernel (T= works too)
	@d=$$(TOP=$(TOP) tests/debug-kernel) || exit 1; \
	v=$$(cat $$d/include/config/kernel.release); \
	mkdir -p $(BUILD); \
	set -o pipefail; \
	$(MAKE) --no-print-directory check KBUILD=$$d KVER=$$v KERNEL=$$d/arch/x86/boot/bzImage \
		BUILD=$(BUILD)/debug KMODDIR=$$(dirname $$d)/mods/lib/modules/$$v \
		QEMU_MEM=1G GBTEST_TIMEOUT_SCALE=$(DEBUG_TSCALE) GBTEST_BOOT_ALLOWANCE=240 \
		GBTEST_KERNEL_ARGS=no5lvl \
		$(if $(T),T='$(T)') 2>&1 | tee $(BUILD)/check-debug.log

fuzz: deps ## libFuzzer targets, FUZZ_TIME=S seconds each
	@TOP=$(TOP) BUILD=$(BUILD) FUZZ_TIME='$(FUZZ_TIME)' FUZZ_RUNS='$(FUZZ_RUNS)' \
		FUZZ_TARGETS='$(FUZZ_TARGETS)' tests/fuzz/run

# checkpatch comes from the linux-source package, unpacked on demand: the
# default line's (linux-source-6.1, in DEB_PKGS), so that lint's verdict
# does not change with the other source packages installed.
LINT_TARBALL = $$(ls /usr/src/linux-source-$$(tests/kver --line).tar.xz \
	/usr/src/linux-source-*.tar.xz 2>/dev/null | head -n 1)
# It
# runs from a directory of symlinks to the tree, so that the cache file it
# writes into its working directory lands in build/, not in the sources.
CHECKPATCH_DIR := $(BUILD)/checkpatch
CHECKPATCH     := $(CHECKPATCH_DIR)/scripts/checkpatch.pl
# Kernel versions are tested in one header, and only there
COMPAT_H       := kernel/include/greybus/compat.h
COMPAT_IGNORE  := LINUX_VERSION_CODE,CONSTANT_COMPARISON
# The serdev driver's compatible (ti,cc1352p7) is documented by Linux's own
# binding, which checkpatch looks for in a kernel tree this is not
DT_COMPAT_C    := kernel/hosts/hdlc_serdev.c
LINT_SRCS       = $(shell find kernel include/uapi/greybus tests/selftest/kmod \
			\( -name '*.c' -o -name '*.h' \) ! -name '*.mod.c' 2>/dev/null | sort)

$(CHECKPATCH): | deps
	@mkdir -p $(CHECKPATCH_DIR)
	@src=$(LINT_TARBALL); \
	[ -n "$$src" ] || { echo "no /usr/src/linux-source-*.tar.xz" >&2; exit 1; }; \
	top=$$(basename $$src .tar.xz); \
	echo "lint: unpacking checkpatch from $$src"; \
	tar -xJf $$src -C $(CHECKPATCH_DIR) --strip-components=1 \
		$$top/scripts/checkpatch.pl $$top/scripts/spelling.txt $$top/scripts/const_structs.checkpatch

# kernel-doc too, from the same tarball (tests/kdoc says what is checked).
KERNELDOC      := $(CHECKPATCH_DIR)/scripts/kernel-doc

$(KERNELDOC): | deps
	@mkdir -p $(CHECKPATCH_DIR)
	@src=$(LINT_TARBALL); \
	[ -n "$$src" ] || { echo "no /usr/src/linux-source-*.tar.xz" >&2; exit 1; }; \
	top=$$(basename $$src .tar.xz); \
	echo "lint: unpacking kernel-doc from $$src"; \
	tar -xJf $$src -C $(CHECKPATCH_DIR) --strip-components=1 $$top/scripts/kernel-doc

# checkpatch takes C11's _Static_assert keyword, which the uapi greybus.h
# spells for userspace, for CamelCase: that check is off for that file.
lint: deps kernel-check $(CHECKPATCH) $(KERNELDOC) ## checkpatch --strict, kernel-doc and sparse on the kernel code
	@rc=0; \
	farm=$(CHECKPATCH_DIR)/tree; mkdir -p $$farm; \
	for d in kernel include tests; do ln -sfn $(TOP)/$$d $$farm/$$d; done; \
	cd $$farm; \
	for f in $(LINT_SRCS); do \
		ign=; [ $$f = include/uapi/greybus/greybus.h ] && ign='--ignore CAMELCASE'; \
		[ $$f = $(COMPAT_H) ] && ign='--ignore $(COMPAT_IGNORE)'; \
		[ $$f = $(DT_COMPAT_C) ] && ign='--ignore UNDOCUMENTED_DT_STRING'; \
		perl $(CHECKPATCH) --strict --no-tree --root=$(TOP) --quiet --show-types $$ign -f $$f || rc=1; \
	done; \
	cd $(TOP); \
	[ $$rc = 0 ] && echo "lint: checkpatch --strict: clean ($(words $(LINT_SRCS)) files)" \
		|| echo "lint: checkpatch --strict found problems"; \
	if tests/kdoc $(KERNELDOC) $(LINT_SRCS); then \
		echo "lint: kernel-doc: clean"; \
	else \
		echo "lint: kernel-doc found problems"; rc=1; \
	fi; \
	{ $(KMAKE) M=$(TOP)/kernel C=2 modules && \
	  $(KMAKE) M=$(SELFTEST)/kmod C=2 modules; } >$(BUILD)/sparse.log 2>&1 || { cat $(BUILD)/sparse.log; rc=1; }; \
	if grep -E '(warning|error):' $(BUILD)/sparse.log; then \
		echo "lint: sparse/compiler found problems (full log: build/sparse.log)"; rc=1; \
	else \
		echo "lint: sparse: clean"; \
	fi; \
	exit $$rc

clean: ## remove the build outputs
	@if [ -n "$(KREL)" ] && [ -d "$(KBUILD)" ]; then \
		$(MAKE) -s -C $(KBUILD) M=$(TOP)/kernel clean; \
		$(MAKE) -s -C $(KBUILD) M=$(SELFTEST)/kmod clean; \
	else \
		find kernel tests/selftest/kmod \( -name '*.o' -o -name '*.ko' -o -name '*.mod' \
			-o -name '*.mod.c' -o -name '.*.cmd' -o -name modules.order \
			-o -name Module.symvers \) -delete 2>/dev/null; true; \
	fi
	rm -rf $(BUILD)

# ---- Installation, DKMS and Debian packages (docs/install.md) -------------
#
# The version comes from dist/version (VERSION's number, and between
# release tags VERSION+gitYYYYMMDD.N.SHORTSHA, before the tag
# VERSION~git...: docs/releasing.md).

GB_VERSION  := $(shell $(TOP)/dist/version)
DIST        := $(BUILD)/dist
DEB_PKGS    += dkms lintian debootstrap help2man dpkg-dev binutils
# make deb: dpkg-buildpackage with debian/control's Build-Depends, debuild;
# the arm64 cross build's libc (dpkg-shlibdeps reads its symbols) and
# OpenSSL (a Build-Depends of gbnet's and gbsim's TLS)
DEB_PKGS    += debhelper dh-dkms devscripts libc6:arm64 libssl-dev:arm64
# check-dist: systemd-analyze verify of gbattach@.service (tests/dist/units)
DEB_PKGS    += systemd

# The tools a user runs; the others in tools/ serve the test suite only.
# Those only root runs (they set up host devices and links) go to sbin
# with a man page in section 8, the others to bin and section 1.
USER_TOOLS  := gbsim mnfc lsgb gbfw gbnet gbattach gbmon
ROOT_TOOLS  := gbnet gbattach
BIN_TOOLS    = $(filter-out $(ROOT_TOOLS),$(USER_TOOLS))
USER_DOCS   := gbsim.md mnfc.md lsgb.md firmware.md gbnet.md hdlc.md gbmon.md

PREFIX      ?= /usr/local
DESTDIR     ?=
bindir      ?= $(PREFIX)/bin
sbindir     ?= $(PREFIX)/sbin
mandir      ?= $(PREFIX)/share/man
datadir     ?= $(PREFIX)/share
docdir      ?= $(datadir)/doc/greybus-tools
bashcompdir ?= $(datadir)/bash-completion/completions
# Wireshark's global Lua plugin folder (tshark -G folders) for greybus.lua
MULTIARCH    = $(shell dpkg-architecture -a$(DEB_ARCH) -qDEB_HOST_MULTIARCH 2>/dev/null)
wiresharkdir ?= $(PREFIX)/lib/$(MULTIARCH)/wireshark/plugins

# The serial link as a service (docs/install.md): gbattach@.service and
# the udev rule that starts it for a port marked as a Greybus node's
unitdir      ?= $(PREFIX)/lib/systemd/system
udevrulesdir ?= $(PREFIX)/lib/udev/rules.d

# Installed tools: linked dynamically, with Debian's hardening flags; for
# another architecture (DEB_ARCH=arm64) with its cross compiler.
NATIVE_ARCH := $(shell dpkg --print-architecture 2>/dev/null || echo native)
DEB_ARCH    ?= $(NATIVE_ARCH)
ifeq ($(DEB_ARCH),$(NATIVE_ARCH))
DIST_CROSS  :=
else
DIST_CROSS  := $(shell dpkg-architecture -a$(DEB_ARCH) -qDEB_HOST_GNU_TYPE 2>/dev/null)-
endif
DIST_FLAGS   = $(shell DEB_BUILD_MAINT_OPTIONS=hardening=+all DEB_HOST_ARCH=$(DEB_ARCH) \
			dpkg-buildflags --get $(1) 2>/dev/null)
DIST_TOOLS   = $(DIST)/tools-$(1)
DIST_MAKE    = $(MAKE) -C tools TOP=$(TOP) BUILD=$(call DIST_TOOLS,$(1)) \
		CC=$(2)gcc GB_LDFLAGS= \
		CFLAGS='$(or $(call DIST_FLAGS,CFLAGS),-O2 -g) $(call DIST_FLAGS,CPPFLAGS)' \
		LDFLAGS='$(call DIST_FLAGS,LDFLAGS)'

# Man pages come from each tool's --help and --version (help2man), with
# dist/man/TOOL.h2m adding the name line, files and see-also.
MAN_DATE    ?= $(shell $(TOP)/dist/version --epoch)

.PHONY: dist-tools dist-man install uninstall dkms-install dkms-remove deb check-dist \
	dist release check-tarball debian/changelog

dist-tools:
	@$(call DIST_MAKE,$(DEB_ARCH),$(DIST_CROSS)) $(foreach t,$(USER_TOOLS),$(call DIST_TOOLS,$(DEB_ARCH))/bin/$(t))

dist-man:
	@$(call DIST_MAKE,$(NATIVE_ARCH),) $(foreach t,$(USER_TOOLS),$(call DIST_TOOLS,$(NATIVE_ARCH))/bin/$(t))
	@mkdir -p $(DIST)/man
	@for t in $(USER_TOOLS); do \
		case " $(ROOT_TOOLS) " in *" $$t "*) sec=8 ;; *) sec=1 ;; esac; \
		SOURCE_DATE_EPOCH=$(MAN_DATE) help2man -N -s $$sec --include $(TOP)/dist/man/$$t.h2m \
			-o $(DIST)/man/$$t.$$sec $(call DIST_TOOLS,$(NATIVE_ARCH))/bin/$$t || exit 1; \
	done

install: dist-tools dist-man ## the tools, man pages, completion, units, docs (PREFIX, DESTDIR)
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(sbindir) $(DESTDIR)$(mandir)/man1 \
		$(DESTDIR)$(mandir)/man8 $(DESTDIR)$(docdir) \
		$(DESTDIR)$(datadir)/greybus/manifests $(DESTDIR)$(bashcompdir)
	install -m 0755 $(foreach t,$(BIN_TOOLS),$(call DIST_TOOLS,$(DEB_ARCH))/bin/$(t)) $(DESTDIR)$(bindir)/
	install -m 0755 $(foreach t,$(ROOT_TOOLS),$(call DIST_TOOLS,$(DEB_ARCH))/bin/$(t)) $(DESTDIR)$(sbindir)/
	install -m 0644 $(foreach t,$(BIN_TOOLS),$(DIST)/man/$(t).1) $(DESTDIR)$(mandir)/man1/
	install -m 0644 $(foreach t,$(ROOT_TOOLS),$(DIST)/man/$(t).8) $(DESTDIR)$(mandir)/man8/
	install -m 0644 manifests/*.mnfs manifests/*.topo $(DESTDIR)$(datadir)/greybus/manifests/
	install -m 0644 $(addprefix docs/,$(USER_DOCS)) $(DESTDIR)$(docdir)/
	install -m 0644 manifests/README.md $(DESTDIR)$(docdir)/manifests.md
	install -m 0644 dist/bash-completion $(DESTDIR)$(bashcompdir)/gbsim
	for t in $(filter-out gbsim,$(USER_TOOLS)); do ln -sfn gbsim $(DESTDIR)$(bashcompdir)/$$t; done
	install -d $(DESTDIR)$(unitdir) $(DESTDIR)$(udevrulesdir)
	sed 's|@sbindir@|$(sbindir)|g' dist/systemd/gbattach@.service.in >$(DESTDIR)$(unitdir)/gbattach@.service
	chmod 0644 $(DESTDIR)$(unitdir)/gbattach@.service
	sed 's|@sbindir@|$(sbindir)|g' dist/systemd/gbnet.service.in >$(DESTDIR)$(unitdir)/gbnet.service && chmod 0644 $(DESTDIR)$(unitdir)/gbnet.service
	install -m 0644 dist/udev/60-gbattach.rules $(DESTDIR)$(udevrulesdir)/
	install -d $(DESTDIR)$(wiresharkdir)
	install -m 0644 tools/wireshark/greybus.lua $(DESTDIR)$(wiresharkdir)/

uninstall: ## remove what 'make install' installed
	rm -f $(foreach t,$(BIN_TOOLS),$(DESTDIR)$(bindir)/$(t) $(DESTDIR)$(mandir)/man1/$(t).1) \
		$(foreach t,$(ROOT_TOOLS),$(DESTDIR)$(sbindir)/$(t) $(DESTDIR)$(mandir)/man8/$(t).8) \
		$(foreach t,$(USER_TOOLS),$(DESTDIR)$(bashcompdir)/$(t))
	rm -rf $(DESTDIR)$(datadir)/greybus $(DESTDIR)$(docdir)
	rm -f $(DESTDIR)$(unitdir)/gbattach@.service $(DESTDIR)$(udevrulesdir)/60-gbattach.rules
	rm -f $(DESTDIR)$(unitdir)/gbnet.service
	rm -f $(DESTDIR)$(wiresharkdir)/greybus.lua

# DKMS on this machine: needs root (sudo is used otherwise).  Nothing is
# loaded; modprobe greybus afterwards (docs/install.md).
DKMS_SRC_ROOT ?= /usr/src
DKMS_ARGS     ?=
dkms-install: ## module sources to /usr/src, dkms add and install (root)
	@rm -rf $(DIST)/src && dist/stage-src $(DIST)/src/greybus-$(GB_VERSION)
	@sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; set -e; \
	if $$sudo dkms status -m greybus -v $(GB_VERSION) $(DKMS_ARGS) | grep -q .; then \
		$$sudo dkms remove -m greybus -v $(GB_VERSION) --all $(DKMS_ARGS); \
	fi; \
	$$sudo rm -rf $(DKMS_SRC_ROOT)/greybus-$(GB_VERSION); \
	$$sudo cp -a $(DIST)/src/greybus-$(GB_VERSION) $(DKMS_SRC_ROOT)/; \
	$$sudo dkms add -m greybus -v $(GB_VERSION) $(DKMS_ARGS); \
	kvers='$(KVERS)'; [ -n "$$kvers" ] || kvers=$$(for d in /lib/modules/*/build; do \
		[ -e $$d/include ] && basename $${d%/build}; done); \
	rc=0; for k in $$kvers; do \
		$$sudo dkms install -m greybus -v $(GB_VERSION) -k $$k $(DKMS_ARGS) || { \
			echo "dkms-install: dkms install greybus/$(GB_VERSION) failed for $$k" >&2; rc=1; }; \
	done; exit $$rc

dkms-remove: ## dkms remove and the sources from /usr/src (root)
	@sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	if $$sudo dkms status -m greybus -v $(GB_VERSION) $(DKMS_ARGS) | grep -q .; then \
		$$sudo dkms remove -m greybus -v $(GB_VERSION) --all $(DKMS_ARGS) || exit 1; \
	fi; \
	$$sudo rm -rf $(DKMS_SRC_ROOT)/greybus-$(GB_VERSION)

# The Debian source package and both binary packages (DEB_ARCH=arm64: the
# tools cross-built) from `make dist`'s tarball and debian/, with
# dpkg-buildpackage (dist/mkdeb says how).  Not after 'deps': that list is
# the test machine's (QEMU, amd64 kernels); building packages needs only
# what debian/control's Build-Depends names (dpkg-checkbuilddeps).
deb: ## source package and .debs into build/deb (DEB_ARCH=arm64: cross)
	@TOP=$(TOP) DEB_ARCH=$(DEB_ARCH) dist/mkdeb $(BUILD)/deb

# debian/changelog is made from NEWS.md and dist/version, never committed
# (a snapshot's version names its own commit); `make dist` puts it in the
# tarball.  Phony: it must follow every commit.
debian/changelog: ## the Debian changelog from NEWS.md and dist/version
	@dist/changelog >$@.tmp && mv -f $@.tmp $@ && echo "debian/changelog: $$(dpkg-parsechangelog -S Version)"

check-dist: deps ## dkms builds, packages, lintian, chroot install and upgrade (root)
	@TOP=$(TOP) BUILD=$(BUILD) USER_TOOLS='$(USER_TOOLS)' tests/dist/run

# The source tarball build/greybus-VERSION.tar.gz: the commit's tracked
# files and .dist-version, reproducible (dist/tarball says how).  Phony:
# the directory dist/ must not satisfy it.
dist: ## the reproducible source tarball build/greybus-VERSION.tar.gz
	@TOP=$(TOP) dist/tarball $(BUILD)

# A release, local only (nothing is pushed): VERSION must have its
# NEWS.md section and no tag yet, the tree must be clean; tags vVERSION on
# HEAD, then makes the tarball and the packages of the tagged commit.
# docs/releasing.md has the steps around it.
release: ## tag vVERSION and make its tarball and packages (docs/releasing.md)
	@set -e; v=$$(dist/version --base); \
	grep -q "^## $$v (" NEWS.md || { echo "release: NEWS.md has no '## $$v (DATE)' section" >&2; exit 1; }; \
	[ -z "$$(git status --porcelain --untracked-files=no)" ] || { echo "release: uncommitted changes" >&2; exit 1; }; \
	if git rev-parse -q --verify "refs/tags/v$$v" >/dev/null; then \
		[ "$$(git rev-parse "v$$v^{commit}")" = "$$(git rev-parse HEAD)" ] || \
			{ echo "release: v$$v already tags another commit; bump VERSION" >&2; exit 1; }; \
	else \
		git tag -a -m "greybus $$v" "v$$v"; echo "release: tagged v$$v"; \
	fi; \
	[ "$$(dist/version)" = "$$v" ] || { echo "release: dist/version says $$(dist/version)" >&2; exit 1; }; \
	$(MAKE) --no-print-directory dist; \
	$(MAKE) --no-print-directory deb; \
	echo "release: $$v done; publish with: git push origin v$$v"

# The tarball alone: unpacked in a scratch directory, where it must build
# the tools and the modules and pass the unit tests (TAP; part of
# check-all's CHECK_TAP).  The guest suite is not rerun from it: the same
# sources run it in check-all already (docs/releasing.md).
check-tarball: deps ## the tarball unpacked alone builds and passes the unit tests
	@TOP=$(TOP) BUILD=$(BUILD) MAKE='$(MAKE)' KVER='$(KVER)' tests/dist/tarball-build
