# SPDX-License-Identifier: GPL-2.0
# The bridged-PHY cases' lookups: which gpiochip, i2c adapter, spi
# master, pwmchip or tty is the one below a gbphy device (the guest's
# own may be there too).  Source after lib.sh.

# gbphy_find GLOB [LINK]: the first path of GLOB that lies below a gbphy
# device, judged by where PATH/LINK (PATH itself without LINK) resolves
gbphy_find() {
	local p
	for p in $1; do
		case $(readlink -f "$p${2:+/$2}") in
		*gbphy*) echo "$p"; return 0 ;;
		esac
	done
	return 1
}

# the gpiochip's name (gpiochipN), from libgpiod's gpiodetect
gbphy_gpiochip() {
	gpiodetect 2>/dev/null | grep '\[gbphy[0-9]*\]' | cut -d' ' -f1 | grep .
}

# the i2c adapter's number
gbphy_i2c_bus() {
	local a
	a=$(gbphy_find '/sys/bus/i2c/devices/i2c-*') || return 1
	echo "${a##*/i2c-}"
}

# the spi master's bus number
gbphy_spi_bus() {
	local m
	m=$(gbphy_find '/sys/class/spi_master/spi*' device) || return 1
	echo "${m##*/spi}"
}

# the pwmchip's class directory
gbphy_pwmchip() {
	gbphy_find '/sys/class/pwm/pwmchip*' device
}

# the tty's name (ttyGBN)
gbphy_tty() {
	local t
	t=$(gbphy_find '/sys/class/tty/ttyGB*' device) || return 1
	basename "$t"
}

# the SD card's block device name (mmcblkN) below a gbphy device
gbphy_mmcblk() {
	local b
	b=$(gbphy_find '/sys/block/mmcblk*' device) || return 1
	basename "$b"
}

# gbphy_card [WHAT]: wait for the SD card's block device below a gbphy
# device (30 s for the card, 10 s for its node) and set B to its name;
# fail the case, saying WHAT, if it does not come
gbphy_card() {
	wait_for 30 gbphy_mmcblk >/dev/null ||
		fail "no mmcblk below a gbphy device${1:+ $1}: $(tail -n 5 log 2>/dev/null)"
	B=$(gbphy_mmcblk)
	wait_for 10 test -b /dev/$B || fail "no /dev/$B${1:+ $1}"
}

# gbphy_card_gone: no SD card below a gbphy device
gbphy_card_gone() {
	! gbphy_mmcblk >/dev/null
}

# gbphy_none: no gbphy device left on the bus (after a removal, each goes
# in turn: wait for it with wait_for, not once).  The driver core takes a
# device off its bus before the driver's remove runs: what the driver
# made (a gpiochip, an i2c adapter, an MMC host and its card) can still
# be there, so a case that looks for a new one waits for the old one to
# go first.
gbphy_none() {
	! ls /sys/bus/gbphy/devices 2>/dev/null | grep -q .
}
