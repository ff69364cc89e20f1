/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel APIs that differ between the kernels the stack builds for
 * (Linux 6.1 and 6.12, see docs/kernels.md).  This is the only place that
 * tests LINUX_VERSION_CODE: each shim names the release that changed the
 * API and gives the code one spelling that builds on both sides.
 *
 * Where both kernels accept the same code (a field dropped that the older
 * one does not need, a helper both have), the code just uses it and no shim
 * is added here.
 */
#ifndef __GREYBUS_COMPAT_H
#define __GREYBUS_COMPAT_H

#include <linux/version.h>

#define GB_LINUX_AT_LEAST(a, b, c)	(LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, c))
/* A stable line that took a change before its next release did */
#define GB_LINUX_IN(from, to)	\
	(LINUX_VERSION_CODE >= (from) && LINUX_VERSION_CODE < (to))

/*
 * v6.3: bus_type.uevent and kset_uevent_ops.uevent take a const device
 * and a const kobject.
 */
#if GB_LINUX_AT_LEAST(6, 3, 0)
#define GB_UEVENT_CONST	const
#else
#define GB_UEVENT_CONST
#endif

/* v6.11: bus_type.match takes a const device_driver */
#if GB_LINUX_AT_LEAST(6, 11, 0)
#define GB_MATCH_CONST	const
#else
#define GB_MATCH_CONST
#endif

/*
 * v7.3, and v6.12.117 in the 6.12 stable line: need_parent_lock moved from
 * struct bus_type to struct device_type.  GB_BUS_NEED_PARENT_LOCK goes in
 * the bus_type initializer, GB_TYPE_NEED_PARENT_LOCK in the device_type
 * one; on each kernel one of them is empty.
 */
#if GB_LINUX_IN(KERNEL_VERSION(6, 12, 117), KERNEL_VERSION(6, 13, 0)) || \
	GB_LINUX_AT_LEAST(7, 3, 0)
#define GB_BUS_NEED_PARENT_LOCK
#define GB_TYPE_NEED_PARENT_LOCK	.need_parent_lock = true,
#else
#define GB_BUS_NEED_PARENT_LOCK		.need_parent_lock = true,
#define GB_TYPE_NEED_PARENT_LOCK
#endif

/*
 * v6.3: tty_port_operations.carrier_raised returns bool and .dtr_rts
 * takes a bool.
 */
#if GB_LINUX_AT_LEAST(6, 3, 0)
#define GB_TTY_PORT_BOOL	bool
#else
#define GB_TTY_PORT_BOOL	int
#endif

/* v6.6: tty_operations.write takes a size_t and returns an ssize_t */
#if GB_LINUX_AT_LEAST(6, 6, 0)
#define GB_TTY_WRITE_RET	ssize_t
#define GB_TTY_WRITE_LEN	size_t
#else
#define GB_TTY_WRITE_RET	int
#define GB_TTY_WRITE_LEN	int
#endif

/*
 * v6.6: tty_ldisc_ops.receive_buf takes its flags as u8 and its count as
 * a size_t.
 */
#if GB_LINUX_AT_LEAST(6, 6, 0)
#define GB_LDISC_FLAG_T		u8
#define GB_LDISC_COUNT_T	size_t
#else
#define GB_LDISC_FLAG_T		char
#define GB_LDISC_COUNT_T	int
#endif

/* v6.8: serdev_device_ops.receive_buf returns a size_t */
#if GB_LINUX_AT_LEAST(6, 8, 0)
#define GB_SERDEV_RX_RET	size_t
#else
#define GB_SERDEV_RX_RET	int
#endif

/* v6.7: snd_soc_* names for the asoc_* runtime helpers */
#if !GB_LINUX_AT_LEAST(6, 7, 0)
#define snd_soc_substream_to_rtd(substream)	asoc_substream_to_rtd(substream)
#define snd_soc_rtd_to_codec(rtd, n)		asoc_rtd_to_codec(rtd, n)
#endif

/*
 * v6.7: pwm_ops lost .owner; pwmchip_add() records the caller's module.
 * v6.9: the PWM core allocates the pwm_chip with the driver's private
 * data behind it (pwmchip_alloc) and frees it on its last reference
 * (pwmchip_put).  Older kernels get the same calls, backed by kzalloc.
 */
#if !GB_LINUX_AT_LEAST(6, 7, 0)
#define GB_PWM_OPS_OWNER	.owner = THIS_MODULE,
#else
#define GB_PWM_OPS_OWNER
#endif

#if !GB_LINUX_AT_LEAST(6, 9, 0)
#include <linux/err.h>
#include <linux/pwm.h>
#include <linux/slab.h>

/**
 * struct gb_compat_pwm_chip - a pwm_chip and its driver's data, as
 *	pwmchip_alloc() lays them out from v6.9 on
 * @chip: the chip
 * @priv: the driver's data, gb_pwmchip_priv()
 */
struct gb_compat_pwm_chip {
	struct pwm_chip	chip;
	u8		priv[] __aligned(ARCH_KMALLOC_MINALIGN);
};

static inline struct pwm_chip *gb_pwmchip_alloc(struct device *parent,
						unsigned int npwm,
						size_t sizeof_priv)
{
	struct gb_compat_pwm_chip *c;

	c = kzalloc(struct_size(c, priv, sizeof_priv), GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->chip.dev = parent;
	c->chip.npwm = npwm;
	c->chip.base = -1;
	return &c->chip;
}

static inline void *gb_pwmchip_priv(struct pwm_chip *chip)
{
	return container_of(chip, struct gb_compat_pwm_chip, chip)->priv;
}

static inline void gb_pwmchip_put(struct pwm_chip *chip)
{
	kfree(container_of(chip, struct gb_compat_pwm_chip, chip));
}
#else
#define gb_pwmchip_alloc(parent, npwm, sizeof_priv)	\
	pwmchip_alloc(parent, npwm, sizeof_priv)
#define gb_pwmchip_priv(chip)	pwmchip_get_drvdata(chip)
#define gb_pwmchip_put(chip)	pwmchip_put(chip)
#endif

/*
 * v6.9: gpiod_free() puts the module and gpio_device references of a line
 * even when its chip was removed before; until then they leaked, and the
 * chip's driver had to put them itself.
 */
#define GB_GPIOD_FREE_LEAKS_ORPHANS	(!GB_LINUX_AT_LEAST(6, 9, 0))

/*
 * v6.12: gpiochip_remove() frees the interrupts still requested on the
 * chip's lines (their users are not told), and the GPIO character device
 * frees its own again on close.
 */
#define GB_GPIOCHIP_REMOVE_FREES_IRQS	GB_LINUX_AT_LEAST(6, 12, 0)

/* v6.9: pm_runtime_get_if_active() lost its ign_usage_count argument */
#if GB_LINUX_AT_LEAST(6, 9, 0)
#define gb_pm_runtime_get_if_active(dev)	pm_runtime_get_if_active(dev)
#else
#define gb_pm_runtime_get_if_active(dev)	pm_runtime_get_if_active(dev, true)
#endif

/*
 * v6.10: __assign_str() takes only the field; the source is the one
 * given to __string().
 */
#if GB_LINUX_AT_LEAST(6, 10, 0)
#define gb_assign_str(dst, src)	__assign_str(dst)
#else
#define gb_assign_str(dst, src)	__assign_str(dst, src)
#endif

/*
 * v7.1, and v6.12.85 in the 6.12 stable line: driver_override lives in
 * struct device and spi_device lost its own.
 */
#if GB_LINUX_IN(KERNEL_VERSION(6, 12, 85), KERNEL_VERSION(6, 13, 0)) || \
	GB_LINUX_AT_LEAST(7, 1, 0)
#define gb_spi_set_driver_override(spi, name)			\
	device_set_driver_override(&(spi)->dev, name)
#else
#define gb_spi_set_driver_override(spi, name) ({			\
	struct spi_device *__spi = (spi);				\
	const char *__name = (name);					\
									\
	driver_set_override(&__spi->dev, &__spi->driver_override,	\
			    __name, strlen(__name));			\
})
#endif

/*
 * v6.9: an spi_device has an array of chip selects, unused slots marked
 * with 0xff and the used ones in cs_index_mask; spi_alloc_device() leaves
 * that to its caller.  Before, one chip select.
 */
#if GB_LINUX_AT_LEAST(6, 9, 0)
#define gb_spi_set_chip_select(spi, cs) ({				\
	struct spi_device *__spi = (spi);				\
	unsigned int __i;						\
									\
	for (__i = 0; __i < SPI_CS_CNT_MAX; __i++)			\
		spi_set_chipselect(__spi, __i, 0xff);			\
	spi_set_chipselect(__spi, 0, cs);				\
	__spi->cs_index_mask = BIT(0);					\
})
#else
#define gb_spi_set_chip_select(spi, cs)	spi_set_chipselect(spi, 0, cs)
#endif

#endif /* __GREYBUS_COMPAT_H */
