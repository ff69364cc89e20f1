# Checks 50 module hotplug cycles over the emulated ES2 bridge: case 41-hotplug-cycles re-run with GB_TRANSPORT=es2 (gbsim on functionfs and dummy_hcd, gb-es2 instead of gb-vhd).
# timeout: 300
# kmods: configfs libcomposite usb_f_fs dummy_hcd
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/es2.sh
# 50, not 200: a cycle over USB on TCG takes about 1 s
GB_CYCLES=50
export GB_CYCLES
es2_rerun 41-hotplug-cycles
