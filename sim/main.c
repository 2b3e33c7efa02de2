/*
 * main.c - the antic-sim command line: run one workload under several
 * schedulers in one process and report them side by side.
 */
#include "report.h"
#include "outputs.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the exit status of a run stopped at max_time (its report still written whole) */
#define EXIT_MAX_TIME 3

static void usage(FILE *f)
{
	fprintf(f,
		"usage: antic-sim [options] JOBFILE\n"
		"       antic-sim replay [options] [trace options] TRACE\n"
		"       antic-sim convert [trace options] --target FILE [--output OUT] TRACE\n"
		"  --scheduler LIST        comma-separated: noop,deadline,anticipatory (default all)\n"
		"  --output-format FMT     table (default), json (fio's), json+ (with latency bins) or csv\n"
		"  --output FILE           write the report to FILE (replaced whole, or not at all)\n"
		"  --seed N                random seed (default 1, or the job file's)\n"
		"  --set NAME=VALUE        a tunable, disk parameter or simulator setting, e.g.\n"
		"                          antic_expire=6 (ms), rpm=5400, type=ssd, queue_depth=32,\n"
		"                          mem=256m, read_ahead_kb=128; see antic-sim(1)\n"
		"                          (the disk: st2000dm006, 2 TB 7200 rpm, at queue depth 32\n"
		"                          unless disk=NAME loads a preset whole, its depth 1 included)\n"
		"  --write_iolog FILE      what the jobs issued, as fio's iolog v3 (file offsets;\n"
		"                          of the first scheduler's run)\n"
		"  --write-blktrace DIR    each scheduler's run as blktrace's files DIR/SCHEDULER.blktrace.0\n"
		"                          (blkparse -D DIR -i SCHEDULER; btt; iowatcher)\n"
		"  --quiet                 no progress on stderr\n"
		"  --counters              every anticipatory counter in the table, the zero ones too\n"
		"  --list-schedulers       each scheduler's name, the Linux scheduler that plays it,\n"
		"                          and its alias, one a line\n"
		"  --help, --version\n"
		"exit status: 0 done, 1 an error (nothing written), 2 a bad command line,\n"
		"  3 a run stopped at max_time (default 3600 s simulated) before its jobs ended\n"
		"  (the report is written, marked STOPPED in the table and timed_out in JSON)\n"
		"trace options (replay, convert):\n"
		"  --format FMT            the trace's format (default: detected from its content):\n"
		"                          blktrace   blktrace's binary files (give the base name)\n"
		"                          blkparse   blkparse's default text output\n"
		"                          msr        MSR Cambridge CSV (SNIA IOTTA)\n"
		"                          spc        SPC/UMass CSV (Financial, WebSearch)\n"
		"                          iolog2     fio iolog version 2\n"
		"                          iolog3     fio iolog version 3\n"
		"                          disksim    DiskSim ASCII: ms devno blkno blocks hexflags\n"
		"                          disksim-ns the same with arrival in ns (MQSim)\n"
		"                          startup    the S suite's start-up traces (comm_startup_lat)\n"
		"  --device DEV            keep one device: 8,0 (blktrace), hm_0 (MSR), an ASU,\n"
		"                          a file name (iolog), a devno (disksim)\n"
		"  --skip TIME             drop the trace's first TIME (e.g. 30s)\n"
		"  --limit TIME            then replay only TIME of it\n"
		"  --offset SIZE           add SIZE (e.g. 30g) to every request's position\n"
		"  --skip-bad              skip malformed records (counted) instead of stopping\n"
		"replay only:\n"
		"  --replay MODE           closed (per-process dependencies; default when the trace\n"
		"                          names processes) or open (every request at its time)\n"
		"  --time-scale X          multiply recorded times and think times by X (0.5: twice as fast)\n"
		"  --jobs JOBFILE          run the job file's jobs as a background load beside the trace\n"
		"                          (its settings apply too); the run ends with the replay\n"
		"  --start TIME            the trace's first request TIME into the run (default 0)\n"
		"  --remap scale|wrap      a trace reaching past the disk's end: scale positions by\n"
		"                          capacity/extent (as fio's replay_scale, seeks shorter) or\n"
		"                          wrap them modulo the capacity (seeks kept, regions folded)\n"
		"  --ioprio WHO=CLASS[:LEVEL]  the I/O priority of a traced process's requests, as\n"
		"                          ionice's: WHO a pid or a process name (all of that name),\n"
		"                          CLASS 1 or realtime, 2 or best-effort, 3 or idle (0 or\n"
		"                          none: best effort), LEVEL 0-7; repeatable, a pid's wins\n");
}

/*
 * replay --ioprio WHO=CLASS[:LEVEL] into @e; a bad one is said, naming the
 * field, and -1. The last '=' ends WHO: a process name may hold '=' and
 * ':', a class neither.
 */
static int parse_ioprio(const char *v, struct replay_ioprio *e)
{
	static const char *const names[] = { "none", "realtime", "best-effort", "idle" };
	static const uint8_t classes[] = { ANTIC_CLASS_BE, ANTIC_CLASS_RT, ANTIC_CLASS_BE,
					   ANTIC_CLASS_IDLE };
	const char *eq = strrchr(v, '='), *cls, *colon;
	size_t len, wlen;
	unsigned long n;
	char *end;
	int k;

	if (!eq || eq == v || !eq[1]) {
		fprintf(stderr, "antic-sim: --ioprio '%s': want WHO=CLASS[:LEVEL], WHO a pid or a "
			"process name\n", v);
		return -1;
	}
	wlen = (size_t)(eq - v);
	if (wlen >= sizeof(e->who)) {
		fprintf(stderr, "antic-sim: --ioprio '%s': name: a trace records at most %zu "
			"characters of a process's name\n", v, sizeof(e->who) - 1);
		return -1;
	}
	cls = eq + 1;
	colon = strchr(cls, ':');
	len = colon ? (size_t)(colon - cls) : strlen(cls);
	for (k = 0; k < 4; k++)
		if (len == strlen(names[k]) ? !strncmp(cls, names[k], len) :
		    len == 1 && *cls == '0' + k)
			break;
	if (k == 4) {
		fprintf(stderr, "antic-sim: --ioprio '%s': class '%.*s': want 1 (realtime), "
			"2 (best-effort) or 3 (idle)\n", v, (int)len, cls);
		return -1;
	}
	e->ionice = (uint8_t)k;
	e->prio_class = classes[k];
	e->level = 0;
	if (colon) {
		errno = 0;
		n = strtoul(colon + 1, &end, 10);
		if (colon[1] < '0' || colon[1] > '9' || *end || errno || n > 7) {
			fprintf(stderr, "antic-sim: --ioprio '%s': level '%s': want 0-7 (as ionice -n)\n",
				v, colon + 1);
			return -1;
		}
		if (!k && n) {
			fprintf(stderr, "antic-sim: --ioprio '%s': level %lu: class none takes no "
				"level (give best-effort)\n", v, n);
			return -1;
		}
		e->level = (uint8_t)n;
	}
	memcpy(e->who, v, wlen);
	e->who[wlen] = 0;
	e->by_pid = strspn(e->who, "0123456789") == wlen;
	if (e->by_pid) {
		errno = 0;
		n = strtoul(e->who, &end, 10);
		if (errno || n > UINT32_MAX) {
			fprintf(stderr, "antic-sim: --ioprio '%s': pid %s: want at most %u\n", v,
				e->who, UINT32_MAX);
			return -1;
		}
		e->pid = (uint32_t)n;
	}
	e->matched = false;
	return 0;
}

/* The trace options shared by replay and convert; 1 if @a was one, -1 on a bad value. */
static int trace_option(const char *a, const char *v, struct trace_opts *t, bool *used_value)
{
	uint64_t ns;

	*used_value = true;
	if (!strcmp(a, "--format")) {
		if (trace_format_parse(v, &t->fmt)) {
			fprintf(stderr, "antic-sim: --format: want %s, got '%s'\n", trace_format_list(), v);
			return -1;
		}
	} else if (!strcmp(a, "--device")) {
		t->device = v;
	} else if (!strcmp(a, "--skip") || !strcmp(a, "--limit")) {
		if (parse_time(v, 1000000000ULL, &ns)) {
			fprintf(stderr, "antic-sim: %s: want a time such as 30s or 500ms, got '%s'\n", a, v);
			return -1;
		}
		if (a[2] == 's')
			t->skip = ns;
		else
			t->limit = ns;
	} else if (!strcmp(a, "--offset")) {
		uint64_t b;

		if (parse_size(v, &b) || b % 512) {
			fprintf(stderr, "antic-sim: --offset: want a size in whole sectors such as 30g, got '%s'\n", v);
			return -1;
		}
		t->offset = b / 512;
	} else if (!strcmp(a, "--skip-bad")) {
		*used_value = false;
		t->skip_bad = true;
	} else {
		*used_value = false;
		return 0;
	}
	return 1;
}

static void print_trace_summary(FILE *f, const char *path, const struct trace_stats *ts,
				enum trace_fmt fmt, const struct replay_spec *rs)
{
	size_t i;

	if (!f)
		return;
	fprintf(f, "trace %s: %s", path, trace_format_name(fmt));
	if (ts->siblings)
		fprintf(f, " (one CPU's file given: all %u per-CPU files beside it merged, as blkparse "
			"-i does, since a request may complete on another CPU)", ts->files);
	else if (ts->files > 1)
		fprintf(f, " (%u per-CPU files merged)", ts->files);
	fprintf(f, ", %llu requests (%llu reads %.1f MiB, %llu writes %.1f MiB) over %.3f s, %llu processes",
		(unsigned long long)ts->records, (unsigned long long)ts->ios[0], ts->bytes[0] / 1048576.0,
		(unsigned long long)ts->ios[1], ts->bytes[1] / 1048576.0, ts->span / 1e9,
		(unsigned long long)ts->procs);
	if (ts->ignored)
		fprintf(f, "; %llu ignored (flush, discard, other devices, outside the window)",
			(unsigned long long)ts->ignored);
	if (ts->bad)
		fprintf(f, "; %llu malformed records skipped", (unsigned long long)ts->bad);
	fprintf(f, "\n");
	if (!rs)
		return;
	if (!rs->closed) {
		fprintf(f, "replay: open loop, every request at its recorded time");
	} else if (fmt == TF_STARTUP) {
		fprintf(f, "replay: closed loop per process, as the S suite's replayer does: a request "
			"starts its recorded gap after the process's previous one completes, or after "
			"its issue when that one was a readahead; a read waits for the process's "
			"readaheads in flight");
	} else {
		fprintf(f, "replay: closed loop per process: a synchronous request starts ");
		if (ts->has_completions)
			fprintf(f, "its recorded think time after the previous one completes (think times "
				"from the trace's completions, %llu matched), or its recorded gap after the "
				"previous issue when that one was still outstanding; writes not marked sync at "
				"their recorded times", (unsigned long long)ts->completions);
		else
			fprintf(f, "its recorded gap after the previous one, and not before that one "
				"completes (the format records no completions, so think time is not known)");
	}
	if (!ts->has_pids)
		fprintf(f, "; the format names no processes, so the device is one process");
	if (rs->time_scale != 1.0)
		fprintf(f, "; times scaled by %g", rs->time_scale);
	if (rs->remap)
		fprintf(f, "; positions past the disk's end %s (--remap)",
			rs->remap == REMAP_SCALE ? "scaled onto it, all in proportion" : "wrapped modulo its capacity");
	for (i = 0; i < rs->nioprio; i++) {
		static const char *const names[] = { "none", "realtime", "best-effort", "idle" };
		const struct replay_ioprio *e = &rs->ioprio[i];

		fprintf(f, "%s %s %s %s", i ? "," : "; I/O priorities (--ioprio):",
			e->by_pid ? "pid" : "name", e->who, names[e->ionice]);
		if (e->level)
			fprintf(f, " level %u", e->level);
	}
	fprintf(f, "\n\n");
}

/*
 * After a replay: the --ioprio entries that selected no process of @trace
 * said in @err, and -1; 0 when each selected one.
 */
static int ioprio_unmatched(const struct replay_spec *rs, const char *trace, bool timed_out,
			    char *err, size_t errlen)
{
	size_t i, n = 0, len = (size_t)snprintf(err, errlen, "--ioprio");

	for (i = 0; i < rs->nioprio; i++)
		if (!rs->ioprio[i].matched && len < errlen)
			len += (size_t)snprintf(err + len, errlen - len, "%s %s", n++ ? "," : "",
						rs->ioprio[i].who);
	if (!n)
		return 0;
	if (len < errlen)
		snprintf(err + len, errlen - len, ": no process of %s in %s%s",
			 n > 1 ? "those names or pids" : "that name or pid", trace,
			 timed_out ? " (before the replay stopped at max_time)" : "");
	return -1;
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

/* Write @tmp's content to @out by rename: the output is whole or absent. */
static FILE *open_out(const char *out, char *tmp, size_t n)
{
	FILE *f;

	if (snprintf(tmp, n, "%s.tmp.%ld", out, (long)getpid()) >= (int)n || !(f = fopen(tmp, "w"))) {
		fprintf(stderr, "antic-sim: %s: %s\n", out, strerror(errno));
		return NULL;
	}
	return f;
}

static int close_out(FILE *f, const char *out, const char *tmp, bool ok)
{
	if (!ok) {
		fclose(f);
		remove(tmp);
		return -1;
	}
	if (ferror(f) | fclose(f) || rename(tmp, out)) {
		fprintf(stderr, "antic-sim: %s: %s\n", out, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}

static int cmd_convert(int argc, char **argv)
{
	struct trace_opts to = { 0 };
	const char *path = NULL, *target = NULL, *out = NULL;
	bool quiet = false, used;
	struct trace *t;
	char err[512], tmp[4096];
	FILE *f = stdout;
	long long n;
	int i, r;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = true;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		}
		if (a[0] == '-' && strcmp(a, "--skip-bad") && !v) {
			fprintf(stderr, "antic-sim: convert: %s needs a value\n", a);
			return 2;
		}
		r = trace_option(a, v ? v : "", &to, &used);
		if (r < 0)
			return 2;
		if (r > 0) {
			i += used;
			continue;
		}
		if (!strcmp(a, "--target")) {
			target = argv[++i];
		} else if (!strcmp(a, "--output") || !strcmp(a, "-o")) {
			out = argv[++i];
		} else if (a[0] == '-') {
			fprintf(stderr, "antic-sim: convert: unknown option '%s'\n", a);
			return 2;
		} else if (!path) {
			path = a;
		} else {
			fprintf(stderr, "antic-sim: convert: more than one trace\n");
			return 2;
		}
	}
	if (!path || !target) {
		fprintf(stderr, "antic-sim: convert: want --target FILE (the file or device fio will replay on) and a TRACE\n");
		return 2;
	}
	if (strchr(target, ' ') || strchr(target, '\t') || strchr(target, '\n')) {
		fprintf(stderr, "antic-sim: convert: --target: an iolog file name cannot hold white space\n");
		return 2;
	}
	t = trace_open(path, &to, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "antic-sim: %s\n", err);
		return 1;
	}
	if (out && !(f = open_out(out, tmp, sizeof(tmp)))) {
		trace_close(t);
		return 1;
	}
	n = trace_write_iolog3(t, f, target, err, sizeof(err));
	if (n < 0)
		fprintf(stderr, "antic-sim: %s\n", err);
	if (out ? close_out(f, out, tmp, n >= 0) : (fflush(stdout) || n < 0)) {
		trace_close(t);
		return 1;
	}
	if (!quiet)
		print_trace_summary(stderr, path, trace_stats(t), trace_format(t), NULL);
	trace_close(t);
	return 0;
}

int main(int argc, char **argv)
{
	enum sim_policy pols[8] = { POL_NOOP, POL_DEADLINE, POL_AS };
	size_t npol = 3, k;
	const char *fmt = "table", *out = NULL, *jobfile = NULL, *seed = NULL, *iolog = NULL;
	const char *btdir = NULL;	/* --write-blktrace */
	const char *sets[64];
	size_t nsets = 0;
	bool quiet = false, sched_given = false, all_counters = false, timed_out = false;
	struct workload w;
	struct sim_result res[8];
	struct sim_options o = { 0 };
	char err[2048];
	int i, rc = 1, first = 1;
	FILE *f = stdout;
	char tmp[4096], logtmp[4096];
	bool replay = false, mode_given = false, used;
	bool name_job = false, ran = false;	/* a scheduler's run: how far it got */
	struct bt_writer *bt;
	const char *bgjobs = NULL;	/* replay --jobs: a background load */
	struct replay_spec rs = { .time_scale = 1.0 };
	struct replay_ioprio prios[64];	/* replay --ioprio */

	if (argc > 1 && !strcmp(argv[1], "convert"))
		return cmd_convert(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "replay")) {
		replay = true;
		first = 2;
	}
	for (i = first; i < argc; i++) {
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
		} else if (!strcmp(a, "--list-schedulers")) {
			for (k = 0; k < ANTIC_NR_POLICIES; k++) {
				const struct antic_policy_name *n = &antic_policy_names[k];

				printf("%s %s%s%s\n", n->name, n->kernel, n->alias ? " " : "",
				       n->alias ? n->alias : "");
			}
			return 0;
		} else if (!strcmp(a, "--scheduler")) {
			NEEDARG();
			sched_given = true;
			if (parse_sched_list(v, pols, &npol)) {
				fprintf(stderr, "antic-sim: --scheduler: bad list '%s' (want noop, deadline, anticipatory)\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--output-format")) {
			NEEDARG();
			if (strcmp(v, "table") && strcmp(v, "json") && strcmp(v, "json+") && strcmp(v, "csv")) {
				fprintf(stderr, "antic-sim: --output-format: want table, json, json+ or csv, got '%s'\n", v);
				return 2;
			}
			fmt = v;
		} else if (!strcmp(a, "--output")) {
			NEEDARG();
			out = v;
		} else if (!strcmp(a, "--write_iolog") && !replay) {
			NEEDARG();
			iolog = v;
		} else if (!strcmp(a, "--write-blktrace")) {
			NEEDARG();
			btdir = v;
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
		} else if (!strcmp(a, "--counters")) {
			all_counters = true;
		} else if (replay && !strcmp(a, "--skip-bad")) {
			rs.topts.skip_bad = true;
		} else if (replay && (!strcmp(a, "--format") || !strcmp(a, "--device") ||
				      !strcmp(a, "--skip") || !strcmp(a, "--limit") ||
				      !strcmp(a, "--offset"))) {
			NEEDARG();
			if (trace_option(a, v, &rs.topts, &used) < 0)
				return 2;
		} else if (replay && !strcmp(a, "--replay")) {
			NEEDARG();
			if (strcmp(v, "open") && strcmp(v, "closed")) {
				fprintf(stderr, "antic-sim: --replay: want open or closed, got '%s'\n", v);
				return 2;
			}
			rs.closed = !strcmp(v, "closed");
			mode_given = true;
		} else if (replay && !strcmp(a, "--remap")) {
			NEEDARG();
			if (strcmp(v, "scale") && strcmp(v, "wrap")) {
				fprintf(stderr, "antic-sim: --remap: want scale or wrap, got '%s'\n", v);
				return 2;
			}
			rs.remap = v[0] == 's' ? REMAP_SCALE : REMAP_WRAP;
		} else if (replay && !strcmp(a, "--jobs")) {
			NEEDARG();
			bgjobs = v;
		} else if (replay && !strcmp(a, "--start")) {
			NEEDARG();
			if (parse_time(v, 1000000000ULL, &rs.start)) {
				fprintf(stderr, "antic-sim: --start: want a time such as 3s or 500ms, got '%s'\n", v);
				return 2;
			}
		} else if (replay && !strcmp(a, "--ioprio")) {
			NEEDARG();
			if (rs.nioprio == sizeof(prios) / sizeof(prios[0])) {
				fprintf(stderr, "antic-sim: too many --ioprio options\n");
				return 2;
			}
			if (parse_ioprio(v, &prios[rs.nioprio]))
				return 2;
			rs.ioprio = prios;
			rs.nioprio++;
		} else if (replay && !strcmp(a, "--time-scale")) {
			char *end;

			NEEDARG();
			errno = 0;
			rs.time_scale = strtod(v, &end);
			if (errno || *end || end == v || !(rs.time_scale > 0) || rs.time_scale > 1e6) {
				fprintf(stderr, "antic-sim: --time-scale: want a number above 0 (at most 1e6), got '%s'\n", v);
				return 2;
			}
		} else if (a[0] == '-' && a[1]) {
			static const char *const opts[] = { "--scheduler", "--output-format", "--output",
				"--write_iolog", "--seed", "--set", "--quiet", "--counters",
				"--list-schedulers", "--help", "--version", "--format", "--device", "--skip",
				"--limit", "--offset", "--skip-bad", "--replay", "--jobs", "--start",
				"--time-scale", "--remap", "--ioprio" };
			const char *near = nearest_name(a, opts, sizeof(opts) / sizeof(opts[0]));

			if (near && !strcmp(near, a))	/* a replay's option in a job run, or the reverse */
				fprintf(stderr, "antic-sim: %s is %san option of antic-sim replay\n", a,
					replay ? "not " : "");
			else if (near)
				fprintf(stderr, "antic-sim: unknown option '%s'; did you mean %s?\n", argv[i], near);
			else
				fprintf(stderr, "antic-sim: unknown option '%s' (antic-sim --help lists them)\n", argv[i]);
			return 2;
		} else if (!jobfile) {
			jobfile = a;
		} else {
			fprintf(stderr, "antic-sim: more than one %s\n", replay ? "trace" : "job file");
			return 2;
		}
	}
	if (!jobfile) {
		usage(stderr);
		return 2;
	}
	if (replay) {
		struct trace *t = trace_open(jobfile, &rs.topts, err, sizeof(err));

		if (!t) {
			fprintf(stderr, "antic-sim: %s\n", err);
			return 1;
		}
		if (rs.nioprio && !trace_stats(t)->has_pids) {
			fprintf(stderr, "antic-sim: --ioprio: %s: the %s format names no processes\n",
				jobfile, trace_format_name(trace_format(t)));
			trace_close(t);
			return 2;
		}
		/* closed loop needs processes to keep dependencies within */
		if (!mode_given)
			rs.closed = trace_stats(t)->has_pids;
		rs.topts.fmt = trace_format(t);
		trace_close(t);
		rs.path = jobfile;
		o.replay = &rs;
		memset(&w, 0, sizeof(w));
		if (!bgjobs) {
			sim_default_settings(&w.set);
		} else if (jobfile_load(bgjobs, &w, err, sizeof(err))) {
			fprintf(stderr, "antic-sim: --jobs: %s\n", err);
			return 1;
		}
	} else if (jobfile_load(jobfile, &w, err, sizeof(err))) {
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
	/* a job file's ioscheduler= picks the one scheduler, unless --scheduler did */
	if (!sched_given && w.set.ioscheduler) {
		pols[0] = (enum sim_policy)(w.set.ioscheduler - 1);
		npol = 1;
	}
	o.progress = !quiet && isatty(2);
	if (!quiet)
		fprintf(stderr, "antic-sim: each run stops at max_time, %g s of simulated time "
			"(--set max_time=); a run stopped there exits %d\n",
			(double)w.set.max_time / 1e9, EXIT_MAX_TIME);
	if (iolog) {
		if (!(o.iolog = open_out(iolog, logtmp, sizeof(logtmp))))
			goto out;
		fprintf(o.iolog, "fio version 3 iolog\n");
	}
	for (k = 0; k < npol; k++) {
		char suffix[64];

		snprintf(suffix, sizeof(suffix), "%s%s", npol > 1 ? "-" : "",
			 npol > 1 ? sim_policy_name(pols[k]) : "");
		name_job = ran = false;
		if (fio_logs_wanted(&w) && !(o.logs = fio_logs_new(suffix))) {
			snprintf(err, sizeof(err), "out of memory");
			goto run_failed;
		}
		if (btdir && !(o.bt = bt_open(btdir, sim_policy_name(pols[k]), err, sizeof(err))))
			goto run_failed;
		name_job = true;
		if (sim_run(&w, pols[k], &o, &res[k], err, sizeof(err)))
			goto run_failed;
		ran = true;
		/* before any of the run's outputs is kept */
		if (ioprio_unmatched(&rs, jobfile, res[k].timed_out, err, sizeof(err))) {
			name_job = false;	/* the message names the trace */
			goto run_failed;
		}
		if (o.logs && fio_logs_write(o.logs, err, sizeof(err)))
			goto run_failed;
		/* bt_close frees the writer, kept or not: it must not be closed twice */
		bt = o.bt;
		o.bt = NULL;
		if (bt_close(bt, true, err, sizeof(err)))
			goto run_failed;
		fio_logs_free(o.logs);
		o.logs = NULL;
		/* the first scheduler's run: the jobs issue alike under each, timing apart */
		if (o.iolog) {
			if (close_out(o.iolog, iolog, logtmp, true)) {
				npol = k + 1;
				goto free_res;
			}
			o.iolog = NULL;
		}
	}
	for (k = 0; k < npol; k++) {
		if (res[k].violations) {
			fprintf(stderr, "antic-sim: %s: internal error: %llu broken invariants under %s "
				"(a bug in antic; please report it with this input)\n", jobfile,
				(unsigned long long)res[k].violations, res[k].scheduler);
			goto free_res;
		}
	}
	if (out && !(f = open_out(out, tmp, sizeof(tmp))))
		goto free_res;
	{
		struct report_ctx c = { .jobfile = jobfile, .w = &w, .res = res, .nres = npol,
				       .all_counters = all_counters,
				       .options_file = replay ? bgjobs : jobfile };

		if (replay)
			print_trace_summary(strcmp(fmt, "table") ? (quiet ? NULL : stderr) : f,
					    jobfile, &res[0].trace, rs.topts.fmt, &rs);
		if (!strncmp(fmt, "json", 4))
			report_fio_json(f, &c, fmt[4] == '+');
		else if (!strcmp(fmt, "csv"))
			report_csv(f, &c);
		else
			report_table(f, &c);
	}
	if (out) {
		if (close_out(f, out, tmp, true))
			goto free_res;
	} else if (fflush(stdout)) {
		goto free_res;
	}
	for (k = 0; k < npol; k++)
		timed_out |= res[k].timed_out;
	rc = timed_out ? EXIT_MAX_TIME : 0;
	goto free_res;
run_failed:
	/* a replay's errors name the trace (and line) themselves */
	if (name_job && strncmp(err, jobfile, strlen(jobfile)))
		fprintf(stderr, "antic-sim: %s: %s\n", jobfile, err);
	else
		fprintf(stderr, "antic-sim: %s\n", err);
	bt_close(o.bt, false, err, sizeof(err));
	fio_logs_free(o.logs);
	if (o.iolog)
		close_out(o.iolog, iolog, logtmp, false);
	/* res[k] too once sim_run has filled it; sim_run frees its own on failure */
	npol = k + ran;
free_res:
	for (k = 0; k < npol; k++)
		sim_result_free(&res[k]);
out:
	workload_free(&w);
	return rc;
}
