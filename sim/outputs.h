/*
 * outputs.h - what antic-sim writes beside its report for other tools to
 * read: fio's log files (fio-log.c), fio's JSON (fio-json.c) and
 * blktrace's binary files (blktrace-out.c).
 */
#ifndef SIM_OUTPUTS_H
#define SIM_OUTPUTS_H

#include "engine.h"

/* Whether any of @w's jobs asks for a log. */
bool fio_logs_wanted(const struct workload *w);
/*
 * The logs of one run. @suffix goes after each log's prefix (before
 * "_lat"): "" with one scheduler, "-NAME" with several, so that each
 * scheduler's logs have names of their own.
 */
struct fio_logs *fio_logs_new(const char *suffix);
/*
 * An application I/O of job @job (its index in the results, fio's job
 * number less 1) completed @t ns after the job started, @lat ns after
 * its issue; @off is its offset in its file.
 */
void fio_log_io(struct fio_logs *l, size_t job, const struct job_spec *spec,
		uint64_t t, uint64_t lat, int dir, uint64_t bytes, uint64_t off, unsigned ioprio);
/*
 * Write the files (each whole, or none of them) and free @l; 0, or -1
 * with a reason in @err.
 */
int fio_logs_write(struct fio_logs *l, char *err, size_t errlen);
void fio_logs_free(struct fio_logs *l);

/*
 * blktrace's per-CPU binary files: DIR/NAME.blktrace.0 (all events on
 * CPU 0), written to a temporary name and renamed by bt_close.
 */
struct bt_writer *bt_open(const char *dir, const char *name, char *err, size_t errlen);
/* Close @b: keep (rename into place) or remove. 0, or -1 with a reason. */
int bt_close(struct bt_writer *b, bool keep, char *err, size_t errlen);

/* blk.c's events: Q (the bio), G and I (a tag, into the scheduler), D, C */
struct sim;
struct sim_rq;
void bt_rq(struct sim *s, char act, const struct sim_rq *rq);
/* replay.c: a replayed process's pid and recorded name (or NULL) */
struct antic_proc;
uint32_t replay_proc_pid(const struct sim *s, const struct antic_proc *ap, const char **name);

/* fio's --output-format=json (and json+: @plus adds the latency bins) */
struct report_ctx;
void report_fio_json(FILE *f, const struct report_ctx *c, bool plus);

#endif
