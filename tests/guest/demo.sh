# SPDX-License-Identifier: GPL-2.0
# The demo, run inside the guest by 'make demo'; its output is shown on the
# host. Each capability of the stack adds its step here.
. /usr/lib/gbtest/lib.sh

step() {
	echo
	echo "=== $*"
}

step "Guest: Linux $(uname -r), $(nproc) CPUs"

step "Loading the Greybus core: modprobe greybus"
load_gb greybus
modinfo -F description greybus | sed 's/^/description: /'

step "The greybus bus: ls -R /sys/bus/greybus"
ls -R /sys/bus/greybus

step "Unloading every Greybus module"
unload_all_gb
[ -e /sys/bus/greybus ] && fail "/sys/bus/greybus still present after unload"
echo "done, /sys/bus/greybus is gone"
