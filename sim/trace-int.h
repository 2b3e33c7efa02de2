/*
 * trace-int.h - what the trace readers share inside sim/: the reader's
 * state, the path every format's parser hands its I/O to (trace-dep.c:
 * device filter, time window, dependency inference), and the helpers for
 * text fields (trace.c). Not for use outside the trace-*.c files.
 */
#ifndef SIM_TRACE_INT_H
#define SIM_TRACE_INT_H

#include "trace.h"
#include "pidmap.h"

#define LINE_MAX_LEN 4096

struct tproc;
struct outreq;
struct blktrace;

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
