# Checks that '# tools:' and '# kmods:' bring host tools and Debian modules with their dependencies.
# tools: stat
# kmods: dummy_hcd
# selftest-expect: pass
. /usr/lib/gbtest/lib.sh
stat --version | grep -q GNU || fail "stat in the guest is not the host's GNU stat"
modprobe dummy_hcd || fail "modprobe dummy_hcd failed"
grep -q '^udc_core ' /proc/modules || fail "dependency udc_core was not loaded"
modprobe -r dummy_hcd || fail "modprobe -r dummy_hcd failed"
exit 0
