# Checks GPIO through a bridged PHY over the serial link with the stock tools: case 91-gbphy-gpio re-run with GB_TRANSPORT=hdlc.
# timeout: 180
# tools: gpiodetect gpioinfo gpioget gpioset gpiomon
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh
hdlc_rerun 91-gbphy-gpio
