// SPDX-License-Identifier: GPL-2.0
/*
 * lsgb: reading the Greybus devices from sysfs and their connections from
 * debugfs into a tree.
 *
 * The tree follows the device names docs/sysfs-bus-greybus documents
 * (greybusN, N-svc, N-M, N-M.I, N-M.I.ctrl, N-M.I.B) rather than the
 * directory nesting, so a fake tree for tests needs no symlinks.  A device
 * whose parent is missing gets a placeholder parent (present = false).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <uapi/greybus/greybus.h>

#include "lsgb.h"

/* sysfs files are at most a page; a fake tree gets some more room */
#define LSGB_ATTR_MAX	65536

const char *const lsgb_conn_stat_names[LSGB_CONN_NSTATS] = {
	"sent", "received", "responses", "errors", "timeouts", "dropped",
	"pending",
};

static void lsgb_oom(void)
{
	fprintf(stderr, "%s: out of memory\n", LSGB_NAME);
	exit(LSGB_EXIT_ERROR);
}

void *lsgb_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		lsgb_oom();
	return p;
}

void *lsgb_xrealloc(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		lsgb_oom();
	n *= size;
	p = realloc(p, n ? n : 1);
	if (!p)
		lsgb_oom();
	return p;
}

char *lsgb_xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		lsgb_oom();
	return p;
}

char *lsgb_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		lsgb_oom();
	return s;
}

/* ---- Names ---------------------------------------------------------------- */

/* Digits at *p (no sign, no leading '+'), at most UINT_MAX */
static bool lsgb_parse_uint(const char **p, unsigned int *val)
{
	unsigned long long v = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned int)(*s - '0');
		if (v > UINT_MAX)
			return false;
		s++;
	}
	*p = s;
	*val = (unsigned int)v;
	return true;
}

/* Classifies a device name and fills in the ids it holds */
static enum lsgb_kind lsgb_parse_name(const char *name, struct lsgb_dev *dev)
{
	const char *p = name;

	if (!strncmp(p, "greybus", 7)) {
		p += 7;
		if (lsgb_parse_uint(&p, &dev->bus) && !*p)
			return LSGB_HOST;
		return LSGB_OTHER;
	}
	if (!lsgb_parse_uint(&p, &dev->bus) || *p++ != '-')
		return LSGB_OTHER;
	if (!strcmp(p, "svc"))
		return LSGB_SVC;
	if (!lsgb_parse_uint(&p, &dev->module))
		return LSGB_OTHER;
	if (!*p)
		return LSGB_MODULE;
	if (*p++ != '.' || !lsgb_parse_uint(&p, &dev->intf))
		return LSGB_OTHER;
	if (!*p)
		return LSGB_INTF;
	if (*p++ != '.')
		return LSGB_OTHER;
	if (!strcmp(p, "ctrl"))
		return LSGB_CTRL;
	if (lsgb_parse_uint(&p, &dev->bundle) && !*p)
		return LSGB_BUNDLE;
	return LSGB_OTHER;
}

/* The bus number of a name we do not otherwise know, if it has one */
static bool lsgb_other_bus(const char *name, unsigned int *bus)
{
	const char *p = name;

	return lsgb_parse_uint(&p, bus) && *p == '-';
}

/* ---- Tree ----------------------------------------------------------------- */

static struct lsgb_dev *lsgb_dev_new(struct lsgb_dev *parent,
				     enum lsgb_kind kind, const char *name)
{
	struct lsgb_dev *dev = lsgb_xcalloc(1, sizeof(*dev));

	dev->kind = kind;
	dev->name = lsgb_xstrdup(name);
	dev->parent = parent;
	parent->children = lsgb_xrealloc(parent->children,
					 parent->nchildren + 1,
					 sizeof(*parent->children));
	parent->children[parent->nchildren++] = dev;
	return dev;
}

static struct lsgb_dev *lsgb_find(struct lsgb_dev *parent,
				  enum lsgb_kind kind, const char *name)
{
	size_t i;

	for (i = 0; i < parent->nchildren; i++) {
		if (parent->children[i]->kind == kind &&
		    !strcmp(parent->children[i]->name, name))
			return parent->children[i];
	}
	return NULL;
}

/* The child @name of @parent, made as a placeholder if it is not there */
static struct lsgb_dev *lsgb_get(struct lsgb_dev *parent, enum lsgb_kind kind,
				 const char *name)
{
	struct lsgb_dev *dev = lsgb_find(parent, kind, name);

	if (!dev) {
		dev = lsgb_dev_new(parent, kind, name);
		lsgb_parse_name(name, dev);
	}
	return dev;
}

/* Where a device of this name goes; placeholders made on the way */
static struct lsgb_dev *lsgb_parent_of(struct lsgb_tree *tree,
				       const struct lsgb_dev *d)
{
	struct lsgb_dev *host, *module, *intf;
	unsigned int bus;
	char *name;

	if (d->kind == LSGB_HOST)
		return &tree->root;
	if (d->kind == LSGB_OTHER) {
		if (!lsgb_other_bus(d->name, &bus))
			return &tree->root;
	} else {
		bus = d->bus;
	}

	name = lsgb_xasprintf("greybus%u", bus);
	host = lsgb_get(&tree->root, LSGB_HOST, name);
	free(name);
	if (d->kind == LSGB_SVC || d->kind == LSGB_MODULE ||
	    d->kind == LSGB_OTHER)
		return host;

	name = lsgb_xasprintf("%u-%u", bus, d->module);
	module = lsgb_get(host, LSGB_MODULE, name);
	free(name);
	if (d->kind == LSGB_INTF)
		return module;

	name = lsgb_xasprintf("%u-%u.%u", bus, d->module, d->intf);
	intf = lsgb_get(module, LSGB_INTF, name);
	free(name);
	return intf;
}

const char *lsgb_attr(const struct lsgb_dev *dev, const char *name)
{
	size_t i;

	for (i = 0; i < dev->nattrs; i++) {
		if (!strcmp(dev->attrs[i].name, name))
			return dev->attrs[i].value;
	}
	return NULL;
}

bool lsgb_attr_num(const struct lsgb_dev *dev, const char *name,
		   unsigned long long *val)
{
	const char *s = lsgb_attr(dev, name);
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		*val = strtoull(s + 2, &end, 16);
	else
		*val = strtoull(s, &end, 10);
	return !errno && *end == '\0' && end != s;
}

struct lsgb_dev *lsgb_child(const struct lsgb_dev *dev, enum lsgb_kind kind)
{
	size_t i;

	for (i = 0; i < dev->nchildren; i++) {
		if (dev->children[i]->kind == kind)
			return dev->children[i];
	}
	return NULL;
}

/* The id that orders devices of one kind below their parent */
static unsigned int lsgb_dev_order(const struct lsgb_dev *d)
{
	switch (d->kind) {
	case LSGB_HOST:		return d->bus;
	case LSGB_MODULE:	return d->module;
	case LSGB_INTF:		return d->intf;
	case LSGB_BUNDLE:	return d->bundle;
	default:		return 0;
	}
}

static int lsgb_dev_cmp(const void *a, const void *b)
{
	const struct lsgb_dev *x = *(struct lsgb_dev *const *)a;
	const struct lsgb_dev *y = *(struct lsgb_dev *const *)b;
	unsigned int ox = lsgb_dev_order(x), oy = lsgb_dev_order(y);

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (ox != oy)
		return ox < oy ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int lsgb_conn_cmp(const void *a, const void *b)
{
	const struct lsgb_conn *x = *(struct lsgb_conn *const *)a;
	const struct lsgb_conn *y = *(struct lsgb_conn *const *)b;

	if (x->hd_cport != y->hd_cport)
		return x->hd_cport < y->hd_cport ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int lsgb_attr_cmp(const void *a, const void *b)
{
	const struct lsgb_attr *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static void lsgb_sort(struct lsgb_dev *dev)
{
	size_t i;

	if (dev->nchildren > 1)
		qsort(dev->children, dev->nchildren, sizeof(*dev->children),
		      lsgb_dev_cmp);
	if (dev->nconns > 1)
		qsort(dev->conns, dev->nconns, sizeof(*dev->conns),
		      lsgb_conn_cmp);
	if (dev->nattrs > 1)
		qsort(dev->attrs, dev->nattrs, sizeof(*dev->attrs),
		      lsgb_attr_cmp);
	for (i = 0; i < dev->nchildren; i++)
		lsgb_sort(dev->children[i]);
}

/* ---- Attributes ----------------------------------------------------------- */

/* Reads a whole file (at most LSGB_ATTR_MAX bytes); NULL and errno if not */
static char *lsgb_read_file(int dirfd, const char *name)
{
	size_t len = 0, size = 4096;
	char *buf;
	ssize_t n;
	int fd, err;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	buf = lsgb_xcalloc(1, size + 1);
	for (;;) {
		if (len == size) {
			if (size >= LSGB_ATTR_MAX)
				break;
			size *= 2;
			buf = lsgb_xrealloc(buf, size + 1, 1);
		}
		n = read(fd, buf + len, size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			close(fd);
			free(buf);
			errno = err;
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

static void lsgb_add_attr(struct lsgb_dev *dev, int dirfd, const char *file,
			  const char *name, const struct stat *st)
{
	struct lsgb_attr *a;

	dev->attrs = lsgb_xrealloc(dev->attrs, dev->nattrs + 1,
				   sizeof(*dev->attrs));
	a = &dev->attrs[dev->nattrs++];
	memset(a, 0, sizeof(*a));
	a->name = lsgb_xstrdup(name);
	if (!(st->st_mode & 0444)) {
		a->write_only = true;
		return;
	}
	a->value = lsgb_read_file(dirfd, file);
	if (!a->value)
		a->err = errno ? errno : EIO;
}

/* True if @dirfd/@name is a directory holding a "uevent": a device */
static bool lsgb_is_device_dir(int dirfd, const char *name)
{
	char *path = lsgb_xasprintf("%s/uevent", name);
	struct stat st;
	bool ret;

	ret = !fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW);
	free(path);
	return ret;
}

/* The files of an attribute group directory, named "group/file" */
static void lsgb_read_group(struct lsgb_dev *dev, int dirfd, const char *group)
{
	struct dirent *de;
	struct stat st;
	char *name;
	DIR *dir;
	int fd;

	fd = openat(dirfd, group, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		name = lsgb_xasprintf("%s/%s", group, de->d_name);
		lsgb_add_attr(dev, fd, de->d_name, name, &st);
		free(name);
	}
	closedir(dir);
}

/* Basename of the link @dirfd/@name, or NULL */
static char *lsgb_link_base(int dirfd, const char *name)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n;

	n = readlinkat(dirfd, name, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	while (n > 1 && target[n - 1] == '/')
		target[--n] = '\0';
	base = strrchr(target, '/');
	return lsgb_xstrdup(base ? base + 1 : target);
}

/*
 * The name of the directory a bus link points into: for
 * ../../../devices/virtual/misc/greybus-vhd/greybus1, "greybus-vhd".
 */
static char *lsgb_link_parent(int dirfd, const char *name)
{
	char target[PATH_MAX];
	char *slash, *base;
	ssize_t n;

	n = readlinkat(dirfd, name, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	slash = strrchr(target, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return NULL;
	return lsgb_xstrdup(base);
}

/* Every attribute file of device directory @devices/@dev->name */
static void lsgb_read_dev(struct lsgb_dev *dev, int devices_fd)
{
	struct dirent *de;
	struct stat st;
	DIR *dir;
	int fd;

	if (dev->kind == LSGB_HOST)
		dev->parent_name = lsgb_link_parent(devices_fd, dev->name);

	fd = openat(devices_fd, dev->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISLNK(st.st_mode)) {
			if (!strcmp(de->d_name, "driver"))
				dev->driver = lsgb_link_base(fd, de->d_name);
		} else if (S_ISREG(st.st_mode)) {
			lsgb_add_attr(dev, fd, de->d_name, de->d_name, &st);
		} else if (S_ISDIR(st.st_mode) &&
			   !lsgb_is_device_dir(fd, de->d_name)) {
			lsgb_read_group(dev, fd, de->d_name);
		}
	}
	closedir(dir);
}

/* ---- Connections ---------------------------------------------------------- */

/*
 * One line of the connections file:
 *   name hd_cport intf:cport protocol state sent received responses
 *   errors timeouts dropped pending
 * The counters are optional, so that an older or newer format still
 * gives the tree.
 */
static struct lsgb_conn *lsgb_parse_conn(char *line)
{
	char *fields[5 + LSGB_CONN_NSTATS];
	struct lsgb_conn *c;
	char *save, *tok, *end;
	size_t n = 0, i;

	for (tok = strtok_r(line, " \t", &save); tok && n < 5 + LSGB_CONN_NSTATS;
	     tok = strtok_r(NULL, " \t", &save))
		fields[n++] = tok;
	if (n < 5)
		return NULL;

	c = lsgb_xcalloc(1, sizeof(*c));
	errno = 0;
	c->hd_cport = (unsigned int)strtoul(fields[1], &end, 10);
	if (errno || *end)
		goto bad;
	c->intf_id = (unsigned int)strtoul(fields[2], &end, 10);
	if (errno || *end != ':')
		goto bad;
	c->cport = (unsigned int)strtoul(end + 1, &end, 10);
	if (errno || *end)
		goto bad;
	c->protocol = (unsigned int)strtoul(fields[3], &end, 0);
	if (errno || *end || c->protocol > 0xff)
		goto bad;
	for (i = 5; i < n; i++) {
		c->stats[i - 5] = strtoull(fields[i], &end, 10);
		if (errno || *end)
			break;
		c->nstats++;
	}
	c->name = lsgb_xstrdup(fields[0]);
	c->state = lsgb_xstrdup(fields[4]);
	return c;
bad:
	free(c);
	return NULL;
}

static void lsgb_attach_conn(struct lsgb_dev *dev, struct lsgb_conn *c)
{
	dev->conns = lsgb_xrealloc(dev->conns, dev->nconns + 1,
				   sizeof(*dev->conns));
	dev->conns[dev->nconns++] = c;
}

/* The interface @intf_id of @host, or NULL */
static struct lsgb_dev *lsgb_find_intf(struct lsgb_dev *host,
				       unsigned int intf_id)
{
	struct lsgb_dev *module, *intf;
	size_t i, j;

	for (i = 0; i < host->nchildren; i++) {
		module = host->children[i];
		if (module->kind != LSGB_MODULE)
			continue;
		for (j = 0; j < module->nchildren; j++) {
			intf = module->children[j];
			if (intf->kind == LSGB_INTF && intf->intf == intf_id)
				return intf;
		}
	}
	return NULL;
}

/*
 * Where a connection is shown: the SVC's below the SVC, an interface's
 * CPort 0 below its control device, other CPorts below their interface
 * (sysfs does not say which bundle owns a CPort), anything else below
 * the host device.
 */
static struct lsgb_dev *lsgb_conn_owner(struct lsgb_dev *host,
					const struct lsgb_conn *c)
{
	struct lsgb_dev *intf, *ctrl, *svc;

	if (c->protocol == GREYBUS_PROTOCOL_SVC) {
		svc = lsgb_child(host, LSGB_SVC);
		return svc ? svc : host;
	}
	intf = lsgb_find_intf(host, c->intf_id);
	if (!intf)
		return host;
	ctrl = lsgb_child(intf, LSGB_CTRL);
	if (c->cport == 0 && ctrl)
		return ctrl;
	return intf;
}

static void lsgb_read_conns(struct lsgb_dev *host, const char *debugfs)
{
	struct lsgb_conn *c;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	host->conns_path = lsgb_xasprintf("%s/greybus/%s/connections", debugfs,
					  host->name);
	f = fopen(host->conns_path, "re");
	if (!f) {
		host->conns_err = errno;
		return;
	}
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		c = lsgb_parse_conn(line);
		if (c)
			lsgb_attach_conn(lsgb_conn_owner(host, c), c);
	}
	if (ferror(f))
		host->conns_err = errno ? errno : EIO;
	else
		host->conns_read = true;
	free(line);
	fclose(f);
}

/* ---- The whole tree ------------------------------------------------------- */

static int lsgb_name_filter(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

int lsgb_read(struct lsgb_tree *tree, const char *sysfs, const char *debugfs)
{
	struct dirent **names = NULL;
	struct lsgb_dev probe, *parent, *dev;
	char *bus, *devices;
	struct stat st;
	int fd, n, i, ret = LSGB_EXIT_ERROR;

	memset(tree, 0, sizeof(*tree));
	tree->root.name = lsgb_xstrdup("/");
	tree->root.present = true;
	tree->sysfs = lsgb_xstrdup(sysfs);
	tree->debugfs = lsgb_xstrdup(debugfs);

	bus = lsgb_xasprintf("%s/bus/greybus", sysfs);
	devices = lsgb_xasprintf("%s/devices", bus);
	if (stat(sysfs, &st)) {
		fprintf(stderr, "%s: cannot read %s: %s\n", LSGB_NAME, sysfs,
			strerror(errno));
		goto out;
	}
	if (stat(bus, &st)) {
		if (errno == ENOENT)
			fprintf(stderr,
				"%s: no Greybus bus in sysfs (%s does not exist): is the greybus module loaded?\n",
				LSGB_NAME, bus);
		else
			fprintf(stderr, "%s: cannot read %s: %s\n", LSGB_NAME,
				bus, strerror(errno));
		goto out;
	}
	fd = open(devices, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: cannot read %s: %s\n", LSGB_NAME, devices,
			strerror(errno));
		goto out;
	}
	n = scandirat(fd, ".", &names, lsgb_name_filter, alphasort);
	if (n < 0) {
		fprintf(stderr, "%s: cannot list %s: %s\n", LSGB_NAME, devices,
			strerror(errno));
		close(fd);
		goto out;
	}

	for (i = 0; i < n; i++) {
		memset(&probe, 0, sizeof(probe));
		probe.name = names[i]->d_name;
		probe.kind = lsgb_parse_name(probe.name, &probe);
		parent = lsgb_parent_of(tree, &probe);
		dev = lsgb_find(parent, probe.kind, probe.name);
		if (!dev) {
			dev = lsgb_dev_new(parent, probe.kind, probe.name);
			lsgb_parse_name(dev->name, dev);
		}
		dev->present = true;
		lsgb_read_dev(dev, fd);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	close(fd);

	for (i = 0; (size_t)i < tree->root.nchildren; i++) {
		if (tree->root.children[i]->kind == LSGB_HOST)
			lsgb_read_conns(tree->root.children[i], debugfs);
	}
	lsgb_sort(&tree->root);
	ret = LSGB_EXIT_OK;
out:
	free(bus);
	free(devices);
	return ret;
}

static void lsgb_free_dev(struct lsgb_dev *dev)
{
	size_t i;

	for (i = 0; i < dev->nchildren; i++) {
		lsgb_free_dev(dev->children[i]);
		free(dev->children[i]);
	}
	for (i = 0; i < dev->nattrs; i++) {
		free(dev->attrs[i].name);
		free(dev->attrs[i].value);
	}
	for (i = 0; i < dev->nconns; i++) {
		free(dev->conns[i]->name);
		free(dev->conns[i]->state);
		free(dev->conns[i]);
	}
	free(dev->children);
	free(dev->attrs);
	free(dev->conns);
	free(dev->name);
	free(dev->driver);
	free(dev->parent_name);
	free(dev->conns_path);
}

void lsgb_free(struct lsgb_tree *tree)
{
	lsgb_free_dev(&tree->root);
	free(tree->sysfs);
	free(tree->debugfs);
	memset(tree, 0, sizeof(*tree));
}
