# Checks gb-loopback's error accounting under injected faults over the emulated ES2 bridge: case 63-loopback-faults re-run with GB_TRANSPORT=es2 (gbsim on functionfs and dummy_hcd, gb-es2 instead of gb-vhd).
# timeout: 300
# kmods: configfs libcomposite usb_f_fs dummy_hcd
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/es2.sh
es2_rerun 63-loopback-faults
