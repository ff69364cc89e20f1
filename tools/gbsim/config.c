// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration: module specifications from the command line
 * ("IFID:MANIFEST[,key=value...]") and config files (one directive per
 * line, see docs/gbsim.md).
 */
#include <errno.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_cli.h"
#include "gbsim.h"
#include "log.h"

int gbsim_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

bool gbsim_knob_num(const char *tok, const char *key, uint64_t max,
		    uint64_t *v)
{
	size_t n = strlen(key);

	if (strncmp(tok, key, n) || tok[n] != '=')
		return false;
	return !gbsim_parse_uint(tok + n + 1, max, v);
}

void gbsim_knobs_from_env(const char *name, bool (*knob)(const char *tok),
			  bool *done)
{
	char *env, *s, *tok, *save = NULL;

	if (*done)
		return;
	*done = true;
	env = getenv(name);
	if (!env)
		return;
	s = strdup(env);
	if (!s)
		return;
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!knob(tok))
			gbsim_log_warn("%s: '%s' ignored", name, tok);
	free(s);
}

static struct gbsim_module_cfg *gbsim_module_cfg_new(void)
{
	struct gbsim_module_cfg *mc = calloc(1, sizeof(*mc));

	if (!mc)
		return NULL;
	mc->num_intfs = 1;
	mc->vid = GBSIM_DEFAULT_VID;
	mc->pid = GBSIM_DEFAULT_PID;
	mc->ddbl1_mfr = GBSIM_DEFAULT_DDBL1_MFR;
	mc->ddbl1_prod = GBSIM_DEFAULT_DDBL1_PROD;
	mc->init_status = GBSIM_DEFAULT_INIT_STATUS;
	mc->kind = GBSIM_INTF_GREYBUS;
	return mc;
}

void gbsim_module_cfg_free(struct gbsim_module_cfg *mc)
{
	if (mc) {
		free(mc->manifest_path);
		free(mc);
	}
}

/* One "key=value" of a module */
static int gbsim_module_cfg_set(struct gbsim_module_cfg *mc, const char *kv,
				char *err, size_t errlen)
{
	const char *eq = strchr(kv, '=');
	char key[32];
	const char *val;
	uint64_t v;
	size_t klen;

	/* the one flag key: "raw" alone means raw=1 */
	if (!strcmp(kv, "raw")) {
		mc->raw = true;
		return 0;
	}
	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key)) {
		snprintf(err, errlen, "'%s' is not key=value", kv);
		return -EINVAL;
	}
	klen = (size_t)(eq - kv);
	memcpy(key, kv, klen);
	key[klen] = '\0';
	val = eq + 1;

	if (!strcmp(key, "type")) {
		if (!strcmp(val, "greybus"))
			mc->kind = GBSIM_INTF_GREYBUS;
		else if (!strcmp(val, "unipro"))
			mc->kind = GBSIM_INTF_UNIPRO;
		else if (!strcmp(val, "dummy"))
			mc->kind = GBSIM_INTF_DUMMY;
		else
			goto bad_value;
		return 0;
	}

	if (!strcmp(key, "raw")) {
		if (gbsim_parse_uint(val, 1, &v))
			goto bad_value;
		mc->raw = v;
		return 0;
	}

	if (!strcmp(key, "serial")) {
		if (gbsim_parse_uint(val, UINT64_MAX, &v))
			goto bad_value;
		mc->serial = v;
		mc->serial_set = true;
	} else if (!strcmp(key, "intfs")) {
		if (gbsim_parse_uint(val, 255, &v) || !v)
			goto bad_value;
		mc->num_intfs = (uint8_t)v;
	} else {
		uint32_t *field;

		if (!strcmp(key, "vid"))
			field = &mc->vid;
		else if (!strcmp(key, "pid"))
			field = &mc->pid;
		else if (!strcmp(key, "ddbl1_mfr"))
			field = &mc->ddbl1_mfr;
		else if (!strcmp(key, "ddbl1_prod"))
			field = &mc->ddbl1_prod;
		else if (!strcmp(key, "init_status"))
			field = &mc->init_status;
		else {
			snprintf(err, errlen, "unknown module key '%s'", key);
			return -EINVAL;
		}
		if (gbsim_parse_uint(val, UINT32_MAX, &v))
			goto bad_value;
		*field = (uint32_t)v;
	}
	return 0;

bad_value:
	snprintf(err, errlen, "bad value '%s' for %s", val, key);
	return -EINVAL;
}

static int gbsim_config_add(struct gbsim_config *cfg,
			    struct gbsim_module_cfg *mc, char *err,
			    size_t errlen)
{
	struct gbsim_module_cfg **pp;

	if (mc->id + mc->num_intfs > GBSIM_INTF_MAX) {
		snprintf(err, errlen, "module %u: %u interfaces do not fit below 256",
			 mc->id, mc->num_intfs);
		return -EINVAL;
	}
	for (pp = &cfg->modules; *pp; pp = &(*pp)->next) {
		const struct gbsim_module_cfg *o = *pp;

		if (mc->id < o->id + o->num_intfs && o->id < mc->id + mc->num_intfs) {
			snprintf(err, errlen, "module %u overlaps module %u",
				 mc->id, o->id);
			return -EINVAL;
		}
	}
	*pp = mc;
	return 0;
}

/* Join a relative manifest path to the directory of the config file */
static char *gbsim_config_path(const char *base, const char *path)
{
	const char *slash = base ? strrchr(base, '/') : NULL;
	char *out;

	if (path[0] == '/' || !slash)
		return strdup(path);
	if (asprintf(&out, "%.*s/%s", (int)(slash - base), base, path) < 0)
		return NULL;
	return out;
}

struct gbsim_module_cfg *gbsim_module_cfg_build(const char *base,
					       const char *ifid,
					       const char *manifest,
					       char **kvs, size_t num_kvs,
					       char *err, size_t errlen)
{
	struct gbsim_module_cfg *mc;
	uint64_t id;

	if (gbsim_parse_uint(ifid, GBSIM_INTF_MAX - 1, &id)) {
		snprintf(err, errlen, "bad interface id '%s'", ifid);
		return NULL;
	}
	if (!*manifest) {
		snprintf(err, errlen, "module %s: no manifest", ifid);
		return NULL;
	}
	mc = gbsim_module_cfg_new();
	if (!mc)
		goto nomem;
	mc->id = (uint8_t)id;
	mc->manifest_path = gbsim_config_path(base, manifest);
	if (!mc->manifest_path)
		goto nomem;
	for (size_t i = 0; i < num_kvs; i++) {
		if (gbsim_module_cfg_set(mc, kvs[i], err, errlen)) {
			gbsim_module_cfg_free(mc);
			return NULL;
		}
	}
	if (mc->id + mc->num_intfs > GBSIM_INTF_MAX) {
		snprintf(err, errlen, "module %u: %u interfaces do not fit below 256",
			 mc->id, mc->num_intfs);
		gbsim_module_cfg_free(mc);
		return NULL;
	}
	return mc;

nomem:
	snprintf(err, errlen, "out of memory");
	gbsim_module_cfg_free(mc);
	return NULL;
}

/* IFID, MANIFEST and key=value tokens, as either syntax splits them */
static int gbsim_config_module(struct gbsim_config *cfg, const char *base,
			       const char *ifid, const char *manifest,
			       bool raw, char **kvs, size_t num_kvs,
			       char *err, size_t errlen)
{
	struct gbsim_module_cfg *mc;
	int ret;

	mc = gbsim_module_cfg_build(base, ifid, manifest, kvs, num_kvs, err,
				    errlen);
	if (!mc)
		return -EINVAL;
	if (raw)
		mc->raw = true;
	ret = gbsim_config_add(cfg, mc, err, errlen);
	if (ret)
		gbsim_module_cfg_free(mc);
	return ret;
}

int gbsim_config_parse_module(struct gbsim_config *cfg, const char *spec,
			      bool raw, char *err, size_t errlen)
{
	char *copy = strdup(spec), *colon, *kvs[32], *tok, *save = NULL;
	size_t n = 0;
	int ret;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	colon = strchr(copy, ':');
	if (!colon) {
		snprintf(err, errlen, "'%s' is not IFID:MANIFEST[,key=value...]",
			 spec);
		free(copy);
		return -EINVAL;
	}
	*colon = '\0';
	tok = strtok_r(colon + 1, ",", &save);
	if (!tok) {
		snprintf(err, errlen, "module %s: no manifest", copy);
		free(copy);
		return -EINVAL;
	}
	for (char *kv; (kv = strtok_r(NULL, ",", &save));) {
		if (n == sizeof(kvs) / sizeof(kvs[0])) {
			snprintf(err, errlen, "module %s: too many keys", copy);
			free(copy);
			return -EINVAL;
		}
		kvs[n++] = kv;
	}
	ret = gbsim_config_module(cfg, NULL, copy, tok, raw, kvs, n, err,
				  errlen);
	free(copy);
	return ret;
}

/* A global setting: the same names as the long options */
static int gbsim_config_global(struct gbsim_config *cfg, const char *key,
			       const char *val, char *err, size_t errlen)
{
	uint64_t v;

	if (!strcmp(key, "endo-id")) {
		if (gbsim_parse_uint(val, UINT16_MAX, &v))
			goto bad;
		cfg->endo_id = (uint16_t)v;
	} else if (!strcmp(key, "ap-intf")) {
		if (gbsim_parse_uint(val, GBSIM_INTF_MAX - 1, &v))
			goto bad;
		cfg->ap_intf_id = (uint8_t)v;
	} else if (!strcmp(key, "mtu")) {
		if (gbsim_parse_uint(val, GB_OPERATION_MSG_SIZE_MAX, &v) ||
		    v < 64)
			goto bad;
		cfg->mtu = (uint16_t)v;
	} else if (!strcmp(key, "cports")) {
		if (gbsim_parse_uint(val, GB_CPORT_ID_MAX + 1, &v) || v < 2)
			goto bad;
		cfg->num_cports = (uint16_t)v;
	} else {
		snprintf(err, errlen, "unknown directive '%s'", key);
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen, "bad value '%s' for %s", val, key);
	return -EINVAL;
}

int gbsim_config_load(struct gbsim_config *cfg, const char *path, char *err,
		      size_t errlen)
{
	char line[1024], lerr[256];
	unsigned int lineno = 0;
	FILE *f;
	int ret = 0;

	if (gb_path_mismatch(path, GB_PATH_FILE)) {
		snprintf(err, errlen, "config %s: a directory, not a file", path);
		return -EISDIR;
	}
	f = fopen(path, "re");
	if (!f) {
		snprintf(err, errlen, "cannot open config %s: %s", path,
			 strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		char *tok[36], *hash, *save = NULL;
		size_t n = 0;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%u: line too long", path, lineno);
			ret = -EINVAL;
			break;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		for (char *t = strtok_r(line, " \t\r\n", &save); t;
		     t = strtok_r(NULL, " \t\r\n", &save)) {
			if (n == sizeof(tok) / sizeof(tok[0])) {
				snprintf(err, errlen, "%s:%u: too many words",
					 path, lineno);
				ret = -EINVAL;
				goto out;
			}
			tok[n++] = t;
		}
		if (!n)
			continue;

		lerr[0] = '\0';
		if (!strcmp(tok[0], "module") ||
		    !strcmp(tok[0], "manifest-raw")) {
			if (n < 3) {
				snprintf(lerr, sizeof(lerr),
					 "usage: %s IFID MANIFEST [key=value...]",
					 tok[0]);
				ret = -EINVAL;
			} else {
				ret = gbsim_config_module(cfg, path, tok[1], tok[2],
							  !strcmp(tok[0], "manifest-raw"),
							  tok + 3, n - 3, lerr,
							  sizeof(lerr));
			}
		} else if (n == 2) {
			ret = gbsim_config_global(cfg, tok[0], tok[1], lerr,
						  sizeof(lerr));
		} else {
			snprintf(lerr, sizeof(lerr), "unknown directive '%s'",
				 tok[0]);
			ret = -EINVAL;
		}
		if (ret) {
			snprintf(err, errlen, "%s:%u: %s", path, lineno, lerr);
			break;
		}
	}
out:
	fclose(f);
	return ret;
}

void gbsim_config_free(struct gbsim_config *cfg)
{
	struct gbsim_module_cfg *mc;

	while ((mc = cfg->modules)) {
		cfg->modules = mc->next;
		gbsim_module_cfg_free(mc);
	}
}
