// SPDX-License-Identifier: GPL-2.0
/*
 * gbnet's TLS settings: the defaults (--tls-* options, the config file's
 * "tls" line) and a node's own words after its address
 * ("tls:HOST[:PORT] ca=FILE pin=HEX cert=FILE key=FILE name=NAME
 * suites=legacy"), made into one TLS context per node (tools/lib/gb_tls.c
 * does the protocol).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gb_tls.h>

#include "gbnet.h"

/* Free what gbnet_tls_words() stored (strdup'd values) */
void gbnet_tls_settings_free(struct gbnet_tls_settings *s)
{
	free(s->ca);
	free(s->pin);
	free(s->cert);
	free(s->key);
	free(s->name);
	memset(s, 0, sizeof(*s));
}

static int gbnet_tls_set(char **slot, const char *v)
{
	char *c = strdup(v);

	if (!c)
		return -ENOMEM;
	free(*slot);
	*slot = c;
	return 0;
}

int gbnet_tls_word(struct gbnet_tls_settings *s, const char *word, char *err,
		   size_t errlen)
{
	const char *eq = strchr(word, '=');
	const char *v = eq ? eq + 1 : "";
	size_t k = eq ? (size_t)(eq - word) : strlen(word);

	if (!eq || !*v) {
		snprintf(err, errlen, "'%s': expected ca=, pin=, cert=, key=, name= or suites=",
			 word);
		return -EINVAL;
	}
	if (k == 2 && !strncmp(word, "ca", 2))
		return gbnet_tls_set(&s->ca, v);
	if (k == 3 && !strncmp(word, "pin", 3)) {
		char hex[65];

		if (gb_tls_pin_normalize(v, hex, sizeof(hex))) {
			snprintf(err, errlen, "pin '%s': 64 hex digits (SHA-256 of the node's certificate)",
				 v);
			return -EINVAL;
		}
		return gbnet_tls_set(&s->pin, hex);
	}
	if (k == 4 && !strncmp(word, "cert", 4))
		return gbnet_tls_set(&s->cert, v);
	if (k == 3 && !strncmp(word, "key", 3))
		return gbnet_tls_set(&s->key, v);
	if (k == 4 && !strncmp(word, "name", 4))
		return gbnet_tls_set(&s->name, v);
	if (k == 6 && !strncmp(word, "suites", 6)) {
		if (!strcmp(v, "legacy")) {
			s->legacy = 1;
		} else if (!strcmp(v, "default")) {
			s->legacy = 0;
		} else {
			snprintf(err, errlen, "suites=%s: default (forward secrecy only) or legacy (RSA-CBC too)",
				 v);
			return -EINVAL;
		}
		return 0;
	}
	snprintf(err, errlen, "'%s': expected ca=, pin=, cert=, key=, name= or suites=",
		 word);
	return -EINVAL;
}

/* Every word of @words (blank-separated) into @s */
int gbnet_tls_words(struct gbnet_tls_settings *s, const char *words,
		    char *err, size_t errlen)
{
	char buf[1024], *save = NULL, *w;

	if (strlen(words) >= sizeof(buf)) {
		snprintf(err, errlen, "TLS settings too long");
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", words);
	for (w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		int ret = gbnet_tls_word(s, w, err, errlen);

		if (ret)
			return ret;
	}
	return 0;
}

static bool gbnet_is_address(const char *host)
{
	unsigned char a[16];
	char buf[64];
	size_t n = strlen(host);

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, host, n + 1);
	buf[strcspn(buf, "%")] = '\0';
	return inet_pton(AF_INET, buf, a) == 1 || inet_pton(AF_INET6, buf, a) == 1;
}

/*
 * The context of a TLS node: its own words over the defaults.  The name
 * its certificate must carry: name=, else the host it was given as, if
 * that is a name and not an address (an address is checked by the CA or
 * the pin alone: greybus-zephyr's certificates rarely name one).
 */
struct gb_tls_ctx *gbnet_tls_ctx(struct gbnet *net, struct gbnet_node *node,
				 const struct gbnet_tls_settings *own,
				 char *err, size_t errlen)
{
	const struct gbnet_tls_settings *d = &net->tls;
	struct gb_tls_opts o = {
		.ca = own->ca ? own->ca : d->ca,
		.pin = own->pin ? own->pin : d->pin,
		.cert = own->cert ? own->cert : d->cert,
		.key = own->key ? own->key : d->key,
		.name = own->name ? own->name : d->name,
		.suites = (own->legacy >= 0 ? own->legacy : d->legacy) > 0 ?
			  GB_TLS_SUITES_LEGACY : GB_TLS_SUITES_DEFAULT,
	};
	char why[400];
	struct gb_tls_ctx *c;

	if (!o.name && !gbnet_is_address(node->host))
		o.name = node->host;
	c = gb_tls_ctx_new(false, &o, why, sizeof(why));
	if (!c)
		snprintf(err, errlen, "'%s': TLS: %s", node->spec, why);
	return c;
}

int gbnet_tls_defaults(struct gbnet *net, const char *file_words, char *err,
		       size_t errlen)
{
	struct gbnet_tls_settings s = { .legacy = 0 };

	if ((file_words && gbnet_tls_words(&s, file_words, err, errlen)) ||
	    gbnet_tls_words(&s, net->tls_args, err, errlen)) {
		gbnet_tls_settings_free(&s);
		return -EINVAL;
	}
	gbnet_tls_settings_free(&net->tls);
	net->tls = s;
	return 0;
}
