/*
 * test_sim.c - the simulator end to end: job-file errors, properties over
 * random workloads and seeds, determinism, and the demo's ordering.
 */
#include "harness.h"
#include "../sim/engine.h"
#include "../sim/sim.h"
#include "../sim/report.h"
#include "../sim/watchdog.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
	/* the message names every preset, the last after "or" */
	CHECK(strstr(err, "sata7200, ide2003") && strstr(err, " or "));
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

/* each refusal says what fio would: a near miss, a fio feature, the valid values */
static void test_fio_errors(void)
{
	static const struct { const char *line, *want; } cases[] = {
		{ "szie=1g", "t.fio:3: szie: no such option; did you mean size?" },
		{ "ioengine=mmap", "t.fio:3: fio's ioengine=mmap is not supported by antic-sim" },
		{ "rw=trim", "t.fio:3: fio's rw=trim is not supported by antic-sim" },
		{ "rw=randrad", "want read, write, randread, randwrite, rw, readwrite or randrw" },
		{ "rw=randrad", "did you mean randread?" },
		{ "numjobs=5000", "numjobs: at most 4096 (fio's own limit)" },
		{ "prio=8", "prio: want a priority level 0..7" },
		{ "prioclass=4", "prioclass: want an I/O priority class 0..3" },
		{ "cmdprio_percentage=50", "cmdprio_percentage is an option of fio's libaio and io_uring engines" },
		{ "cmdprio_class=1,4", "cmdprio_class: want an I/O priority class 1..3" },
		{ "cmdprio=3", "fio's cmdprio is not supported by antic-sim" },
		{ "cgroup=x", "fio's cgroup is not supported by antic-sim" },
		{ "verify_backlog=4", "fio's verify_backlog is not supported by antic-sim" },
		{ "ioscheduler=bfq", "fio's ioscheduler=bfq is not supported by antic-sim" },
		{ "ioscheduler=dedline", "ioscheduler: want none" },
		{ "xyzzy=1", "xyzzy: no such option (" },
		{ "bs=3q", "bs: want a size in whole 512-byte sectors" },
	};
	struct workload w;
	char err[512], text[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "[a]\nsize=1m\n%s\n", cases[i].line);
		CHECK(parse(text, &w, err) == -1);
		if (!strstr(err, cases[i].want))
			fprintf(stderr, "  %s: got \"%s\", want \"%s\"\n", cases[i].line, err, cases[i].want);
		CHECK(strstr(err, cases[i].want) != NULL);
		/* one line, the file named once */
		CHECK(!strchr(err, '\n'));
		CHECK(strstr(err, "t.fio") && !strstr(strstr(err, "t.fio") + 1, "t.fio"));
	}
	/* a far miss suggests nothing */
	CHECK(parse("[a]\nsize=1m\nzzzzzz=1\n", &w, err) == -1);
	CHECK(!strstr(err, "did you mean"));
	/* every name job_option lists is one it handles (not refused as unknown) */
	for (i = 0; job_option_name(i); i++) {
		struct job_spec j;

		memset(&j, 0, sizeof(j));
		if (job_option(&j, job_option_name(i), "") == 1)
			fprintf(stderr, "  option %s listed but not handled\n", job_option_name(i));
		CHECK(job_option(&j, job_option_name(i), "") != 1);
	}
	CHECK(i > 40);
	/* ioscheduler= picks the one scheduler; two different ones cannot share the disk */
	CHECK(parse("[a]\nsize=1m\nioscheduler=mq-deadline\n[b]\nsize=1m\n", &w, err) == 0);
	CHECK_EQ(w.set.ioscheduler, POL_DEADLINE + 1);
	workload_free(&w);
	CHECK(parse("[a]\nsize=1m\nioscheduler=as\n[b]\nsize=1m\nioscheduler=none\n", &w, err) == -1);
	CHECK(strstr(err, "t.fio:4: job 'b'") && strstr(err, "one scheduler"));
	/* a setting in a comment without its colon is an error, prose is not */
	CHECK(parse("; antic-sim rpm=5400\n[a]\nsize=1m\n", &w, err) == -1);
	CHECK(strstr(err, "t.fio:1: rpm:") && strstr(err, "'; antic-sim: rpm=5400'"));
	CHECK(parse("; antic-sim runs this = a demo\n[a]\nsize=1m\n", &w, err) == 0);
	workload_free(&w);
	CHECK(parse("; antic-sim: rpm=5400\n[a]\nsize=1m\n", &w, err) == 0);
	CHECK_EQ(w.set.disk.rpm, 5400);
	workload_free(&w);
	/* an unknown setting: a near miss named, else the whole list */
	{
		struct sim_settings st;
		char big[2048];

		sim_default_settings(&st);
		CHECK(settings_apply(&st, "rmp", "1", big, sizeof(big)) == -1);
		CHECK(strstr(big, "did you mean rpm?") != NULL);
		CHECK(settings_apply(&st, "foo", "1", big, sizeof(big)) == -1);
		for (i = 0; settings_name(i); i++)
			CHECK(strstr(big, settings_name(i)) != NULL);
		CHECK(i > 40);
	}
}

/* read @path to its end with @o: the number of records, or -1 with @err */
static long read_trace(const char *path, const struct trace_opts *o, char *err, size_t n)
{
	struct trace *t = trace_open(path, o, err, n);
	struct trace_rec r;
	long k = 0;
	int rc;

	if (!t)
		return -1;
	while ((rc = trace_next(t, &r, err, n)) > 0)
		k++;
	trace_close(t);
	return rc < 0 ? -1 : k;
}

/* a replay that keeps nothing fails and says why; one CPU's file brings its siblings */
static void test_trace_no_silent_empty(void)
{
	struct trace_opts o = { 0 };
	char err[512];
	struct trace *t;

	o.device = "9";
	CHECK(read_trace("tests/traces/two-devices.disksim", &o, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--device 9 matches no request; the trace's devices: 0, 1") != NULL);
	o.device = "1";
	CHECK(read_trace("tests/traces/two-devices.disksim", &o, err, sizeof(err)) > 0);
	o.device = NULL;
	o.skip = 1000ULL * 1000000000ULL;
	CHECK(read_trace("tests/traces/vda-compile.blktrace.0", &o, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--skip 1000.000 s leaves no request") != NULL);
	o.skip = 0;
	o.device = "8,16";
	CHECK(read_trace("tests/traces/vda-compile.blktrace.0", &o, err, sizeof(err)) == -1);
	CHECK(strstr(err, "the trace's devices: 254,0") != NULL);
	o.device = NULL;
	/* CPU 0's file alone reads both CPUs' files: as many records as the base name */
	t = trace_open("tests/traces/vda-compile.blktrace.0", &o, err, sizeof(err));
	CHECK(t != NULL);
	if (t) {
		CHECK_EQ(trace_stats(t)->files, 2);
		CHECK(trace_stats(t)->siblings);
		trace_close(t);
	}
	CHECK_EQ(read_trace("tests/traces/vda-compile.blktrace.0", &o, err, sizeof(err)),
		 read_trace("tests/traces/vda-compile", &o, err, sizeof(err)));
}

/*
 * --remap: a trace reaching 1.5 times past a 100 MiB disk's end, reads
 * alternating between sector 0 and 1.5 * capacity: refused without it;
 * scaled, the far one lands at the disk's end (seeks the whole disk);
 * wrapped, at its middle (seeks half of it).
 */
static void test_replay_remap(void)
{
	static const char *const path = "build/remap-test.disksim";
	struct workload w;
	struct replay_spec rs = { .path = path, .time_scale = 1.0 };
	struct sim_options o = { .drain = true, .replay = &rs };
	struct sim_result r;
	char err[512];
	double seek[3] = { 0 };
	FILE *f = fopen(path, "w");
	int i;

	CHECK(f != NULL);
	if (!f)
		return;
	for (i = 0; i < 40; i++)
		fprintf(f, "%d 0 %d 8 1\n", i * 20, i % 2 ? 307200 : 0);
	fclose(f);
	memset(&w, 0, sizeof(w));
	sim_default_settings(&w.set);
	CHECK(settings_apply(&w.set, "disk", "sata7200", err, sizeof(err)) == 0);
	CHECK(settings_apply(&w.set, "capacity", "100m", err, sizeof(err)) == 0);
	rs.topts.fmt = TF_DISKSIM;
	CHECK(sim_run(&w, POL_NOOP, &o, &r, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--remap scale or wrap") != NULL);
	for (i = REMAP_SCALE; i <= REMAP_WRAP; i++) {
		rs.remap = i;
		CHECK(sim_run(&w, POL_NOOP, &o, &r, err, sizeof(err)) == 0);
		CHECK_EQ(r.requests, 40);
		seek[i] = r.disk.seeks ? (double)r.disk.seek_sectors / (double)r.disk.seeks : 0;
		sim_result_free(&r);
	}
	/*
	 * scaled: to 307200 * 204800 / 307208 on its 4 KiB boundary, about
	 * the whole disk; wrapped: to 307200 - 204800, half of it (the drive's
	 * mean seek counts from where its read-ahead left the head: within 20 %)
	 */
	CHECK(seek[REMAP_SCALE] > 0.95 * 204800 && seek[REMAP_SCALE] <= 204800);
	CHECK(seek[REMAP_WRAP] > 0.8 * 102400 && seek[REMAP_WRAP] < 1.2 * 102400);
	if (!(seek[REMAP_WRAP] > 0.8 * 102400 && seek[REMAP_WRAP] < 1.2 * 102400))
		fprintf(stderr, "  mean seek: scale %.0f, wrap %.0f sectors\n", seek[REMAP_SCALE], seek[REMAP_WRAP]);
	remove(path);
}

/* fio's own syntax the job file parser now takes, and what it still refuses */
static void test_jobfile_fio_syntax(void)
{
	struct workload w;
	char err[512];

	/* kb_base: KiB is 10^3 under the default, 2^10 under kb_base=1000 */
	CHECK(parse("[a]\nsize=2MiB\n[b]\nkb_base=1000\nsize=2MiB\nbs=8KiB\n", &w, err) == 0);
	if (w.nr_jobs == 2) {
		CHECK_EQ(w.jobs[0].size, 2000000);
		CHECK_EQ(w.jobs[1].size, 2097152);
		CHECK_EQ(w.jobs[1].bs, 8192);
	}
	workload_free(&w);
	/* comments end any line */
	CHECK(parse("[a] # the job\nsize=1m ; a MiB\nrw=randread#x\n", &w, err) == 0);
	if (w.nr_jobs == 1) {
		CHECK_EQ(w.jobs[0].size, 1048576);
		CHECK_EQ(w.jobs[0].rw, RW_RANDREAD);
	}
	workload_free(&w);
	CHECK(parse("[a]\nsize=${ANTIC_TEST_SURELY_UNSET}\n", &w, err) == -1);
	CHECK(strstr(err, "t.fio:2:") && strstr(err, "ANTIC_TEST_SURELY_UNSET"));
	CHECK(parse("[a]\nsize=${\n", &w, err) == -1);
	CHECK(parse("[a]\nsize=1m\nfile_service_type=roundrobin:3\nnorandommap\nrandseed=7\n"
		    "group_reporting\nname=x\n", &w, err) == 0);
	if (w.nr_jobs == 1) {
		CHECK_EQ(w.jobs[0].file_service, FS_ROUNDROBIN);
		CHECK_EQ(w.jobs[0].file_service_nr, 3);
		CHECK(w.jobs[0].norandommap && w.jobs[0].randseed_given);
	}
	workload_free(&w);
	CHECK(parse("[a]\nsize=1m\nfile_service_type=sequential:2\n", &w, err) == -1);
	CHECK(parse("[a]\nsize=1m\nfile_service_type=roundrobin:0\n", &w, err) == -1);
	/* antic-sim's own settings in comments fio passes over */
	CHECK(parse("; antic-sim: mem=64m\n[a]\nsize=1m\n#antic-sim: file_gap=8k\n", &w, err) == 0);
	if (w.nr_jobs == 1) {
		CHECK_EQ(w.set.mem_bytes, 64ULL << 20);
		CHECK_EQ(w.jobs[0].file_gap, 8192);
	}
	workload_free(&w);
	CHECK(parse("; antic-sim: rpm=99\n[a]\nsize=1m\n", &w, err) == -1);
	CHECK(strstr(err, "t.fio:1:") && strstr(err, "rpm"));
	CHECK(parse("[a]\nsize=1m\n; antic-sim: mem\n", &w, err) == -1);
	CHECK(strstr(err, "t.fio:3:"));
	CHECK(parse("[a]\nfilename=/dev/sdb\nsize=50%\nruntime=365d\nbs=4k-64k\nrw=read:-8k\n"
		    "zonemode=strided\nzonesize=1m\nzoneskip=4m\nrate=10m,20m\nramp_time=2\n"
		    "random_distribution=zipf:1.1\nstonewall\n", &w, err) == 0);
	if (w.nr_jobs == 1) {
		CHECK_EQ(w.jobs[0].size_pct, 50);
		CHECK_EQ(w.jobs[0].runtime, 365ULL * 86400 * 1000000000ULL);
		CHECK_EQ(w.jobs[0].bs_max, 65536);
		CHECK(w.jobs[0].hole == -8192);
		CHECK_EQ(w.jobs[0].rate, 20ULL << 20);
		CHECK(w.jobs[0].stonewall && w.jobs[0].dist == DIST_ZIPF);
	}
	workload_free(&w);
	/* size=N% is of a device; random I/O takes no hole; zipf:1 is no law */
	CHECK(parse("[a]\nsize=50%\n", &w, err) == -1);
	CHECK(strstr(err, "size=N%"));
	CHECK(parse("[a]\nsize=1m\nrw=randread:8k\n", &w, err) == -1);
	CHECK(parse("[a]\nsize=1m\nrandom_distribution=zipf:1\n", &w, err) == -1);
	CHECK(parse("[a]\nsize=1m\nbssplit=4k/60:8k/60\n", &w, err) == -1);
	CHECK(parse("[a]\nsize=1m\nzoneskip=1m\n", &w, err) == -1);
	CHECK(parse("[a]\nsize=1m\nrandom_distribution=zoned:50/10:40/\n", &w, err) == -1);
	CHECK(parse("[a]\nsize=1m\nrandom_distribution=zoned:50/10:50/10\n", &w, err) == -1);
	CHECK(parse("[a]\nsize=1m\nrate_process=poisson\n", &w, err) == -1);
	CHECK(strstr(err, "rate_iops"));
	CHECK(parse("[a]\nsize=1m\nrandom_distribution=zoned:60/10:40/\nwait_for=b\n"
		    "rate_iops=10\nrate_process=poisson\n", &w, err) == 0);
	if (w.nr_jobs == 1) {
		CHECK_EQ(w.jobs[0].nzones, 2);
		CHECK_EQ(w.jobs[0].zones[1].range, 90);
		CHECK(w.jobs[0].poisson && !strcmp(w.jobs[0].wait_for, "b"));
	}
	workload_free(&w);
	CHECK(parse("[a]\nsize=1m\nkb_base=1023\n", &w, err) == -1);
	CHECK(strstr(err, "t.fio:3:") && strstr(err, "kb_base"));
}

static void test_value_parsers(void)
{
	uint64_t x;

	CHECK(parse_size("4k", &x) == 0 && x == 4096);
	/* fio's kb_base=1024 quirk: the IEC suffixes are powers of ten */
	CHECK(parse_size("1MiB", &x) == 0 && x == 1000000);
	CHECK(parse_size("1mb", &x) == 0 && x == 1048576);
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

	/* every third run in little memory: writers are dirty-throttled */
	off = (size_t)snprintf(buf, len, "[antic-sim]\nseed=%llu\nqueue_depth=%d\n%s",
			       (unsigned long long)seed, rnd(&x, 3) == 0 ? 4 : 1,
			       seed % 3 == 0 ? "mem=24m\n" : "");
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

/* The sync requests a workload can have out at once: one per stream. */
static uint64_t job_streams(const struct workload *w)
{
	uint64_t streams = 0;
	size_t q;

	for (q = 0; q < w->nr_jobs; q++)
		streams += (uint64_t)w->jobs[q].numjobs * w->jobs[q].iodepth;
	return streams;
}

/*
 * No read waits past read_expire plus a batch each way (a write batch the
 * share rule owes runs read_batch_expire), plus the sync requests that may
 * legitimately be ahead of it (one per stream, each at worst a full stroke
 * and a turn, ~30 ms): the FIFO is looked at only once per read_expire.
 */
static uint64_t sync_wait_bound(const struct workload *w)
{
	return w->set.as.read_expire + w->set.as.read_batch_expire +
	       antic_max64(w->set.as.write_batch_expire,
			   w->set.as.read_batch_expire) +
	       job_streams(w) * 30 * ANTIC_NSEC_PER_MSEC;
}

/* A run's longest @what wait is within @bound; the seed is shown if not. */
static void check_wait(const char *what, uint64_t wait, uint64_t bound,
		       unsigned long long seed)
{
	if (wait > bound)
		fprintf(stderr, "  seed %llu: %s wait %llu ms\n", seed, what,
			(unsigned long long)(wait / 1000000));
	CHECK(wait <= bound);
}

static void test_properties_random_workloads(void)
{
	struct sim_options o = { .drain = true };
	uint64_t worst_async = 0, bound_checks = 0, long_batches = 0, ahead = 0;
	uint64_t requeues = 0, wait_requeues = 0;
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
		/* every other run on a failing disk: 3 % of commands given back */
		if (seed % 2)
			w.set.requeue_per_mille = 30;
		/*
		 * every fourth without the newcomer favour: these jobs start
		 * together and end within its 8 s, so with it a program is
		 * always starting and the share rule's long batches, which
		 * the bound allows for, never come
		 */
		if (seed % 4 == 0)
			w.set.as.newcomer_expire = 0;
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
			requeues += r.requeues;
			if (pol == POL_AS) {
				uint64_t streams = job_streams(&w), bound;

				wait_requeues += r.as.antic_end[AS_END_REQUEUE];

				check_wait("sync", r.max_sync_wait, sync_wait_bound(&w), seed);
				long_batches += r.as.write_batches_long;
				ahead += r.as.newcomer_reads;
				/*
				 * No write starves: it waits at most write_expire and the
				 * once-per-write_expire look at its FIFO, one read batch
				 * (the depth-32 rules keep it no longer than
				 * read_batch_expire), one write batch, and the requests
				 * ahead of it in the drive, as the reads above.
				 */
				bound = 2 * w.set.as.write_expire + w.set.as.read_batch_expire +
					w.set.as.write_batch_expire + streams * 30 * ANTIC_NSEC_PER_MSEC;
				check_wait("async", r.max_async_wait, bound, seed);
				if (r.max_async_wait > worst_async)
					worst_async = r.max_async_wait;
				/* rule 2: a read never shares the drive with more than K writes */
				CHECK_EQ(r.bound_exceeded, 0);
				bound_checks += r.bound_checks;
			}
			sim_result_free(&r);
		}
		workload_free(&w);
	}
	/* the property is not empty: buffered writes were there to starve */
	CHECK(worst_async > 0);
	CHECK(long_batches > 0);	/* and the share rule gave writes long batches */
	CHECK(ahead > 0);	/* and newcomers' reads went first */
	CHECK(bound_checks > 0);	/* read batches started beside writes at depth 4 */
	/* and the drive gave commands back, some that a wait was waiting on */
	CHECK(requeues > 1000 && wait_requeues > 0);
}

/*
 * Programs starting beside a load, at random: ten readers at work for
 * 9 s (their favour over) when one to three random readers start,
 * perhaps with a writer, and in half the runs more programs every
 * 2 s after them, each extending the start. While programs start the
 * FIFO holds the load's reads back (start_read_expire), but none past
 * newcomer_expire: no read waits longer than that plus the usual bound
 * (test_properties_random_workloads'), and the start FIFO acted.
 */
static void test_properties_program_starts(void)
{
	struct sim_options o = { .drain = true };
	uint64_t start_waits = 0;
	char text[4096], err[512];
	uint64_t seed;

	for (seed = 1; seed <= 8; seed++) {
		uint64_t x = seed * 2654435761u + 11, bound;
		struct workload w;
		struct sim_result r;
		size_t off;
		int i, chain;

		off = (size_t)snprintf(text, sizeof(text),
			"[antic-sim]\nseed=%llu\nqueue_depth=%d\n"
			"[load]\nrw=%s\nbs=%dk\nsize=64m\nnumjobs=10\noffset_increment=1g\n"
			"time_based=1\nruntime=22s\n"
			"[prog]\nstartdelay=9s\nrw=randread\nbs=%dk\nsize=4m\nnumjobs=%d\n"
			"offset=20g\noffset_increment=2g\n",
			(unsigned long long)seed, rnd(&x, 2) ? 32 : 1,
			rnd(&x, 2) ? "read" : "randread", 4 << rnd(&x, 6),
			4 << rnd(&x, 4), 1 + rnd(&x, 3));
		if (rnd(&x, 2))
			off += (size_t)snprintf(text + off, sizeof(text) - off,
				"[w]\nrw=write\nbs=1m\nsize=256m\noffset=40g\n");
		/* a reader with a deep queue, and programs every 2 s, each
		 * at work for longer */
		chain = seed % 2;
		if (chain)
			off += (size_t)snprintf(text + off, sizeof(text) - off,
				"[deep]\nrw=randread\nbs=4k\nsize=1g\noffset=50g\n"
				"ioengine=libaio\niodepth=16\ntime_based=1\nruntime=22s\n");
		for (i = 0; chain && i < 5; i++)
			off += (size_t)snprintf(text + off, sizeof(text) - off,
				"[next%d]\nstartdelay=%ds\nrw=randread\nbs=4k\n"
				"size=4m\noffset=%dg\n", i, 11 + 2 * i, 30 + i);
		if (parse(text, &w, err)) {
			CHECK(!"program-start job file did not parse");
			fprintf(stderr, "%s\n%s\n", err, text);
			continue;
		}
		if (sim_run(&w, POL_AS, &o, &r, err, sizeof(err))) {
			CHECK(!"sim_run failed");
			workload_free(&w);
			continue;
		}
		CHECK_EQ(r.violations, 0);
		CHECK(!r.timed_out);
		CHECK_EQ(r.bytes_added, r.bytes_completed);
		/* test_properties_random_workloads' bound, after the cap */
		bound = w.set.as.newcomer_expire + sync_wait_bound(&w);
		check_wait("sync", r.max_sync_wait, bound, seed);
		start_waits += r.as.start_fifo_waits;
		sim_result_free(&r);
		workload_free(&w);
	}
	CHECK(start_waits > 0);
}

/*
 * Every tunable at its extremes (0, 1, the largest accepted) on random
 * workloads: still no request lost or served twice, and the run ends.
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
		{ "antic_in_flight", { "0", "1", "1" } },
		{ "write_bound", { "0", "1", "4096" } },
		{ "sync_write_expire", { "0", "1", "60000" } },
		{ "share_window", { "0", "1", "600000" } },
		{ "newcomer_expire", { "0", "1", "60000" } },
		{ "newcomer_plug", { "0", "1", "4096" } },
		{ "start_read_expire", { "0", "1", "60000" } },
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
		CHECK(settings_apply(&st, "antic_in_flight", "2", err, sizeof(err)) == -1);
		CHECK(strstr(err, "antic_in_flight: want a count 0..1"));
		CHECK(settings_apply(&st, "write_bound", "4097", err, sizeof(err)) == -1);
		CHECK(settings_apply(&st, "sync_write_expire", "60001", err, sizeof(err)) == -1);
		CHECK(settings_apply(&st, "share_window", "600001", err, sizeof(err)) == -1);
		CHECK(strstr(err, "share_window: want milliseconds 0..600000"));
		CHECK(settings_apply(&st, "newcomer_expire", "60001", err, sizeof(err)) == -1);
		CHECK(strstr(err, "newcomer_expire: want milliseconds 0..60000"));
		CHECK(settings_apply(&st, "newcomer_plug", "4097", err, sizeof(err)) == -1);
		CHECK(strstr(err, "newcomer_plug: want a count 0..4096"));
		CHECK(settings_apply(&st, "start_read_expire", "60001", err, sizeof(err)) == -1);
		CHECK(strstr(err, "start_read_expire: want milliseconds 0..60000"));
		CHECK(settings_apply(&st, "write_bound", "7", err, sizeof(err)) == 0);
		CHECK_EQ(st.as.write_bound, 7);	/* a count, not ms */
		CHECK_EQ(st.as.read_expire, 125 * ANTIC_NSEC_PER_MSEC);
	}
	for (t = 0; t < sizeof(tun) / sizeof(tun[0]); t++) {
		for (v = 0; v < 3; v++) {
			for (seed = 100; seed < 104; seed++) {
				struct workload w;
				struct sim_result r;
				enum sim_policy pol = t < 8 ? POL_AS : POL_DEADLINE;

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
	struct report_ctx c = { .jobfile = "t.fio", .w = w, .res = &r, .nres = 1 };

	if (sim_run(w, pol, &o, &r, err, sizeof(err)))
		return NULL;
	/* the JSON's timestamp: fixed, so that two renders compare whole */
	setenv("SOURCE_DATE_EPOCH", "1", 1);
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

/*
 * The scheduler's tags (nr_requests): a job with more requests in flight
 * than tags has the rest wait for a tag, unseen by the policy, and the
 * run still reads everything; async writes get three quarters of them.
 */
static void test_scheduler_tags(void)
{
	struct workload w;
	struct sim_options o = { .drain = true };
	struct sim_result r;
	char err[512];
	int pol;

	CHECK(parse("[antic-sim]\nqueue_depth=32\n[a]\nrw=randread\nsize=8m\ndirect=1\n"
		    "ioengine=libaio\niodepth=100\n", &w, err) == 0);
	for (pol = 0; pol < 3; pol++) {
		CHECK(sim_run(&w, (enum sim_policy)pol, &o, &r, err, sizeof(err)) == 0);
		/* 100 in flight, 64 tags: each burst of submissions has 36 wait */
		CHECK(r.tag_waits >= 36);
		CHECK_EQ(r.jobs[0].io_bytes[0], 8u << 20);
		sim_result_free(&r);
	}
	CHECK(settings_apply(&w.set, "nr_requests", "128", err, sizeof(err)) == 0);
	CHECK(sim_run(&w, POL_AS, &o, &r, err, sizeof(err)) == 0);
	CHECK_EQ(r.tag_waits, 0);
	sim_result_free(&r);
	workload_free(&w);
}

/*
 * A buffered reader asking for whole read-ahead windows (bs equal to
 * read_ahead_kb, as cat and fio's bs=128k do) keeps two outstanding, as
 * Linux does: the window's marker is its first page and fires while the
 * reader waits on that page. So when one of its reads completes, the next
 * is already queued, and anticipatory has no reason to wait for it.
 */
static void test_readahead_two_windows(void)
{
	static const char text[] = "[antic-sim]\ndisk=sata7200\nmem=256m\n"
		"[writer]\nrw=write\nbs=1m\nsize=1g\ntime_based\nruntime=600\n"
		"[reader]\nrw=read\nbs=128k\nsize=16m\nstartdelay=5\nexitall\n";
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result r;
	char err[512];
	/* windows of 256 KiB (read_ahead_kb doubled, see below), one request each */
	const uint64_t windows = (16 << 20) / (256 << 10), reads = (16 << 20) / (128 << 10);

	CHECK(parse(text, &w, err) == 0);
	CHECK(sim_run(&w, POL_AS, &o, &r, err, sizeof(err)) == 0);
	CHECK(r.as.antic_declined[AS_END_OWN] >= windows - 4);
	CHECK(r.as.antic_started <= 4);
	CHECK_EQ(r.jobs[1].io_bytes[0], 16ULL << 20);
	sim_result_free(&r);
	/* no read-ahead, no second window: anticipatory waits on each read */
	CHECK(settings_apply(&w.set, "read_ahead_kb", "0", err, sizeof(err)) == 0);
	CHECK(sim_run(&w, POL_AS, &o, &r, err, sizeof(err)) == 0);
	CHECK(r.as.antic_started >= reads - 4);
	CHECK(r.as.antic_declined[AS_END_OWN] <= 4);
	sim_result_free(&r);
	workload_free(&w);
}

/*
 * fio's fadvise_hint (on by default) advises POSIX_FADV_SEQUENTIAL on a
 * sequential job's file, which doubles its read-ahead: with requests as
 * large as the window, a sequential reader sends half as many requests
 * as read_ahead_kb alone would give; a random reader is not advised so.
 */
static void test_sequential_hint_doubles_readahead(void)
{
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result r;
	char err[512];

	CHECK(parse("[antic-sim]\nmax_sectors_kb=1024\n[a]\nrw=read\nbs=128k\nsize=16m\n",
		    &w, err) == 0);
	CHECK(sim_run(&w, POL_NOOP, &o, &r, err, sizeof(err)) == 0);
	CHECK_EQ(r.requests, (16 << 20) / (256 << 10));
	sim_result_free(&r);
	workload_free(&w);
	/* twice read_ahead_kb, whatever it is (reached after one smaller window) */
	CHECK(parse("[antic-sim]\nmax_sectors_kb=1024\nread_ahead_kb=256\n"
		    "[a]\nrw=read\nbs=128k\nsize=16m\n", &w, err) == 0);
	CHECK(sim_run(&w, POL_NOOP, &o, &r, err, sizeof(err)) == 0);
	CHECK(r.requests >= (16 << 20) / (512 << 10) && r.requests <= (16 << 20) / (512 << 10) + 2);
	sim_result_free(&r);
	workload_free(&w);
}

/* One wbt window that ends at @now with these samples. */
static void wbt_feed(struct wbt *w, uint64_t now, unsigned rd_n, uint64_t rd_min_ms,
		     unsigned wr_n, bool writes_about)
{
	w->rd_n = rd_n;
	w->rd_min = rd_min_ms * ANTIC_NSEC_PER_MSEC;
	w->wr_n = wr_n;
	wbt_window_end(w, now, writes_about);
}

/* wbt's rules, fed windows by hand. */
static void test_wbt_rules(void)
{
	struct wbt w;
	uint64_t now = ANTIC_NSEC_PER_SEC;
	int i;

	/* the host's 32 tags set the depth, whatever the drive's NCQ depth */
	wbt_init(&w, 1);
	CHECK_EQ(w.max, 16);
	/* background writeback a quarter, a dirty-throttled writer all of it */
	CHECK_EQ(wbt_limit(&w, false), 4);
	CHECK_EQ(wbt_limit(&w, true), 16);
	/* fast reads beside writes: a step up, to 3/4 of the tags and no further */
	wbt_feed(&w, now, 2, 10, 5, true);
	CHECK_EQ(w.max, 24);
	CHECK(w.scaled_max);
	wbt_feed(&w, now, 2, 10, 5, true);
	CHECK_EQ(w.max, 24);
	/* even the fastest read over 75 ms: back to the default at once, then halving */
	wbt_feed(&w, now, 2, 80, 5, true);
	CHECK_EQ(w.max, 16);
	wbt_feed(&w, now, 2, 80, 5, true);
	CHECK_EQ(w.max, 8);
	/* one slow read among fast ones is no reason: the minimum counts */
	wbt_feed(&w, now, 5, 10, 5, true);
	CHECK_EQ(w.max, 16);
	/* a read in the drive longer than the window, none completed: a step down */
	w.sync_rq = &w;
	w.sync_issue = now - 150 * ANTIC_NSEC_PER_MSEC;
	wbt_feed(&w, now, 0, 0, 5, true);
	CHECK_EQ(w.max, 8);
	w.sync_rq = NULL;
	/* scaled down, the window shortens: 1/sqrt(step + 1) */
	wbt_feed(&w, now, 2, 80, 5, true);
	wbt_feed(&w, now, 2, 80, 5, true);
	CHECK_EQ(w.step, 3);
	CHECK_EQ(wbt_window(&w), 50 * ANTIC_NSEC_PER_MSEC);
	/* nothing at all for five windows: one step back towards the default */
	for (i = 0; i < 4; i++)
		wbt_feed(&w, now, 0, 0, 0, false);
	CHECK_EQ(w.step, 3);
	wbt_feed(&w, now, 0, 0, 0, false);
	CHECK_EQ(w.step, 2);
	/* a flusher held back wakes only under half the depth, by an eighth */
	wbt_init(&w, 32);
	CHECK(!wbt_may_wake(&w, 16));
	CHECK(!wbt_may_wake(&w, 7));
	CHECK(wbt_may_wake(&w, 6));
	CHECK(wbt_may_wake(&w, 0));
	/* a drive that takes more than 32 sets its own depth */
	wbt_init(&w, 64);
	wbt_feed(&w, now, 2, 10, 5, true);
	wbt_feed(&w, now, 2, 10, 5, true);
	CHECK_EQ(w.max, 48);
}

/*
 * The writer of write-vs-read is held in balance_dirty_pages all along,
 * so wbt lets writeback use its whole depth beside the reader: at NCQ
 * depth 32 anticipatory's write batches put about as many writes in the
 * drive as the kernel's did on hddsim (1945 in 139 batches on 6.12).
 */
static void test_wbt_throttled_writer_full_depth(void)
{
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result r;
	char err[512];

	CHECK(jobfile_load("examples/write-vs-read.fio", &w, err, sizeof(err)) == 0);
	if (!w.nr_jobs)
		return;
	CHECK(settings_apply(&w.set, "disk", "ide2003", err, sizeof(err)) == 0);
	CHECK(settings_apply(&w.set, "queue_depth", "32", err, sizeof(err)) == 0);
	CHECK(sim_run(&w, POL_AS, &o, &r, err, sizeof(err)) == 0);
	CHECK(r.as.batches[ANTIC_ASYNC] > 0);
	CHECK(r.as.dispatched[ANTIC_ASYNC] > 12 * r.as.batches[ANTIC_ASYNC]);
	sim_result_free(&r);
	workload_free(&w);
}

/*
 * Rule 2 audited by the host on the workloads it is for: at depth 32 a
 * read batch starts beside at most K writes and no write joins reads at
 * the drive, on a write-through disk (where K falls to 1) and on one with
 * a write cache; the audit had read batches to judge, and rule 1's write
 * half kept write batches open.
 */
static void test_write_bound_audit(void)
{
	static const char *const files[] = { "examples/write-vs-read.fio",
					     "examples/random-vs-write.fio" };
	static const char *const disks[] = { "ide2003", "st2000dm006" };
	uint64_t kept = 0;
	size_t f, d;

	for (f = 0; f < 2; f++) {
		for (d = 0; d < 2; d++) {
			struct workload w;
			struct sim_options o = { 0 };
			struct sim_result r;
			char err[512];

			if (jobfile_load(files[f], &w, err, sizeof(err))) {
				CHECK(!"example did not load");
				continue;
			}
			CHECK(settings_apply(&w.set, "disk", disks[d], err, sizeof(err)) == 0);
			CHECK(settings_apply(&w.set, "queue_depth", "32", err, sizeof(err)) == 0);
			CHECK(sim_run(&w, POL_AS, &o, &r, err, sizeof(err)) == 0);
			CHECK(r.bound_checks > 0);
			CHECK_EQ(r.bound_exceeded, 0);
			kept += r.as.writes_kept;
			sim_result_free(&r);
			workload_free(&w);
		}
	}
	CHECK(kept > 0);	/* random-vs-write's batches wait on their writes */
}

/*
 * A file larger than memory read twice comes from the disk twice (with
 * invalidate=0: fio's default drops the job's pages at each loop anyway).
 */
static void test_page_cache_evicts(void)
{
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result r;
	char err[512];

	CHECK(parse("[antic-sim]\nmem=32m\n[a]\nrw=read\nbs=128k\nsize=64m\nloops=2\ninvalidate=0\n",
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

/*
 * The wake-up gap is what lets a work-conserving scheduler seek away from
 * a reader with one request out at a time: a direct one (a buffered one
 * has its next read-ahead window queued already, see above).
 */
static void test_wakeup_gap(void)
{
	static const char text[] = "[antic-sim]\ndisk=sata7200\nmem=256m\n"
		"[writer]\nrw=write\nbs=1m\nsize=1g\ntime_based\nruntime=600\n"
		"[reader]\nrw=read\nbs=128k\nsize=20m\ndirect=1\nstartdelay=5\nexitall\n";
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result with, without;
	char err[512];

	CHECK(parse(text, &w, err) == 0);
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

/* @file's job @name's runtime (ns) under anticipatory, with @from replaced by @to in it */
static uint64_t ionice_runtime(const char *file, const char *from, const char *to,
			       const char *name, uint64_t *end_other)
{
	char text[4096], err[512], *at;
	struct sim_options o = { 0 };
	struct sim_result r;
	struct workload w;
	uint64_t rt = 0;
	size_t n, i;
	FILE *f = fopen(file, "r");

	CHECK(f != NULL);
	if (!f)
		return 0;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	at = from ? strstr(text, from) : NULL;
	if (from) {
		CHECK(at != NULL);
		if (!at)
			return 0;
		memmove(at + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
		memcpy(at, to, strlen(to));
	}
	CHECK(parse(text, &w, err) == 0);
	CHECK(sim_run(&w, POL_AS, &o, &r, err, sizeof(err)) == 0);
	CHECK(!r.timed_out && !r.violations);
	for (i = 0; i < r.nr_jobs; i++) {
		if (!strcmp(r.jobs[i].name, name))
			rt = r.jobs[i].runtime;
		else if (end_other && r.jobs[i].runtime > *end_other)
			*end_other = r.jobs[i].runtime;
	}
	sim_result_free(&r);
	workload_free(&w);
	return rt;
}

/*
 * ionice's promises under anticipatory: a backup in the idle class costs
 * a reader at most 10 % of its time alone, and finishes after it; a
 * player in the real-time class beside ten streams reads its file at
 * least twice as fast as in the best-effort class.
 */
static void test_ionice_classes(void)
{
	uint64_t alone, beside, shared, backup_end = 0, rt, be;

	alone = ionice_runtime("examples/ionice-backup.fio", "\nsize=1g", "\nsize=1m\nstartdelay=30",
			       "reader", NULL);
	beside = ionice_runtime("examples/ionice-backup.fio", NULL, NULL, "reader", &backup_end);
	shared = ionice_runtime("examples/ionice-backup.fio", "\nprioclass=3", "\nprioclass=2",
				"reader", NULL);
	CHECK(alone > 0 && beside * 10 <= alone * 11);
	CHECK(backup_end > beside);	/* the backup ran, and to its end */
	CHECK(shared * 10 > alone * 11);	/* best effort would cost more: the test can fail */
	rt = ionice_runtime("examples/ionice-player.fio", NULL, NULL, "player", NULL);
	be = ionice_runtime("examples/ionice-player.fio", "\nprioclass=1", "\nprioclass=2",
			    "player", NULL);
	CHECK(rt > 0 && 2 * rt <= be);
	if (!(beside * 10 <= alone * 11) || !(2 * rt <= be))
		fprintf(stderr, "  reader alone %.2f s, beside the backup %.2f s; player %.2f s, at BE %.2f s\n",
			alone / 1e9, beside / 1e9, rt / 1e9, be / 1e9);
}

/*
 * A random O_DIRECT reader beside a sequential O_DIRECT writer on a disk
 * that does not queue: under anticipatory the reader gets at least 90 %
 * of the IOPS deadline gives it, no worse a p99, and the writer at least
 * half of what deadline leaves it.
 */
static void test_direct_reader_beside_writer(void)
{
	struct sim_result r[2];
	struct workload w;
	char err[512];
	double iops[2] = { 0 }, wbytes[2] = { 0 };
	uint64_t p99[2] = { 0 };
	int k;
	size_t i;

	for (k = 0; k < 2; k++) {
		struct sim_options o = { 0 };

		CHECK(jobfile_load("examples/direct-reader-beside-writer.fio", &w, err,
				   sizeof(err)) == 0);
		CHECK(settings_apply(&w.set, "disk", "sata7200", err, sizeof(err)) == 0);
		CHECK(sim_run(&w, k ? POL_AS : POL_DEADLINE, &o, &r[k], err, sizeof(err)) == 0);
		CHECK(!r[k].violations);
		for (i = 0; i < r[k].nr_jobs; i++) {
			const struct job_result *j = &r[k].jobs[i];

			if (!strcmp(j->name, "reader") && j->runtime) {
				iops[k] = j->ios[0] * 1e9 / j->runtime;
				p99[k] = hist_percentile(&j->lat[0], 99.0);
			} else if (!strcmp(j->name, "writer")) {
				wbytes[k] = (double)j->io_bytes[1];
			}
		}
		sim_result_free(&r[k]);
		workload_free(&w);
	}
	CHECK(iops[0] > 0 && iops[1] >= 0.9 * iops[0]);
	CHECK(p99[1] <= p99[0]);
	CHECK(wbytes[1] * 2 >= wbytes[0]);
	if (!(iops[1] >= 0.9 * iops[0]) || !(p99[1] <= p99[0]) || !(wbytes[1] * 2 >= wbytes[0]))
		fprintf(stderr, "  reader IOPS %.1f / %.1f, p99 %.1f / %.1f ms, writer %.1f / %.1f MB (anticipatory / deadline)\n",
			iops[1], iops[0], p99[1] / 1e6, p99[0] / 1e6, wbytes[1] / 1e6, wbytes[0] / 1e6);
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
	/*
	 * the three that no path can increment, and only those, are left out:
	 * no wait is declined for a deadline, a requeue or a higher class
	 * (none is a reason break_reason gives)
	 */
	for (i = 0; i < SLOTS; i++)
		unseen += !seen[i];
	CHECK_EQ(unseen, 3);
	CHECK(!seen[offsetof(struct as_counters, antic_declined[AS_END_CLASS]) / sizeof(u64)]);
	CHECK(!seen[offsetof(struct as_counters, antic_declined[AS_END_DEADLINE]) / sizeof(u64)]);
	CHECK(!seen[offsetof(struct as_counters, antic_declined[AS_END_REQUEUE]) / sizeof(u64)]);

	CHECK(jobfile_load("examples/compile-alone.fio", &w, err, sizeof(err)) == 0);
	if (!w.nr_jobs)
		return;
	CHECK(sim_run(&w, POL_AS, &o, &r, err, sizeof(err)) == 0);
	CHECK(r.as.antic_declined[AS_END_OWN] > 0);
	/* a distinct value in each, so that a wrong offset shows */
	for (i = 0; i < AS_NR_COUNTERS; i++)
		*(u64 *)((char *)&r.as + as_counter_descs[i].off) = 7000 + i;
	{
		struct report_ctx c = { .jobfile = "compile-alone.fio", .w = &w, .res = &r, .nres = 1 };

		json = report_text(report_json, &c);
		table = report_text(report_table, &c);
	}
	CHECK(json && table);
	for (i = 0; json && table && i < AS_NR_COUNTERS; i++) {
		char want[96];

		snprintf(want, sizeof(want), "\"%s\" : %zu,", as_counter_descs[i].name, 7000 + i);
		CHECK(strstr(json, want));
		snprintf(want, sizeof(want), " %s %zu", as_counter_descs[i].name, 7000 + i);
		CHECK(strstr(table, want));
	}
	free(json);
	free(table);
	sim_result_free(&r);
	workload_free(&w);
}

/* Run a job file given inline under anticipatory, with antic_expire=@ae ms. */
static int run_as(const char *text, const char *ae, struct sim_result *r)
{
	struct workload w;
	struct sim_options o = { 0 };
	char err[512];
	int rc;

	if (parse(text, &w, err)) {
		fprintf(stderr, "  %s\n", err);
		return -1;
	}
	rc = settings_apply(&w.set, "antic_expire", ae, err, sizeof(err));
	if (!rc)
		rc = sim_run(&w, POL_AS, &o, r, err, sizeof(err));
	if (rc)
		fprintf(stderr, "  %s\n", err);
	workload_free(&w);
	return rc;
}

#define WRITER "[writer]\nrw=write\nbs=1m\nsize=256m\ntime_based\nruntime=3\n"
#define SHORT_READER(name, delay) "[" name "]\nrw=read\nbs=64k\ndirect=1\n" \
	"size=4m\nstartdelay=" delay "\n"

/*
 * A reader that exits while it is being waited for teaches the scheduler
 * that processes exit (exit_prob) and that nobody took its place
 * (exit_no_coop); readers that stay teach it nothing of the kind.
 */
static void test_exits_raise_exit_prob(void)
{
	static const char leave[] = "[antic-sim]\nmem=256m\n" WRITER
		SHORT_READER("r1", "500ms") SHORT_READER("r2", "1s")
		SHORT_READER("r3", "1500ms") SHORT_READER("r4", "2s");
	static const char stay[] = "[antic-sim]\nmem=256m\n" WRITER "exitall\n"
		SHORT_READER("r1", "500ms") "time_based\nruntime=10\n"
		SHORT_READER("r2", "1s") "time_based\nruntime=10\n";
	struct sim_result r;

	if (run_as(leave, "6", &r) == 0) {
		/* each reader left mid-run: its last wait timed out */
		CHECK(r.as.antic_end[AS_END_TIMEOUT] >= 4);
		CHECK(r.est.exit_prob > 0);
		CHECK(r.est.exit_no_coop > 0);
		sim_result_free(&r);
	} else {
		CHECK(!"run failed");
	}
	if (run_as(stay, "6", &r) == 0) {
		CHECK(r.as.antic_started > 100);
		CHECK_EQ(r.est.exit_prob, 0);
		CHECK_EQ(r.est.exit_no_coop, 0);
		sim_result_free(&r);
	} else {
		CHECK(!"run failed");
	}
}

#define RAW_READERS(rw) "[r]\nfilename=/dev/hddsim0\noffset=20g\nsize=8g\n" \
	"rw=" rw "\nbs=64k\ndirect=1\nnumjobs=4\ntime_based\nruntime=1\n"

/*
 * What new processes' first seeks teach the scheduler: nothing for
 * readers going on where they left off, a long way for random ones
 * (their first samples are capped at 2M sectors; four of them: 868k).
 */
static void test_seek_mean_follows_access(void)
{
	struct sim_result r;

	if (run_as(RAW_READERS("read"), "6", &r) == 0) {
		CHECK_EQ(r.est.new_seek_mean, 0);
		sim_result_free(&r);
	} else {
		CHECK(!"run failed");
	}
	if (run_as(RAW_READERS("randread"), "6", &r) == 0) {
		CHECK(r.est.new_seek_mean > 500000);
		sim_result_free(&r);
	} else {
		CHECK(!"run failed");
	}
}

/*
 * Write-through (write_cache=0): with a write cache the writer's share is
 * absorbed at interface speed, and disk throughput stops measuring where
 * the head went.
 */
#define READER_BESIDE_WRITER(rw) "[antic-sim]\ndisk=sata7200\nmem=256m\nwrite_cache=0\n" \
	"[writer]\nrw=write\nbs=1m\nsize=256m\ntime_based\nruntime=3600\n" \
	"[reader]\nfilename=/dev/hddsim0\noffset=20g\nsize=8g\nrw=" rw "\n" \
	"bs=64k\ndirect=1\ntime_based\nruntime=3\nstartdelay=1\nexitall\n"

static double disk_mbps(const struct sim_result *r)
{
	return r->sim_time ? (double)r->disk.sectors * 512 * 1e3 / (double)r->sim_time : 0;
}

/*
 * Waiting for a sequential reader's next request keeps the head where it
 * reads: the reader gets the disk, and the disk moves more data. Waiting
 * for a random reader, whose next request is anywhere, saves no seek: the
 * disk moves no more data (today less: it idles), and the reader gains
 * far less.
 */
static void test_anticipation_pays_for_sequential_not_random(void)
{
	struct sim_result on, off;
	double seq_gain = 0, rand_gain = 0;

	if (run_as(READER_BESIDE_WRITER("read"), "6", &on) == 0) {
		if (run_as(READER_BESIDE_WRITER("read"), "0", &off) == 0) {
			seq_gain = job_bw(&on.jobs[1], 0) / job_bw(&off.jobs[1], 0);
			CHECK(seq_gain > 10);
			CHECK(disk_mbps(&on) > 2 * disk_mbps(&off));
			sim_result_free(&off);
		}
		sim_result_free(&on);
	}
	if (run_as(READER_BESIDE_WRITER("randread"), "6", &on) == 0) {
		if (run_as(READER_BESIDE_WRITER("randread"), "0", &off) == 0) {
			rand_gain = job_bw(&on.jobs[1], 0) / job_bw(&off.jobs[1], 0);
			CHECK(disk_mbps(&on) < 1.1 * disk_mbps(&off));
			sim_result_free(&off);
		}
		sim_result_free(&on);
	}
	if (seq_gain < 5 * rand_gain)
		fprintf(stderr, "  reader's gain: sequential %.1fx, random %.1fx\n",
			seq_gain, rand_gain);
	CHECK(rand_gain > 0 && seq_gain > 5 * rand_gain);
}

/*
 * Run @text under every policy in a child that SIGALRM ends after
 * @seconds, so a simulator that spins fails the test instead of hanging
 * it. The child's exit status says which policy went wrong and how.
 */
static void run_bounded(const char *text, unsigned seconds, unsigned passes)
{
	struct sim_options o = { .drain = true };
	int status = 0, pol;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid < 0)
		return;
	if (!pid) {
		struct workload w;
		char err[512];
		int bad = 0;

		alarm(seconds);
		if (parse(text, &w, err))
			_exit(100);
		for (pol = 0; pol < POL_NR && !bad; pol++) {
			struct sim_result r;

			if (sim_run(&w, (enum sim_policy)pol, &o, &r, err, sizeof(err))) {
				fprintf(stderr, "  %s: %s\n", sim_policy_name((enum sim_policy)pol), err);
				bad = 10 + pol;
				break;
			}
			if (r.violations || r.timed_out || r.bytes_added != r.bytes_completed ||
			    r.jobs[0].io_bytes[0] + r.jobs[0].io_bytes[1] != passes * w.jobs[0].size)
				bad = 20 + pol;
			sim_result_free(&r);
		}
		workload_free(&w);
		_exit(bad);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	if (WIFSIGNALED(status))
		fprintf(stderr, "  simulator killed by signal %d%s\n", WTERMSIG(status),
			WTERMSIG(status) == SIGALRM ? " (it hung)" : "");
	else if (WEXITSTATUS(status))
		fprintf(stderr, "  child exit %d\n", WEXITSTATUS(status));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/*
 * Buffered rw=rw: writes land on pages the reads' read-ahead has in
 * flight. A read-ahead completion once cleaned them while they stayed
 * counted dirty; the count leaked until it sat above the background
 * threshold with nothing to write and the flusher looped for ever (at
 * 297 s of virtual time for the 1g job, far sooner with 16m of memory).
 */
static void test_rw_buffered_no_hang(void)
{
	run_bounded("[antic-sim]\nmem=16m\n[j]\nrw=rw\nbs=4k\nsize=64m\n", 60, 1);
	run_bounded("[j]\nrw=rw\nbs=4k\nsize=1g\n", 60, 1);
}

/*
 * wakeup=0 and a file the page cache holds: each read completed inside
 * the one before and issued the next from there, 130,000 deep, until the
 * stack ran out (a segfault). Now the next read goes round the event loop.
 */
static void test_cached_reads_without_wakeup(void)
{
	run_bounded("[antic-sim]\nwakeup=0\nmem=2g\n[j]\nrw=read\nbs=4k\nsize=512m\nloops=2\n",
		    60, 2);
}

/* The watchdog: quiet while time, requests or completions move; loud after a stall. */
static void test_watchdog(void)
{
	struct watchdog wd = { 0 };
	char err[256] = "";
	uint64_t i, t = 0;

	/* a long busy run, and bursts at one instant that each make a request */
	for (i = 0; i < 3 * WATCHDOG_EVENTS; i++)
		CHECK(watchdog_tick(&wd, t += i % 3 == 0, i / 2, i / 5, err, sizeof(err)) == 0);
	for (i = 0; i < 2 * WATCHDOG_EVENTS; i++)
		CHECK(watchdog_tick(&wd, t, 1000000 + i, 7, err, sizeof(err)) == 0);
	CHECK(!*err);

	/* stalled: the limit-th event in a row without progress trips it */
	wd = (struct watchdog){ .limit = 100 };
	CHECK(watchdog_tick(&wd, 297055497108ULL, 5, 4096, err, sizeof(err)) == 0);
	for (i = 1; i < 100; i++)
		CHECK(watchdog_tick(&wd, 297055497108ULL, 5, 4096, err, sizeof(err)) == 0);
	CHECK(watchdog_tick(&wd, 297055497108ULL, 5, 4096, err, sizeof(err)) == -1);
	CHECK(strstr(err, "internal error") && strstr(err, "stalled at 297.055497108 s") &&
	      strstr(err, "100 events"));

	/* any one kind of progress starts the count again */
	wd = (struct watchdog){ .limit = 10 };
	for (i = 0; i < 9; i++)
		CHECK(watchdog_tick(&wd, 1, 1, 1, err, sizeof(err)) == 0);
	CHECK(watchdog_tick(&wd, 1, 1, 2, err, sizeof(err)) == 0);	/* a completion */
	for (i = 0; i < 9; i++)
		CHECK(watchdog_tick(&wd, 1, 1, 2, err, sizeof(err)) == 0);
	CHECK(watchdog_tick(&wd, 1, 2, 2, err, sizeof(err)) == 0);	/* a request */
	for (i = 0; i < 9; i++)
		CHECK(watchdog_tick(&wd, 1, 2, 2, err, sizeof(err)) == 0);
	CHECK(watchdog_tick(&wd, 2, 2, 2, err, sizeof(err)) == 0);	/* time */
	for (i = 0; i < 9; i++)
		CHECK(watchdog_tick(&wd, 2, 2, 2, err, sizeof(err)) == 0);
	CHECK(watchdog_tick(&wd, 2, 2, 2, err, sizeof(err)) == -1);

	/* zeroed, it uses the default limit, and a first event at 0 is no progress */
	wd = (struct watchdog){ 0 };
	for (i = 1; i < WATCHDOG_EVENTS; i++)
		CHECK(watchdog_tick(&wd, 0, 0, 0, err, sizeof(err)) == 0);
	CHECK(watchdog_tick(&wd, 0, 0, 0, err, sizeof(err)) == -1);
}

/* 64 random 4 KiB direct writes, an fsync after every @fsync of them. */
static uint64_t synced_writer_ms(const char *cache, const char *fsync,
				 uint64_t *flushes)
{
	struct sim_result r;
	char text[256];
	uint64_t ms = 0;

	snprintf(text, sizeof(text), "[antic-sim]\nwrite_cache=%s\n"
		 "[w]\nfilename=/dev/hddsim0\nrw=randwrite\nbs=4k\n"
		 "size=256k\ndirect=1\nfsync=%s\n", cache, fsync);
	if (run_as(text, "6", &r) == 0) {
		ms = r.jobs[0].runtime / 1000000;
		*flushes = r.disk.flushes;
		sim_result_free(&r);
	} else {
		CHECK(!"run failed");
	}
	return ms;
}

/*
 * fsync on a drive with a write cache sends a FLUSH, and returns only
 * when the writes are on the media: each costs what it costs with the
 * cache off, not the interface time the cache alone would give.
 */
static void test_fsync_flushes_write_cache(void)
{
	uint64_t fl_on = 0, fl_off = 0, fl_nosync = 0;
	uint64_t on = synced_writer_ms("1", "1", &fl_on);
	uint64_t off = synced_writer_ms("0", "1", &fl_off);
	uint64_t nosync = synced_writer_ms("1", "0", &fl_nosync);

	CHECK_EQ(fl_on, 64);	/* one a write */
	CHECK_EQ(fl_off, 0);	/* no cache, nothing to flush: Linux sends none */
	CHECK_EQ(fl_nosync, 0);
	CHECK(on * 2 > off);
	CHECK(nosync * 5 < on);
	if (!(on * 2 > off) || !(nosync * 5 < on))
		fprintf(stderr, "  fsync each write: cache %llu ms, no cache %llu ms; no fsync %llu ms\n",
			(unsigned long long)on, (unsigned long long)off,
			(unsigned long long)nosync);
}

/*
 * A wait whose deadline passes while a FLUSH holds the drive still ends:
 * has_work says no while a wait runs (as blk-mq asks it), so only the
 * timer can end it, and the timer must be armed with the drive full and
 * fire at once for a time already past. Once the disk sat idle from
 * 3.8 s to the end (util 11 %, the fsyncer 57 I/Os instead of 471).
 */
static void test_wait_ends_across_flush(void)
{
	static const char text[] =
		"[antic-sim]\nqueue_depth=32\nwrite_cache=1\n"
		"[global]\ntime_based\nruntime=30\n"
		"[fsyncer]\nrw=rw\nbs=4k\nsize=8m\nfsync=2\n"
		"[writer]\nrw=write\nbs=4k\nsize=64m\nioengine=libaio\niodepth=16\n";
	struct sim_result r;
	uint64_t ios = 0;
	size_t i;

	if (run_as(text, "6", &r))
		return;
	for (i = 0; i < r.nr_jobs; i++)
		if (!strcmp(r.jobs[i].name, "fsyncer"))
			ios = r.jobs[i].ios[0] + r.jobs[i].ios[1];
	CHECK(!r.timed_out);
	CHECK(r.disk_busy * 10 > r.sim_time * 9);	/* busy over 90 % of the run */
	CHECK(ios > 200);
	if (r.disk_busy * 10 <= r.sim_time * 9 || ios <= 200)
		fprintf(stderr, "  busy %llu of %llu ns, fsyncer %llu I/Os\n",
			(unsigned long long)r.disk_busy, (unsigned long long)r.sim_time,
			(unsigned long long)ios);
	sim_result_free(&r);
}

/*
 * A buffered libaio rw=rw job over a file the page cache holds: each
 * cached I/O queued a wake of its own and the engine issued on, so the
 * wakes multiplied and the watchdog stopped the run ("virtual time
 * standing still") at 38 ms of 2 s.
 */
static void test_libaio_cached_no_stall(void)
{
	static const char text[] =
		"[antic-sim]\nqueue_depth=2\nwrite_cache=1\n"
		"[j]\nrw=rw\nbs=128k\nsize=8m\ndirect=0\nioengine=libaio\n"
		"time_based\nruntime=2\n";
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result r;
	char err[512];

	if (parse(text, &w, err)) {
		fprintf(stderr, "  %s\n", err);
		CHECK(!"parse failed");
		return;
	}
	if (sim_run(&w, POL_NOOP, &o, &r, err, sizeof(err))) {
		fprintf(stderr, "  %s\n", err);
		CHECK(!"run failed");
	} else {
		CHECK(!r.timed_out && r.violations == 0);
		CHECK(r.sim_time >= 2000000000ULL);	/* ran its 2 s */
		CHECK(r.jobs[0].io_bytes[0] + r.jobs[0].io_bytes[1] > 2 * w.jobs[0].size);
		sim_result_free(&r);
	}
	workload_free(&w);
}

/* One job's bytes, by name, in a run of @text under noop. */
static uint64_t noop_job_bytes(const char *text, const char *job, int dir,
			       bool *timed_out)
{
	struct workload w;
	struct sim_options o = { 0 };
	struct sim_result r;
	char err[512];
	uint64_t bytes = 0;
	size_t i;

	if (parse(text, &w, err)) {
		fprintf(stderr, "  %s\n", err);
		CHECK(!"parse failed");
		return 0;
	}
	if (sim_run(&w, POL_NOOP, &o, &r, err, sizeof(err)) == 0) {
		for (i = 0; i < r.nr_jobs; i++)
			if (!strcmp(r.jobs[i].name, job))
				bytes = r.jobs[i].io_bytes[dir];
		*timed_out = r.timed_out;
		CHECK(r.violations == 0);
		sim_result_free(&r);
	} else {
		fprintf(stderr, "  %s\n", err);
		CHECK(!"run failed");
	}
	workload_free(&w);
	return bytes;
}

/*
 * Writes the cache has no room for wait at the drive, and must get in:
 * when the cache empties (a 512 KiB write behind a full 1 MiB cache once
 * waited forever), and beside a reader whose requests are always nearer
 * the head than any destage (the writer once stopped after one cache-full).
 */
static void test_write_cache_waiting_writes_progress(void)
{
	bool capped = true;
	uint64_t b;

	b = noop_job_bytes("; antic-sim: cache_mb=1\n; antic-sim: queue_depth=4\n"
			   "[w]\nfilename=/dev/hddsim0\nioengine=libaio\ndirect=1\n"
			   "rw=write\nbs=512k\niodepth=4\nsize=64m\n", "w", 1, &capped);
	CHECK_EQ(b, 64ULL << 20);
	CHECK(!capped);
	b = noop_job_bytes("; antic-sim: cache_mb=4\n; antic-sim: queue_depth=32\n"
			   "[r]\nfilename=/dev/hddsim0\nioengine=libaio\ndirect=1\n"
			   "rw=read\nbs=64k\niodepth=8\nsize=4g\ntime_based\nruntime=10\n"
			   "[w]\nfilename=/dev/hddsim0\nioengine=libaio\ndirect=1\n"
			   "rw=randwrite\noffset=500g\nsize=100g\nbs=64k\niodepth=8\n"
			   "time_based\nruntime=10\n", "w", 1, &capped);
	/* three cache-fulls at least in 10 s; it used to stop after one */
	CHECK(b > 12ULL << 20);
	if (b <= 12ULL << 20)
		fprintf(stderr, "  writer beside a reader: %llu bytes\n",
			(unsigned long long)b);
}

void suite_sim(void)
{
	RUN(test_write_cache_waiting_writes_progress);
	RUN(test_wait_ends_across_flush);
	RUN(test_libaio_cached_no_stall);
	RUN(test_fsync_flushes_write_cache);
	RUN(test_watchdog);
	RUN(test_rw_buffered_no_hang);
	RUN(test_cached_reads_without_wakeup);
	RUN(test_page_cache_evicts);
	RUN(test_readahead_two_windows);
	RUN(test_sequential_hint_doubles_readahead);
	RUN(test_wbt_rules);
	RUN(test_write_bound_audit);
	RUN(test_wbt_throttled_writer_full_depth);
	RUN(test_wakeup_gap);
	RUN(test_jobfile_errors);
	RUN(test_fio_errors);
	RUN(test_trace_no_silent_empty);
	RUN(test_replay_remap);
	RUN(test_jobfile_fio_syntax);
	RUN(test_value_parsers);
	RUN(test_properties_random_workloads);
	RUN(test_properties_program_starts);
	RUN(test_tunable_extremes);
	RUN(test_determinism);
	RUN(test_demo_ordering);
	RUN(test_policy_names);
	RUN(test_ssd_no_anticipation);
	RUN(test_scheduler_tags);
	RUN(test_counters_reported);
	RUN(test_ionice_classes);
	RUN(test_direct_reader_beside_writer);
	RUN(test_exits_raise_exit_prob);
	RUN(test_seek_mean_follows_access);
	RUN(test_anticipation_pays_for_sequential_not_random);
}
