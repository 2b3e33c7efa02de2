/*
 * test_sim.c - the simulator end to end: job-file errors, properties over
 * random workloads and seeds, determinism, and the demo's ordering.
 */
#include "harness.h"
#include "../sim/engine.h"
#include "../sim/report.h"
#include <stdlib.h>
#include <string.h>

static int parse(const char *text, struct workload *w, char *err)
{
	return jobfile_parse("t.fio", text, w, err, 512);
}

static void test_jobfile_errors(void)
{
	struct workload w;
	char err[512];

	CHECK(parse("[a]\nrw=read\nsize=1m\nbogus=1\n", &w, err) == -1);
	CHECK(strstr(err, "t.fio:4:") && strstr(err, "bogus"));
	CHECK(parse("[a]\nrw=sideways\nsize=1m\n", &w, err) == -1);
	CHECK(strstr(err, "t.fio:2:") && strstr(err, "rw"));
	CHECK(parse("size=1m\n[a]\n", &w, err) == -1);
	CHECK(strstr(err, "t.fio:1:"));
	CHECK(parse("[a]\nrw=read\n", &w, err) == -1);
	CHECK(strstr(err, "needs size"));
	CHECK(parse("[a]\nsize=1m\ntime_based\n", &w, err) == -1);
	CHECK(parse("[antic-sim]\nrpm=99\n[a]\nsize=1m\n", &w, err) == -1);
	CHECK(strstr(err, "t.fio:2:") && strstr(err, "rpm"));
	CHECK(parse("[antic-sim]\ndisk=ide2004\n[a]\nsize=1m\n", &w, err) == -1);
	CHECK(strstr(err, "sata7200 or ide2003"));
	/* a preset, then a single figure over it, in either place */
	CHECK(parse("[antic-sim]\ndisk=ide2003\nrpm=5400\n[a]\nsize=1m\n", &w, err) == 0);
	CHECK_EQ(w.set.disk.rpm, 5400);
	CHECK_EQ(w.set.disk.outer_mbps, 40);
	CHECK_EQ(w.set.max_sectors_kb, 128);
	workload_free(&w);
	CHECK(parse("[a]\nbs=4q\nsize=1m\n", &w, err) == -1);
	CHECK(parse("[a\nsize=1m\n", &w, err) == -1);
	CHECK(parse("[global]\nbs=64k\n[a]\nsize=1m\nthinktime=2ms\n[antic-sim]\nantic_expire=3\n", &w, err) == 0);
	if (w.nr_jobs == 1) {
		CHECK_EQ(w.jobs[0].bs, 65536);
		CHECK_EQ(w.jobs[0].thinktime, 2000000);
		CHECK_EQ(w.set.as.antic_expire, 3000000);
	}
	workload_free(&w);
}

static void test_value_parsers(void)
{
	uint64_t x;

	CHECK(parse_size("4k", &x) == 0 && x == 4096);
	CHECK(parse_size("1MiB", &x) == 0 && x == 1048576);
	CHECK(parse_size("2g", &x) == 0 && x == 2ULL << 30);
	CHECK(parse_size("", &x) == -1);
	CHECK(parse_size("-1", &x) == -1);
	CHECK(parse_size("99999999999999999999", &x) == -1);
	CHECK(parse_time("250", 1000, &x) == 0 && x == 250000);
	CHECK(parse_time("3ms", 1000, &x) == 0 && x == 3000000);
	CHECK(parse_time("2s", 1000, &x) == 0 && x == 2000000000ULL);
	CHECK(parse_time("5 parsecs", 1000, &x) == -1);
}

static int rnd(uint64_t *x, int m)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return (int)((*x >> 33) % (uint64_t)m);
}

/* A random workload: a few jobs of every kind the job file offers. */
static void random_jobfile(uint64_t seed, char *buf, size_t len)
{
	static const char *const rws[] = { "read", "write", "randread", "randwrite", "rw", "randrw" };
	uint64_t x = seed * 2654435761u + 7;
	int n, i;
	size_t off;

	off = (size_t)snprintf(buf, len, "[antic-sim]\nseed=%llu\nqueue_depth=%d\n",
			       (unsigned long long)seed, rnd(&x, 3) == 0 ? 4 : 1);
	n = 2 + rnd(&x, 5);
	for (i = 0; i < n; i++) {
		int rw = rnd(&x, 6), bs = 4 << rnd(&x, 6), size = 1 + rnd(&x, 16);
		int direct = rnd(&x, 2), think = rnd(&x, 3) * 1000 * rnd(&x, 5);
		int nj = 1 + rnd(&x, 2), aio = rnd(&x, 4) == 0, fs = rnd(&x, 5) == 0;

		off += (size_t)snprintf(buf + off, len - off,
			"[j%d]\nrw=%s\nbs=%dk\nsize=%dm\ndirect=%d\nthinktime=%d\nnumjobs=%d\n%s%s",
			i, rws[rw], bs, size, direct, think, nj,
			aio ? "ioengine=libaio\niodepth=8\n" : "", fs ? "fsync=4\n" : "");
	}
}

static void test_properties_random_workloads(void)
{
	struct sim_options o = { .drain = true };
	char text[4096], err[512];
	uint64_t seed;
	int pol;

	for (seed = 1; seed <= 40; seed++) {
		struct workload w;

		random_jobfile(seed, text, sizeof(text));
		if (parse(text, &w, err)) {
			CHECK(!"random job file did not parse");
			fprintf(stderr, "%s\n%s\n", err, text);
			continue;
		}
		for (pol = 0; pol < POL_NR; pol++) {
			struct sim_result r;

			if (sim_run(&w, (enum sim_policy)pol, &o, &r, err, sizeof(err))) {
				CHECK(!"sim_run failed");
				continue;
			}
			/* every request dispatched exactly once and completed */
			CHECK_EQ(r.violations, 0);
			CHECK(!r.timed_out);
			CHECK_EQ(r.bytes_added, r.bytes_completed);
			CHECK(r.requests > 0);
			if (pol == POL_AS) {
				/*
				 * No read waits past read_expire plus a batch each way, plus
				 * the sync requests that may legitimately be ahead of it (one
				 * per stream, each at worst a full stroke and a turn, ~30 ms):
				 * the FIFO is looked at only once per read_expire.
				 */
				uint64_t streams = 0, bound;
				size_t q;

				for (q = 0; q < w.nr_jobs; q++)
					streams += (uint64_t)w.jobs[q].numjobs * w.jobs[q].iodepth;
				bound = w.set.as.read_expire + w.set.as.read_batch_expire +
					w.set.as.write_batch_expire + streams * 30 * ANTIC_NSEC_PER_MSEC;

				if (r.max_sync_wait > bound)
					fprintf(stderr, "  seed %llu: sync wait %llu ms\n",
						(unsigned long long)seed,
						(unsigned long long)(r.max_sync_wait / 1000000));
				CHECK(r.max_sync_wait <= bound);
			}
			sim_result_free(&r);
		}
		workload_free(&w);
	}
}

/*
 * Every tunable at its extremes (0, 1, the largest accepted) on random
 * workloads: still no request lost or served twice, the run ends, and the
 * statistics stay within what the disk could produce.
 */
static void test_tunable_extremes(void)
{
	static const struct { const char *name; const char *vals[3]; } tun[] = {
		/* the ranges the kernel module's sysfs files take (core/) */
		{ "antic_expire", { "0", "1", "1000" } },
		{ "read_expire", { "1", "2", "60000" } },
		{ "write_expire", { "1", "2", "60000" } },
		{ "read_batch_expire", { "1", "2", "60000" } },
		{ "write_batch_expire", { "1", "2", "60000" } },
		{ "dl_read_expire", { "0", "1", "3600000" } },
		{ "dl_write_expire", { "0", "1", "3600000" } },
		{ "writes_starved", { "0", "1", "1048576" } },
		{ "fifo_batch", { "1", "2", "1048576" } },
	};
	struct sim_options o = { .drain = true };
	char text[4096], err[512];
	size_t t, v;
	uint64_t seed;

	{
		struct sim_settings st;

		/* just outside: refused, as the kernel refuses them */
		sim_default_settings(&st);
		CHECK(settings_apply(&st, "read_expire", "0", err, sizeof(err)) == -1);
		CHECK(strstr(err, "read_expire: want milliseconds 1..60000"));
		CHECK(settings_apply(&st, "antic_expire", "1001", err, sizeof(err)) == -1);
		CHECK(settings_apply(&st, "write_batch_expire", "60001", err, sizeof(err)) == -1);
		CHECK_EQ(st.as.read_expire, 125 * ANTIC_NSEC_PER_MSEC);
	}
	for (t = 0; t < sizeof(tun) / sizeof(tun[0]); t++) {
		for (v = 0; v < 3; v++) {
			for (seed = 100; seed < 104; seed++) {
				struct workload w;
				struct sim_result r;
				enum sim_policy pol = t < 5 ? POL_AS : POL_DEADLINE;

				random_jobfile(seed, text, sizeof(text));
				if (parse(text, &w, err)) {
					CHECK(!"random job file did not parse");
					continue;
				}
				CHECK(settings_apply(&w.set, tun[t].name, tun[t].vals[v], err, sizeof(err)) == 0);
				if (sim_run(&w, pol, &o, &r, err, sizeof(err))) {
					CHECK(!"sim_run failed");
					workload_free(&w);
					continue;
				}
				if (r.violations || r.timed_out || r.bytes_added != r.bytes_completed)
					fprintf(stderr, "  %s=%s seed %llu: violations %llu timed out %d\n",
						tun[t].name, tun[t].vals[v], (unsigned long long)seed,
						(unsigned long long)r.violations, r.timed_out);
				CHECK_EQ(r.violations, 0);
				CHECK(!r.timed_out);
				CHECK_EQ(r.bytes_added, r.bytes_completed);
				if (pol == POL_AS) {
					CHECK(r.est.exit_prob <= 256 && r.est.exit_no_coop <= 256);
					CHECK(r.est.new_seek_mean <= w.set.disk.capacity);
					CHECK(r.est.new_ttime_mean <= r.sim_time);
				}
				sim_result_free(&r);
				workload_free(&w);
			}
		}
	}
}

static char *render(const struct workload *w, enum sim_policy pol)
{
	struct sim_options o = { 0 };
	struct sim_result r;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *f;
	struct report_ctx c = { "t.fio", w, &r, 1 };

	if (sim_run(w, pol, &o, &r, err, sizeof(err)))
		return NULL;
	f = open_memstream(&buf, &len);
	report_json(f, &c);
	fclose(f);
	sim_result_free(&r);
	return buf;
}

static void test_determinism(void)
{
	struct workload w;
	char text[4096], err[512];
	int pol;

	random_jobfile(99, text, sizeof(text));
	CHECK(parse(text, &w, err) == 0);
	for (pol = 0; pol < POL_NR; pol++) {
		char *a = render(&w, (enum sim_policy)pol), *b = render(&w, (enum sim_policy)pol);

		CHECK(a && b && !strcmp(a, b));
		free(a);
		free(b);
	}
	workload_free(&w);
}

/* Every name core's table gives a policy reaches it, and its own name comes back. */
static void test_policy_names(void)
{
	static const char *const want[][3] = {
		{ "noop", "none", NULL },
		{ "deadline", "mq-deadline", NULL },
		{ "anticipatory", "as", "anticipatory" },
	};
	enum sim_policy p;
	int i, j;

	for (i = 0; i < POL_NR; i++) {
		const struct antic_policy_name *n = &antic_policy_names[i];

		CHECK(!strcmp(sim_policy_name((enum sim_policy)i), n->name));
		for (j = 0; j < 3; j++) {
			if (!want[i][j])
				continue;
			CHECK(sim_policy_parse(want[i][j], &p) == 0 && (int)p == i);
		}
	}
	CHECK(!strcmp(antic_policy_names[POL_AS].kernel, "anticipatory"));
	CHECK(!strcmp(antic_policy_names[POL_DEADLINE].kernel, "mq-deadline"));
	CHECK(sim_policy_parse("bfq", &p) == -1);
	CHECK(sim_policy_parse("", &p) == -1);
	CHECK(sim_policy_parse("a", &p) == -1);
}

static void test_demo_ordering(void)
{
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result dl, as;
	char err[512];
	size_t reader = 1;

	CHECK(jobfile_load("examples/write-vs-read.fio", &w, err, sizeof(err)) == 0);
	if (!w.nr_jobs)
		return;
	CHECK(sim_run(&w, POL_DEADLINE, &o, &dl, err, sizeof(err)) == 0);
	CHECK(sim_run(&w, POL_AS, &o, &as, err, sizeof(err)) == 0);
	CHECK(!strcmp(dl.jobs[reader].name, "reader"));
	/* anticipatory's reader is faster, by a generous margin */
	CHECK(job_bw(&as.jobs[reader], 0) > 1.5 * job_bw(&dl.jobs[reader], 0));
	sim_result_free(&dl);
	sim_result_free(&as);
	workload_free(&w);
}

static void test_ssd_no_anticipation(void)
{
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result r;
	char err[512];

	CHECK(parse("[antic-sim]\ntype=ssd\n[a]\nrw=randread\nsize=4m\nthinktime=100\n"
		    "[b]\nrw=randread\nsize=4m\n", &w, err) == 0);
	CHECK(sim_run(&w, POL_AS, &o, &r, err, sizeof(err)) == 0);
	CHECK_EQ(r.as.antic_started, 0);
	sim_result_free(&r);
	/* but it can be turned on */
	CHECK(settings_apply(&w.set, "antic_expire", "2", err, sizeof(err)) == 0);
	CHECK(sim_run(&w, POL_AS, &o, &r, err, sizeof(err)) == 0);
	CHECK(r.as.antic_started > 0);
	sim_result_free(&r);
	workload_free(&w);
}

/* A file larger than memory read twice comes from the disk twice. */
static void test_page_cache_evicts(void)
{
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result r;
	char err[512];

	CHECK(parse("[antic-sim]\nmem=32m\n[a]\nrw=read\nbs=128k\nsize=64m\nloops=2\n",
		    &w, err) == 0);
	CHECK(sim_run(&w, POL_NOOP, &o, &r, err, sizeof(err)) == 0);
	CHECK(r.bytes_completed >= 2 * (64ULL << 20));
	CHECK_EQ(r.jobs[0].io_bytes[0], 2 * (64ULL << 20));
	sim_result_free(&r);
	/* and one that fits is read from the disk once */
	CHECK(settings_apply(&w.set, "mem", "256m", err, sizeof(err)) == 0);
	CHECK(sim_run(&w, POL_NOOP, &o, &r, err, sizeof(err)) == 0);
	CHECK(r.bytes_completed < 2 * (64ULL << 20));
	sim_result_free(&r);
	workload_free(&w);
}

/* The wake-up gap is what lets a work-conserving scheduler seek away. */
static void test_wakeup_gap(void)
{
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result with, without;
	char err[512];

	CHECK(jobfile_load("examples/write-vs-read.fio", &w, err, sizeof(err)) == 0);
	if (!w.nr_jobs)
		return;
	CHECK(sim_run(&w, POL_DEADLINE, &o, &with, err, sizeof(err)) == 0);
	CHECK(settings_apply(&w.set, "wakeup", "0", err, sizeof(err)) == 0);
	CHECK(sim_run(&w, POL_DEADLINE, &o, &without, err, sizeof(err)) == 0);
	CHECK(job_bw(&without.jobs[1], 0) > 2 * job_bw(&with.jobs[1], 0));
	CHECK(settings_apply(&w.set, "wakeup", "2s", err, sizeof(err)) == -1);
	CHECK(strstr(err, "wakeup"));
	sim_result_free(&with);
	sim_result_free(&without);
	workload_free(&w);
}

/* Everything @fn writes for @c, as one string (free it). */
static char *report_text(void (*fn)(FILE *, const struct report_ctx *),
			 const struct report_ctx *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fn(f, c);
	fclose(f);
	return buf;
}

/*
 * Every counter core keeps is in the one table, by one name, and both the
 * JSON and the text table print each of them with its own value. Then the
 * counter that went missing before: compile-alone's reader is never kept
 * waiting because its next request is already there (declined_own).
 */
static void test_counters_reported(void)
{
	enum { SLOTS = sizeof(struct as_counters) / sizeof(u64) };
	bool seen[SLOTS] = { false };
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result r;
	char err[512], *json, *table;
	size_t i, j, unseen = 0;

	for (i = 0; i < AS_NR_COUNTERS; i++) {
		size_t slot = as_counter_descs[i].off / sizeof(u64);

		CHECK(slot < SLOTS && !seen[slot]);
		if (slot < SLOTS)
			seen[slot] = true;
		for (j = 0; j < i; j++)
			CHECK(strcmp(as_counter_descs[i].name, as_counter_descs[j].name));
	}
	/* the two that no path can increment, and only those, are left out */
	for (i = 0; i < SLOTS; i++)
		unseen += !seen[i];
	CHECK_EQ(unseen, 2);
	CHECK(!seen[offsetof(struct as_counters, antic_declined[AS_END_TIMEOUT]) / sizeof(u64)]);
	CHECK(!seen[offsetof(struct as_counters, antic_declined[AS_END_DEADLINE]) / sizeof(u64)]);

	CHECK(jobfile_load("examples/compile-alone.fio", &w, err, sizeof(err)) == 0);
	if (!w.nr_jobs)
		return;
	CHECK(sim_run(&w, POL_AS, &o, &r, err, sizeof(err)) == 0);
	CHECK(r.as.antic_declined[AS_END_OWN] > 0);
	/* a distinct value in each, so that a wrong offset shows */
	for (i = 0; i < AS_NR_COUNTERS; i++)
		*(u64 *)((char *)&r.as + as_counter_descs[i].off) = 7000 + i;
	{
		struct report_ctx c = { "compile-alone.fio", &w, &r, 1 };

		json = report_text(report_json, &c);
		table = report_text(report_table, &c);
	}
	CHECK(json && table);
	for (i = 0; json && table && i < AS_NR_COUNTERS; i++) {
		char want[96];

		snprintf(want, sizeof(want), "\"%s\": %zu,", as_counter_descs[i].name, 7000 + i);
		CHECK(strstr(json, want));
		snprintf(want, sizeof(want), " %s %zu", as_counter_descs[i].name, 7000 + i);
		CHECK(strstr(table, want));
	}
	free(json);
	free(table);
	sim_result_free(&r);
	workload_free(&w);
}

void suite_sim(void)
{
	RUN(test_page_cache_evicts);
	RUN(test_wakeup_gap);
	RUN(test_jobfile_errors);
	RUN(test_value_parsers);
	RUN(test_properties_random_workloads);
	RUN(test_tunable_extremes);
	RUN(test_determinism);
	RUN(test_demo_ordering);
	RUN(test_policy_names);
	RUN(test_ssd_no_anticipation);
	RUN(test_counters_reported);
}
