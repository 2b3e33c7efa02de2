/* report.h - side-by-side table, fio-shaped JSON and CSV of sim results. */
#ifndef SIM_REPORT_H
#define SIM_REPORT_H

#include <stdio.h>
#include "engine.h"

struct report_ctx {
	const char *jobfile;
	const struct workload *w;
	const struct sim_result *res;
	size_t nres;
	bool all_counters;	/* --counters: the table shows the zero ones too */
};

void report_table(FILE *f, const struct report_ctx *c);
void report_json(FILE *f, const struct report_ctx *c);
void report_csv(FILE *f, const struct report_ctx *c);
/* Application bandwidth of one job and direction, bytes per second. */
double job_bw(const struct job_result *j, int dir);

#endif
