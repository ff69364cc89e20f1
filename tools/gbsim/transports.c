// SPDX-License-Identifier: GPL-2.0
/*
 * The transports gbsim can reach the AP through, by the name --transport
 * gives: gb-vhd's character device (shared with gbnet), the emulated
 * ES2 USB bridge, an HDLC-framed serial link (--transport hdlc), and TCP
 * nodes with no bridge at all (--node).
 */
#include <string.h>

#include "gbsim.h"
#include "transport.h"

const struct gbsim_transport_ops *gbsim_transport_find(const char *name)
{
	static const struct gbsim_transport_ops *const all[] = {
		&gbsim_vhd_transport,
		&gbsim_es2_transport,
		&gbsim_hdlc_transport,
		&gbsim_node_transport,
	};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}
