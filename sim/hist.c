/* hist.c - see hist.h. */
#include "hist.h"

static unsigned bucket_of(uint64_t v)
{
	unsigned msb;

	if (v < 64)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	return 64 + (msb - 6) * 32 + (unsigned)((v >> (msb - 5)) & 31);
}

static uint64_t bucket_mid(unsigned i)
{
	unsigned m, sub;
	uint64_t lo, width;

	if (i < 64)
		return i;
	m = (i - 64) / 32 + 6;
	sub = (i - 64) % 32;
	width = 1ULL << (m - 5);
	lo = (1ULL << m) | ((uint64_t)sub << (m - 5));
	return lo + width / 2;
}

void hist_add(struct hist *h, uint64_t v)
{
	if (!h->n || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->n++;
	h->sum += v;
	h->sq += (unsigned __int128)v * v;
	h->b[bucket_of(v)]++;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t want, seen = 0;
	unsigned i;

	if (!h->n)
		return 0;
	want = (uint64_t)(p * (double)h->n + 0.999999);
	if (want < 1)
		want = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= want) {
			uint64_t v = bucket_mid(i);

			/* never report outside what was seen */
			return v < h->min ? h->min : v > h->max ? h->max : v;
		}
	}
	return h->max;
}

uint64_t hist_mean(const struct hist *h)
{
	return h->n ? h->sum / h->n : 0;
}

double hist_mean_f(const struct hist *h)
{
	return h->n ? (double)h->sum / (double)h->n : 0;
}

/* sqrt without libm (antic-sim links none): Newton's method from above */
static double root(double x)
{
	double r = x > 1 ? x : 1, prev;
	int i;

	for (i = 0; i < 2000; i++) {
		prev = r;
		r = (r + x / r) / 2;
		if (r >= prev)
			break;
	}
	return r;
}

double hist_stddev(const struct hist *h)
{
	long double n = (long double)h->n, s = (long double)h->sum;
	double var;

	if (h->n < 2)
		return 0;
	var = (double)(((long double)h->sq - s * s / n) / (n - 1));
	return var > 0 ? root(var) : 0;
}

uint64_t hist_bucket_value(unsigned i)
{
	return bucket_mid(i);
}
