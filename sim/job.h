/*
 * job.h - workload descriptions as antic-sim reads them from fio-style
 * job files, and the simulator settings a job file or the command line
 * may change.
 */
#ifndef SIM_JOB_H
#define SIM_JOB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../core/anticipatory.h"
#include "../core/deadline.h"
#include "../core/disk.h"

enum rw_mode { RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RW, RW_RANDRW };
/* fio's file_service_type: which of a job's files the next I/O goes to */
enum file_service { FS_ROUNDROBIN, FS_SEQUENTIAL, FS_RANDOM };
enum distribution { DIST_UNIFORM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED };

struct job_spec {
	char name[64];
	int line;		/* of the section header */
	int rw;
	unsigned rwmixread;	/* percent */
	uint64_t bs;
	uint64_t size;		/* bytes per job over all its files */
	uint64_t filesize_lo, filesize_hi;
	unsigned nrfiles;
	int file_service;
	unsigned file_service_nr;	/* I/Os before switching (roundrobin:N, random:N) */
	uint64_t file_gap;	/* antic extension: bytes between files */
	uint64_t offset;
	uint64_t offset_increment;	/* added to offset per numjobs clone */
	uint64_t io_size;	/* bytes to do per loop, 0 = size */
	uint64_t number_ios;	/* stop after this many I/Os, 0 = no limit */
	bool norandommap;	/* random I/O samples with replacement */
	bool randseed_given;
	uint64_t randseed;
	unsigned kb_base;	/* 1024 (fio's default and its quirk) or 1000 */
	int64_t hole;		/* rw=read:8k: bytes skipped (<0: back) after each I/O */
	uint64_t bs_max;	/* bs=4k-16k, bsrange: a random multiple of bs up to this */
	uint64_t blockalign;	/* random offsets on this boundary (a multiple of bs) */
	unsigned nsplit;	/* bssplit=4k/60:64k/40 */
	struct { uint64_t bs; unsigned pct; } split[16];
	int dist;		/* random_distribution */
	double dist_arg;
	unsigned nzones;	/* zoned: access % to range % of the region, in order */
	struct { unsigned access, range; } zones[16];
	uint64_t zonesize, zoneskip;	/* zonemode=strided */
	unsigned size_pct;	/* size=N%: of the device */
	uint64_t rate;		/* bytes/s, 0 = none */
	uint64_t rate_iops;
	uint64_t ramp_time;	/* ns before results count */
	bool stonewall;		/* start when every earlier job has ended */
	char wait_for[64];	/* start when the job of this name has ended */
	bool poisson;		/* rate_process=poisson: random gaps at the rate */
	char filename[256];	/* fio's list: names separated by ':' */
	unsigned numjobs;
	uint64_t thinktime;	/* ns */
	unsigned thinktime_blocks;
	unsigned iodepth;
	/*
	 * fio's refill rule once the queue is full: reap at least reap_min
	 * (iodepth_batch_complete_min; 0 acts as 1), again until at most
	 * iodepth_low are in flight (0: iodepth), then fill it again
	 */
	unsigned iodepth_low, reap_min;
	unsigned openfiles;	/* 0: all the job's files */
	bool keep_cache;	/* invalidate=0: the job's region is not dropped from the cache at each open */
	/*
	 * fio's directory, which its own names go under, and the one that
	 * was set when filename= came (fio prefixes a filename with the
	 * directory given before it only): with filename, a file's path
	 */
	char directory[256], filename_dir[256];
	/*
	 * fio's filename_format: "" for its default. antic-sim takes one
	 * that names each file of a job apart ($filenum), as it gives every
	 * job its own files (jobfile.c refuses jobs or clones that fio would
	 * have share them); layout.c names the files by it
	 */
	char filename_format[128];
	/*
	 * fio's I/O priorities: the job's class (ioprio_set's: 0 none, 1
	 * real-time, 2 best effort, 3 idle) and, for direct I/O, the
	 * percentage of reads [0] and writes [1] sent with cmdprio_class.
	 */
	unsigned prioclass;
	unsigned prio;		/* the level within the class (fio's logs show it) */
	bool prio_given;	/* prio without prioclass: best effort, as fio sets it */
	unsigned cmdprio_pct[2];
	unsigned cmdprio_class[2];
	bool async_engine;
	bool direct;
	bool osync;
	uint64_t runtime;	/* ns, 0 = none */
	bool time_based;
	uint64_t startdelay;	/* ns */
	unsigned fsync_every;
	bool end_fsync;
	bool exitall;
	unsigned loops;
	int ioscheduler;	/* ioscheduler=: its antic_policy_find index + 1, 0 = none */
	/*
	 * fio's logs (fio-log.c): each prefix's presence asks for its log,
	 * an empty prefix means the job's name; log_avg_msec 0 logs every I/O
	 */
	bool lat_log, bw_log, iops_log;
	char lat_log_name[128], bw_log_name[128], iops_log_name[128];
	uint64_t log_avg_msec;
	bool log_offset;	/* an offset column before prio */
	bool log_prio;		/* the prio column: the ioprio value, not the real-time flag */
	bool shared_logs;	/* per_job_logs=0: PREFIX_lat.log, the jobs of a prefix in one file */
	/*
	 * fio's percentile_list (ascending; none given: fio's default 17),
	 * clat_percentiles (default on) and lat_percentiles (default off)
	 */
	unsigned npct;
	double pct[20];
	bool clat_pct_off, lat_pct;
};

struct sim_settings {
	uint64_t seed;
	struct disk_params disk;
	struct as_tunables as;
	bool as_explicit_antic;	/* antic_expire given: keep it on an SSD too */
	struct dl_tunables dl;
	uint64_t mem_bytes;
	unsigned dirty_ratio, dirty_background_ratio;
	uint64_t read_ahead_kb;
	uint64_t max_sectors_kb;
	unsigned nr_requests;	/* flusher's limit on queued writeback */
	uint64_t max_time;	/* ns of virtual time before giving up */
	/* ns from an I/O's completion to its process's next request (wake-up) */
	uint64_t wakeup;
	/*
	 * Writeback throttling as the kernel's wbt on a rotational disk
	 * (writeback.c has its rules): the flusher keeps a quarter of a depth
	 * of 16 outstanding, all of it while a writer is dirty-throttled, the
	 * depth scaled by the drive's read latency. 0 turns it off (bfq does
	 * in the kernel).
	 */
	bool wbt;
	/*
	 * Faults: of every thousand commands the drive finishes, this many
	 * it gives back instead (a requeue, as SCSI error handling makes of
	 * a retried command); the block layer sends the command to the drive
	 * again around the scheduler. 0 (the default): none.
	 */
	unsigned requeue_per_mille;
	/*
	 * A file of "SECTOR BYTES PATH" lines: where a file system put the
	 * jobs' files (bench/fs-layout.sh writes one); the files it names
	 * start there, the rest where layout.c puts them. Empty: none. A
	 * job file's relative path is joined to the job file's directory
	 * (jobfile.c); --set's is left as given.
	 */
	char layout[256];
	/* the jobs' ioscheduler=, as an antic_policy_find index + 1; 0 = none */
	int ioscheduler;
};

struct workload {
	struct job_spec *jobs;
	size_t nr_jobs;
	struct sim_settings set;
};

void sim_default_settings(struct sim_settings *s);
/*
 * Parse a job file. On error returns -1 and writes "FILE:LINE: ..." to
 * @err; nothing is left allocated.
 */
int jobfile_load(const char *path, struct workload *w, char *err, size_t errlen);
int jobfile_parse(const char *name, const char *text, struct workload *w,
		  char *err, size_t errlen);
void workload_free(struct workload *w);
/*
 * Apply one NAME=VALUE setting (tunable, disk parameter or simulator
 * setting). Returns 0, or -1 with a reason in @err.
 */
int settings_apply(struct sim_settings *s, const char *name, const char *value,
		   char *err, size_t errlen);

/* jobopts.c: one job option; 0, 1 for an unknown name, -1 for a bad value */
int job_option(struct job_spec *j, const char *k, const char *v);
/*
 * Why job_option returned @rc (1 or -1) for K=V, as fio would put it:
 * "did you mean" for a near miss, "fio's X is not supported by antic-sim"
 * for fio's own features, the valid values for a list; no file or line.
 */
void job_option_error(const char *k, const char *v, int rc, char *why, size_t n);
/* The nearest of @names to @s when near enough to be a slip, else NULL. */
const char *nearest_name(const char *s, const char *const *names, size_t n);
/* The @i-th setting's name (settings_apply), or NULL past the last. */
const char *settings_name(size_t i);
/* The @i-th option name job_option takes (reporting-only ones aside), or NULL. */
const char *job_option_name(size_t i);
/*
 * fio-log.c: write_lat_log, write_bw_log, write_iops_log, log_avg_msec,
 * percentile_list, clat_percentiles, lat_percentiles; the same returns
 */
int fio_log_option(struct job_spec *j, const char *k, const char *v);
/* @s without its leading white space, its trailing cut off in place. */
char *trim_space(char *s);
/* fio-style value parsers; 0 on success. */
int parse_size(const char *s, uint64_t *out);
int parse_time(const char *s, uint64_t unit_ns, uint64_t *out);
int parse_uint(const char *s, uint64_t max, uint64_t *out);
/* fio's boolean: "1" or nothing for true, "0" for false */
int parse_bool(const char *s, bool *out);
/* Format a reason into @err; returns -1, the error every parser returns. */
int seterr(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
