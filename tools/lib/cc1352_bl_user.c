// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's CC1352 ROM bootloader packets and image checks (gb-hdlc.ko),
 * built for userspace: gbsim's bootloader, the unit tests and the fuzzer
 * run exactly the code the host driver runs.
 */
#include "kcompat.h"
#include "../../kernel/hosts/cc1352_bl.c"
