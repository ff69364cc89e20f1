# Checks I2C through a bridged PHY over the serial link with i2c-tools: case 90-gbphy-i2c-tools re-run with GB_TRANSPORT=hdlc.
# timeout: 150
# tools: i2cdetect i2cget i2cset i2ctransfer
# kmods: i2c-dev
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh
hdlc_rerun 90-gbphy-i2c-tools
