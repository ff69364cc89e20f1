# SPDX-License-Identifier: GPL-2.0
# Include paths shared by every Greybus Kbuild file: the wire format in
# include/uapi/greybus and the in-kernel API in kernel/include/greybus.
GB_TOP := $(abspath $(src)/../..)
ccflags-y += -I$(GB_TOP)/include -I$(GB_TOP)/kernel/include

# The version (dist/version, the one place that computes it), as
# MODULE_VERSION in every module: only the files that declare a module's
# MODULE_LICENSE get it, so a new commit recompiles one file per module.
GB_MODVERSION := $(shell $(GB_TOP)/dist/version)
$(foreach f,$(notdir $(basename $(shell grep -l '^MODULE_LICENSE' $(src)/*.c))),\
	$(eval CFLAGS_$(f).o += -DGB_VERSION='"$(GB_MODVERSION)"'))
