# Checks the article's tree over the serial link: case 20-gbsim-article-tree re-run with GB_TRANSPORT=hdlc (gbsim on a pty, gbattach, gb-hdlc's line discipline).
# timeout: 90
# transport: none
. /usr/lib/gbtest/lib.sh
. /usr/lib/gbtest/hdlc.sh
hdlc_rerun 20-gbsim-article-tree
