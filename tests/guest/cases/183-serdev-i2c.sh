# Checks I2C through a bridged PHY on a module behind the CC1352 of the arm64 guest's device tree, with i2c-tools from Debian's arm64 package: case 90-gbphy-i2c-tools re-run with GB_TRANSPORT=serdev (gbsim as the chip on the PL011's far end).
# timeout: 150
# tools: i2cdetect i2cget i2cset i2ctransfer
# kmods: i2c-dev fixed
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/serdev.sh
serdev_rerun 90-gbphy-i2c-tools
