# Makes the module's exit block for good: the post-case rmmod must be given up on, the case failed, and the guest be given up.
# selftest-expect: fail
# selftest-reason: post-case cleanup: rmmod gbselftest_dev has not returned after 30 s
. /usr/lib/gbtest/lib.sh
load_gb gbselftest_dev
echo 1 >/sys/kernel/debug/gbselftest/wedge_exit
exit 0
