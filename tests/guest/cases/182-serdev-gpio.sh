# Checks GPIO through a bridged PHY on a module behind the CC1352 of the arm64 guest's device tree, with libgpiod's stock tools from Debian's arm64 package: case 91-gbphy-gpio re-run with GB_TRANSPORT=serdev (gbsim as the chip on the PL011's far end).
# timeout: 180
# tools: gpiodetect gpioinfo gpioget gpioset gpiomon
# kmods: fixed
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/serdev.sh
serdev_rerun 91-gbphy-gpio
