/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gbnet's config file (config.c): "node HOST[:PORT]", "rule RULE" and
 * "mdns on|off" lines, read at start and again on SIGHUP.
 */
#ifndef GBNET_CONFIG_H
#define GBNET_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct gbnet;

struct gbnet_config_file {
	char		**nodes;	/* specs, as written */
	size_t		num_nodes;
	char		**rules;	/* rule lines, checked */
	size_t		num_rules;
	int		mdns;		/* -1 not said, 0 off, 1 on */
	char		*tls;		/* "tls" line: default TLS settings */
};

/*
 * The lines of @f (named @path in messages) into @cf: 0, or -1 with
 * "PATH:LINE: why" in @err and @cf empty.  The file is not closed.
 */
int gbnet_config_parse(FILE *f, const char *path,
		       struct gbnet_config_file *cf, char *err, size_t errlen);
/* 0, or -1 with "FILE:LINE: why" in @err */
int gbnet_config_read(const char *path, struct gbnet_config_file *cf,
		      char *err, size_t errlen);
void gbnet_config_free(struct gbnet_config_file *cf);
/*
 * SIGHUP: read @path again; nodes the file no longer names go, new ones
 * come, the others stay as they are (connections kept); the file's rules
 * replace its old ones (--rule ones stay first) and every node's bundles
 * are judged again.  A file that does not parse changes nothing (-1,
 * logged).
 */
int gbnet_config_reload(struct gbnet *net);

#endif /* GBNET_CONFIG_H */
