/*
 * bench.c - `make bench`: how fast antic-sim simulates. A long mixed run
 * (a streaming writer, random readers, a sequential reader) under each
 * policy, timed on the wall clock; prints simulated requests and events
 * per second, the ratio of simulated to wall time, and peak memory.
 * Also prints the demo's reader bandwidth ratio anticipatory/deadline, and
 * trace replay: a generated blktrace of ten million requests read alone
 * and replayed under each policy, five rounds of each (these machines
 * are shared: the best round is the code's speed, the median the
 * machine's mood), timed in CPU time and on the wall clock, with each
 * replay's peak memory beside that of a replay ten times shorter.
 */
#define _DEFAULT_SOURCE
#include "../sim/engine.h"
#include <linux/blktrace_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char long_run[] =
	"[antic-sim]\nmem=512m\n"
	"[global]\nioengine=psync\n"
	"[writer]\nrw=write\nbs=1m\nsize=2g\ntime_based\nruntime=1800\n"
	"[random]\nrw=randread\nbs=4k\nsize=20g\ndirect=1\nnumjobs=4\n"
	"time_based\nruntime=1800\nthinktime=2ms\n"
	"[seq]\nrw=read\nbs=128k\nsize=50g\ntime_based\nruntime=1800\n";

static double seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall(void)
{
	return seconds(CLOCK_MONOTONIC);
}

/*
 * This process's CPU time: "per second on one core" on a shared machine,
 * where the wall clock also counts the time others had the core.
 */
static double cpu(void)
{
	return seconds(CLOCK_PROCESS_CPUTIME_ID);
}

static int demo_ratio(void)
{
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result r[2];
	enum sim_policy pol[2] = { POL_DEADLINE, POL_AS };
	double bw[2];
	char err[256];
	int i;
	size_t j;

	if (jobfile_load("examples/write-vs-read.fio", &w, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", err);
		return -1;
	}
	for (i = 0; i < 2; i++) {
		if (sim_run(&w, pol[i], &o, &r[i], err, sizeof(err))) {
			fprintf(stderr, "bench: %s\n", err);
			return -1;
		}
		bw[i] = 0;
		for (j = 0; j < r[i].nr_jobs; j++)
			if (!strcmp(r[i].jobs[j].name, "reader") && r[i].jobs[j].runtime)
				bw[i] = r[i].jobs[j].io_bytes[0] * 1e9 /
					r[i].jobs[j].runtime / 1e6;
		sim_result_free(&r[i]);
	}
	workload_free(&w);
	printf("demo reader: deadline %.2f MB/s, anticipatory %.2f MB/s, ratio %.1f\n",
	       bw[0], bw[1], bw[0] > 0 ? bw[1] / bw[0] : 0.0);
	return 0;
}

#define TRACE_BIG 10000000L
#define ROUNDS 5

/*
 * A blktrace file of @n queue events: four processes in turn, 1,024
 * requests each, reading on through the disk 4 KiB at a time, one
 * request every 100 us (slower than the disk serves them, so an open-loop
 * replay has no growing backlog).
 */
static int make_trace(const char *base, long n)
{
	char name[512];
	FILE *f;
	long i;

	snprintf(name, sizeof(name), "%s.blktrace.0", base);
	f = fopen(name, "wb");
	if (!f)
		return -1;
	for (i = 0; i < n; i++) {
		struct blk_io_trace b;

		memset(&b, 0, sizeof(b));
		b.magic = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION;
		b.sequence = (uint32_t)i;
		b.time = (uint64_t)i * 100000;
		b.sector = 2048 + (uint64_t)i * 8;
		b.bytes = 4096;
		b.action = BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_READ);
		b.pid = 100 + (uint32_t)((i / 1024) % 4);
		b.device = 8u << 20;
		if (fwrite(&b, sizeof(b), 1, f) != 1) {
			fclose(f);
			return -1;
		}
	}
	return fclose(f);
}

/*
 * The replay itself, in a process of its own (bench --replay-child): a
 * forked child would inherit the parent's page tables and heap, which
 * slowed its replay by a fifth (copy-on-write faults, counted as its CPU
 * time) and made its peak RSS the parent's. Prints requests per CPU
 * second and per wall second, and its own peak RSS (VmHWM) in KiB.
 */
static int replay_run(const char *base, const char *pol_s, const char *closed_s)
{
	struct workload w;
	struct replay_spec rs = { .path = base, .closed = closed_s[0] == '1', .time_scale = 1.0 };
	struct sim_options o = { .replay = &rs };
	struct sim_result res;
	char err[512], line[256];
	long kb = -1;
	double t0, c0, r[2];
	FILE *f;

	memset(&w, 0, sizeof(w));
	sim_default_settings(&w.set);
	w.set.max_time = UINT64_MAX;
	t0 = wall();
	c0 = cpu();
	if (sim_run(&w, (enum sim_policy)atoi(pol_s), &o, &res, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", err);
		return 1;
	}
	r[0] = res.trace.records / (cpu() - c0);
	r[1] = res.trace.records / (wall() - t0);
	f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	printf("%a %a %ld\n", r[0], r[1], kb);
	return kb < 0;
}

/*
 * Replay @base under @pol in a fresh process; its peak RSS in KiB, -1 on
 * failure. @rate: requests per CPU second and per wall second.
 */
static long replay_child(const char *base, enum sim_policy pol, bool closed, double rate[2])
{
	char pol_s[16];
	int fds[2], st, ok;
	long kb = -1;
	pid_t pid;
	FILE *f;

	snprintf(pol_s, sizeof(pol_s), "%d", (int)pol);
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		if (dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(1);
		execl("/proc/self/exe", "bench", "--replay-child", base, pol_s,
		      closed ? "1" : "0", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = pid < 0 ? NULL : fdopen(fds[0], "r");
	ok = f && fscanf(f, "%la %la %ld", &rate[0], &rate[1], &kb) == 3;
	if (f)
		fclose(f);
	else
		close(fds[0]);
	if (pid > 0 && (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)))
		ok = 0;
	return ok ? kb : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define NCONF 5	/* reading alone, each policy open loop, anticipatory closed loop */

static int trace_bench(void)
{
	const char *big = "build/bench-trace-big", *small = "build/bench-trace-small";
	struct trace_opts to = { 0 };
	struct trace *t;
	struct trace_rec rec;
	char err[512], name[512], label[64];
	/* per configuration and round: requests per CPU second, per wall second */
	double cpu_rate[NCONF][ROUNDS], wall_rate[NCONF][ROUNDS], worst = 0;
	long n = 0, kb_big[NCONF] = { 0 }, kb_small[NCONF] = { 0 };
	int c, k, rc = -1;

	if (make_trace(big, TRACE_BIG) || make_trace(small, TRACE_BIG / 10)) {
		fprintf(stderr, "bench: cannot write the trace in build/\n");
		goto out;
	}
	/*
	 * Rounds outside, configurations inside: a minute in which other
	 * tenants take the core slows every configuration a little, not one
	 * configuration all the way.
	 */
	for (k = 0; k < ROUNDS; k++) {
		double t0 = wall(), c0 = cpu();

		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\r  trace replay: round %d of %d", k + 1, ROUNDS);

		t = trace_open(big, &to, err, sizeof(err));
		if (!t) {
			fprintf(stderr, "bench: %s\n", err);
			goto out;
		}
		for (n = 0; trace_next(t, &rec, err, sizeof(err)) > 0; n++)
			;
		trace_close(t);
		cpu_rate[0][k] = n / (cpu() - c0);
		wall_rate[0][k] = n / (wall() - t0);
		for (c = 1; c < NCONF; c++) {
			bool closed = c == NCONF - 1;
			enum sim_policy pol = closed ? POL_AS : (enum sim_policy)(c - 1);
			double r[2];
			long kb = replay_child(big, pol, closed, r);

			if (kb < 0) {
				fprintf(stderr, "bench: replay failed\n");
				goto out;
			}
			kb_big[c] = kb > kb_big[c] ? kb : kb_big[c];
			cpu_rate[c][k] = r[0];
			wall_rate[c][k] = r[1];
			if (k == 0) {
				kb_small[c] = replay_child(small, pol, closed, r);
				if (kb_small[c] < 0) {
					fprintf(stderr, "bench: replay failed\n");
					goto out;
				}
			}
		}
	}
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r%40s\r", "");
	printf("\ntrace replay: %ld requests (blktrace, generated); requests per second of\n"
	       "CPU time (one core) and of wall time over %d rounds\n", n, ROUNDS);
	printf("%-20s %12s %12s %12s\n", "", "best CPU", "median CPU", "best wall");
	for (c = 0; c < NCONF; c++) {
		double best = 0, best_wall = 0, med;

		for (k = 0; k < ROUNDS; k++) {
			best = cpu_rate[c][k] > best ? cpu_rate[c][k] : best;
			best_wall = wall_rate[c][k] > best_wall ? wall_rate[c][k] : best_wall;
		}
		med = median(cpu_rate[c], ROUNDS);
		if (c == 0) {
			printf("%-20s %12.0f %12.0f %12.0f\n", "read only", best, med, best_wall);
			continue;
		}
		snprintf(label, sizeof(label), "%s %s", sim_policy_name(c == NCONF - 1 ? POL_AS :
				(enum sim_policy)(c - 1)), c == NCONF - 1 ? "closed" : "open");
		printf("%-20s %12.0f %12.0f %12.0f   peak RSS %ld KiB (%ld KiB for a tenth)\n",
		       label, best, med, best_wall, kb_big[c], kb_small[c]);
		if (!worst || best < worst)
			worst = best;
	}
	printf("slowest replay: %.2f million requests per CPU second at best\n", worst / 1e6);
	/* issue 13's target: the richer disk model may not cost replay its speed */
	printf("closed-loop replay: %.2f million requests per CPU second in the median round "
	       "(target: at least 10)\n", median(cpu_rate[NCONF - 1], ROUNDS) / 1e6);
	rc = 0;
out:
	snprintf(name, sizeof(name), "%s.blktrace.0", big);
	remove(name);
	snprintf(name, sizeof(name), "%s.blktrace.0", small);
	remove(name);
	return rc;
}

int main(int argc, char **argv)
{
	struct workload w;
	struct sim_options o = { 0 };
	struct rusage ru;
	char err[256];
	int p;

	if (argc == 5 && !strcmp(argv[1], "--replay-child"))
		return replay_run(argv[2], argv[3], argv[4]);
	if (jobfile_parse("bench", long_run, &w, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", err);
		return 1;
	}
	printf("%-13s %10s %12s %14s %14s %10s\n", "policy", "wall s", "sim s",
	       "requests/s", "events/s", "sim/wall");
	for (p = 0; p < POL_NR; p++) {
		struct sim_result r;
		double t0 = wall(), dt;

		if (sim_run(&w, (enum sim_policy)p, &o, &r, err, sizeof(err))) {
			fprintf(stderr, "bench: %s\n", err);
			return 1;
		}
		dt = wall() - t0;
		printf("%-13s %10.2f %12.1f %14.0f %14.0f %10.0f\n", r.scheduler, dt,
		       r.sim_time / 1e9, r.requests / dt, r.events / dt,
		       r.sim_time / 1e9 / dt);
		sim_result_free(&r);
	}
	workload_free(&w);
	if (demo_ratio())
		return 1;
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS %ld KiB\n", ru.ru_maxrss);
	return trace_bench() ? 1 : 0;
}
