/*
 * hist.h - latency histogram with bounded memory: log-linear buckets, 32
 * per power of two, so percentiles are within about 3% of the true value.
 */
#ifndef SIM_HIST_H
#define SIM_HIST_H

#include <stdint.h>

#define HIST_BUCKETS 1920

struct hist {
	uint64_t n, sum, min, max;
	unsigned __int128 sq;	/* the sum of squares, exact (for the standard deviation) */
	uint32_t b[HIST_BUCKETS];
};

void hist_add(struct hist *h, uint64_t v);
/* The value at fraction @p (0..1] of the samples, 0 when empty. */
uint64_t hist_percentile(const struct hist *h, double p);
uint64_t hist_mean(const struct hist *h);
/* The mean and the sample standard deviation (n - 1), as fio reports them; 0 when empty. */
double hist_mean_f(const struct hist *h);
double hist_stddev(const struct hist *h);
/* The value bucket @i stands for (its middle), for HIST_BUCKETS buckets. */
uint64_t hist_bucket_value(unsigned i);

#endif
