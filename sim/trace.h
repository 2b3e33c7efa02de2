/*
 * trace.h - streaming readers for real block traces (blktrace binary,
 * blkparse text, MSR Cambridge CSV, SPC/UMass, fio iolog v2/v3), all
 * yielding one record per application I/O in time order, in memory that
 * does not grow with the trace's length; and an fio iolog v3 writer.
 */
#ifndef SIM_TRACE_H
#define SIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum trace_fmt {
	TF_AUTO, TF_BLKTRACE, TF_BLKPARSE, TF_MSR, TF_SPC, TF_IOLOG2, TF_IOLOG3,
	TF_DISKSIM, TF_DISKSIM_NS, TF_STARTUP,
	TF_NR
};

/*
 * How a record relates to its process's previous one, as far as the
 * trace shows it: it came a think time after that one completed
 * (TD_AFTER_DONE), while that one was still outstanding (TD_OVERLAP),
 * or the format records no completions (TD_UNKNOWN).
 */
enum trace_dep { TD_FIRST, TD_AFTER_DONE, TD_OVERLAP, TD_UNKNOWN };

struct trace_rec {
	uint64_t t;		/* ns from the first record kept */
	uint64_t sector;
	uint32_t nr;		/* sectors */
	bool write, sync;
	uint32_t pid;		/* 0 when the format has no processes */
	uint8_t dep;		/* enum trace_dep */
	uint64_t think;		/* ns, for TD_AFTER_DONE */
	uint64_t line;		/* line, or byte offset for blktrace: for errors */
};

struct trace_opts {
	enum trace_fmt fmt;	/* TF_AUTO: detect from content */
	const char *device;	/* keep only this device; NULL: the trace must have one */
	uint64_t skip, limit;	/* ns: drop the first @skip, stop @limit after it (0: all) */
	uint64_t offset;	/* sectors added to every record's (a trace placed elsewhere) */
	bool skip_bad;		/* skip malformed records (counted) instead of stopping */
};

struct trace_stats {
	uint64_t records, ios[2], bytes[2];
	uint64_t ignored;	/* flush, discard, passthrough, other devices, outside the window */
	uint64_t bad;		/* malformed and skipped (--skip-bad) */
	uint64_t completions;	/* completions matched to their process (blktrace, blkparse) */
	uint64_t span;		/* ns from first to last record kept */
	uint64_t procs;
	unsigned files;		/* blktrace: per-CPU files merged */
	bool siblings;		/* blktrace: NAME.blktrace.N given, its sibling CPU files read too */
	bool has_pids, has_completions;
};

struct trace;

/* Open @path (for blktrace also a base name: NAME.blktrace.N). NULL + @err on failure. */
struct trace *trace_open(const char *path, const struct trace_opts *o,
			 char *err, size_t errlen);
/* 1: a record; 0: the end; -1: an error in @err ("FILE:LINE: field: why"). */
int trace_next(struct trace *t, struct trace_rec *r, char *err, size_t errlen);
void trace_close(struct trace *t);
enum trace_fmt trace_format(const struct trace *t);
const struct trace_stats *trace_stats(const struct trace *t);
/* The process name the trace recorded for @pid, or NULL. */
const char *trace_proc_name(const struct trace *t, uint32_t pid);
/* The device the records come from, as --device takes it. */
const char *trace_device(const struct trace *t);

const char *trace_format_name(enum trace_fmt f);
int trace_format_parse(const char *s, enum trace_fmt *f);
/* Every format's name but auto's, as "a, b, ... or z", for help and errors. */
const char *trace_format_list(void);

/*
 * Copy every record of @in to @out as fio iolog v3 for file @target.
 * Returns the number written, or -1 with @err.
 */
long long trace_write_iolog3(struct trace *in, FILE *out, const char *target,
			     char *err, size_t errlen);

#endif
