# Checks module hotplug cycles over the serial link: case 41-hotplug-cycles re-run with GB_TRANSPORT=hdlc.
# timeout: 180
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh
hdlc_rerun 41-hotplug-cycles
