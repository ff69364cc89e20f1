/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The .topo audio topology source format (docs/audio.md): a text
 * description of an audio module's DAIs, controls, widgets and routes,
 * compiled into the Audio Management topology blob a module returns for
 * GET_TOPOLOGY (include/uapi/greybus/audio.h).  gbsim serves it.
 *
 * The compiler accepts only what gb-audio-module accepts: a topology that
 * compiles is never refused by the kernel's checks (kernel/audio/topology.c).
 */
#ifndef GB_TOPO_H
#define GB_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/greybus/audio.h>

#include "gb_manifest.h"	/* struct gb_mnfs_diag, gb_mnfs_diag_format() */

/* The size field of GET_TOPOLOGY_SIZE is 16 bits */
#define GB_TOPO_SIZE_MAX	65535

/* What a module model needs to know of each control, indexed by id */
struct gb_topo_ctl {
	bool	declared;
	bool	enumerated;
	char	name[GB_AUDIO_CONTROL_NAME_MAX];
	int32_t	init;		/* value at start (item, for enumerated) */
	int32_t	min, max;	/* range (0..items - 1 for enumerated) */
};

struct gb_topo {
	uint8_t		*blob;		/* malloc'ed */
	size_t		len;
	unsigned int	num_dais, num_controls, num_widgets, num_routes;
	unsigned int	num_widget_controls;
	struct gb_topo_ctl ctl[256];
};

/*
 * Compiles @len bytes of .topo source into @t (whose blob the caller
 * frees with gb_topo_release()).  @data_cport is the DAIs' Audio Data
 * CPort where a [dai] section gives no `cport`.  @filename only names the
 * source in @diag.  Returns 0, or -1 with @diag filled (@diag may be NULL)
 * and @t empty.
 */
int gb_topo_compile(const char *src, size_t len, const char *filename,
		    uint16_t data_cport, struct gb_topo *t,
		    struct gb_mnfs_diag *diag);
void gb_topo_release(struct gb_topo *t);

#endif /* GB_TOPO_H */
