/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Greybus bundle id tables: how a protocol driver says which bundles it
 * drives, and how modprobe finds the driver for a new bundle.
 */
#ifndef __GREYBUS_GREYBUS_ID_H
#define __GREYBUS_GREYBUS_ID_H

#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/types.h>

/**
 * struct greybus_bundle_id - an entry of a protocol driver's id table
 * @match_flags: which of the fields below must match
 *	(GREYBUS_ID_MATCH_*); the table ends with an entry where it is 0
 * @vendor: the interface's Ara vendor id
 * @product: the interface's Ara product id
 * @class: the bundle class (GREYBUS_CLASS_*)
 * @driver_info: the driver's own data for this entry
 *
 * The layout is the one Linux uses for its greybus id table, so that
 * MODULE_DEVICE_TABLE(greybus, ...) describes the same structure to any
 * tool that knows it.  Entries are usually written with
 * GREYBUS_DEVICE_CLASS() and its siblings.
 */
struct greybus_bundle_id {
	__u16		match_flags;
	__u32		vendor;
	__u32		product;
	__u8		class;
	kernel_ulong_t	driver_info;
};

#define GREYBUS_ID_MATCH_VENDOR		BIT(0)
#define GREYBUS_ID_MATCH_PRODUCT	BIT(1)
#define GREYBUS_ID_MATCH_CLASS		BIT(2)
#define GREYBUS_ID_MATCH_DEVICE \
	(GREYBUS_ID_MATCH_VENDOR | GREYBUS_ID_MATCH_PRODUCT)

/* Entry initialisers, as in { GREYBUS_DEVICE_CLASS(GREYBUS_CLASS_VIBRATOR) } */
#define GREYBUS_DEVICE(v, p)					\
	.match_flags	= GREYBUS_ID_MATCH_DEVICE,		\
	.vendor		= (v),					\
	.product	= (p)

#define GREYBUS_DEVICE_CLASS(c)					\
	.match_flags	= GREYBUS_ID_MATCH_CLASS,		\
	.class		= (c)

#define GREYBUS_DEVICE_CLASS_VP(v, p, c)			\
	.match_flags	= GREYBUS_ID_MATCH_DEVICE |		\
			  GREYBUS_ID_MATCH_CLASS,		\
	.vendor		= (v),					\
	.product	= (p),					\
	.class		= (c)

/*
 * Module aliases.
 *
 * A bundle's uevent carries MODALIAS=greybus:v%08Xp%08Xc%02X (vendor,
 * product, class; upper-case hex).  Debian's 6.1 modpost does not know a
 * "greybus" device table, so MODULE_DEVICE_TABLE(greybus, ...) alone
 * generates no alias and modprobe would never load the driver.  A driver
 * therefore states, next to its id table, one alias per table entry:
 *
 *	GREYBUS_MODULE_ALIAS_CLASS(GREYBUS_CLASS_VIBRATOR);
 *	GREYBUS_MODULE_ALIAS_DEVICE(0x12345678, 0x00000001);
 *
 * The preprocessor cannot turn a number into hex text, so these macros
 * lay the modinfo string out as characters computed at compile time; the
 * result is byte for byte what file2alias would write ("*" for fields the
 * entry does not match on), e.g. "alias=greybus:v*p*c10".
 *
 * Upper-case hex digits of an integer constant expression.  The value
 * initialises a static array, so it cannot have side effects; the
 * helpers that repeat it take it as "..." for that reason.
 */
#define __GREYBUS_HEX_DIGIT(v, shift)					\
	("0123456789ABCDEF"[((v) >> (shift)) & 0xf])

#define __GREYBUS_HEX2(...)						\
	{ __GREYBUS_HEX_DIGIT(__VA_ARGS__, 4),				\
	  __GREYBUS_HEX_DIGIT(__VA_ARGS__, 0) }

#define __GREYBUS_HEX8(...)						\
	{ __GREYBUS_HEX_DIGIT(__VA_ARGS__, 28),				\
	  __GREYBUS_HEX_DIGIT(__VA_ARGS__, 24),				\
	  __GREYBUS_HEX_DIGIT(__VA_ARGS__, 20),				\
	  __GREYBUS_HEX_DIGIT(__VA_ARGS__, 16),				\
	  __GREYBUS_HEX_DIGIT(__VA_ARGS__, 12),				\
	  __GREYBUS_HEX_DIGIT(__VA_ARGS__, 8),				\
	  __GREYBUS_HEX_DIGIT(__VA_ARGS__, 4),				\
	  __GREYBUS_HEX_DIGIT(__VA_ARGS__, 0) }

#define GREYBUS_MODULE_ALIAS_CLASS(c)					\
	static const struct {						\
		char head[sizeof(__MODULE_INFO_PREFIX			\
				 "alias=greybus:v*p*c") - 1];		\
		char class[2];						\
		char nul;						\
	} __UNIQUE_ID(greybus_alias)					\
	  __used __section(".modinfo") __aligned(1) = {			\
		__MODULE_INFO_PREFIX "alias=greybus:v*p*c",		\
		__GREYBUS_HEX2(c), '\0'					\
	}

#define GREYBUS_MODULE_ALIAS_DEVICE(v, p)				\
	static const struct {						\
		char head[sizeof(__MODULE_INFO_PREFIX			\
				 "alias=greybus:v") - 1];		\
		char vendor[8];						\
		char p_tag;						\
		char product[8];					\
		char tail[sizeof("c*")];				\
	} __UNIQUE_ID(greybus_alias)					\
	  __used __section(".modinfo") __aligned(1) = {			\
		__MODULE_INFO_PREFIX "alias=greybus:v",			\
		__GREYBUS_HEX8(v), 'p', __GREYBUS_HEX8(p), "c*"		\
	}

#define GREYBUS_MODULE_ALIAS_DEVICE_CLASS(v, p, c)			\
	static const struct {						\
		char head[sizeof(__MODULE_INFO_PREFIX			\
				 "alias=greybus:v") - 1];		\
		char vendor[8];						\
		char p_tag;						\
		char product[8];					\
		char c_tag;						\
		char class[2];						\
		char nul;						\
	} __UNIQUE_ID(greybus_alias)					\
	  __used __section(".modinfo") __aligned(1) = {			\
		__MODULE_INFO_PREFIX "alias=greybus:v",			\
		__GREYBUS_HEX8(v), 'p', __GREYBUS_HEX8(p), 'c',		\
		__GREYBUS_HEX2(c), '\0'					\
	}

#endif /* __GREYBUS_GREYBUS_ID_H */
