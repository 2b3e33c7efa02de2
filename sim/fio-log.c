/*
 * fio-log.c - fio's log files, as fio 3.33 writes them and fio2gnuplot,
 * fio_generate_plots and fiologparser read them: PREFIX_lat.N.log (with
 * _clat, _slat), PREFIX_bw.N.log, PREFIX_iops.N.log, N the job's number
 * from 1 (per_job_logs=0: PREFIX_lat.log, each job's lines after the
 * previous job's), one line per sample "time, value, direction, block
 * size, [offset,] prio" (time in ms from the job's start, direction 0
 * read 1 write, offset with log_offset=1, prio 1 for a real-time I/O and
 * else 0, or with log_prio=1 the I/O's ioprio value as 0x%04x; 0 in the
 * windows of log_avg_msec).
 * Values: latency in ns (lat and clat alike, the simulator having no
 * submission latency: the slat log is empty, as fio's is for a sync
 * engine), bandwidth in KiB/s (one I/O's: bytes * 10^6 / its latency in
 * ns, as fio computes it), IOPS 1 per I/O. With log_avg_msec=M, one line
 * per direction and window of M ms: the mean latency of the I/Os
 * completed in it (windows without any: no line), KiB/s and IOPS over
 * the window, block size 0. Samples are kept in memory until the run ends.
 * Also fio's options for which percentiles the JSON reports
 * (percentile_list, clat_percentiles, lat_percentiles: fio-json.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "outputs.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct log_rec {
	uint64_t t, lat;	/* ns from the job's start; ns from issue */
	uint64_t off;		/* bytes into its file */
	uint32_t bytes;
	uint8_t dir;
	uint16_t ioprio;	/* class << 13 | level, as ioprio_set's */
};

struct job_log {
	const struct job_spec *spec;
	struct log_rec *r;
	size_t n, cap;
};

struct fio_logs {
	char suffix[96];
	struct job_log *jobs;
	size_t njobs;
	bool failed;		/* out of memory: the logs would be incomplete */
};

static int set_log(const char *v, bool *on, char *name, size_t size)
{
	if (strlen(v) >= size)
		return -1;
	*on = true;
	strcpy(name, v);
	return 0;
}

/*
 * fio's percentile_list: up to 20 percentages above 0 and at most 100,
 * separated by ':' (fio also takes ','), kept in ascending order as fio
 * reports them.
 */
static int percentile_list(struct job_spec *j, const char *v)
{
	char buf[512], *tok, *save = NULL;
	unsigned n = 0, a, b;

	if (strlen(v) >= sizeof(buf))
		return -1;
	strcpy(buf, v);
	for (tok = strtok_r(buf, ":,", &save); tok; tok = strtok_r(NULL, ":,", &save)) {
		char *end;
		double p = strtod(tok, &end);

		if (end == tok || *end || !(p > 0 && p <= 100) || n == 20)
			return -1;
		j->pct[n++] = p;
	}
	if (!n)
		return -1;
	for (a = 1; a < n; a++)
		for (b = a; b > 0 && j->pct[b - 1] > j->pct[b]; b--) {
			double t = j->pct[b];

			j->pct[b] = j->pct[b - 1];
			j->pct[b - 1] = t;
		}
	j->npct = n;
	return 0;
}

int fio_log_option(struct job_spec *j, const char *k, const char *v)
{
	if (!strcmp(k, "write_lat_log"))
		return set_log(v, &j->lat_log, j->lat_log_name, sizeof(j->lat_log_name));
	if (!strcmp(k, "write_bw_log"))
		return set_log(v, &j->bw_log, j->bw_log_name, sizeof(j->bw_log_name));
	if (!strcmp(k, "write_iops_log"))
		return set_log(v, &j->iops_log, j->iops_log_name, sizeof(j->iops_log_name));
	if (!strcmp(k, "log_avg_msec"))
		return parse_uint(v, 86400000, &j->log_avg_msec) ? -1 : 0;
	if (!strcmp(k, "log_offset") || !strcmp(k, "per_job_logs")) {
		bool on;

		if (parse_bool(v, &on))
			return -1;
		if (k[0] == 'l')
			j->log_offset = on;
		else
			j->shared_logs = !on;
		return 0;
	}
	if (!strcmp(k, "log_prio"))
		return parse_bool(v, &j->log_prio) ? -1 : 0;
	if (!strcmp(k, "percentile_list"))
		return percentile_list(j, v);
	if (!strcmp(k, "clat_percentiles") || !strcmp(k, "lat_percentiles")) {
		bool on;

		if (parse_bool(v, &on))
			return -1;
		if (k[0] == 'c')
			j->clat_pct_off = !on;
		else
			j->lat_pct = on;
		return 0;
	}
	return 1;
}

bool fio_logs_wanted(const struct workload *w)
{
	size_t i;

	for (i = 0; i < w->nr_jobs; i++)
		if (w->jobs[i].lat_log || w->jobs[i].bw_log || w->jobs[i].iops_log)
			return true;
	return false;
}

struct fio_logs *fio_logs_new(const char *suffix)
{
	struct fio_logs *l = calloc(1, sizeof(*l));

	if (l)
		snprintf(l->suffix, sizeof(l->suffix), "%s", suffix);
	return l;
}

void fio_log_io(struct fio_logs *l, size_t job, const struct job_spec *spec,
		uint64_t t, uint64_t lat, int dir, uint64_t bytes, uint64_t off, unsigned ioprio)
{
	struct job_log *j;

	if (l->failed || !(spec->lat_log || spec->bw_log || spec->iops_log))
		return;
	if (job >= l->njobs) {
		struct job_log *n = realloc(l->jobs, (job + 1) * sizeof(*n));

		if (!n) {
			l->failed = true;
			return;
		}
		memset(n + l->njobs, 0, (job + 1 - l->njobs) * sizeof(*n));
		l->jobs = n;
		l->njobs = job + 1;
	}
	j = &l->jobs[job];
	j->spec = spec;
	if (j->n == j->cap) {
		size_t cap = j->cap ? 2 * j->cap : 1024;
		struct log_rec *r = realloc(j->r, cap * sizeof(*r));

		if (!r) {
			l->failed = true;
			return;
		}
		j->r = r;
		j->cap = cap;
	}
	j->r[j->n++] = (struct log_rec){ t, lat, off, (uint32_t)bytes, (uint8_t)dir, (uint16_t)ioprio };
}

enum { L_LAT, L_CLAT, L_SLAT, L_BW, L_IOPS };

static uint64_t per_io_value(int kind, const struct log_rec *r)
{
	switch (kind) {
	case L_BW:
		return r->lat ? (uint64_t)r->bytes * 1000000ULL / r->lat : 0;
	case L_IOPS:
		return 1;
	default:
		return r->lat;
	}
}

static void write_avg(FILE *f, int kind, const struct job_log *j, uint64_t msec)
{
	uint64_t win = msec * 1000000ULL, end, cnt[2], sum[2];
	bool active[2] = { false, false };
	size_t i = 0, k;
	int d;

	for (k = 0; k < j->n; k++)
		active[j->r[k].dir] = true;
	if (!j->n)
		return;
	/* every window up to the one holding the last sample */
	for (end = win; i < j->n; end += win) {
		cnt[0] = cnt[1] = sum[0] = sum[1] = 0;
		for (; i < j->n && j->r[i].t < end; i++) {
			cnt[j->r[i].dir]++;
			sum[j->r[i].dir] += kind == L_BW ? j->r[i].bytes : j->r[i].lat;
		}
		for (d = 0; d < 2; d++) {
			uint64_t v;

			if (!active[d])
				continue;
			if (kind == L_BW)
				v = sum[d] * 1000 / msec / 1024;
			else if (kind == L_IOPS)
				v = cnt[d] * 1000 / msec;
			else if (cnt[d])
				v = sum[d] / cnt[d];
			else
				continue;	/* no latency to average */
			fprintf(f, "%llu, %llu, %d, 0, %s0\n", (unsigned long long)(end / 1000000),
				(unsigned long long)v, d, j->spec->log_offset ? "0, " : "");
		}
	}
}

static void write_log(FILE *f, int kind, const struct job_log *j)
{
	size_t k;

	if (kind == L_SLAT)
		return;
	if (j->spec->log_avg_msec) {
		write_avg(f, kind, j, j->spec->log_avg_msec);
		return;
	}
	for (k = 0; k < j->n; k++) {
		fprintf(f, "%llu, %llu, %u, %u, ", (unsigned long long)(j->r[k].t / 1000000),
			(unsigned long long)per_io_value(kind, &j->r[k]), j->r[k].dir, j->r[k].bytes);
		if (j->spec->log_offset)
			fprintf(f, "%llu, ", (unsigned long long)j->r[k].off);
		/* fio 3.33's: the ioprio value in hex, or 1 for a real-time I/O */
		if (j->spec->log_prio)
			fprintf(f, "0x%04x\n", j->r[k].ioprio);
		else
			fprintf(f, "%d\n", j->r[k].ioprio >> 13 == 1);
	}
}

/* The files written so far (temporary names), renamed once all are whole. */
struct pending {
	char tmp[640], path[512];
};

int fio_logs_write(struct fio_logs *l, char *err, size_t errlen)
{
	static const char *const type[] = { "lat", "clat", "slat", "bw", "iops" };
	struct pending *p = NULL;
	size_t np = 0, cap = 0, i, k;
	int kind, rc = -1;

	if (l->failed) {
		snprintf(err, errlen, "fio logs: out of memory");
		goto out;
	}
	for (i = 0; i < l->njobs; i++) {
		const struct job_log *j = &l->jobs[i];

		if (!j->spec)
			continue;
		for (kind = L_LAT; kind <= L_IOPS; kind++) {
			const char *pre;
			FILE *f;
			bool on = kind <= L_SLAT ? j->spec->lat_log :
				  kind == L_BW ? j->spec->bw_log : j->spec->iops_log;

			if (!on)
				continue;
			pre = kind <= L_SLAT ? j->spec->lat_log_name :
			      kind == L_BW ? j->spec->bw_log_name : j->spec->iops_log_name;
			if (!*pre)
				pre = j->spec->name;
			if (np == cap) {
				struct pending *n = realloc(p, (cap = cap ? 2 * cap : 16) * sizeof(*n));

				if (!n) {
					snprintf(err, errlen, "fio logs: out of memory");
					goto out;
				}
				p = n;
			}
			if (snprintf(p[np].path, sizeof(p[np].path), "%s%s_%s%s%.0zu.log", pre,
				     l->suffix, type[kind], j->spec->shared_logs ? "" : ".",
				     j->spec->shared_logs ? (size_t)0 : i + 1) >= (int)sizeof(p[np].path) ||
			    snprintf(p[np].tmp, sizeof(p[np].tmp), "%s.tmp.%ld", p[np].path,
				     (long)getpid()) >= (int)sizeof(p[np].tmp)) {
				snprintf(err, errlen, "fio logs: job %zu: the log's name is too long", i + 1);
				goto out;
			}
			/* per_job_logs=0: a later job of the prefix goes on after the earlier */
			for (k = 0; k < np && strcmp(p[k].path, p[np].path); k++)
				;
			f = fopen(p[k].tmp, k < np ? "a" : "w");
			if (!f) {
				snprintf(err, errlen, "fio logs: %s: %s", p[np].path, strerror(errno));
				goto out;
			}
			if (k == np)
				np++;
			write_log(f, kind, j);
			if (ferror(f) | fclose(f)) {
				snprintf(err, errlen, "fio logs: %s: %s", p[k].path, strerror(errno));
				goto out;
			}
		}
	}
	for (k = 0; k < np; k++)
		if (rename(p[k].tmp, p[k].path)) {
			snprintf(err, errlen, "fio logs: %s: %s", p[k].path, strerror(errno));
			goto out;
		}
	np = 0;
	rc = 0;
out:
	for (k = 0; k < np; k++)
		remove(p[k].tmp);
	free(p);
	return rc;
}

void fio_logs_free(struct fio_logs *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->njobs; i++)
		free(l->jobs[i].r);
	free(l->jobs);
	free(l);
}
