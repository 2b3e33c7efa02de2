/*
 * fio-json.c - --output-format=json (and json+) in fio 3.33's shape, so
 * that what reads fio's JSON reads antic-sim's: with one scheduler the
 * document is fio's (fio version, timestamp, time, global options, jobs[],
 * disk_util[]); with several, one such document per scheduler under
 * "schedulers". What fio has no field for (the simulated time, the disk
 * model's counters, anticipatory's counters) is under "antic" in each.
 *
 * Fields the simulator has nothing to put in hold fio's zero, as fio's own
 * report holds for what it did not measure: slat_ns (no submission
 * latency is modelled, so lat_ns equals clat_ns, N 0 as for fio's sync
 * engines), trim, usr_cpu, sys_cpu, ctx, majf, minf (no CPU is
 * modelled), merges, and a replayed process's iodepth_level (measured
 * for jobs only). "timestamp" is the time of writing, or
 * $SOURCE_DATE_EPOCH when set (reproducible output).
 */
#define _POSIX_C_SOURCE 200809L
#include "report.h"
#include "outputs.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FIO_JSON_VERSION "3.33"
#define ANTIC_SIM_VERSION "0.1"

/* fio's default percentile_list */
static const double pct_list[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5,
				   99.9, 99.95, 99.99 };

/* A writer of fio's layout: two spaces a level, "key" : value. */
struct jw {
	FILE *f;
	int depth;
	bool first;
};

static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void jkey(struct jw *w, const char *k)
{
	fprintf(w->f, "%s\n%*s", w->first ? "" : ",", 2 * w->depth, "");
	w->first = false;
	if (k) {
		jstr(w->f, k);
		fputs(" : ", w->f);
	}
}

static void jopen(struct jw *w, const char *k, char c)
{
	jkey(w, k);
	fputc(c, w->f);
	w->depth++;
	w->first = true;
}

static void jclose(struct jw *w, char c)
{
	w->depth--;
	fprintf(w->f, "\n%*s%c", 2 * w->depth, "", c);
	w->first = false;
}

static void jint(struct jw *w, const char *k, uint64_t v)
{
	jkey(w, k);
	fprintf(w->f, "%llu", (unsigned long long)v);
}

static void jdbl(struct jw *w, const char *k, double v)
{
	jkey(w, k);
	fprintf(w->f, "%f", v);
}

static void jstring(struct jw *w, const char *k, const char *v)
{
	jkey(w, k);
	jstr(w->f, v);
}

/* min, max, mean, stddev, N of a latency, as fio's clat_ns and lat_ns */
static void lat_stats(struct jw *w, const struct hist *h)
{
	jint(w, "min", h->n ? h->min : 0);
	jint(w, "max", h->max);
	jdbl(w, "mean", hist_mean_f(h));
	jdbl(w, "stddev", hist_stddev(h));
	jint(w, "N", h->n);
}

static void zero_lat(struct jw *w, const char *k)
{
	static const struct hist none;

	jopen(w, k, '{');
	lat_stats(w, &none);
	jclose(w, '}');
}

static double rate_mean(const struct rate_stat *r)
{
	return r->n ? r->sum / (double)r->n : 0;
}

/* the sample standard deviation, as fio's bw_dev and iops_stddev */
static double rate_dev(const struct rate_stat *r)
{
	double n = (double)r->n, var, x, root;
	int i;

	if (r->n < 2)
		return 0;
	var = (r->sq - r->sum * r->sum / n) / (n - 1);
	if (!(var > 0))
		return 0;
	/* sqrt without libm, Newton's method from above */
	for (root = var > 1 ? var : 1, i = 0; i < 2000; i++) {
		x = (root + var / root) / 2;
		if (x >= root)
			break;
		root = x;
	}
	return root;
}

/* "percentile" (the job's percentile_list, else fio's default) and json+'s "bins" */
static void percentiles(struct jw *w, const struct job_result *j, const struct hist *h, bool plus)
{
	const double *list = j->spec && j->spec->npct ? j->spec->pct : pct_list;
	size_t q, n = j->spec && j->spec->npct ? j->spec->npct : sizeof(pct_list) / sizeof(pct_list[0]);
	char key[32];
	unsigned b;

	if (!h->n)
		return;
	jopen(w, "percentile", '{');
	for (q = 0; q < n; q++) {
		snprintf(key, sizeof(key), "%f", list[q]);
		jint(w, key, hist_percentile(h, list[q] / 100));
	}
	jclose(w, '}');
	if (!plus)
		return;
	/* json+: each bucket's count at the latency it stands for */
	jopen(w, "bins", '{');
	for (b = 0; b < HIST_BUCKETS; b++)
		if (h->b[b]) {
			snprintf(key, sizeof(key), "%llu", (unsigned long long)hist_bucket_value(b));
			jint(w, key, h->b[b]);
		}
	jclose(w, '}');
}

static void dir_obj(struct jw *w, const char *name, const struct job_result *j, int dir,
		    double agg_kib, bool plus)
{
	static const struct job_result none;
	const struct hist *h;
	double bw;

	if (dir < 0)
		j = &none, dir = 0;
	h = &j->lat[dir];
	bw = job_bw(j, dir);
	jopen(w, name, '{');
	jint(w, "io_bytes", j->io_bytes[dir]);
	jint(w, "io_kbytes", j->io_bytes[dir] / 1024);
	jint(w, "bw_bytes", (uint64_t)bw);
	jint(w, "bw", (uint64_t)(bw / 1024));
	jdbl(w, "iops", j->runtime ? (double)j->ios[dir] * 1e9 / (double)j->runtime : 0);
	jint(w, "runtime", j->ios[dir] ? j->runtime / 1000000 : 0);
	jint(w, "total_ios", j->ios[dir]);
	jint(w, "short_ios", 0);
	jint(w, "drop_ios", 0);
	zero_lat(w, "slat_ns");
	jopen(w, "clat_ns", '{');
	lat_stats(w, h);
	if (!(j->spec && j->spec->clat_pct_off))
		percentiles(w, j, h, plus);
	jclose(w, '}');
	/* no submission latency: issue to completion is all of it */
	jopen(w, "lat_ns", '{');
	lat_stats(w, h);
	if (j->spec && j->spec->lat_pct)
		percentiles(w, j, h, plus);
	jclose(w, '}');
	jint(w, "bw_min", j->bw[dir].n ? j->bw[dir].min : 0);
	jint(w, "bw_max", j->bw[dir].max);
	jdbl(w, "bw_agg", agg_kib > 0 && j->bw[dir].n ?
	     rate_mean(&j->bw[dir]) * 100 / agg_kib : 0);
	jdbl(w, "bw_mean", rate_mean(&j->bw[dir]));
	jdbl(w, "bw_dev", rate_dev(&j->bw[dir]));
	jint(w, "bw_samples", j->bw[dir].n);
	jint(w, "iops_min", j->iops[dir].n ? j->iops[dir].min : 0);
	jint(w, "iops_max", j->iops[dir].max);
	jdbl(w, "iops_mean", rate_mean(&j->iops[dir]));
	jdbl(w, "iops_stddev", rate_dev(&j->iops[dir]));
	jint(w, "iops_samples", j->iops[dir].n);
	jclose(w, '}');
}

/* fio's latency_ns, _us, _ms: percent of I/Os by latency, both directions */
static void lat_buckets(struct jw *w, const struct job_result *j)
{
	static const unsigned lim[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 };
	static const char *const name[] = { "latency_ns", "latency_us", "latency_ms" };
	static const uint64_t unit[] = { 1, 1000, 1000000 };
	double pct[3][12] = { { 0 } };
	uint64_t total = j->lat[0].n + j->lat[1].n;
	unsigned b, u, k;
	int d;

	for (d = 0; d < 2; d++)
		for (b = 0; b < HIST_BUCKETS; b++) {
			uint64_t v = hist_bucket_value(b);

			if (!j->lat[d].b[b])
				continue;
			u = v < 1000 ? 0 : v < 1000000 ? 1 : 2;
			for (k = 0; k < 11 && v / unit[u] >= lim[k]; k++)
				;
			pct[u][k] += 100.0 * j->lat[d].b[b] / (double)total;
		}
	for (u = 0; u < 3; u++) {
		char key[16];

		jopen(w, name[u], '{');
		for (k = 0; k < (u == 2 ? 11u : 10u); k++) {
			snprintf(key, sizeof(key), "%u", lim[k]);
			jdbl(w, key, pct[u][k]);
		}
		if (u == 2)
			jdbl(w, ">=2000", pct[u][11]);
		jclose(w, '}');
	}
}

static void depth_obj(struct jw *w, const char *k, const char *const *keys, const double *v)
{
	int i;

	jopen(w, k, '{');
	for (i = 0; i < 7; i++)
		jdbl(w, keys[i], v[i]);
	jclose(w, '}');
}

/* The options of a job file, by section, as written: fio's "job options". */
struct opt { char *sect, *key, *val; };
struct opts { struct opt *o; size_t n; };

static void opts_read(struct opts *os, const char *path)
{
	FILE *f = path ? fopen(path, "r") : NULL;
	char line[4096], sect[256] = "";

	os->o = NULL;
	os->n = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *s = trim_space(line), *eq;
		struct opt *n;

		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *e = strchr(s, ']');

			if (e) {
				*e = 0;
				snprintf(sect, sizeof(sect), "%s", s + 1);
			}
			continue;
		}
		if (!*sect)
			continue;
		eq = strchr(s, '=');
		if (eq)
			*eq++ = 0;
		n = realloc(os->o, (os->n + 1) * sizeof(*n));
		if (!n)
			break;
		os->o = n;
		n[os->n].sect = strdup(sect);
		n[os->n].key = strdup(trim_space(s));
		n[os->n].val = strdup(eq ? trim_space(eq) : "");
		if (!n[os->n].sect || !n[os->n].key || !n[os->n].val) {
			free(n[os->n].sect);
			free(n[os->n].key);
			free(n[os->n].val);
			break;
		}
		os->n++;
	}
	fclose(f);
}

static void opts_free(struct opts *os)
{
	size_t i;

	for (i = 0; i < os->n; i++) {
		free(os->o[i].sect);
		free(os->o[i].key);
		free(os->o[i].val);
	}
	free(os->o);
}

static void opts_obj(struct jw *w, const char *k, const struct opts *os, const char *sect,
		     bool always)
{
	size_t i;
	bool any = false;

	for (i = 0; i < os->n; i++)
		any |= !strcmp(os->o[i].sect, sect);
	if (!any && !always)
		return;
	jopen(w, k, '{');
	for (i = 0; i < os->n; i++)
		if (!strcmp(os->o[i].sect, sect))
			jstring(w, os->o[i].key, os->o[i].val);
	jclose(w, '}');
}

static void job_obj(struct jw *w, const struct sim_result *r, const struct job_result *j,
		    unsigned group, const struct opts *os, const double *agg, bool plus)
{
	static const char *const lvl[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const sub[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	double depth[7] = { 0 }, batch[7] = { 0 };
	uint64_t n = 0;
	int i;

	jopen(w, NULL, '{');
	jstring(w, "jobname", j->spec ? j->spec->name : j->name);
	jint(w, "groupid", group);
	jint(w, "error", 0);
	jint(w, "eta", 0);
	jint(w, "elapsed", (r->sim_time + 999999999ULL) / 1000000000ULL);
	opts_obj(w, "job options", os, j->spec ? j->spec->name : "", true);
	dir_obj(w, "read", j, 0, agg[0], plus);
	dir_obj(w, "write", j, 1, agg[1], plus);
	dir_obj(w, "trim", j, -1, 0, plus);
	jopen(w, "sync", '{');
	jint(w, "total_ios", j->sync.n);
	jopen(w, "lat_ns", '{');
	lat_stats(w, &j->sync);
	if (j->sync.n)
		percentiles(w, j, &j->sync, false);
	jclose(w, '}');
	jclose(w, '}');
	jint(w, "job_runtime", j->runtime / 1000000);
	jdbl(w, "usr_cpu", 0);
	jdbl(w, "sys_cpu", 0);
	jint(w, "ctx", 0);
	jint(w, "majf", 0);
	jint(w, "minf", 0);
	for (i = 0; i < 7; i++)
		n += j->depth[i];
	for (i = 0; i < 7; i++)
		depth[i] = n ? 100.0 * (double)j->depth[i] / (double)n : 0;
	/* a replayed process's depth is not measured: fio's zeros */
	depth_obj(w, "iodepth_level", lvl, depth);
	/* the simulator submits and reaps one I/O a call: fio's 1-4 bucket */
	batch[1] = j->ios[0] + j->ios[1] ? 100 : 0;
	depth_obj(w, "iodepth_submit", sub, batch);
	depth_obj(w, "iodepth_complete", sub, batch);
	lat_buckets(w, j);
	jint(w, "latency_depth", j->spec ? j->spec->iodepth : 1);
	jint(w, "latency_target", 0);
	jdbl(w, "latency_percentile", 100);
	jint(w, "latency_window", 0);
	jclose(w, '}');
}

/* fio's groups: a job with stonewall starts the next (its clones stay in it) */
static bool group_starts(const struct sim_result *r, size_t i)
{
	const struct job_spec *sp = r->jobs[i].spec;

	return i && sp && sp->stonewall && sp != r->jobs[i - 1].spec;
}

static void fio_doc(struct jw *w, const char *key, const struct report_ctx *c,
		    const struct sim_result *r, const struct opts *os, bool plus)
{
	const struct disk_params *d = &c->w->set.disk;
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t now = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;
	char when[64];
	double agg[2] = { 0, 0 };
	unsigned g = 0;
	size_t i, n;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	jopen(w, key, '{');
	jstring(w, "fio version", "antic-sim-" ANTIC_SIM_VERSION);
	jint(w, "timestamp", (uint64_t)now);
	jint(w, "timestamp_ms", (uint64_t)now * 1000);
	jstring(w, "time", when);
	opts_obj(w, "global options", os, "global", false);
	jopen(w, "jobs", '[');
	for (i = 0; i < r->nr_jobs; i++) {
		if (i && group_starts(r, i))
			g++;
		/* bw_agg: a job's share of its group's bandwidth */
		if (!i || group_starts(r, i)) {
			size_t k = i;

			agg[0] = agg[1] = 0;
			do {
				agg[0] += rate_mean(&r->jobs[k].bw[0]);
				agg[1] += rate_mean(&r->jobs[k].bw[1]);
			} while (++k < r->nr_jobs && !group_starts(r, k));
		}
		job_obj(w, r, &r->jobs[i], g, os, agg, plus);
	}
	jclose(w, ']');
	jopen(w, "disk_util", '[');
	jopen(w, NULL, '{');
	jstring(w, "name", d->type == DISK_SSD ? "ssd" : "hdd");
	jint(w, "read_ios", r->rq_done[0]);
	jint(w, "write_ios", r->rq_done[1]);
	jint(w, "read_merges", 0);
	jint(w, "write_merges", 0);
	jint(w, "read_ticks", r->rq_ticks[0] / 1000000);
	jint(w, "write_ticks", r->rq_ticks[1] / 1000000);
	jint(w, "in_queue", (r->rq_ticks[0] + r->rq_ticks[1]) / 1000000);
	jdbl(w, "util", r->sim_time ? 100.0 * (double)r->disk_busy / (double)r->sim_time : 0);
	jclose(w, '}');
	jclose(w, ']');

	jopen(w, "antic", '{');
	jstring(w, "antic-sim version", ANTIC_SIM_VERSION);
	jstring(w, "fio json version", FIO_JSON_VERSION);
	jstring(w, "scheduler", r->scheduler);
	jstring(w, "jobfile", c->jobfile);
	jint(w, "seed", c->w->set.seed);
	jint(w, "sim_time_ns", r->sim_time);
	jint(w, "events", r->events);
	jint(w, "tag_waits", r->tag_waits);
	jkey(w, "timed_out");
	fputs(r->timed_out ? "true" : "false", w->f);
	if (r->requeues)	/* only with faults asked for (requeue_per_mille) */
		jint(w, "requeues", r->requeues);
	if (c->w->set.layout[0]) {	/* only with a layout asked for */
		jopen(w, "layout", '{');
		jstring(w, "file", c->w->set.layout);
		jint(w, "placed", r->layout_placed);
		jint(w, "files", r->layout_files);
		jclose(w, '}');
	}
	jopen(w, "block_requests", '{');
	jint(w, "reads", r->rq_done[0]);
	jint(w, "writes", r->rq_done[1]);
	jint(w, "sync_writes", r->rq_sync_writes);
	jint(w, "read_sectors", r->rq_sectors[0]);
	jint(w, "write_sectors", r->rq_sectors[1]);
	jclose(w, '}');
	jopen(w, "disk", '{');
	jint(w, "requests", r->disk.requests);
	jint(w, "sectors", r->disk.sectors);
	jint(w, "cache_hits", r->disk.cache_hits);
	jint(w, "seeks", r->disk.seeks);
	jint(w, "mean_seek_sectors", r->disk.seeks ? (r->disk.seek_sectors + r->disk.seeks / 2) / r->disk.seeks : 0);
	jint(w, "busy_ns", r->disk_busy);
	jclose(w, '}');
	if (!strcmp(r->scheduler, "anticipatory")) {
		jopen(w, "anticipation", '{');
		for (n = 0; n < AS_NR_COUNTERS; n++)
			jint(w, as_counter_descs[n].name, as_counter(&r->as, &as_counter_descs[n]));
		jint(w, "exit_prob", r->est.exit_prob);
		jint(w, "exit_no_coop", r->est.exit_no_coop);
		jint(w, "new_ttime_mean_ns", r->est.new_ttime_mean);
		jint(w, "new_seek_mean_sectors", r->est.new_seek_mean);
		jclose(w, '}');
	}
	jclose(w, '}');
	jclose(w, '}');
}

void report_fio_json(FILE *f, const struct report_ctx *c, bool plus)
{
	struct jw w = { f, 0, true };
	struct opts os;
	size_t k;

	opts_read(&os, c->options_file);
	if (c->nres == 1) {
		fio_doc(&w, NULL, c, &c->res[0], &os, plus);
	} else {
		jopen(&w, NULL, '{');
		jstring(&w, "antic-sim version", ANTIC_SIM_VERSION);
		jopen(&w, "schedulers", '{');
		for (k = 0; k < c->nres; k++)
			fio_doc(&w, c->res[k].scheduler, c, &c->res[k], &os, plus);
		jclose(&w, '}');
		jclose(&w, '}');
	}
	fputc('\n', f);
	opts_free(&os);
}
