// SPDX-License-Identifier: GPL-2.0
/*
 * mnfc: the Greybus manifest compiler.  Compiles .mnfs source to .mnfb
 * blobs byte for byte as Manifesto does, decompiles blobs back to source,
 * and validates blobs with the same checker greybus.ko runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uapi/greybus/manifest.h>

#include "gb_cli.h"
#include "gb_manifest.h"
#include "gb_version.h"

/* Exit status: 0 done, 1 invalid input, 2 usage or I/O trouble */
enum { EXIT_INVALID = 1, EXIT_TROUBLE = 2 };

/*
 * The help follows GNU's layout (usage, options, then paragraphs whose
 * headings help2man knows), so that the man page is generated from it.
 */
static const char usage_text[] =
"Usage: mnfc [-o OUT] [-I mnfs|mnfb] [-O mnfs|mnfb] FILE|-\n"
"  or:  mnfc -d [-o OUT] FILE.mnfb|-\n"
"  or:  mnfc --check FILE|-\n"
"Compile, decompile and check Greybus interface manifests.\n"
"\n"
"mnfc reads a Greybus interface manifest, either as .mnfs source (the INI\n"
"format of Manifesto) or as a binary .mnfb blob, and writes it in the\n"
"requested format.  Compiling gives the same bytes as Manifesto: descriptors\n"
"in section order, strings padded to 4 bytes, the header size filled in\n"
"last.  Decompiling gives source that compiles back to identical bytes.\n"
"Checking applies the rules greybus.ko applies, from the same code, and\n"
"explains the first problem found.\n"
"\n"
"Unless -I is given, a FILE named *.mnfb is a blob and one named *.mnfs is\n"
"source; any other input is a blob if it holds a byte that source never\n"
"does (NUL, DEL or a control character other than tab, line and page\n"
"breaks; every blob has one), source otherwise.  FILE - reads standard\n"
"input.\n"
"\n"
"Options:\n"
"  -o, --output=OUT       write to OUT instead of standard output (- is\n"
"                         standard output); a binary manifest is never\n"
"                         written to a terminal\n"
"  -d, --decompile        write .mnfs source; the same as -O mnfs\n"
"  -c, --check            validate the manifest (compiling it first if it\n"
"                         is source) and report the result on standard\n"
"                         output; write nothing else\n"
"  -I, --input-format=mnfs|mnfb\n"
"                         do not guess the input format\n"
"  -O, --output-format=mnfs|mnfb\n"
"                         output format; mnfb unless -d is given\n"
"  -q, --quiet            with --check, print nothing when the manifest is\n"
"                         valid\n"
"  -h, --help             show this text and exit\n"
"  -V, --version          show the version and exit\n"
"\n"
"Diagnostics: source errors are reported as FILE:LINE:COLUMN: MESSAGE, e.g.\n"
"  audio.mnfs:12:10: cport-descriptor 2: bundle 3 is not declared\n"
"Blob errors give the byte offset of the descriptor at fault, e.g.\n"
"  audio.mnfb: offset 0x1c: cport descriptor 2: bundle 3 is not declared\n"
"A compiled manifest that greybus.ko would still reject (no interface\n"
"descriptor, no bundle with a cport) draws a warning.\n"
"\n"
"Exit status: 0 on success, 1 if the input is not a valid manifest or\n"
"cannot be expressed in the output format, 2 on a usage or I/O error.\n"
"\n"
"Examples:\n"
"  $ mnfc -o audio.mnfb manifests/audio.mnfs\n"
"  $ mnfc -d audio.mnfb\n"
"  $ mnfc --check audio.mnfb\n";

static const char *prog = "mnfc";

/* A usage error: one line saying why, then where to look; exit 2 */
#define usage_error(...) gb_usage_error(prog, __VA_ARGS__)

static enum gb_mnf_format parse_format(const char *s)
{
	if (!strcmp(s, "mnfs"))
		return GB_MNF_FORMAT_MNFS;
	if (!strcmp(s, "mnfb"))
		return GB_MNF_FORMAT_MNFB;
	usage_error("unknown format '%s' (use mnfs or mnfb)", s);
	return GB_MNF_FORMAT_AUTO;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_output(const char *path, const void *data, size_t len,
			bool binary)
{
	bool to_stdout = !path || !strcmp(path, "-");
	int fd = 1, err;

	if (to_stdout && binary && isatty(1)) {
		fprintf(stderr,
			"%s: not writing a binary manifest to a terminal (use -o FILE, -d, or redirect)\n",
			prog);
		return EXIT_TROUBLE;
	}
	if (!to_stdout) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, path,
				strerror(errno));
			return EXIT_TROUBLE;
		}
	}
	err = write_all(fd, data, len);
	if (!to_stdout && close(fd) && !err)
		err = -errno;
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog,
			to_stdout ? "<stdout>" : path, strerror(-err));
		return EXIT_TROUBLE;
	}
	return 0;
}

static void warn_kernel_rejects(const char *name, const uint8_t *blob,
				size_t len)
{
	struct gb_manifest_report rep;
	char why[320];

	if (!gb_manifest_check(blob, len, &rep))
		return;
	fprintf(stderr, "%s: warning: %s: greybus.ko would reject this manifest: %s\n",
		prog, name, gb_mnf_explain(blob, len, &rep, why, sizeof(why)));
}

static int do_check(const char *name, const uint8_t *blob, size_t len,
		    bool quiet)
{
	struct gb_manifest_report rep;
	struct gb_mnf_info info;
	char why[320];

	if (gb_mnf_decode(blob, len, &info, &rep)) {
		if (rep.error == GB_MNF_OK) {
			fprintf(stderr, "%s: %s: out of memory\n", prog, name);
			return EXIT_TROUBLE;
		}
		printf("%s: %s\n", name,
		       gb_mnf_explain(blob, len, &rep, why, sizeof(why)));
		return EXIT_INVALID;
	}
	if (!quiet) {
		printf("%s: valid manifest: %zu bytes, version %u.%u, %zu string%s, %zu bundle%s, %zu cport%s",
		       name, len, info.version_major, info.version_minor,
		       info.n_strings, info.n_strings == 1 ? "" : "s",
		       info.n_bundles, info.n_bundles == 1 ? "" : "s",
		       info.n_cports, info.n_cports == 1 ? "" : "s");
		if (info.features)
			printf(", features 0x%02x", info.features);
		printf("\n");
	}
	if (rep.unknown_descs)
		printf("%s: warning: offset 0x%x: %u descriptor%s of unknown type skipped\n",
		       name, rep.first_unknown_offset, rep.unknown_descs,
		       rep.unknown_descs == 1 ? "" : "s");
	gb_mnf_info_free(&info);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output",		required_argument,	NULL, 'o' },
		{ "decompile",		no_argument,		NULL, 'd' },
		{ "check",		no_argument,		NULL, 'c' },
		{ "input-format",	required_argument,	NULL, 'I' },
		{ "output-format",	required_argument,	NULL, 'O' },
		{ "quiet",		no_argument,		NULL, 'q' },
		{ "help",		no_argument,		NULL, 'h' },
		{ "version",		no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	enum gb_mnf_format in_fmt = GB_MNF_FORMAT_AUTO;
	enum gb_mnf_format out_fmt = GB_MNF_FORMAT_AUTO;
	const char *output = NULL, *path, *name;
	bool check = false, quiet = false, decompile = false;
	uint8_t *data, *blob = NULL;
	size_t len, blob_len = 0;
	int opt, err, ret;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:dcI:O:qhV", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'd':
			decompile = true;
			break;
		case 'c':
			check = true;
			break;
		case 'I':
			in_fmt = parse_format(optarg);
			break;
		case 'O':
			out_fmt = parse_format(optarg);
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'V':
			gb_print_version("mnfc");
			return 0;
		default:
			gb_getopt_error(prog, opt, argv);
		}
	}
	if (optind == argc)
		usage_error("%s", "no input file (use - for standard input)");
	if (argc - optind > 1)
		usage_error("too many input files, starting at '%s'",
			    argv[optind + 1]);
	if (decompile) {
		if (out_fmt == GB_MNF_FORMAT_MNFB)
			usage_error("%s", "-d contradicts -O mnfb");
		out_fmt = GB_MNF_FORMAT_MNFS;
	}
	if (check && (output || out_fmt != GB_MNF_FORMAT_AUTO))
		usage_error("%s", "--check writes no manifest; drop -o, -d and -O");
	if (out_fmt == GB_MNF_FORMAT_AUTO)
		out_fmt = GB_MNF_FORMAT_MNFB;

	path = argv[optind];
	name = strcmp(path, "-") ? path : "<stdin>";
	err = gb_read_file(path, &data, &len);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog, name, strerror(-err));
		return EXIT_TROUBLE;
	}
	if (in_fmt == GB_MNF_FORMAT_AUTO) {
		in_fmt = gb_mnf_format_of(strcmp(path, "-") ? path : NULL,
					  data, len);
		/* Nothing at all reads best as an empty blob when checking. */
		if (!len && (check || out_fmt == GB_MNF_FORMAT_MNFS))
			in_fmt = GB_MNF_FORMAT_MNFB;
	}

	if (in_fmt == GB_MNF_FORMAT_MNFS) {
		struct gb_mnfs_diag diag;
		char msg[600];

		if (gb_mnfs_compile((const char *)data, len, name, &blob,
				    &blob_len, &diag)) {
			fprintf(stderr, "%s\n",
				gb_mnfs_diag_format(&diag, msg, sizeof(msg)));
			free(data);
			return EXIT_INVALID;
		}
		free(data);
		if (!check)
			warn_kernel_rejects(name, blob, blob_len);
	} else {
		blob = data;
		blob_len = len;
	}

	if (check) {
		ret = do_check(name, blob, blob_len, quiet);
	} else if (out_fmt == GB_MNF_FORMAT_MNFB) {
		ret = write_output(output, blob, blob_len, true);
	} else {
		struct gb_manifest_report rep;
		char why[320];
		char *src;
		size_t src_len;

		err = gb_mnfs_decompile(blob, blob_len, &src, &src_len, &rep,
					why, sizeof(why));
		if (err == -ENOMEM) {
			fprintf(stderr, "%s: %s: out of memory\n", prog, name);
			ret = EXIT_TROUBLE;
		} else if (err) {
			fprintf(stderr, "%s: %s: %s\n", prog, name, why);
			ret = EXIT_INVALID;
		} else {
			ret = write_output(output, src, src_len, false);
			free(src);
		}
	}
	free(blob);
	return ret;
}
