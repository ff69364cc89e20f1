// SPDX-License-Identifier: GPL-2.0
/*
 * DNS-SD discovery of nodes (_greybus._tcp) through the system's mDNS
 * daemon, avahi: gbnet runs avahi's own client, `avahi-browse -p -r -k
 * _greybus._tcp`, and reads its parsable lines from a pipe in the event
 * loop (no D-Bus library in gbnet).  A service resolved ("=" line) adds
 * its address as a node; a service withdrawn ("-" line) removes the node
 * it added.  Static nodes are not touched.
 *
 * Discovery is opt-in (--mdns): any LAN host can announce a service.
 * What it can make gbnet do is bounded: at most mdns_max discovered nodes
 * at once and mdns_rate new ones per minute (the rest are counted, with a
 * rate-limited line), no address of this host's loopback or an
 * unspecified or multicast one (a LAN host must not make gbnet connect to
 * a local service), and the program run is GBNET_MDNS_BROWSE (or
 * --mdns-browse), never looked up through PATH.
 *
 * Without avahi (no avahi-browse, or no daemon for it to talk to) gbnet
 * says so once and goes on with its static nodes, trying again every
 * GBNET_MDNS_RETRY_MS without saying it again.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gb_ratelimit.h>

#include "gbnet.h"
#include "log.h"
#include "loop.h"

#define GBNET_MDNS_RETRY_MS	30000
#define GBNET_MDNS_FIELDS	10
#define GBNET_MDNS_MINUTE_NS	(60ULL * 1000000000ULL)

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

/* A service not added: counted, and said at a bounded rate */
static void gbnet_mdns_refuse(struct gbnet *net, const char *name,
			      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void gbnet_mdns_refuse(struct gbnet *net, const char *name,
			      const char *fmt, ...)
{
	unsigned int missed;
	char why[160];
	va_list ap;

	net->mdns_refused++;
	if (!gb_ratelimit(&net->mdns_rl, gbsim_now_ns(), &missed))
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	gbsim_log_warn("mdns: %.64s: %s%s", name, why,
		       missed ? " (and lines suppressed)" : "");
}

/*
 * May a LAN host's announcement make gbnet connect there?  Not to this
 * host's loopback (a local service a LAN host would otherwise reach
 * through gbnet), nor an unspecified (= this host) or multicast address.
 * A name (not an address) is refused too: avahi resolves to addresses.
 */
static bool gbnet_mdns_addr_ok(const char *addr)
{
	struct in6_addr a6;
	struct in_addr a4;
	uint32_t v4;

	if (inet_pton(AF_INET, addr, &a4) == 1) {
		v4 = ntohl(a4.s_addr);
		return (v4 >> 24) != 127 && (v4 >> 24) != 0 &&
		       (v4 >> 28) != 14 && v4 != 0xffffffffU;
	}
	if (inet_pton(AF_INET6, addr, &a6) != 1)
		return false;
	if (IN6_IS_ADDR_LOOPBACK(&a6) || IN6_IS_ADDR_UNSPECIFIED(&a6) ||
	    IN6_IS_ADDR_MULTICAST(&a6))
		return false;
	if (IN6_IS_ADDR_V4MAPPED(&a6) || IN6_IS_ADDR_V4COMPAT(&a6)) {
		char v4s[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &a6.s6_addr[12], v4s, sizeof(v4s));
		return gbnet_mdns_addr_ok(v4s);
	}
	return true;
}

/* TLS nodes can be discovered: a CA or a pin to check them against */
static bool gbnet_mdns_tls(const struct gbnet *net)
{
	return net->tls.ca || net->tls.pin;
}

void gbnet_mdns_line(struct gbnet *net, char *line)
{
	char *f[GBNET_MDNS_FIELDS], key[512], spec[320];
	struct gbnet_node *node;
	char err[256];
	unsigned long port;
	bool tls = false;
	uint64_t now;
	char *end;
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
	/* _greybuss._tcp: greybus-zephyr with TLS, browsed when TLS is set up */
	if (!strcmp(f[4], GBNET_MDNS_SERVICE_TLS))
		tls = gbnet_mdns_tls(net);
	else if (strcmp(f[4], GBNET_MDNS_SERVICE))
		return;
	if (!strcmp(f[4], GBNET_MDNS_SERVICE_TLS) && !tls)
		return;
	snprintf(key, sizeof(key), "%s;%s;%s;%s", f[1], f[2], f[3], f[4]);
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
		gbnet_mdns_refuse(net, f[3], "unusable address '%s' port '%s'",
				  f[7], f[8]);
		return;
	}
	if (!gbnet_mdns_addr_ok(f[7])) {
		gbnet_mdns_refuse(net, f[3], "address %s refused (loopback, unspecified or multicast)",
				  f[7]);
		return;
	}
	if (net->mdns_nodes >= net->mdns_max) {
		gbnet_mdns_refuse(net, f[3], "not added: %u discovered nodes already (--mdns-max)",
				  net->mdns_nodes);
		return;
	}
	now = gbsim_now_ns();
	if (!net->mdns_window || now - net->mdns_window >= GBNET_MDNS_MINUTE_NS) {
		net->mdns_window = now;
		net->mdns_recent = 0;
	}
	if (net->mdns_recent >= net->mdns_rate) {
		gbnet_mdns_refuse(net, f[3], "not added: %u new nodes this minute already (--mdns-rate)",
				  net->mdns_recent);
		return;
	}
	if (!strcmp(f[2], "IPv6"))
		snprintf(spec, sizeof(spec), "%s[%s%s%s]:%lu", tls ? "tls:" : "", f[7],
			 strncmp(f[7], "fe80:", 5) ? "" : "%",
			 strncmp(f[7], "fe80:", 5) ? "" : f[1], port);
	else
		snprintf(spec, sizeof(spec), "%s%s:%lu", tls ? "tls:" : "", f[7],
			 port);
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
	net->mdns_nodes++;
	net->mdns_recent++;
	gbsim_log_info("mdns: %s at %s: node added", f[3], spec);
}

static void gbnet_mdns_retry(struct gbsim_loop *loop, void *ctx)
{
	struct gbnet *net = ctx;

	(void)loop;
	net->mdns_timer = 0;
	gbnet_mdns_start(net);
}

/* Reap avahi-browse if it ended: never waits (SIGCHLD comes again) */
void gbnet_mdns_reap(struct gbnet *net)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		if (pid == net->mdns_pid)
			net->mdns_pid = 0;
}

static void gbnet_mdns_stop(struct gbnet *net)
{
	if (net->mdns_fd >= 0) {
		gbsim_loop_del_fd(net->sim.loop, net->mdns_fd);
		close(net->mdns_fd);
		net->mdns_fd = -1;
	}
	/* it ends on SIGTERM (or on its closed pipe); reaped on SIGCHLD */
	if (net->mdns_pid > 0)
		kill(net->mdns_pid, SIGTERM);
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
	pid_t parent = getpid(), pid;
	int p[2];

	/* the last one is reaped (SIGCHLD); a new one once it is */
	if (net->mdns_pid > 0) {
		gbnet_mdns_reap(net);
		if (net->mdns_pid > 0) {
			gbnet_mdns_ended(net);
			return;
		}
	}
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

		if (null < 0 || dup2(null, STDIN_FILENO) < 0 ||
		    dup2(p[1], STDOUT_FILENO) < 0 || dup2(p[1], STDERR_FILENO) < 0)
			_exit(127);
		/*
		 * Nothing of gbnet's (the vhd device!) outlives gbnet in it:
		 * every descriptor is close-on-exec, and closed here too.
		 */
		if (close_range(3, ~0U, 0)) {
			dprintf(STDOUT_FILENO, "cannot close gbnet's descriptors: %s\n",
				strerror(errno));
			_exit(127);
		}
		/* dies with gbnet, even if gbnet died before this line */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(127);
		/* both types at once (-a, filtered) when TLS nodes can be reached */
		if (gbnet_mdns_tls(net))
			execl(net->mdns_browse, "avahi-browse", "-p", "-r", "-k",
			      "-a", (char *)NULL);
		else
			execl(net->mdns_browse, "avahi-browse", "-p", "-r", "-k",
			      GBNET_MDNS_SERVICE, (char *)NULL);
		dprintf(STDOUT_FILENO, "cannot run %s: %s\n", net->mdns_browse,
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
