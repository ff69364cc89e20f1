# Checks that the guest booted with the expected mounts and a clean kernel log.
# transport: none
. /usr/lib/gbtest/lib.sh

for fs in proc:/proc sysfs:/sys devtmpfs:/dev debugfs:/sys/kernel/debug \
	tracefs:/sys/kernel/tracing cgroup2:/sys/fs/cgroup; do
	awk -v t="${fs%%:*}" -v m="${fs#*:}" '$2 == m && $3 == t { f = 1 } END { exit !f }' \
		/proc/mounts || fail "${fs#*:} is not mounted as ${fs%%:*}"
done

res=$(sed -n 's/.*gbtest\.results=\([a-zA-Z0-9]*\).*/\1/p' /proc/cmdline)
[ -c "/dev/${res:-ttyS1}" ] || fail "no /dev/${res:-ttyS1} (the results channel)"
assert_eq "$(cat /proc/sys/kernel/tainted)" 0 "taint flags at boot"

# The runner saved the kernel log of the boot itself.
[ -s /run/gbtest/boot.dmesg ] || fail "no boot kernel log saved"
if grep -E -- "$GB_HEALTH_RE" /run/gbtest/boot.dmesg; then
	fail "the boot kernel log shows a problem"
fi

# Module autoload needs modprobe to be kmod's, at the path the kernel runs.
/sbin/modprobe --version | grep -q kmod || fail "/sbin/modprobe is not kmod"
modprobe --version | grep -q kmod || fail "modprobe in cases is busybox's, not kmod"
[ -d "$GB_EXTRA" ] || fail "$GB_EXTRA is missing"
[ -s "/lib/modules/$GB_KVER/modules.dep" ] || fail "modules.dep is missing"
exit 0
