// SPDX-License-Identifier: GPL-2.0
/*
 * Once the discipline is attached gbattach only holds the port and, at
 * the end, puts N_TTY back and restores the settings: none of that needs
 * a capability (only attaching gb-hdlc does: CAP_SYS_ADMIN), so every
 * one is given up, the bounding set and the ambient set emptied where
 * the process may, and no exec can bring any back (no_new_privs).  Raw
 * capset(2) and prctl(2): two calls do not warrant a library.
 */
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#include "gbattach.h"

void gbattach_drop_privileges(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int cap;

	/* the bounding set needs CAP_SETPCAP, so it goes first */
	for (cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++) {
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno == EPERM)
			break;	/* not ours to drop; a service manager set it */
	}
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		gbattach_err("cannot set no_new_privs: %s", strerror(errno));
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capset, &hdr, data))
		gbattach_err("cannot give up capabilities: %s", strerror(errno));
}
