/*
 * jobstat.c - what fio's report says of a job, gathered as its I/Os
 * complete: counts, bytes, the latency histogram, and fio's bandwidth and
 * IOPS samples (engine.h: struct rate_stat), of a direction from its
 * first I/O on.
 */
#include "engine.h"

static void rate_sample(struct rate_stat *r, uint64_t v)
{
	if (!r->n || v < r->min)
		r->min = v;
	if (v > r->max)
		r->max = v;
	r->n++;
	r->sum += (double)v;
	r->sq += (double)v * (double)v;
}

void job_result_windows(struct job_result *j, uint64_t issued, uint64_t now)
{
	int d;

	if (!j->win_end) {
		j->win_end = issued + JOB_STAT_WINDOW;
		if (now < j->win_end)
			return;
	}
	while (now >= j->win_end) {
		for (d = 0; d < 2; d++) {
			/* a direction the job has not done yet has no samples (fio's 0s) */
			if (!j->ios[d])
				continue;
			rate_sample(&j->bw[d], j->win_bytes[d] * 1000000000ULL / JOB_STAT_WINDOW / 1024);
			rate_sample(&j->iops[d], j->win_ios[d] * 1000000000ULL / JOB_STAT_WINDOW);
			j->win_bytes[d] = j->win_ios[d] = 0;
		}
		j->win_end += JOB_STAT_WINDOW;
	}
}

void job_result_depth(struct job_result *j, unsigned depth)
{
	unsigned b = 0;

	while (b < 6 && depth > (1u << b))
		b++;
	j->depth[b]++;
}
