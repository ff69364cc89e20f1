// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's manifest validator, built for userspace: kcompat.h stands in
 * for the kernel headers, so mnfc, gbsim and the unit tests run exactly the
 * code greybus.ko runs.
 */
#include "kcompat.h"
#include "../../kernel/core/manifest_check.c"
