/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsgb: lists the Greybus devices the kernel shows in sysfs, as a tree
 * (host device, SVC, modules, interfaces, control, bundles) with the
 * connections debugfs reports.  docs/lsgb.md is the manual.
 *
 * read.c builds the tree, text.c and json.c print it, main.c parses the
 * command line.
 */
#ifndef LSGB_H
#define LSGB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LSGB_NAME	"lsgb"

/* Exit codes */
#define LSGB_EXIT_OK		0
#define LSGB_EXIT_ERROR		1	/* no Greybus in sysfs, unreadable */
#define LSGB_EXIT_USAGE		2

/* Kinds of device, in the order they are listed below their parent */
enum lsgb_kind {
	LSGB_HOST,		/* greybusN */
	LSGB_SVC,		/* N-svc */
	LSGB_MODULE,		/* N-M */
	LSGB_INTF,		/* N-M.I */
	LSGB_CTRL,		/* N-M.I.ctrl */
	LSGB_BUNDLE,		/* N-M.I.B */
	LSGB_OTHER,		/* a name we do not know */
};

/* One file of a device directory ("power/control" for a group's file) */
struct lsgb_attr {
	char		*name;
	char		*value;		/* one trailing newline removed */
	int		err;		/* errno reading it, or 0 */
	bool		write_only;	/* mode has no read bit: not read */
};

/* One line of debugfs greybus/greybusN/connections */
#define LSGB_CONN_NSTATS	7
struct lsgb_conn {
	char		*name;		/* "hd_cport/intf:cport" */
	unsigned int	hd_cport;
	unsigned int	intf_id;
	unsigned int	cport;
	unsigned int	protocol;
	char		*state;
	/* sent received responses errors timeouts dropped pending */
	unsigned long long stats[LSGB_CONN_NSTATS];
	size_t		nstats;		/* how many the line had */
};

extern const char *const lsgb_conn_stat_names[LSGB_CONN_NSTATS];

struct lsgb_dev {
	enum lsgb_kind	kind;
	char		*name;
	bool		present;	/* false: only implied by a child */
	unsigned int	bus, module, intf, bundle;	/* from the name */
	char		*driver;	/* bound driver, or NULL */
	char		*parent_name;	/* host: the bridge device above it */

	struct lsgb_attr *attrs;
	size_t		nattrs;

	struct lsgb_dev	*parent;
	struct lsgb_dev	**children;
	size_t		nchildren;

	struct lsgb_conn **conns;
	size_t		nconns;

	/* Hosts only: reading debugfs */
	bool		conns_read;	/* the connections file was read */
	int		conns_err;	/* else why not */
	char		*conns_path;
};

struct lsgb_tree {
	struct lsgb_dev	root;		/* children: the host devices */
	char		*sysfs;		/* sysfs root, e.g. "/sys" */
	char		*debugfs;	/* debugfs root */
};

struct lsgb_opts {
	int		verbose;
	bool		json;
};

/*
 * Reads the tree below @sysfs/bus/greybus/devices, and the connections
 * from @debugfs/greybus.  Returns 0, or prints why it cannot to stderr and
 * returns LSGB_EXIT_ERROR.
 */
int lsgb_read(struct lsgb_tree *tree, const char *sysfs, const char *debugfs);
void lsgb_free(struct lsgb_tree *tree);

/* The attribute @name of @dev, or NULL if it has none it could read */
const char *lsgb_attr(const struct lsgb_dev *dev, const char *name);
/* The attribute as a number (decimal or 0x hex); false if not one */
bool lsgb_attr_num(const struct lsgb_dev *dev, const char *name,
		   unsigned long long *val);
/* The child of @dev of @kind (first one); NULL if none */
struct lsgb_dev *lsgb_child(const struct lsgb_dev *dev, enum lsgb_kind kind);

void lsgb_print_text(FILE *out, const struct lsgb_tree *tree,
		     const struct lsgb_opts *opts);
void lsgb_print_json(FILE *out, const struct lsgb_tree *tree,
		     const struct lsgb_opts *opts);

/* Allocation that cannot fail (exits with a message instead) */
void *lsgb_xcalloc(size_t n, size_t size);
void *lsgb_xrealloc(void *p, size_t n, size_t size);
char *lsgb_xstrdup(const char *s);
char *lsgb_xasprintf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif /* LSGB_H */
