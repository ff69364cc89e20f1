// SPDX-License-Identifier: GPL-2.0
/*
 * DNS-SD discovery of nodes (_greybus._tcp) through the system's mDNS
 * daemon, avahi: gbnet runs avahi's own client, `avahi-browse -p -r -k
 * _greybus._tcp`, and reads its parsable lines from a pipe in the event
 * loop (no D-Bus library in gbnet).  A service resolved ("=" line) adds
 * its address as a node; a service withdrawn ("-" line) removes the node
 * it added.  Static nodes are not touched.
 *
 * Without avahi (no avahi-browse, or no daemon for it to talk to) gbnet
 * says so once and goes on with its static nodes, trying again every
 * GBNET_MDNS_RETRY_MS without saying it again.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gbnet.h"
#include "log.h"
#include "loop.h"

#define GBNET_MDNS_RETRY_MS	30000
#define GBNET_MDNS_FIELDS	10

static void gbnet_mdns_start(struct gbnet *net);

/* The node a service added: its avahi key is interface;protocol;name */
static struct gbnet_node *gbnet_mdns_node(struct gbnet *net, const char *key)
{
	for (struct gbnet_node *n = net->nodes; n; n = n->next)
		if (n->mdns_key && !strcmp(n->mdns_key, key))
			return n;
	return NULL;
}

/* Split at ';' into at most GBNET_MDNS_FIELDS fields; returns the count */
static int gbnet_mdns_split(char *line, char **f)
{
	int n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < GBNET_MDNS_FIELDS; p++) {
		if (*p == ';') {
			*p = '\0';
			f[n++] = p + 1;
		}
	}
	return n;
}

void gbnet_mdns_line(struct gbnet *net, char *line)
{
	char *f[GBNET_MDNS_FIELDS], key[512], spec[320];
	struct gbnet_node *node;
	char err[256];
	char *end;
	unsigned long port;
	int n;

	if (line[0] != '+' && line[0] != '=' && line[0] != '-') {
		if (!net->mdns_said) {
			gbsim_log_warn("mdns: %s", line);
			net->mdns_said = true;
		}
		return;
	}
	net->mdns_working = true;
	n = gbnet_mdns_split(line, f);
	if (n < 6)
		return;
	snprintf(key, sizeof(key), "%s;%s;%s", f[1], f[2], f[3]);
	if (f[0][0] == '-') {
		node = gbnet_mdns_node(net, key);
		if (node) {
			gbsim_log_info("mdns: %s withdrawn: node %s removed", f[3],
				       node->spec);
			gbnet_node_remove(net, node);
		}
		return;
	}
	if (f[0][0] != '=' || n < 9 || gbnet_mdns_node(net, key))
		return;
	port = strtoul(f[8], &end, 10);
	if (*end || !port || port > 65535 || !*f[7] || strlen(f[7]) > 64) {
		gbsim_log_warn("mdns: %s: unusable address '%s' port '%s'", f[3],
			       f[7], f[8]);
		return;
	}
	if (!strcmp(f[2], "IPv6"))
		snprintf(spec, sizeof(spec), "[%s%s%s]:%lu", f[7],
			 strncmp(f[7], "fe80:", 5) ? "" : "%",
			 strncmp(f[7], "fe80:", 5) ? "" : f[1], port);
	else
		snprintf(spec, sizeof(spec), "%s:%lu", f[7], port);
	node = gbnet_node_add(net, spec, err, sizeof(err));
	if (!node) {
		/* a static node at the same address stays as it is */
		gbsim_log_info("mdns: %s: %s", f[3], err);
		return;
	}
	node->mdns_key = strdup(key);
	if (!node->mdns_key) {
		gbnet_node_remove(net, node);
		return;
	}
	gbsim_log_info("mdns: %s at %s: node added", f[3], spec);
}

static void gbnet_mdns_retry(struct gbsim_loop *loop, void *ctx)
{
	struct gbnet *net = ctx;

	(void)loop;
	net->mdns_timer = 0;
	gbnet_mdns_start(net);
}

static void gbnet_mdns_stop(struct gbnet *net)
{
	int status;

	if (net->mdns_fd >= 0) {
		gbsim_loop_del_fd(net->sim.loop, net->mdns_fd);
		close(net->mdns_fd);
		net->mdns_fd = -1;
	}
	if (net->mdns_pid > 0) {
		kill(net->mdns_pid, SIGTERM);
		waitpid(net->mdns_pid, &status, 0);
		net->mdns_pid = 0;
	}
	net->mdns_len = 0;
}

static void gbnet_mdns_ended(struct gbnet *net)
{
	gbnet_mdns_stop(net);
	if (!net->mdns_said) {
		gbsim_log_warn("mdns: no discovery: avahi-browse ended (is avahi-daemon running?); static nodes only");
		net->mdns_said = true;
	}
	net->mdns_timer = gbsim_loop_add_timer(net->sim.loop,
					       GBNET_MDNS_RETRY_MS,
					       gbnet_mdns_retry, net);
}

static void gbnet_mdns_read(struct gbsim_loop *loop, int fd, short revents,
			    void *ctx)
{
	struct gbnet *net = ctx;
	ssize_t n;
	char *nl;

	(void)loop;
	(void)revents;
	n = read(fd, net->mdns_buf + net->mdns_len,
		 sizeof(net->mdns_buf) - 1 - net->mdns_len);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		gbnet_mdns_ended(net);
		return;
	}
	net->mdns_len += (size_t)n;
	net->mdns_buf[net->mdns_len] = '\0';
	while ((nl = strchr(net->mdns_buf, '\n'))) {
		size_t used = (size_t)(nl - net->mdns_buf) + 1;

		*nl = '\0';
		gbnet_mdns_line(net, net->mdns_buf);
		memmove(net->mdns_buf, net->mdns_buf + used, net->mdns_len - used);
		net->mdns_len -= used;
		net->mdns_buf[net->mdns_len] = '\0';
	}
	/* a line longer than anything avahi prints: dropped whole */
	if (net->mdns_len == sizeof(net->mdns_buf) - 1)
		net->mdns_len = 0;
}

static void gbnet_mdns_start(struct gbnet *net)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC)) {
		gbnet_mdns_ended(net);
		return;
	}
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		gbnet_mdns_ended(net);
		return;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		sigset_t none;

		/* gbnet takes its signals through a signalfd: undo that */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGPIPE, SIG_DFL);

		if (null >= 0)
			dup2(null, STDIN_FILENO);
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		/* nothing of gbnet's (the vhd device!) outlives gbnet in it */
		close_range(3, ~0U, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		execlp("avahi-browse", "avahi-browse", "-p", "-r", "-k",
		       GBNET_MDNS_SERVICE, (char *)NULL);
		dprintf(STDOUT_FILENO, "cannot run avahi-browse: %s\n",
			strerror(errno));
		_exit(127);
	}
	close(p[1]);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	net->mdns_fd = p[0];
	net->mdns_pid = pid;
	if (gbsim_loop_add_fd(net->sim.loop, p[0], POLLIN, gbnet_mdns_read,
			      net))
		gbnet_mdns_ended(net);
}

void gbnet_mdns_init(struct gbnet *net)
{
	net->mdns_fd = -1;
	gbnet_mdns_start(net);
}

void gbnet_mdns_fini(struct gbnet *net)
{
	if (net->mdns_timer)
		gbsim_loop_cancel_timer(net->sim.loop, net->mdns_timer);
	net->mdns_timer = 0;
	gbnet_mdns_stop(net);
}
