/*
 * main.c - the antic-sim command line: run one workload under several
 * schedulers in one process and report them side by side.
 */
#include "report.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: antic-sim [options] JOBFILE\n"
		"  --scheduler LIST        comma-separated: noop,deadline,anticipatory (default all)\n"
		"  --output-format FMT     table (default), json or csv\n"
		"  --output FILE           write the report to FILE (replaced whole, or not at all)\n"
		"  --seed N                random seed (default 1, or the job file's)\n"
		"  --set NAME=VALUE        a tunable, disk parameter or simulator setting, e.g.\n"
		"                          antic_expire=6 (ms), rpm=5400, type=ssd, queue_depth=32,\n"
		"                          mem=256m, read_ahead_kb=128; see README.md\n"
		"  --quiet                 no progress on stderr\n"
		"  --help, --version\n");
}

static int parse_sched_list(const char *s, enum sim_policy *out, size_t *n)
{
	char buf[256], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n == 8 || sim_policy_parse(tok, &out[*n]))
			return -1;
		(*n)++;
	}
	return *n ? 0 : -1;
}

int main(int argc, char **argv)
{
	enum sim_policy pols[8] = { POL_NOOP, POL_DEADLINE, POL_AS };
	size_t npol = 3, k;
	const char *fmt = "table", *out = NULL, *jobfile = NULL, *seed = NULL;
	const char *sets[64];
	size_t nsets = 0;
	bool quiet = false;
	struct workload w;
	struct sim_result res[8];
	struct sim_options o = { 0 };
	char err[512];
	int i, rc = 1;
	FILE *f = stdout;
	char tmp[4096];

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		char name[64];
		const char *eq = strchr(a, '=');

		if (!strncmp(a, "--", 2) && eq && (size_t)(eq - a) < sizeof(name)) {
			memcpy(name, a, (size_t)(eq - a));
			name[eq - a] = 0;
			a = name;
			v = eq + 1;
		}
#define NEEDARG() do { if (!v) { if (i + 1 >= argc) { fprintf(stderr, "antic-sim: %s needs a value\n", a); return 2; } v = argv[++i]; } } while (0)
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--version")) {
			printf("antic-sim 0.1\n");
			return 0;
		} else if (!strcmp(a, "--scheduler")) {
			NEEDARG();
			if (parse_sched_list(v, pols, &npol)) {
				fprintf(stderr, "antic-sim: --scheduler: bad list '%s' (want noop, deadline, anticipatory)\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--output-format")) {
			NEEDARG();
			if (strcmp(v, "table") && strcmp(v, "json") && strcmp(v, "csv")) {
				fprintf(stderr, "antic-sim: --output-format: want table, json or csv, got '%s'\n", v);
				return 2;
			}
			fmt = v;
		} else if (!strcmp(a, "--output")) {
			NEEDARG();
			out = v;
		} else if (!strcmp(a, "--seed")) {
			NEEDARG();
			seed = v;
		} else if (!strcmp(a, "--set")) {
			NEEDARG();
			if (nsets == 64) {
				fprintf(stderr, "antic-sim: too many --set options\n");
				return 2;
			}
			sets[nsets++] = v;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "antic-sim: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else if (!jobfile) {
			jobfile = a;
		} else {
			fprintf(stderr, "antic-sim: more than one job file\n");
			return 2;
		}
	}
	if (!jobfile) {
		usage(stderr);
		return 2;
	}
	if (jobfile_load(jobfile, &w, err, sizeof(err))) {
		fprintf(stderr, "antic-sim: %s\n", err);
		return 1;
	}
	/* the command line overrides the job file */
	if (seed && settings_apply(&w.set, "seed", seed, err, sizeof(err))) {
		fprintf(stderr, "antic-sim: --seed: %s\n", err);
		goto out;
	}
	for (k = 0; k < nsets; k++) {
		char name[64];
		const char *eq = strchr(sets[k], '=');

		if (!eq || eq == sets[k] || (size_t)(eq - sets[k]) >= sizeof(name)) {
			fprintf(stderr, "antic-sim: --set '%s': want NAME=VALUE\n", sets[k]);
			goto out;
		}
		memcpy(name, sets[k], (size_t)(eq - sets[k]));
		name[eq - sets[k]] = 0;
		if (settings_apply(&w.set, name, eq + 1, err, sizeof(err))) {
			fprintf(stderr, "antic-sim: --set: %s\n", err);
			goto out;
		}
	}
	o.progress = !quiet && isatty(2);
	for (k = 0; k < npol; k++) {
		if (sim_run(&w, pols[k], &o, &res[k], err, sizeof(err))) {
			fprintf(stderr, "antic-sim: %s: %s\n", jobfile, err);
			while (k--)
				sim_result_free(&res[k]);
			goto out;
		}
	}
	if (out) {
		if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", out, (long)getpid()) >= (int)sizeof(tmp) ||
		    !(f = fopen(tmp, "w"))) {
			fprintf(stderr, "antic-sim: %s: %s\n", out, strerror(errno));
			goto free_res;
		}
	}
	{
		struct report_ctx c = { jobfile, &w, res, npol };

		if (!strcmp(fmt, "json"))
			report_json(f, &c);
		else if (!strcmp(fmt, "csv"))
			report_csv(f, &c);
		else
			report_table(f, &c);
	}
	if (out) {
		if (ferror(f) | fclose(f) || rename(tmp, out)) {
			fprintf(stderr, "antic-sim: %s: %s\n", out, strerror(errno));
			remove(tmp);
			goto free_res;
		}
	} else if (fflush(stdout)) {
		goto free_res;
	}
	rc = 0;
free_res:
	for (k = 0; k < npol; k++)
		sim_result_free(&res[k]);
out:
	workload_free(&w);
	return rc;
}
