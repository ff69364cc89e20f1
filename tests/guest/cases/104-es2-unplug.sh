# Checks that killing gbsim with three modules enumerated removes the whole tree without a kernel warning over the emulated ES2 bridge: case 23-gbsim-unplug re-run with GB_TRANSPORT=es2 (the USB device goes with functionfs).
# timeout: 180
# kmods: configfs libcomposite usb_f_fs dummy_hcd
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/es2.sh
es2_rerun 23-gbsim-unplug
