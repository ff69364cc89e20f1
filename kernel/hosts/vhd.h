/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What gb-vhd offers other kernel code (the userspace ABI is
 * include/uapi/greybus/vhd.h).
 */
#ifndef __GB_HOSTS_VHD_H
#define __GB_HOSTS_VHD_H

struct gb_host_device;

int gb_vhd_reset(struct gb_host_device *hd);

#endif /* __GB_HOSTS_VHD_H */
