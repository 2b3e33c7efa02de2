/*
 * trace-int.h - what the trace readers share inside sim/: the reader's
 * state, the path every format's parser hands its I/O to (tr_emit_io
 * below and trace-dep.c: device filter, time window, dependency
 * inference), and the helpers for text fields (trace.c). Not for use
 * outside the trace-*.c files.
 */
#ifndef SIM_TRACE_INT_H
#define SIM_TRACE_INT_H

#include "trace.h"
#include "pidmap.h"
#include "../core/compat.h"
#include <inttypes.h>

#define LINE_MAX_LEN 4096

struct blktrace;

/* requests awaiting completion: enough for any queue; beyond, not tracked */
#define TR_OUT_SLOTS 65536

/* what dependency inference keeps per process: t->procs[pidmap index] */
struct tproc {
	bool seen;
	char comm[17];
	uint32_t outstanding;
	uint64_t done;		/* raw time of its last completion */
	uint64_t last_raw;	/* tr_chain: raw time of its last record */
	bool last_async;	/* tr_chain: that record did not block it */
};

struct outreq {
	uint64_t sector;
	uint32_t nr, pid;
	int next;		/* hash chain or free list */
};

struct trace {
	enum trace_fmt fmt;
	struct trace_opts o;
	char *path;
	FILE *f;		/* the text formats' file */
	uint64_t lineno;
	char line[LINE_MAX_LEN + 2];
	struct blktrace *bt;	/* the binary format's per-CPU files */
	char dev[80];
	bool have_dev, have_t0, ended;
	uint64_t t0, last_t;
	uint64_t v2_time;	/* iolog v2, startup: the sum of their waits or deltas, ns */
	struct trace_stats st;
	struct pidmap pids;
	struct tproc *procs;	/* by the pid's index in pids */
	size_t cap_procs;
	struct outreq *out;
	int *bucket, free_out;
	/* where tr_emit() puts its record: trace_next's caller's, not a copy */
	struct trace_rec *out_rec;
	uint64_t rec_off;	/* blktrace: the byte offset of the record at hand */
	/* for the error when nothing is kept: the devices --device passed over */
	char seen_dev[8][24];
	unsigned nseen_dev;
	uint64_t skipped_to;	/* the latest time (since the first request) --skip dropped */
};

/* Formats @err as "FILE:LINE: FIELD: why" (blktrace: "FILE: byte N: ..."); -1. */
int tr_fail(struct trace *t, char *err, size_t errlen, const char *field,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* trace-dep.c */
int tr_dep_init(struct trace *t);
void tr_dep_free(struct trace *t);
/*
 * Whether records of @dev are kept: the --device one, or the first one
 * seen when none was given (a second one is an error: *rc = -1).
 */
bool tr_dev_keep(struct trace *t, const char *dev, char *err, size_t errlen, int *rc);
/* The same question for a completion, which never claims the device. */
bool tr_dev_passes(const struct trace *t, const char *dev);
void tr_set_comm(struct trace *t, uint32_t pid, const char *s, size_t n);
void tr_complete(struct trace *t, uint64_t time, uint64_t sector, uint64_t nr);
int tr_emit(struct trace *t, uint64_t raw, const char *dev, uint64_t sector,
	    uint64_t nr, bool write, bool sync, uint32_t pid, bool done_known,
	    uint64_t done, char *err, size_t errlen);
void tr_settle(struct trace *t, uint32_t pid, uint64_t raw);
struct tproc *tr_proc_add(struct trace *t, uint32_t pid);

/* Records come in runs from one process: pidmap_find's last hit is inline. */
static inline struct tproc *tr_proc_get(struct trace *t, uint32_t pid)
{
	int i = pidmap_find(&t->pids, pid);

	return i >= 0 ? &t->procs[i] : tr_proc_add(t, pid);
}

/* A request awaiting its completion, found again by its start sector. */
static inline void tr_out_add(struct trace *t, uint64_t sector, uint32_t nr, uint32_t pid)
{
	int i = t->free_out;
	uint32_t b = antic_mix64(sector) & (TR_OUT_SLOTS - 1);

	if (i < 0)
		return;	/* full: this one's completion will not be matched */
	t->free_out = t->out[i].next;
	t->out[i] = (struct outreq){ sector, nr, pid, t->bucket[b] };
	t->bucket[b] = i;
}

/*
 * One application I/O. @done_known: the format gives its completion time
 * (@done, raw ns); @dev NULL: the caller knows the device passes the
 * filter. Returns 1 when a record is pending, 0 when dropped, -1 on error.
 * Inlined into the blktrace reader, whose records cost little else: the
 * call (twelve arguments, six saved registers) was a sixth of reading
 * one. always_inline, because gcc declined the plain hint for a body
 * this long; the text formats, which spend far more on a line, call it
 * through tr_emit().
 */
static inline __attribute__((always_inline)) int
tr_emit_io(struct trace *t, uint64_t raw, const char *dev, uint64_t sector,
	   uint64_t nr, bool write, bool sync, uint32_t pid, bool done_known,
	   uint64_t done, char *err, size_t errlen)
{
	struct trace_rec *r = t->out_rec;
	struct tproc *p;
	uint64_t rel;
	int rc;

	if (dev && !tr_dev_keep(t, dev, err, errlen, &rc)) {
		if (!rc)
			t->st.ignored++;
		return rc;
	}
	if (!nr) {
		t->st.ignored++;
		return 0;
	}
	if (nr > UINT32_MAX)
		return tr_fail(t, err, errlen, "size", "%" PRIu64 " sectors is too large", nr);
	/* its end in bytes must fit 64 bits: replay checks the end, convert writes bytes */
	if (sector > (UINT64_MAX >> 9) - nr || t->o.offset > (UINT64_MAX >> 9) - nr - sector)
		return tr_fail(t, err, errlen, "sector", "%" PRIu64 "%s is beyond 2^64 bytes", sector,
			       t->o.offset ? " with the offset" : "");
	if (!t->have_t0) {
		t->t0 = raw;
		t->have_t0 = true;
	}
	/* merged or clock-skewed input: never go back in time */
	rel = raw > t->t0 ? raw - t->t0 : 0;
	if (rel < t->o.skip) {
		t->st.ignored++;
		t->skipped_to = rel;
		return 0;
	}
	rel -= t->o.skip;
	if (t->o.limit && rel >= t->o.limit) {
		t->ended = true;
		return 0;
	}
	if (rel < t->last_t)
		rel = t->last_t;
	t->last_t = rel;
	p = tr_proc_get(t, pid);
	if (!p)
		return tr_fail(t, err, errlen, "pid", "out of memory");
	r->t = rel;
	/* completions are matched by the recorded sector; only the record moves */
	r->sector = sector + t->o.offset;
	r->nr = (uint32_t)nr;
	r->write = write;
	r->sync = sync || !write;
	r->pid = pid;
	r->think = 0;
	if (!p->seen) {
		r->dep = TD_FIRST;
	} else if (!t->st.has_completions) {
		r->dep = TD_UNKNOWN;
	} else if (p->outstanding) {
		r->dep = TD_OVERLAP;
	} else {
		r->dep = TD_AFTER_DONE;
		r->think = raw > p->done ? raw - p->done : 0;
	}
	p->seen = true;
	if (done_known) {
		/* the process is busy until the latest of its completions */
		if (!p->outstanding || done > p->done)
			p->done = done;
		p->outstanding = p->done > raw;
	} else if (t->st.has_completions) {
		p->outstanding++;
		tr_out_add(t, sector, (uint32_t)nr, pid);
	}
	t->st.records++;
	t->st.ios[write]++;
	t->st.bytes[write] += nr * 512;
	t->st.span = rel;
	return 1;
}


/* trace.c: text fields. 0, or -1 when @s is not one. */
int tr_u64(const char *s, uint64_t *v);
int tr_dec_ns(const char *s, uint64_t *ns);
int tr_split(char *s, char sep, char **f, int max);

/*
 * One line of a text format, in t->line (t->lineno): 1 when it made a
 * record (in *t->out_rec), 0 when it made none, -1 with @err.
 */
int tr_blkparse_line(struct trace *t, char *err, size_t errlen);
int tr_msr_line(struct trace *t, char *err, size_t errlen);
int tr_spc_line(struct trace *t, char *err, size_t errlen);
int tr_iolog_line(struct trace *t, char *err, size_t errlen);
int tr_disksim_line(struct trace *t, char *err, size_t errlen);
int tr_startup_line(struct trace *t, char *err, size_t errlen);

/*
 * Decimal "INT[.FRAC]" (or ".FRAC") in units of @unit ns each, to ns,
 * rounded down; 0, or -1 when @s is not one or overflows.
 */
int tr_dec_units(const char *s, uint64_t unit, uint64_t *ns);

/*
 * trace-dep.c, for formats whose records are a chain per process (the S
 * start-up traces): set the record tr_emit() just made to depend on the
 * process's previous one as the S replayer does. @raw: this record's raw
 * time; @async: it does not block its process (a readahead, a write not
 * marked sync).
 */
void tr_chain(struct trace *t, uint32_t pid, uint64_t raw, bool async);

/* trace-blktrace.c */
bool tr_blktrace_magic(uint32_t m);	/* a record's first word, either byte order */
int tr_blktrace_open(struct trace *t, char *err, size_t errlen);
int tr_blktrace_next(struct trace *t, char *err, size_t errlen);	/* as trace_next */
void tr_blktrace_close(struct trace *t);

#endif
