/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gbnet's trust rules: which functions of a node's bundles the kernel may
 * bind (docs/gbnet.md, Trust).  A function is a bundle class, or for a
 * Bridged-PHY bundle the protocol of each of its CPorts (gpio, uart, ...);
 * a bundle is allowed when every function it has is.
 *
 * A rule is one line:
 *
 *     [addr=ADDR[/LEN]] [vendor=STR] [product=STR] [via=static|mdns]
 *         [fingerprint=SHA256] [subject=STR]
 *         allow FUNCTION[,FUNCTION...] [FUNCTION...]
 *
 * STR is a word or "a quoted string" (\" and \\ inside); FUNCTION is a
 * name of gb_rules_fn_names, "default" (the set below), "all" or "none".
 * fingerprint= is the SHA-256 of a TLS node's certificate (64 hex digits,
 * colons allowed), subject= its subject as RFC 2253 writes it
 * ("CN=node1,O=Example"); a node without TLS matches neither.
 * Every match given must hold; none given matches every node.  Pure code:
 * no I/O, no global state (unit test and fuzz target).
 */
#ifndef GB_RULES_H
#define GB_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum gb_rules_fn {
	GB_FN_GPIO,
	GB_FN_I2C,
	GB_FN_SPI,
	GB_FN_PWM,
	GB_FN_LIGHTS,
	GB_FN_LOOPBACK,
	GB_FN_LOG,
	GB_FN_POWER_SUPPLY,
	GB_FN_VIBRATOR,
	GB_FN_UART,
	GB_FN_SDIO,
	GB_FN_USB,
	GB_FN_HID,
	GB_FN_RAW,
	GB_FN_FIRMWARE,
	GB_FN_BOOTROM,
	GB_FN_AUDIO,
	GB_FN_CAMERA,
	GB_FN_DISPLAY,
	GB_FN_SENSOR,
	GB_FN_VENDOR,
	GB_FN_OTHER,		/* a class or protocol we do not know */
	GB_FN_COUNT,
};

#define GB_FN(f)		(1u << (f))
#define GB_FN_ALL		(GB_FN(GB_FN_COUNT) - 1)
/* What a node no rule names may use: nothing that types, stores or talks */
#define GB_FN_DEFAULT	(GB_FN(GB_FN_GPIO) | GB_FN(GB_FN_I2C) | \
			 GB_FN(GB_FN_SPI) | GB_FN(GB_FN_PWM) | \
			 GB_FN(GB_FN_LIGHTS) | GB_FN(GB_FN_LOOPBACK) | \
			 GB_FN(GB_FN_LOG) | GB_FN(GB_FN_POWER_SUPPLY) | \
			 GB_FN(GB_FN_VIBRATOR))

#define GB_RULES_LINE_MAX	1024
#define GB_RULES_STR_MAX	128	/* a manifest string, at most */

extern const char *const gb_rules_fn_names[GB_FN_COUNT];

/* The function of a bundle class (not Bridged PHY) or of a CPort protocol */
uint32_t gb_rules_fn_of_class(uint8_t bundle_class);
uint32_t gb_rules_fn_of_protocol(uint8_t protocol);

/*
 * "gpio", "default", "all", "none", or a comma-separated list of them:
 * 0 and the set in @mask, or -1.
 */
int gb_rules_fn_parse(const char *words, uint32_t *mask);
/* "gpio,uart" (or "none") into @buf, truncated to fit; returns @buf */
char *gb_rules_fn_format(uint32_t mask, char *buf, size_t len);

struct gb_rule {
	bool		has_addr;
	int		family;		/* AF_INET or AF_INET6 */
	uint8_t		addr[16];
	unsigned int	prefix;		/* bits that must match */
	bool		has_vendor, has_product;
	char		vendor[GB_RULES_STR_MAX];
	char		product[GB_RULES_STR_MAX];
	int		via;		/* 0 any, GB_RULE_VIA_* */
	bool		has_fingerprint, has_subject;
	char		fingerprint[65];	/* lower-case hex */
	char		subject[GB_RULES_STR_MAX * 2];
	uint32_t	allow;
};

#define GB_RULE_VIA_STATIC	1
#define GB_RULE_VIA_MDNS	2

/* What a rule is matched against */
struct gb_rules_node {
	const char	*addr;		/* the node's IP address, no port */
	bool		mdns;		/* found by discovery */
	const char	*vendor;	/* the manifest's strings ("" if none) */
	const char	*product;
	const char	*fingerprint;	/* TLS: the certificate's SHA-256, hex */
	const char	*subject;	/* TLS: its subject, RFC 2253 */
};

/* 0, or -1 with a message in @err ("unknown function 'foo'") */
int gb_rule_parse(const char *line, struct gb_rule *rule, char *err,
		  size_t errlen);
bool gb_rule_matches(const struct gb_rule *rule,
		     const struct gb_rules_node *node);

#endif /* GB_RULES_H */
