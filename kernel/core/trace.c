// SPDX-License-Identifier: GPL-2.0
/*
 * The one place the Greybus tracepoints are instantiated.
 */
#define CREATE_TRACE_POINTS
#include "greybus_trace.h"
