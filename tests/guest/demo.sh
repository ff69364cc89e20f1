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

M=/usr/share/greybus/manifests
step "Simulated network: gbsim with the article's audio module at interface 2 and a two-bundle module at interface 4"
load_gb gb-vhd
gbsim -l /tmp/gbsim.log -m 2:$M/audio.mnfs,vid=0x12345678,pid=0x9abcdef0 \
	-m 4:$M/two-bundle.mnfs &
gbsim_pid=$!
wait_for 20 test -e /sys/bus/greybus/devices/1-4.4.2 ||
	fail "the simulated modules did not enumerate"

step "The Greybus device tree: /sys/bus/greybus/devices"
for d in /sys/bus/greybus/devices/*; do
	n=${d##*/}
	case $n in
	greybus*)	echo "$n  bus_id=$(cat $d/bus_id)" ;;
	*-svc)		echo "$n  endo_id=$(cat $d/endo_id) ap_intf_id=$(cat $d/ap_intf_id)" ;;
	*.ctrl)		echo "$n  vendor_string=\"$(cat $d/vendor_string)\" product_string=\"$(cat $d/product_string)\"" ;;
	*.*.*)		echo "$n  bundle_id=$(cat $d/bundle_id) bundle_class=$(cat $d/bundle_class)" ;;
	*.*)		echo "$n  interface_id=$(cat $d/interface_id) vendor_id=$(cat $d/vendor_id) product_id=$(cat $d/product_id) interface_type=$(cat $d/interface_type)" ;;
	*)		echo "$n  module_id=$(cat $d/module_id) num_interfaces=$(cat $d/num_interfaces)" ;;
	esac
done

step "What the AP said, as gbsim logged it (first lines)"
head -n 24 /tmp/gbsim.log

step "Unplugging the bridge: stopping gbsim"
kill $gbsim_pid
wait $gbsim_pid
wait_for 10 test ! -e /sys/bus/greybus/devices/greybus1 ||
	fail "greybus1 still present after gbsim exited"
echo "greybus1 and everything under it are gone"

step "Unloading every Greybus module"
unload_all_gb
[ -e /sys/bus/greybus ] && fail "/sys/bus/greybus still present after unload"
echo "done, /sys/bus/greybus is gone"
