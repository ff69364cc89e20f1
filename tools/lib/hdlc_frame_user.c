// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's HDLC framing (gb-hdlc.ko), built for userspace: gbsim's
 * serial transport, the unit tests and the fuzzer run exactly the code
 * the host driver runs.
 */
#include "kcompat.h"
#include "../../kernel/hosts/hdlc_frame.c"
