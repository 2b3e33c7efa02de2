/*
 * bench.c - `make bench`: how fast antic-sim simulates. A long mixed run
 * (a streaming writer, random readers, a sequential reader) under each
 * policy, timed on the wall clock; prints simulated requests and events
 * per second, the ratio of simulated to wall time, and peak memory.
 * Also prints the demo's reader bandwidth ratio anticipatory/deadline.
 */
#include "../sim/engine.h"
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static const char long_run[] =
	"[antic-sim]\nmem=512m\n"
	"[global]\nioengine=psync\n"
	"[writer]\nrw=write\nbs=1m\nsize=2g\ntime_based\nruntime=1800\n"
	"[random]\nrw=randread\nbs=4k\nsize=20g\ndirect=1\nnumjobs=4\n"
	"time_based\nruntime=1800\nthinktime=2ms\n"
	"[seq]\nrw=read\nbs=128k\nsize=50g\ntime_based\nruntime=1800\n";

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int demo_ratio(void)
{
	struct workload w;
	struct sim_options o = { false, false };
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

int main(void)
{
	struct workload w;
	struct sim_options o = { false, false };
	struct rusage ru;
	char err[256];
	int p;

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
	return 0;
}
