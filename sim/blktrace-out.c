/*
 * blktrace-out.c - a simulated run as blktrace's binary output, for
 * blkparse, btt and iowatcher: one per-CPU file, NAME.blktrace.0, of
 * struct blk_io_trace records (<linux/blktrace_api.h>) in this machine's
 * byte order. Each block request gives Q (its bio queued), G and I (it
 * got a tag and went into the scheduler: later than Q when it waited for
 * a tag), D (dispatched to the drive) and C (completed); each process a
 * process notify record, before its first event, naming it. Everything
 * is on CPU 0 of device 8,0; times are the simulated clock's ns.
 * A FLUSH (fsync's cache flush) bypasses the scheduler and is not traced.
 */
#define _POSIX_C_SOURCE 200809L
#include "sim.h"
#include "outputs.h"
#include <errno.h>
#include <linux/blktrace_api.h>
#include <unistd.h>

/* the simulated disk's dev_t as the kernel keeps it: major << 20 | minor */
#define BT_DEV ((8u << 20) | 0u)
/* pids the simulator gives: the flusher, and job i's (i + JOB_PID0) */
#define FLUSHER_PID 90u
#define JOB_PID0 1000u

struct bt_writer {
	FILE *f;
	char *path, *tmp;
	uint32_t seq;
	uint32_t *seen;		/* pids named so far: open addressing, 0 empty */
	size_t cap, n;
	bool failed;
};

struct bt_writer *bt_open(const char *dir, const char *name, char *err, size_t errlen)
{
	struct bt_writer *b = calloc(1, sizeof(*b));
	size_t n = strlen(dir) + strlen(name) + 64;

	if (!b || !(b->path = malloc(n)) || !(b->tmp = malloc(n + 32))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	snprintf(b->path, n, "%s/%s.blktrace.0", dir, name);
	snprintf(b->tmp, n + 32, "%s.tmp.%ld", b->path, (long)getpid());
	b->f = fopen(b->tmp, "wb");
	if (!b->f) {
		snprintf(err, errlen, "--write-blktrace: %s: %s", b->path, strerror(errno));
		goto fail;
	}
	return b;
fail:
	if (b) {
		free(b->path);
		free(b->tmp);
	}
	free(b);
	return NULL;
}

static void put(struct bt_writer *b, uint64_t t, uint32_t action, uint32_t pid,
		uint64_t sector, uint32_t bytes, const void *pdu, uint16_t pdu_len)
{
	struct blk_io_trace r = {
		.magic = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION,
		.sequence = ++b->seq,
		.time = t,
		.sector = sector,
		.bytes = bytes,
		.action = action,
		.pid = pid,
		.device = BT_DEV,
		.cpu = 0,
		.error = 0,
		.pdu_len = pdu_len,
	};

	if (fwrite(&r, sizeof(r), 1, b->f) != 1 || (pdu_len && fwrite(pdu, pdu_len, 1, b->f) != 1))
		b->failed = true;
}

/* true the first time @pid is seen (then it is remembered), false after */
static bool first_sight(struct bt_writer *b, uint32_t pid)
{
	size_t i;

	if (2 * (b->n + 1) > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64, k;
		uint32_t *t = calloc(cap, sizeof(*t));

		if (!t) {
			b->failed = true;
			return false;
		}
		for (k = 0; k < b->cap; k++)
			if (b->seen[k]) {
				for (i = b->seen[k] * 2654435761u & (cap - 1); t[i]; i = (i + 1) & (cap - 1))
					;
				t[i] = b->seen[k];
			}
		free(b->seen);
		b->seen = t;
		b->cap = cap;
	}
	for (i = pid * 2654435761u & (b->cap - 1); b->seen[i]; i = (i + 1) & (b->cap - 1))
		if (b->seen[i] == pid)
			return false;
	b->seen[i] = pid;
	b->n++;
	return true;
}

/* Who submitted @rq: a pid and a name (a job's, the trace's, the flusher's). */
static uint32_t rq_pid(const struct sim *s, const struct sim_rq *rq, const char **name)
{
	const struct antic_proc *ap = rq->rq.proc;
	uintptr_t a = (uintptr_t)ap, lo = (uintptr_t)s->procs,
		  hi = (uintptr_t)(s->procs + s->nprocs);

	if (ap == &s->flusher) {
		*name = "kworker/flush";
		return FLUSHER_PID;
	}
	if (s->nprocs && a >= lo && a < hi) {
		size_t i = (a - lo) / sizeof(*s->procs);

		*name = s->procs[i].name;
		return JOB_PID0 + (uint32_t)i;
	}
	if (s->rp && ap)
		return replay_proc_pid(s, ap, name);
	*name = NULL;
	return 0;
}

void bt_rq(struct sim *s, char act, const struct sim_rq *rq)
{
	struct bt_writer *b = s->o->bt;
	const char *name;
	uint32_t pid = rq_pid(s, rq, &name), a;

	if (b->failed)
		return;
	if (first_sight(b, pid)) {
		char comm[16] = { 0 };

		/* the kernel's comm: TASK_COMM_LEN (16) with its NUL */
		snprintf(comm, sizeof(comm), "%s", name ? name : "");
		put(b, s->now, BLK_TN_PROCESS, pid, 0, 0, comm, (uint16_t)(strlen(comm) + 1));
	}
	switch (act) {
	case 'Q':
		a = BLK_TA_QUEUE;
		break;
	case 'G':
		a = BLK_TA_GETRQ;
		break;
	case 'I':
		a = BLK_TA_INSERT | BLK_TC_ACT(BLK_TC_FS);
		break;
	case 'D':
		a = BLK_TA_ISSUE | BLK_TC_ACT(BLK_TC_FS);
		break;
	case 'R':
		a = BLK_TA_REQUEUE | BLK_TC_ACT(BLK_TC_FS);
		break;
	default:
		a = BLK_TA_COMPLETE | BLK_TC_ACT(BLK_TC_FS);
		break;
	}
	a |= BLK_TC_ACT(rq->rq.write ? BLK_TC_WRITE : BLK_TC_READ);
	/* as the kernel marks them: REQ_SYNC on sync writes, REQ_RAHEAD on read-ahead */
	if (rq->rq.write && rq->rq.sync)
		a |= BLK_TC_ACT(BLK_TC_SYNC);
	if (rq->kind == K_RA)
		a |= BLK_TC_ACT(BLK_TC_AHEAD);
	put(b, s->now, a, pid, rq->rq.sector, rq->rq.nr_sectors * 512u, NULL, 0);
}

int bt_close(struct bt_writer *b, bool keep, char *err, size_t errlen)
{
	int rc = 0;

	if (!b)
		return 0;
	if (keep && (b->failed | ferror(b->f))) {
		snprintf(err, errlen, "--write-blktrace: %s: %s", b->tmp,
			 errno ? strerror(errno) : "write failed");
		keep = false;
		rc = -1;
	}
	if (fclose(b->f) && keep) {
		snprintf(err, errlen, "--write-blktrace: %s: %s", b->tmp, strerror(errno));
		keep = false;
		rc = -1;
	}
	if (keep && rename(b->tmp, b->path)) {
		snprintf(err, errlen, "--write-blktrace: %s: %s", b->path, strerror(errno));
		rc = -1;
		keep = false;
	}
	if (!keep)
		remove(b->tmp);
	free(b->seen);
	free(b->path);
	free(b->tmp);
	free(b);
	return rc;
}
