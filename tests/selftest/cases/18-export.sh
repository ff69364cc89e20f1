# Checks that export_file hands a file to the host byte for byte (every byte value, a size that is no multiple of 3) and that the case's '# host:' check runs over it and passes.
# host: selftest-export
# selftest-expect: pass
# selftest-host-expect: pass
. /usr/lib/gbtest/lib.sh
i=0
while [ $i -lt 256 ]; do
	printf "\\$(printf %o $i)"
	i=$((i + 1))
done >$GBTEST_TMP/bytes.bin
printf 'x' >>$GBTEST_TMP/bytes.bin
export_file bytes.bin
exit 0
