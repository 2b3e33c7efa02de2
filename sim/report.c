/*
 * report.c - what antic-sim prints: a table with one column per
 * scheduler, fio's JSON (fio-json.c), and CSV for spreadsheets and gnuplot.
 */
#include "report.h"
#include "outputs.h"
#include <string.h>

#define ANTIC_SIM_VERSION "0.1"

double job_bw(const struct job_result *j, int dir)
{
	return j->runtime ? (double)j->io_bytes[dir] * 1e9 / (double)j->runtime : 0;
}

static double iops(const struct job_result *j, int dir)
{
	return j->runtime ? (double)j->ios[dir] * 1e9 / (double)j->runtime : 0;
}

static double util(const struct sim_result *r)
{
	return r->sim_time ? 100.0 * (double)r->disk_busy / (double)r->sim_time : 0;
}

static double mean_seek(const struct sim_result *r)
{
	return r->disk.seeks ? (double)r->disk.seek_sectors / (double)r->disk.seeks : 0;
}

/* the name column's width: the longest job name, whole (at least 14) */
static int name_width;

static void row(FILE *f, const char *job, const char *what)
{
	fprintf(f, "%-*s %-16s", name_width, job, what);
}

/*
 * Job @i of result @k; a replay run that stopped early (max_time) may have
 * met fewer processes than the first: those rows are empty.
 */
static const struct job_result *jr(const struct report_ctx *c, size_t k, size_t i)
{
	static const struct job_result none;

	return i < c->res[k].nr_jobs ? &c->res[k].jobs[i] : &none;
}

/*
 * anticipatory's counters by their one name, wrapped at 100 columns: those
 * not zero, or all with --counters
 */
static void as_counters_line(FILE *f, const struct as_counters *a, bool all)
{
	int col = fprintf(f, "anticipatory:");
	size_t n, last = 0, shown = 0;

	for (n = 0; n < AS_NR_COUNTERS; n++)
		if (all || as_counter(a, &as_counter_descs[n]))
			last = n;
	for (n = 0; n < AS_NR_COUNTERS; n++) {
		char item[64];
		int len;

		if (!all && !as_counter(a, &as_counter_descs[n]))
			continue;
		shown++;
		len = snprintf(item, sizeof(item), " %s %llu%s", as_counter_descs[n].name,
			       (unsigned long long)as_counter(a, &as_counter_descs[n]),
			       n < last ? "," : "");

		if (col + len > 100) {
			fputs("\n ", f);
			col = 1;
		}
		fputs(item, f);
		col += len;
	}
	if (!shown)
		fputs(" every counter 0 (--counters lists them)", f);
	fputc('\n', f);
}

void report_table(FILE *f, const struct report_ctx *c)
{
	const struct disk_params *d = &c->w->set.disk;
	size_t i, k;
	int dir;
	static const char *const dn[] = { "read", "write" };

	name_width = 14;
	for (k = 0; k < c->nres; k++)
		for (i = 0; i < c->res[k].nr_jobs; i++)
			if ((int)strlen(c->res[k].jobs[i].name) > name_width)
				name_width = (int)strlen(c->res[k].jobs[i].name);
	fprintf(f, "antic-sim %s: %s, seed %llu, %s %s%u rpm, %llu GB, queue depth %u, max_time %g s\n",
		ANTIC_SIM_VERSION, c->jobfile, (unsigned long long)c->w->set.seed,
		d->type == DISK_SSD ? "ssd" : "hdd", d->type == DISK_SSD ? "(model) " : "",
		d->type == DISK_SSD ? 0 : d->rpm,
		(unsigned long long)(d->capacity * 512 / 1000000000ULL), d->queue_depth,
		(double)c->w->set.max_time / 1e9);
	if (c->w->set.layout[0] && c->nres)
		fprintf(f, "layout %s: %zu of the %zu files placed there\n", c->w->set.layout,
			c->res[0].layout_placed, c->res[0].layout_files);
	for (i = 0, k = 0; k < c->nres; k++) {
		if (!c->res[k].timed_out)
			continue;
		fprintf(f, "%s%s", i++ ? ", " : "STOPPED at max_time before the jobs ended (figures of "
			"its first seconds only; --set max_time= to go on): ", c->res[k].scheduler);
	}
	if (i)
		fputc('\n', f);
	row(f, "", "");
	for (k = 0; k < c->nres; k++)
		fprintf(f, " %13s", c->res[k].scheduler);
	fputc('\n', f);
	for (i = 0; i < c->res[0].nr_jobs; i++) {
		const char *name = c->res[0].jobs[i].name;

		for (dir = 0; dir < 2; dir++) {
			bool any = false;
			char what[32];

			for (k = 0; k < c->nres; k++)
				any |= jr(c, k, i)->ios[dir] > 0;
			if (!any)
				continue;
			snprintf(what, sizeof(what), "%s MB/s", dn[dir]);
			row(f, name, what);
			for (k = 0; k < c->nres; k++)
				fprintf(f, " %13.2f", job_bw(jr(c, k, i), dir) / 1e6);
			fputc('\n', f);
			name = "";
			snprintf(what, sizeof(what), "%s IOPS", dn[dir]);
			row(f, name, what);
			for (k = 0; k < c->nres; k++)
				fprintf(f, " %13.1f", iops(jr(c, k, i), dir));
			fputc('\n', f);
			{
				static const double pct[] = { 0.5, 0.99, 0.999 };
				static const char *const pn[] = { "p50", "p99", "p99.9" };
				int q;

				for (q = 0; q < 3; q++) {
					snprintf(what, sizeof(what), "clat %s ms", pn[q]);
					row(f, "", what);
					for (k = 0; k < c->nres; k++)
						fprintf(f, " %13.3f",
							(double)hist_percentile(&jr(c, k, i)->lat[dir], pct[q]) / 1e6);
					fputc('\n', f);
				}
			}
		}
		row(f, name, "runtime s");
		for (k = 0; k < c->nres; k++)
			fprintf(f, " %13.2f", (double)jr(c, k, i)->runtime / 1e9);
		fputc('\n', f);
	}
	row(f, "disk", "util %");
	for (k = 0; k < c->nres; k++)
		fprintf(f, " %13.1f", util(&c->res[k]));
	fputc('\n', f);
	row(f, "", "seeks");
	for (k = 0; k < c->nres; k++)
		fprintf(f, " %13llu", (unsigned long long)c->res[k].disk.seeks);
	fputc('\n', f);
	/* block requests by direction: sync writes (O_DIRECT, O_SYNC) are writes too */
	row(f, "", "read requests");
	for (k = 0; k < c->nres; k++)
		fprintf(f, " %13llu", (unsigned long long)c->res[k].rq_done[0]);
	fputc('\n', f);
	row(f, "", "write requests");
	for (k = 0; k < c->nres; k++)
		fprintf(f, " %13llu", (unsigned long long)c->res[k].rq_done[1]);
	fputc('\n', f);
	row(f, "", " of them sync");
	for (k = 0; k < c->nres; k++)
		fprintf(f, " %13llu", (unsigned long long)c->res[k].rq_sync_writes);
	fputc('\n', f);
	row(f, "", "mean seek MiB");
	for (k = 0; k < c->nres; k++)
		fprintf(f, " %13.1f", mean_seek(&c->res[k]) * 512 / 1048576.0);
	fputc('\n', f);
	row(f, "", "time s");
	for (k = 0; k < c->nres; k++)
		fprintf(f, " %13.2f", (double)c->res[k].sim_time / 1e9);
	fputc('\n', f);
	for (k = 0; k < c->nres; k++) {
		const struct as_counters *a = &c->res[k].as;

		if (strcmp(c->res[k].scheduler, "anticipatory"))
			continue;
		as_counters_line(f, a, c->all_counters);
	}
	for (k = 0; k < c->nres; k++)
		if (c->res[k].timed_out)
			fprintf(f, "warning: %s stopped at max_time before its jobs ended\n",
				c->res[k].scheduler);
	for (k = 0; k < c->nres; k++)
		if (c->res[k].requeues)
			fprintf(f, "%s: the drive gave back %llu commands (requeue_per_mille %u)\n",
				c->res[k].scheduler, (unsigned long long)c->res[k].requeues,
				c->w->set.requeue_per_mille);
}

void report_json(FILE *f, const struct report_ctx *c)
{
	report_fio_json(f, c, false);
}

void report_csv(FILE *f, const struct report_ctx *c)
{
	size_t i, k;
	int dir;

	fprintf(f, "scheduler,job,dir,io_bytes,bw_bytes,iops,runtime_ms,clat_p50_ns,clat_p99_ns,clat_p999_ns,disk_util_pct,disk_seeks,timed_out\n");
	for (k = 0; k < c->nres; k++) {
		const struct sim_result *r = &c->res[k];

		for (i = 0; i < r->nr_jobs; i++)
			for (dir = 0; dir < 2; dir++) {
				const struct job_result *j = &r->jobs[i];

				if (!j->ios[dir])
					continue;
				/* timed_out: the run hit max_time, so runtime is a bound */
				fprintf(f, "%s,%s,%s,%llu,%.0f,%.3f,%llu,%llu,%llu,%llu,%.2f,%llu,%d\n",
					r->scheduler, j->name, dir ? "write" : "read",
					(unsigned long long)j->io_bytes[dir], job_bw(j, dir), iops(j, dir),
					(unsigned long long)(j->runtime / 1000000),
					(unsigned long long)hist_percentile(&j->lat[dir], 0.5),
					(unsigned long long)hist_percentile(&j->lat[dir], 0.99),
					(unsigned long long)hist_percentile(&j->lat[dir], 0.999),
					util(r), (unsigned long long)r->disk.seeks,
					r->timed_out ? 1 : 0);
			}
	}
}
