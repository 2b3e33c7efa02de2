/*
 * test_trace.c - the trace readers and replay: each format read field by
 * field, blktrace in both byte orders and merged from per-CPU files,
 * malformed input named by file, line and field, the round trip through
 * fio iolog v3, the VM-captured fixtures against blkparse, DiskSim/MQSim
 * and the S suite's start-up traces (fixtures in tests/traces written for
 * this), and replay's closed and open loops, the S chains included; the
 * pid table both use.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "../sim/engine.h"
#include "../sim/trace.h"
#include "../sim/pidmap.h"
#include <linux/blktrace_api.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
	static char p[4][512];
	static int i;

	if (!tmpdir[0]) {
		const char *base = getenv("TMPDIR");

		snprintf(tmpdir, sizeof(tmpdir), "%s/antic-trace-XXXXXX", base ? base : "/tmp");
		if (!mkdtemp(tmpdir))
			abort();
	}
	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", tmpdir, name);
	return p[i];
}

static const char *write_file(const char *name, const char *text)
{
	const char *p = tmp_path(name);
	FILE *f = fopen(p, "w");

	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
	return p;
}

/* Read every record of @path; returns the count, or -1 with @err. */
static long read_all(const char *path, const struct trace_opts *o, struct trace_rec *out,
		     long max, char *err, struct trace_stats *st)
{
	struct trace *t = trace_open(path, o, err, 512);
	struct trace_rec r;
	long n = 0;
	int rc;

	if (!t)
		return -1;
	while ((rc = trace_next(t, &r, err, 512)) > 0) {
		if (n < max)
			out[n] = r;
		n++;
	}
	if (st)
		*st = *trace_stats(t);
	trace_close(t);
	return rc < 0 ? -1 : n;
}

static void test_trace_text_formats(void)
{
	struct trace_opts o = { 0 };
	struct trace_rec r[8];
	struct trace_stats st;
	char err[512];
	const char *p;

	p = write_file("a.blkparse",
		"  8,0    0        1     0.000000000   100  Q   R 2048 + 8 [cat]\n"
		"  8,0    0        2     0.000001000   100  G   R 2048 + 8 [cat]\n"
		"  8,0    0        3     0.000002000   100  P   N [cat]\n"
		"  8,0    1        4     0.005000000     0  C   R 2048 + 8 [0]\n"
		"  8,0    0        5     0.007000000   100  Q   R 2056 + 16 [cat]\n"
		"  8,0    0        6     0.007500000   200  Q  WS 9000 + 8 [dd]\n"
		"  8,0    0        7     0.007600000   100  Q   R 2072 + 8 [cat]\n"
		"  8,0    0        8     0.008000000   300  Q  FN 0 + 0 [kworker]\n"
		"CPU0 (8,0):\n Reads Queued: 3, 16KiB\n");
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 4);
	CHECK_EQ(r[0].t, 0); CHECK_EQ(r[0].sector, 2048); CHECK_EQ(r[0].nr, 8);
	CHECK(!r[0].write && r[0].sync); CHECK_EQ(r[0].pid, 100); CHECK_EQ(r[0].dep, TD_FIRST);
	/* completed at 5 ms, next queued at 7 ms: 2 ms of think time */
	CHECK_EQ(r[1].dep, TD_AFTER_DONE); CHECK_EQ(r[1].think, 2000000); CHECK_EQ(r[1].nr, 16);
	CHECK(r[2].write && r[2].sync); CHECK_EQ(r[2].pid, 200);
	/* cat's 2056 is still outstanding when 2072 is queued */
	CHECK_EQ(r[3].dep, TD_OVERLAP);
	CHECK_EQ(st.completions, 1); CHECK(st.has_pids && st.has_completions);
	{
		struct trace *t = trace_open(p, &o, err, sizeof(err));
		struct trace_rec x;

		CHECK(t && trace_format(t) == TF_BLKPARSE);
		while (t && trace_next(t, &x, err, sizeof(err)) > 0)
			;
		CHECK(t && trace_proc_name(t, 200) && !strcmp(trace_proc_name(t, 200), "dd"));
		trace_close(t);
	}

	/* MSR: filetime (100 ns), response time 2 ms, then 1 ms think */
	p = write_file("a.csv",
		"Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
		"128166372000000000,hm,0,Read,1048576,4096,20000\n"
		"128166372000030000,hm,0,Write,2097152,8192,5000\n"
		"128166372000040000,hm,0,Read,1052672,4096,100\n");
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 3);
	CHECK_EQ(r[0].sector, 2048); CHECK_EQ(r[1].t, 3000000); CHECK(r[1].write); CHECK_EQ(r[1].nr, 16);
	CHECK_EQ(r[1].dep, TD_AFTER_DONE); CHECK_EQ(r[1].think, 1000000);
	CHECK_EQ(r[2].dep, TD_AFTER_DONE);
	CHECK(!st.has_pids);

	p = write_file("a.spc", "0,20941264,8192,W,0.551706\n0,20939840,8192,r,0.554041,extra\n");
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 2);
	CHECK_EQ(r[0].sector, 20941264); CHECK(r[0].write); CHECK_EQ(r[1].t, 2335000);
	CHECK_EQ(r[1].dep, TD_UNKNOWN);

	p = write_file("a.iolog2", "fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n"
		       "/dev/sdb read 4096 4096\n/dev/sdb wait 1500 0\n/dev/sdb write 8192 512\n"
		       "/dev/sdb sync 0 0\n/dev/sdb close\n");
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 2);
	CHECK_EQ(r[1].t, 1500000); CHECK_EQ(r[1].sector, 16); CHECK_EQ(r[1].nr, 1);
	CHECK_EQ(st.ignored, 1);

	p = write_file("a.iolog3", "fio version 3 iolog\n0 /dev/sdb add\n0 /dev/sdb open\n"
		       "160 /dev/sdb read 0 4096\n509 /dev/sdb read 4096 4096\n600 /dev/sdb close\n");
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 2);
	CHECK_EQ(r[1].t, 349000);	/* relative to the first record kept */

	/* the time window and the device filter */
	p = write_file("b.spc", "0,0,512,r,0.0\n1,8,512,r,0.5\n0,16,512,r,1.0\n0,24,512,r,2.0\n0,32,512,r,3.5\n");
	o.device = "0";
	o.skip = 1000000000ULL;
	o.limit = 2000000000ULL;
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 2);
	CHECK_EQ(r[0].sector, 16); CHECK_EQ(r[0].t, 0); CHECK_EQ(r[1].t, 1000000000ULL);
	o = (struct trace_opts){ 0 };
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), -1);
	CHECK(strstr(err, "b.spc:2: device:") && strstr(err, "--device"));
}

/*
 * DiskSim's ASCII trace and MQSim's nanosecond variant: fields, the hex
 * flags (bit 0 read, 0x80 a sync write), and telling the two apart.
 */
static void test_trace_disksim(void)
{
	struct trace_opts o = { 0 };
	struct trace_rec r[8] = { { 0 } };
	struct trace_stats st;
	char err[512];
	const char *p;
	struct trace *t;

	p = write_file("a.disksim", "# DiskSim ASCII\n"
		       "10.500000 3 2048 16 1\n"
		       "11.25 3 4096 8 0\n"
		       "12.000250 3 8192 128 0x80\n"
		       "13 3 100 8 81\n");
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 4);
	CHECK_EQ(r[0].t, 0); CHECK_EQ(r[0].sector, 2048); CHECK_EQ(r[0].nr, 16);
	CHECK(!r[0].write && r[0].sync);
	CHECK_EQ(r[1].t, 750000); CHECK(r[1].write && !r[1].sync); CHECK_EQ(r[1].nr, 8);
	CHECK_EQ(r[2].t, 1500250); CHECK(r[2].write && r[2].sync);
	/* 0x81: the read bit with sync; a read either way */
	CHECK_EQ(r[3].t, 2500000); CHECK(!r[3].write);
	CHECK_EQ(r[3].dep, TD_UNKNOWN); CHECK(!st.has_pids); CHECK_EQ(r[3].pid, 0);
	t = trace_open(p, &o, err, sizeof(err));
	CHECK(t && trace_format(t) == TF_DISKSIM);
	while (t && trace_next(t, &r[0], err, sizeof(err)) > 0)
		;
	CHECK(t && !strcmp(trace_device(t), "3"));
	trace_close(t);

	/* MQSim: whole nanoseconds, 1 read, 0 write; a mean gap of 1000 or more */
	p = write_file("a.mqsim", "0 0 64 8 1\n120000 0 72 8 1\n250000 0 900 16 0\n");
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 3);
	CHECK_EQ(r[1].t, 120000); CHECK_EQ(r[2].t, 250000); CHECK(r[2].write);
	t = trace_open(p, &o, err, sizeof(err));
	CHECK(t && trace_format(t) == TF_DISKSIM_NS);
	trace_close(t);
	/* whole milliseconds with small gaps are DiskSim's */
	p = write_file("b.disksim", "0 0 64 8 1\n2 0 72 8 1\n5 0 900 16 0\n");
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 3);
	CHECK_EQ(r[2].t, 5000000);
	/* --format overrides detection: the same lines as nanoseconds */
	o.fmt = TF_DISKSIM_NS;
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 3);
	CHECK_EQ(r[2].t, 5);
	p = write_file("e.mqsim", "0 0 8 8 1\n1000 0 8 8 1\n2500.5 0 8 8 1\n");
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), -1);
	CHECK(strstr(err, "e.mqsim:3: arrival: '2500.5' is not whole nanoseconds"));
	o.fmt = TF_DISKSIM;
	p = write_file("c.disksim", "7 0 64 8 1\n");
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 1);
	o.fmt = TF_AUTO;
	/* one time that never changes tells nothing: --format is asked for */
	CHECK(!trace_open(p, &o, err, sizeof(err)) && strstr(err, "disksim-ns"));
	/* two devices need --device */
	p = write_file("d.disksim", "0.0 0 64 8 1\n0.5 1 64 8 1\n1.0 0 72 8 1\n");
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), -1);
	CHECK(strstr(err, "d.disksim:2: device:"));
	o.device = "0";
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 2);
	CHECK_EQ(st.ignored, 1);
	o.device = NULL;
}

/*
 * The S suite's start-up traces: columns, process names with dashes,
 * times from the deltas (".0158" too), and each process a chain as the
 * S replayer runs it.
 */
static void test_trace_startup(void)
{
	struct trace_opts o = { 0 };
	struct trace_rec r[12] = { { 0 } };
	struct trace_stats st;
	char err[512];
	const char *p;
	struct trace *t;

	p = write_file("a.startup",
		"my-app-100        0   8  5000 Rand      0    0  RM   2.000000 START\n"
		"my-app-100  .010000   8  7000 Rand   1992    0  RA   2.010000     C\n"
		"my-app-100  .000030   8  7008  Seq      0    8  RA   2.010030     C\n"
		"my-app-100  .000040  32  9000 Rand   1984    0   R   2.010070     C\n"
		"helper-7    .002000  16  1000 Rand  -8032    0   R   2.012070 START\n"
		"my-app-100  .003000  64  9032  Seq   8016   32   R   2.015070     C\n"
		"helper-7    .001000   8  3000 Rand   1984    0  WS   2.016070     C\n"
		"helper-7    .001000   8  3100 Rand     92    0   W   2.017070     C\n"
		"helper-7    .000500   8  3200 Rand     92    0   R   2.017570     C\n");
	CHECK_EQ(read_all(p, &o, r, 12, err, &st), 9);
	CHECK(st.has_pids && !st.has_completions);
	CHECK_EQ(st.procs, 2);
	CHECK_EQ(r[0].t, 0); CHECK_EQ(r[0].pid, 100); CHECK_EQ(r[0].sector, 5000); CHECK_EQ(r[0].nr, 8);
	CHECK_EQ(r[0].dep, TD_FIRST);
	/* after a blocking read: its gap is think time from that one's completion */
	CHECK_EQ(r[1].t, 10000000); CHECK_EQ(r[1].dep, TD_AFTER_DONE); CHECK_EQ(r[1].think, 10000000);
	/* after a readahead: from its issue, not waiting for it */
	CHECK_EQ(r[2].t, 10030000); CHECK_EQ(r[2].dep, TD_OVERLAP);
	/* a blocking read after readaheads waits for them as well */
	CHECK_EQ(r[3].dep, TD_UNKNOWN); CHECK(!r[3].write && r[3].sync);
	CHECK_EQ(r[4].pid, 7); CHECK_EQ(r[4].dep, TD_FIRST); CHECK_EQ(r[4].t, 12070000);
	/* the process's own gap, across the other's request between */
	CHECK_EQ(r[5].dep, TD_AFTER_DONE); CHECK_EQ(r[5].think, 5000000);
	CHECK(r[6].write && r[6].sync); CHECK_EQ(r[6].dep, TD_AFTER_DONE);
	/* a write not marked sync does not block: the next one counts from its issue */
	CHECK(r[7].write && !r[7].sync); CHECK_EQ(r[7].dep, TD_AFTER_DONE);
	CHECK_EQ(r[8].dep, TD_UNKNOWN);
	t = trace_open(p, &o, err, sizeof(err));
	CHECK(t && trace_format(t) == TF_STARTUP);
	while (t && trace_next(t, &r[0], err, sizeof(err)) > 0)
		;
	CHECK(t && trace_proc_name(t, 100) && !strcmp(trace_proc_name(t, 100), "my-app"));
	CHECK(t && trace_proc_name(t, 7) && !strcmp(trace_proc_name(t, 7), "helper"));
	trace_close(t);
}

static void expect_error(const char *name, const char *text, const char *want)
{
	struct trace_opts o = { 0 };
	struct trace_rec r[4];
	char err[512] = "";
	const char *p = write_file(name, text);
	long n = read_all(p, &o, r, 4, err, NULL);

	CHECK_EQ(n, -1);
	if (!strstr(err, want)) {
		harness_failed_checks++;
		fprintf(stderr, "  %s: error '%s' does not say '%s'\n", name, err, want);
	}
}

static void test_trace_errors(void)
{
	struct trace_opts o = { 0 };
	struct trace_rec r[8];
	struct trace_stats st;
	char err[512], big[6000];
	const char *p;

	expect_error("e1.csv", "128166372000000000,hm,0,Read,1048576,4096,20000\n"
		     "128166372000030000,hm,0,Flush,2097152,8192,5000\n", "e1.csv:2: Type: want Read or Write");
	expect_error("e2.csv", "128166372000000000,hm,0,Read,10x,4096,20000\n", "e2.csv:1: Offset:");
	expect_error("e3.spc", "0,1,512,r,0.1\n0,1,512,q,0.2\n", "e3.spc:2: Opcode:");
	expect_error("e4.spc", "0,1,512,r,0.1\n0,abc,512,r,0.2\n", "e4.spc:2: LBA:");
	expect_error("e5.iolog", "fio version 3 iolog\n0 /dev/sdb add\nx /dev/sdb read 0 4096\n",
		     "e5.iolog:3: timestamp:");
	expect_error("e6.iolog", "fio version 3 iolog\n10 /dev/sdb wait 100 0\n", "e6.iolog:2: action: version 3 has no 'wait'");
	expect_error("e7.iolog", "fio version 2 iolog\n/dev/sdb read 0\n", "e7.iolog:2: action:");
	expect_error("e8.blkparse", "  8,0 0 1 0.000000000 100 Q R 2048 + 8 [cat]\n"
		     "  8,0 0 2 0.0000x0000 100 Q R 2048 + 8 [cat]\n", "e8.blkparse:2: time:");
	expect_error("e9.blkparse", "  8,0 0 1 0.000000000 100 Q R 2048 + 8 [cat]\n"
		     "  8,0 0 2 0.000010000 100 Q R banana [cat]\n", "e9.blkparse:2: sector:");
	memset(big, 'x', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = 0;
	memcpy(big, "0,1,512,r,0.1\n", 14);
	expect_error("e10.spc", big, "e10.spc:2: line: longer than");
	/* DiskSim, MQSim and the S start-up traces: file, line and field */
	expect_error("e12.disksim", "0.5 0 8 8 1\n1.5 0 8 8 zz\n", "e12.disksim:2: flags:");
	expect_error("e13.disksim", "0.5 0 8 8 1\n-1.0 0 8 8 1\n", "e13.disksim:2: arrival:");
	expect_error("e14.disksim", "0.5 0 8 8 1\n1.5 0 8 8\n", "e14.disksim:2: record: want ARRIVAL");
	expect_error("e15.disksim", "0.5 0 8 8 1\n1.5 0 x8 8 1\n", "e15.disksim:2: blkno:");
	expect_error("e17.disksim", "0.5 0 18446744073709551000 8 1\n", "e17.disksim:1: sector:");
	expect_error("e18.startup", "a-1 0 8 100 Rand 0 0 R 1.0 START\na-1 .1 8 100 Rnd 0 0 R 1.1 C\n",
		     "e18.startup:2: pattern: want Seq or Rand");
	expect_error("e19.startup", "a-1 0 8 100 Rand 0 0 R 1.0 START\na-1 .1 8 100 Seq 0 0 RQ 1.1 C\n",
		     "e19.startup:2: action:");
	expect_error("e20.startup", "a-1 0 8 100 Rand 0 0 R 1.0 START\na-1 .1 8 100 Seq 0 0 R 1.1 X\n",
		     "e20.startup:2: mark: want START or C");
	expect_error("e21.startup", "a-1 0 8 100 Rand 0 0 R 1.0 START\nabc .1 8 100 Seq 0 0 R 1.1 C\n",
		     "e21.startup:2: process:");
	expect_error("e22.startup", "a-1 0 8 100 Rand 0 0 R 1.0 START\na-1 1.x 8 100 Seq 0 0 R 1.1 C\n",
		     "e22.startup:2: delta:");
	expect_error("e23.startup", "a-1 0 8 100 Rand 0 0 R 1.0 START\na-1 .1 8 100 Seq 4-2 0 R 1.1 C\n",
		     "e23.startup:2: seek:");
	expect_error("e24.startup", "a-1 0 8 100 Rand 0 0 R 1.0 START\na-1 .1 8 100 Seq 0 0 R 1.1\n",
		     "e24.startup:2: record:");
	/* nothing to tell the format by */
	p = write_file("e11.txt", "hello world\n");
	CHECK(!trace_open(p, &o, err, sizeof(err)) && strstr(err, "--format"));
	p = tmp_path("missing");
	CHECK(!trace_open(p, &o, err, sizeof(err)) && strstr(err, "missing"));

	/* --skip-bad: the good records, and a count of the rest */
	p = write_file("s.spc", "0,1,512,r,0.1\n0,x,512,r,0.2\n0,3,512,w,0.3\n0,4,512,z,0.4\n");
	o.skip_bad = true;
	CHECK_EQ(read_all(p, &o, r, 8, err, &st), 2);
	CHECK_EQ(st.bad, 2);
}

/* ---- blktrace binary, written here in either byte order ---- */

struct bt_writer {
	FILE *f;
	bool swap;
};

static uint32_t o32(const struct bt_writer *w, uint32_t x) { return w->swap ? __builtin_bswap32(x) : x; }
static uint64_t o64(const struct bt_writer *w, uint64_t x) { return w->swap ? __builtin_bswap64(x) : x; }

static void bt_put(struct bt_writer *w, uint64_t time, uint32_t action, uint32_t pid,
		   uint64_t sector, uint32_t bytes, const char *pdu)
{
	struct blk_io_trace b;
	uint16_t plen = pdu ? (uint16_t)(strlen(pdu) + 1) : 0;

	memset(&b, 0, sizeof(b));
	b.magic = o32(w, BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION);
	b.time = o64(w, time);
	b.sector = o64(w, sector);
	b.bytes = o32(w, bytes);
	b.action = o32(w, action);
	b.pid = o32(w, pid);
	b.device = o32(w, (8u << 20) | 16u);
	b.pdu_len = w->swap ? __builtin_bswap16(plen) : plen;
	fwrite(&b, sizeof(b), 1, w->f);
	if (plen)
		fwrite(pdu, plen, 1, w->f);
}

#define QR (BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_READ))
#define QW (BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_WRITE))
#define CR (BLK_TA_COMPLETE | BLK_TC_ACT(BLK_TC_READ))

/* two CPU files: a reader on cpu0, a writer and completions on cpu1 */
static const char *bt_make(const char *base, bool swap)
{
	char name[600];
	struct bt_writer w = { NULL, swap };
	const char *b = tmp_path(base);

	snprintf(name, sizeof(name), "%s.blktrace.0", b);
	w.f = fopen(name, "wb");
	bt_put(&w, 0, BLK_TN_PROCESS, 42, 0, 0, "reader");
	bt_put(&w, 1000, QR, 42, 4096, 4096, NULL);
	bt_put(&w, 3000, BLK_TA_ISSUE | BLK_TC_ACT(BLK_TC_READ), 42, 4096, 4096, NULL);
	bt_put(&w, 9000, QR, 42, 4104, 4096, NULL);
	fclose(w.f);
	snprintf(name, sizeof(name), "%s.blktrace.1", b);
	w.f = fopen(name, "wb");
	bt_put(&w, 2000, QW, 77, 100000, 65536, NULL);
	bt_put(&w, 6000, CR, 0, 4096, 4096, NULL);
	bt_put(&w, 7000, BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_DISCARD), 77, 0, 4096, NULL);
	fclose(w.f);
	return b;
}

static void test_trace_blktrace(void)
{
	struct trace_opts o = { 0 };
	struct trace_rec r[8];
	struct trace_stats st;
	char err[512];
	int swap;

	for (swap = 0; swap < 2; swap++) {
		const char *b = bt_make(swap ? "bt-be" : "bt-le", swap);
		struct trace *t;

		CHECK_EQ(read_all(b, &o, r, 8, err, &st), 3);
		/* merged by time across the two files */
		CHECK_EQ(r[0].t, 0); CHECK_EQ(r[0].pid, 42); CHECK_EQ(r[0].sector, 4096); CHECK_EQ(r[0].nr, 8);
		CHECK_EQ(r[1].t, 1000); CHECK(r[1].write); CHECK_EQ(r[1].nr, 128); CHECK_EQ(r[1].pid, 77);
		CHECK_EQ(r[2].t, 8000); CHECK_EQ(r[2].dep, TD_AFTER_DONE); CHECK_EQ(r[2].think, 3000);
		CHECK_EQ(st.files, 2); CHECK_EQ(st.completions, 1); CHECK_EQ(st.ignored, 1);
		t = trace_open(b, &o, err, sizeof(err));
		CHECK(t && trace_format(t) == TF_BLKTRACE);
		while (t && trace_next(t, &r[0], err, sizeof(err)) > 0)
			;
		CHECK(t && trace_proc_name(t, 42) && !strcmp(trace_proc_name(t, 42), "reader"));
		CHECK(t && !strcmp(trace_device(t), "8,16"));
		trace_close(t);
	}
	/* damage: a bad magic and a truncated record, named by byte offset */
	{
		char name[600];
		FILE *f;
		const char *b = tmp_path("bt-bad");

		snprintf(name, sizeof(name), "%s.blktrace.0", b);
		f = fopen(name, "wb");
		{
			struct bt_writer w = { f, false };

			bt_put(&w, 1000, QR, 42, 4096, 4096, NULL);
			fwrite("garbage-garbage-garbage-garbage-garbage-garbage!", 48, 1, f);
		}
		fclose(f);
		CHECK_EQ(read_all(b, &o, r, 8, err, &st), -1);
		CHECK(strstr(err, "bt-bad.blktrace.0: byte 48: magic:"));
		f = fopen(name, "wb");
		{
			struct bt_writer w = { f, false };

			bt_put(&w, 1000, QR, 42, 4096, 4096, NULL);
			fwrite("short", 5, 1, f);
		}
		fclose(f);
		CHECK_EQ(read_all(b, &o, r, 8, err, &st), -1);
		CHECK(strstr(err, "byte 48: record: truncated"));
		/* a pdu cut short by the end of the file is damage too */
		f = fopen(name, "wb");
		{
			struct bt_writer w = { f, false };
			struct blk_io_trace h;

			bt_put(&w, 1000, QR, 42, 4096, 4096, NULL);
			memset(&h, 0, sizeof(h));
			h.magic = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION;
			h.action = QR;
			h.bytes = 4096;
			h.pdu_len = 20;
			fwrite(&h, sizeof(h), 1, f);
			fwrite("short", 5, 1, f);
		}
		fclose(f);
		CHECK_EQ(read_all(b, &o, r, 8, err, &st), -1);
		CHECK(strstr(err, "byte 48: pdu: truncated (20 bytes expected)"));
	}
	/* pdus larger than the reader's buffer, skipped between records */
	{
		static char big[40001];
		char name[600];
		FILE *f;
		const char *b = tmp_path("bt-bigpdu");
		int i;

		memset(big, 'x', sizeof(big) - 1);
		snprintf(name, sizeof(name), "%s.blktrace.0", b);
		f = fopen(name, "wb");
		{
			struct bt_writer w = { f, false };

			for (i = 0; i < 5; i++)
				bt_put(&w, 1000 + (uint64_t)i, QR, 42, 4096 + 8 * (uint64_t)i, 4096, big);
			bt_put(&w, 2000, QW, 43, 9000, 8192, NULL);
		}
		fclose(f);
		CHECK_EQ(read_all(b, &o, r, 8, err, &st), 6);
		CHECK_EQ(r[4].sector, 4128);
		CHECK(r[5].write && r[5].sector == 9000 && r[5].nr == 16);
	}
}

/* read @path, convert to iolog v3, read that: the same requests */
static void roundtrip(const char *path, const struct trace_opts *o)
{
	static struct trace_rec a[20000], b[20000];
	char err[512];
	const char *conv = tmp_path("rt.iolog");
	struct trace *t = trace_open(path, o, err, sizeof(err));
	struct trace_opts o3 = { 0 };
	FILE *f = fopen(conv, "w");
	long long n;
	long na, nb, i, bad = 0;

	CHECK(t && f);
	if (!t || !f)
		return;
	n = trace_write_iolog3(t, f, "/dev/sdq", err, sizeof(err));
	fclose(f);
	trace_close(t);
	na = read_all(path, o, a, 20000, err, NULL);
	nb = read_all(conv, &o3, b, 20000, err, NULL);
	CHECK(n > 0);
	CHECK_EQ(na, n);
	CHECK_EQ(nb, n);
	for (i = 0; i < na && i < nb && i < 20000; i++)
		if (a[i].sector != b[i].sector || a[i].nr != b[i].nr || a[i].write != b[i].write ||
		    a[i].t / 1000 - a[0].t / 1000 != b[i].t / 1000)
			bad++;
	if (bad)
		fprintf(stderr, "  %s: %ld of %ld records differ after convert\n", path, bad, na);
	CHECK_EQ(bad, 0);
}

static const char *fixture_dir(void)
{
	static const char *const c[] = { "tests/traces", "../tests/traces" };
	size_t i;

	for (i = 0; i < 2; i++)
		if (access(c[i], R_OK) == 0)
			return c[i];
	return "tests/traces";
}

/* the VM-captured fixtures: base names of NAME.blktrace.0 */
static int fixtures(char names[][256], int max)
{
	DIR *d = opendir(fixture_dir());
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		size_t l = strlen(e->d_name);

		if (l > 11 && !strcmp(e->d_name + l - 11, ".blktrace.0"))
			snprintf(names[n++], 256, "%s/%.*s", fixture_dir(), (int)(l - 11), e->d_name);
	}
	closedir(d);
	return n;
}

static void test_trace_roundtrip(void)
{
	struct trace_opts o = { 0 };
	char names[16][256];
	int i, n = fixtures(names, 16);

	roundtrip(write_file("r.spc", "0,20941264,8192,W,0.551706\n0,20939840,8192,r,0.554041\n"), &o);
	roundtrip(write_file("r.csv", "128166372000000000,hm,0,Read,1048576,4096,20000\n"
			     "128166372000030000,hm,0,Write,2097152,8192,5000\n"), &o);
	roundtrip(write_file("r.iolog2", "fio version 2 iolog\n/dev/sdb add\n/dev/sdb read 4096 4096\n"
			     "/dev/sdb wait 1500 0\n/dev/sdb write 8192 512\n"), &o);
	roundtrip(write_file("r.iolog3", "fio version 3 iolog\n0 /dev/sdb add\n160 /dev/sdb read 0 4096\n"
			     "509 /dev/sdb write 4096 4096\n"), &o);
	roundtrip(write_file("r.blkparse", "  8,0 0 1 0.000000000 100 Q R 2048 + 8 [cat]\n"
			     "  8,0 0 2 0.000400000 100 Q WS 4096 + 16 [cat]\n"), &o);
	roundtrip(bt_make("rt-bt", true), &o);
	/* the fixtures written for the DiskSim, MQSim and S formats */
	{
		static const char *const fx[] = { "editor.startup", "ssd.mqsim", "two-devices.disksim" };
		char path[300];
		size_t k;

		for (k = 0; k < sizeof(fx) / sizeof(fx[0]); k++) {
			struct trace_opts ok = { 0 };

			snprintf(path, sizeof(path), "%s/%s", fixture_dir(), fx[k]);
			CHECK(access(path, R_OK) == 0);
			if (strstr(fx[k], "two-devices"))
				ok.device = "1";
			roundtrip(path, &ok);
			if (strstr(fx[k], "two-devices")) {
				ok.device = "0";
				roundtrip(path, &ok);
			}
		}
	}
	/* the real traces: at least one must be there */
	CHECK(n > 0);
	for (i = 0; i < n; i++)
		roundtrip(names[i], &o);
}

/*
 * Each VM trace against blkparse: the same Q count and KiB per direction
 * as blkparse's totals, and our blkparse reader on blkparse's text gives
 * the records the binary reader gives.
 */
static void test_trace_vm_fixtures_vs_blkparse(void)
{
	static struct trace_rec a[20000], b[20000];
	char names[16][256], cmd[5000], err[512];
	int i, n = fixtures(names, 16);

	CHECK(n > 0);
	if (system("blkparse -h > /dev/null 2>&1") == -1 || system("command -v blkparse > /dev/null") != 0) {
		fprintf(stderr, "  blkparse is not installed (apt-get install blktrace; setup.sh does)\n");
		CHECK(0);
		return;
	}
	for (i = 0; i < n; i++) {
		const char *txt = tmp_path("fixture.blkparse");
		struct trace_opts o = { 0 };
		struct trace_stats st;
		unsigned long long q[2] = { 0, 0 }, kib[2] = { 0, 0 };
		long na, nb, k, diff = 0;
		FILE *f;
		char line[512];

		snprintf(cmd, sizeof(cmd), "blkparse -i %s > %s 2>/dev/null", names[i], txt);
		CHECK(system(cmd) == 0);
		f = fopen(txt, "r");
		CHECK(f != NULL);
		if (!f)
			continue;
		/* the last "Reads Queued" line is the total over CPUs */
		while (fgets(line, sizeof(line), f)) {
			const char *s = strstr(line, "Reads Queued:"), *w = strstr(line, "Writes Queued:");

			if (s)
				sscanf(s, "Reads Queued: %llu, %lluKiB", &q[0], &kib[0]);
			if (w)
				sscanf(w, "Writes Queued: %llu, %lluKiB", &q[1], &kib[1]);
		}
		fclose(f);
		na = read_all(names[i], &o, a, 20000, err, &st);
		CHECK(na > 0);
		if (st.ios[0] != q[0] || st.bytes[0] / 1024 != kib[0] ||
		    st.ios[1] + st.ignored != q[1]) {
			fprintf(stderr, "  %s: we read %llu reads %llu KiB, %llu writes (+%llu ignored);"
				" blkparse: %llu reads %llu KiB, %llu writes\n", names[i],
				(unsigned long long)st.ios[0], (unsigned long long)(st.bytes[0] / 1024),
				(unsigned long long)st.ios[1], (unsigned long long)st.ignored,
				q[0], kib[0], q[1]);
			CHECK(0);
		}
		CHECK_EQ(st.bytes[1] / 1024, kib[1]);
		nb = read_all(txt, &o, b, 20000, err, NULL);
		CHECK_EQ(nb, na);
		for (k = 0; k < na && k < nb && k < 20000; k++)
			if (a[k].sector != b[k].sector || a[k].nr != b[k].nr || a[k].write != b[k].write ||
			    a[k].pid != b[k].pid || a[k].t != b[k].t)
				diff++;
		CHECK_EQ(diff, 0);
	}
}

/* ---- replay ---- */

/*
 * A reader with think time beside a streaming writer, as a blkparse
 * trace: in the closed loop the schedulers' decisions change when the
 * reader's requests arrive, so anticipation helps the reader; in the open
 * loop every scheduler gets the same arrivals and completes them all.
 */
static const char *replay_trace(void)
{
	const char *p = tmp_path("replay.blkparse");
	FILE *f = fopen(p, "w");
	uint64_t t = 0, seq = 1;
	int i;

	for (i = 0; i < 400; i++) {
		/* reader: 64 KiB reads 1 ms apart (0.5 ms disk, 0.5 ms think) */
		fprintf(f, "8,0 0 %llu %llu.%09llu 10 Q R %llu + 128 [reader]\n", (unsigned long long)seq++,
			(unsigned long long)(t / 1000000000), (unsigned long long)(t % 1000000000),
			(unsigned long long)(2048 + i * 128));
		fprintf(f, "8,0 0 %llu %llu.%09llu 0 C R %llu + 128 [0]\n", (unsigned long long)seq++,
			(unsigned long long)((t + 500000) / 1000000000), (unsigned long long)((t + 500000) % 1000000000),
			(unsigned long long)(2048 + i * 128));
		if (i % 2 == 0)
			fprintf(f, "8,0 1 %llu %llu.%09llu 20 Q W %llu + 256 [writer]\n", (unsigned long long)seq++,
				(unsigned long long)(t / 1000000000), (unsigned long long)(t % 1000000000),
				(unsigned long long)(900000000 + i * 256));
		t += 1000000;
	}
	fclose(f);
	return p;
}

static void test_replay_modes(void)
{
	struct workload w;
	struct replay_spec rs = { .time_scale = 1.0 };
	struct sim_options o = { .drain = true };
	struct sim_result dl, as, op[3];
	char err[512];
	int k;

	memset(&w, 0, sizeof(w));
	sim_default_settings(&w.set);
	rs.path = replay_trace();
	rs.closed = true;
	o.replay = &rs;
	CHECK(sim_run(&w, POL_DEADLINE, &o, &dl, err, sizeof(err)) == 0);
	CHECK(sim_run(&w, POL_AS, &o, &as, err, sizeof(err)) == 0);
	CHECK_EQ(dl.nr_jobs, 2);
	CHECK(!strcmp(dl.jobs[0].name, "reader[10]"));
	CHECK_EQ(dl.jobs[0].ios[0], 400); CHECK_EQ(as.jobs[0].ios[0], 400);
	CHECK_EQ(dl.jobs[1].ios[1], 200);
	CHECK_EQ(dl.violations, 0); CHECK_EQ(as.violations, 0);
	CHECK_EQ(dl.bytes_completed, dl.bytes_added);
	/* closed loop: deadline seeks between reader and writer, so the reader takes longer */
	CHECK(as.jobs[0].runtime * 2 < dl.jobs[0].runtime);
	CHECK_EQ(dl.trace.records, 600);
	sim_result_free(&dl);
	sim_result_free(&as);

	rs.closed = false;
	for (k = 0; k < 3; k++) {
		CHECK(sim_run(&w, (enum sim_policy)k, &o, &op[k], err, sizeof(err)) == 0);
		CHECK_EQ(op[k].jobs[0].ios[0], 400);
		CHECK_EQ(op[k].bytes_completed, 400ULL * 65536 + 200ULL * 131072);
		CHECK_EQ(op[k].violations, 0);
	}
	for (k = 0; k < 3; k++)
		sim_result_free(&op[k]);

	/* time scale: twice as slow a trace takes about twice as long open loop */
	rs.time_scale = 2.0;
	CHECK(sim_run(&w, POL_NOOP, &o, &op[0], err, sizeof(err)) == 0);
	CHECK(op[0].sim_time > 790000000ULL);
	sim_result_free(&op[0]);

	/* past the disk's end: an error naming the record */
	rs.time_scale = 1.0;
	CHECK(settings_apply(&w.set, "capacity", "100m", err, sizeof(err)) == 0);
	CHECK(sim_run(&w, POL_NOOP, &o, &op[0], err, sizeof(err)) == -1);
	CHECK(strstr(err, "replay.blkparse:3: sector:") && strstr(err, "capacity"));
	rs.closed = true;
	err[0] = 0;
	CHECK(sim_run(&w, POL_AS, &o, &op[0], err, sizeof(err)) == -1);
	CHECK(strstr(err, "replay.blkparse:3: sector:") && strstr(err, "capacity"));
}

/*
 * Found by fuzz_trace: in the closed loop, a first request issued at time
 * 0 with every later one waiting on it left no event to run the queue.
 */
static void test_replay_closed_first_request(void)
{
	struct workload w;
	struct replay_spec rs = { .closed = true, .time_scale = 1.0 };
	struct sim_options o = { .drain = true, .replay = &rs };
	struct sim_result r;
	char err[512];

	memset(&w, 0, sizeof(w));
	sim_default_settings(&w.set);
	rs.path = write_file("first.spc", "0,20941264,8192,W,0.551706\n0,20939840,8192,r,0.554041\n");
	CHECK(sim_run(&w, POL_AS, &o, &r, err, sizeof(err)) == 0);
	CHECK_EQ(r.violations, 0);
	CHECK_EQ(r.bytes_completed, 16384);
	sim_result_free(&r);
}

/*
 * Many processes, each starting while others' requests are in flight: the
 * replay's process table grows under requests and a policy that point at
 * its records. It used to be one realloc'd array, so they pointed into
 * freed memory past 16 processes (ASan: heap-use-after-free in as_dispatch).
 */
static void test_replay_many_processes(void)
{
	struct workload w;
	struct replay_spec rs = { .closed = true, .time_scale = 1.0 };
	struct sim_options o = { .drain = true, .replay = &rs };
	struct sim_result r;
	const char *p = tmp_path("many.blkparse");
	FILE *f = fopen(p, "w");
	char err[512];
	int i, k;

	for (i = 0; i < 600; i++)
		fprintf(f, "8,0 0 %d 0.%06d %d Q R %d + 8 [p]\n", i + 1, i * 100,
			1 + i % 150, (i * 7919) % 1000000 * 8);
	fclose(f);
	memset(&w, 0, sizeof(w));
	sim_default_settings(&w.set);
	rs.path = p;
	for (k = 0; k < POL_NR; k++) {
		CHECK(sim_run(&w, (enum sim_policy)k, &o, &r, err, sizeof(err)) == 0);
		CHECK_EQ(r.nr_jobs, 150);
		CHECK_EQ(r.violations, 0);
		CHECK_EQ(r.bytes_completed, 600 * 8 * 512);
		sim_result_free(&r);
	}
}

/* A one-process S start-up trace replayed closed loop on a fixed-latency SSD; its runtime in ns. */
static uint64_t startup_runtime(const char *name, const char *text)
{
	struct workload w;
	struct replay_spec rs = { .closed = true, .time_scale = 1.0 };
	struct sim_options o = { .drain = true, .replay = &rs };
	struct sim_result r;
	char err[512];
	uint64_t rt = 0;

	memset(&w, 0, sizeof(w));
	sim_default_settings(&w.set);
	CHECK(settings_apply(&w.set, "type", "ssd", err, sizeof(err)) == 0);
	CHECK(settings_apply(&w.set, "ssd_read_us", "1000", err, sizeof(err)) == 0);
	CHECK(settings_apply(&w.set, "ssd_channels", "8", err, sizeof(err)) == 0);
	CHECK(settings_apply(&w.set, "queue_depth", "32", err, sizeof(err)) == 0);
	rs.path = write_file(name, text);
	if (sim_run(&w, POL_NOOP, &o, &r, err, sizeof(err))) {
		fprintf(stderr, "  %s: %s\n", name, err);
		CHECK(0);
		return 0;
	}
	CHECK_EQ(r.violations, 0);
	CHECK_EQ(r.nr_jobs, 1);
	if (r.nr_jobs == 1)
		rt = r.jobs[0].runtime;
	sim_result_free(&r);
	return rt;
}

/*
 * The chains of an S start-up trace, replayed: a read waits for its
 * predecessor and then the recorded gap; a readahead goes out the gap
 * after the previous issue; a read after readaheads waits for them.
 */
static void test_replay_startup_chains(void)
{
	uint64_t one = startup_runtime("one.startup", "a-1 0 8 1000 Rand 0 0 R 1.0 START\n");
	uint64_t rr = startup_runtime("rr.startup", "a-1 0 8 1000 Rand 0 0 R 1.0 START\n"
				      "a-1 .020000 8 900000 Rand 0 0 R 1.02 C\n");
	uint64_t rar = startup_runtime("rar.startup", "a-1 0 8 1000 Rand 0 0 RA 1.0 START\n"
				       "a-1 .000010 8 900000 Rand 0 0 R 1.00001 C\n");
	uint64_t rara = startup_runtime("rara.startup", "a-1 0 8 1000 Rand 0 0 RA 1.0 START\n"
					"a-1 .000010 8 900000 Rand 0 0 RA 1.00001 C\n");

	CHECK(one >= 1000000);
	/* think time after the completion: two services and the gap */
	CHECK_EQ(rr, 2 * one + 20000000);
	/* the read waits for the readahead in flight */
	CHECK_EQ(rar, 2 * one);
	/* two readaheads overlap: the second starts 10 us after the first */
	CHECK_EQ(rara, one + 10000);
}

/* Indexes in order of first sight, through growth, pid 0 included. */
static void test_pidmap(void)
{
	struct pidmap m;
	uint32_t pid;

	pidmap_init(&m);
	CHECK_EQ(pidmap_find(&m, 0), -1);
	CHECK_EQ(pidmap_index(&m, 7), -1);
	for (pid = 0; pid < 1000; pid++)
		CHECK_EQ(pidmap_add(&m, pid * 4096), pid);
	CHECK_EQ(pidmap_count(&m), 1000);
	for (pid = 0; pid < 1000; pid++) {
		CHECK_EQ(pidmap_find(&m, pid * 4096), pid);
		CHECK_EQ(pidmap_find(&m, pid * 4096), pid);	/* the cached hit */
	}
	CHECK_EQ(pidmap_find(&m, 1), -1);
	CHECK_EQ(pidmap_find(&m, 999 * 4096), 999);
	pidmap_free(&m);
	CHECK_EQ(pidmap_count(&m), 0);
	CHECK_EQ(pidmap_find(&m, 0), -1);
}

void suite_trace(void)
{
	RUN(test_replay_many_processes);
	RUN(test_pidmap);
	RUN(test_replay_closed_first_request);
	RUN(test_trace_text_formats);
	RUN(test_trace_errors);
	RUN(test_trace_disksim);
	RUN(test_trace_startup);
	RUN(test_trace_blktrace);
	RUN(test_trace_roundtrip);
	RUN(test_trace_vm_fixtures_vs_blkparse);
	RUN(test_replay_modes);
	RUN(test_replay_startup_chains);
	if (tmpdir[0]) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "  could not remove %s\n", tmpdir);
	}
}
