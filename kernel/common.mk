# SPDX-License-Identifier: GPL-2.0
# Include paths shared by every Greybus Kbuild file: the wire format in
# include/uapi/greybus and the in-kernel API in kernel/include/greybus.
GB_TOP := $(abspath $(src)/../..)
ccflags-y += -I$(GB_TOP)/include -I$(GB_TOP)/kernel/include
