/*
 * jobio.c - where a fio job's next I/O goes, as fio would issue it: the
 * file (roundrobin, sequential, random), the offset (sequential with
 * holes, or random through fio's map or a skewed distribution, zones),
 * the length (bs, ranges, bssplit) and the direction. tests/
 * fio-conformance.py holds it to fio's null engine.
 */
#include "sim.h"

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return n ? rng_next(s) % n : 0;
}

/* A new pass over the job's files: positions back to offset, maps cleared. */
static void new_pass(struct sim_proc *p)
{
	unsigned n;

	for (n = 0; n < p->nfiles; n++) {
		struct proc_file *pf = &p->pf[n];

		pf->pos[0] = pf->pos[1] = pf->lo;
		pf->done = 0;
		pf->zone = pf->zdone = 0;
		if (pf->map)
			memset(pf->map, 0, ((pf->hi - pf->lo) / p->spec->bs + 63) / 64 * 8);
	}
	p->ra_valid = false;
}

/* fio opens the job's files (at its start, and again each loop): invalidate */
void job_invalidate(struct sim *s, const struct sim_proc *p)
{
	unsigned n;

	if (p->spec->keep_cache)
		return;
	for (n = 0; n < p->nfiles; n++)
		cache_invalidate(s, p->file0 + n, p->pf[n].lo, p->pf[n].hi);
}

static bool file_left(const struct sim_proc *p, unsigned n)
{
	return p->pf[n].done < p->pf[n].hi - p->pf[n].lo;
}

/*
 * fio's file_service_type: roundrobin (the default) moves to the next file
 * after every nr I/Os, sequential when a file's region is done, random to
 * a random file; a file whose region is done this pass is passed over.
 */
static void pick_file(struct sim_proc *p)
{
	const struct job_spec *j = p->spec;
	unsigned n = p->cur, nr = j->file_service_nr ? j->file_service_nr : 1, k;
	bool move = !file_left(p, n) ||
		(j->file_service != FS_SEQUENTIAL && p->rr_count >= nr);

	if (!move || p->nfiles == 1)
		return;
	if (j->file_service == FS_RANDOM)
		n = (unsigned)rng_below(&p->rng, p->nfiles);
	else
		n = (n + 1) % p->nfiles;
	for (k = 0; k < p->nfiles && !file_left(p, n); k++)
		n = (n + 1) % p->nfiles;
	if (n != p->cur)
		p->ra_valid = false;
	p->cur = n;
	p->rr_count = 0;
}

/* ln and exp without libm, good to about 1e-12: enough to shape a draw */
static double ln_(double x)
{
	double y, y2, sum = 0, term;
	int k = 0, n;

	while (x > 2) {
		x /= 2.718281828459045;
		k++;
	}
	while (x < 0.5) {
		x *= 2.718281828459045;
		k--;
	}
	y = (x - 1) / (x + 1);
	y2 = y * y;
	term = y;
	for (n = 1; n < 60; n += 2) {
		sum += term / n;
		term *= y2;
	}
	return 2 * sum + k;
}

static double exp_(double x)
{
	double r = 1, term = 1;
	int n, halvings = 0;

	while (x > 0.5 || x < -0.5) {
		x /= 2;
		halvings++;
	}
	for (n = 1; n < 30; n++) {
		term *= x / n;
		r += term;
	}
	while (halvings--)
		r *= r;
	return r;
}

static double unit_(uint64_t *rng)
{
	return ((double)(rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
}

/*
 * random_distribution: a block by rank under zipf (theta), pareto (h) or
 * normal (deviation in % of the region about its middle), drawn by
 * inversion of the continuous law; ranks are scattered over the region by
 * a fixed odd multiplier so the hot blocks are not all at its start.
 */
static uint64_t skewed_block(struct sim_proc *p, uint64_t nb)
{
	const struct job_spec *j = p->spec;
	double u = unit_(&p->rng), r;
	uint64_t rank;

	if (j->dist == DIST_ZONED) {
		unsigned pct = (unsigned)rng_below(&p->rng, 100), acc = 0, start = 0, n;
		uint64_t lo, hi;

		for (n = 0; n + 1 < j->nzones; n++) {
			acc += j->zones[n].access;
			if (pct < acc)
				break;
			start += j->zones[n].range;
		}
		lo = nb * start / 100;
		hi = nb * (start + j->zones[n].range) / 100;
		if (hi <= lo)
			hi = lo + 1 <= nb ? lo + 1 : nb;
		return lo + rng_below(&p->rng, hi - lo);
	}
	if (j->dist == DIST_ZIPF) {
		double a = 1 - j->dist_arg;

		r = exp_(ln_(u * (exp_(a * ln_((double)nb)) - 1) + 1) / a);
	} else if (j->dist == DIST_PARETO) {
		r = (double)nb * exp_(ln_(u) / (1 - j->dist_arg));
	} else {
		double g = 0;
		int i;

		/* twelve uniforms less six: near enough a standard normal */
		for (i = 0; i < 12; i++)
			g += unit_(&p->rng);
		r = (double)nb / 2 + (g - 6) * (double)nb * j->dist_arg / 100;
		if (r < 0)
			r = 0;
		return r >= (double)nb ? nb - 1 : (uint64_t)r;
	}
	rank = r < 1 ? 0 : (uint64_t)r - 1;
	if (rank >= nb)
		rank = nb - 1;
	return (rank * 0x9e3779b97f4a7c15ULL) % nb;
}

static bool mapped(const struct proc_file *pf, uint64_t b)
{
	return pf->map[b / 64] & (1ULL << (b % 64));
}

/*
 * A random block of blocks [b0, b1) of the region not yet issued this pass
 * (fio's random map), or any block with norandommap or a skewed
 * distribution. -1 when the map cannot be had.
 */
static int64_t random_block(struct sim_proc *p, struct proc_file *pf, uint64_t b0, uint64_t b1)
{
	uint64_t nb = (pf->hi - pf->lo) / p->spec->bs, span = b1 - b0, b, i;

	if (p->spec->dist != DIST_UNIFORM)
		return (int64_t)(b0 + skewed_block(p, span));
	b = b0 + rng_below(&p->rng, span);
	if (p->spec->norandommap)
		return (int64_t)b;
	if (!pf->map && !(pf->map = calloc((nb + 63) / 64, 8)))
		return -1;
	/* the next free block from a random one, wrapping: each once a pass */
	for (i = 0; i < span; i++, b = b + 1 == b1 ? b0 : b + 1) {
		if (pf->map[b / 64] == ~0ULL && b % 64 == 0 && b + 64 <= b1) {
			b += 63;
			i += 63;
			continue;
		}
		if (!mapped(pf, b)) {
			pf->map[b / 64] |= 1ULL << (b % 64);
			return (int64_t)b;
		}
	}
	return -1;
}

/* bs, or a draw from bs ranges (multiples of the low end) or bssplit */
static uint64_t io_len(struct sim_proc *p)
{
	const struct job_spec *j = p->spec;
	unsigned n, pct, acc = 0;

	if (j->bs_max)
		return j->bs * (1 + rng_below(&p->rng, j->bs_max / j->bs));
	if (!j->nsplit)
		return j->bs;
	pct = (unsigned)rng_below(&p->rng, 100);
	for (n = 0; n + 1 < j->nsplit; n++) {
		acc += j->split[n].pct;
		if (pct < acc)
			break;
	}
	return j->split[n].bs;
}

/* Pick the next (file, offset, length, direction) the job would issue. */
int job_next_io(struct sim *s, struct sim_proc *p, unsigned *fi,
		uint64_t *off, uint64_t *len, int *dir)
{
	const struct job_spec *j = p->spec;
	bool rnd = j->rw == RW_RANDREAD || j->rw == RW_RANDWRITE || j->rw == RW_RANDRW;
	struct proc_file *pf;
	uint64_t zs, ze, consumed;

	if (j->number_ios && p->nr_ios >= j->number_ios)
		return 0;
	if (p->issued >= p->io_size) {
		/* loops and time_based start again at offset, as fio does */
		if (j->time_based || p->loops_left > 1) {
			if (!j->time_based)
				p->loops_left--;
			p->issued = 0;
			p->nr_ios = 0;
			p->pass_done = 0;
			p->cur = 0;
			p->rr_count = 0;
			new_pass(p);
			job_invalidate(s, p);
		} else {
			return 0;
		}
	}
	/* io_size beyond the regions: go round them again */
	if (p->pass_done >= p->pass_size) {
		p->pass_done = 0;
		new_pass(p);
	}
	pick_file(p);
	pf = &p->pf[p->cur];
	switch (j->rw) {
	case RW_READ: case RW_RANDREAD: *dir = 0; break;
	case RW_WRITE: case RW_RANDWRITE: *dir = 1; break;
	default: *dir = rng_below(&p->rng, 100) < j->rwmixread ? 0 : 1; break;
	}
	*len = io_len(p);
	zs = pf->lo;
	ze = pf->hi;
	if (j->zonesize) {
		/* zonemode=strided: zonesize of I/O, then zoneskip passed over */
		uint64_t stride = j->zonesize + j->zoneskip;

		zs = pf->lo + pf->zone * stride;
		ze = zs + j->zonesize < pf->hi ? zs + j->zonesize : pf->hi;
		if (pf->zdone + j->bs > ze - zs) {
			pf->zone++;
			pf->zdone = 0;
			zs += stride;
			if (zs + j->bs > pf->hi) {
				/* past the last zone: the first again, its map cleared */
				pf->zone = 0;
				zs = pf->lo;
				if (pf->map)
					memset(pf->map, 0, ((pf->hi - pf->lo) / j->bs + 63) / 64 * 8);
			}
			ze = zs + j->zonesize < pf->hi ? zs + j->zonesize : pf->hi;
		}
	}
	if (rnd && j->blockalign > j->bs) {
		/*
		 * blockalign coarser than bs: fio's map, kept in bs, never
		 * sees the same block twice although offsets repeat, so this
		 * is drawing with replacement from the aligned slots.
		 */
		uint64_t slots = (ze - zs) / j->blockalign;

		*off = zs + (slots ? rng_below(&p->rng, slots) : 0) * j->blockalign;
		if (*off + *len > ze)
			*len = (ze - *off) / j->bs * j->bs;
		consumed = *len;
	} else if (rnd) {
		int64_t b = random_block(p, pf, (zs - pf->lo) / j->bs, (ze - pf->lo) / j->bs);
		uint64_t want = *len / j->bs, got = 1;

		if (b < 0)
			return -1;
		*off = pf->lo + (uint64_t)b * j->bs;
		/* a larger I/O takes the free blocks after the one drawn */
		while (got < want && *off + (got + 1) * j->bs <= ze &&
		       (!pf->map || j->norandommap || j->dist != DIST_UNIFORM ||
			!mapped(pf, (uint64_t)b + got))) {
			if (pf->map && !j->norandommap && j->dist == DIST_UNIFORM)
				pf->map[((uint64_t)b + got) / 64] |= 1ULL << (((uint64_t)b + got) % 64);
			got++;
		}
		*len = got * j->bs;
		consumed = *len;
	} else {
		/* rw=rw: reads and writes each keep their own position */
		uint64_t pos = pf->pos[*dir];

		if (pos < zs || pos + j->bs > ze)
			pos = zs;
		if (pos + *len > ze)
			*len = (ze - pos) / j->bs * j->bs;
		*off = pos;
		pos += *len;
		consumed = *len;
		if (j->hole > 0) {
			pos += (uint64_t)j->hole;
			/*
			 * fio goes round again when the hole lands on the end or
			 * other files remain, but a lone file's pass ends when
			 * the hole runs past its end.
			 */
			if (pos + j->bs > pf->hi) {
				if (p->nfiles == 1 && pos > pf->hi &&
				    pf->done + consumed < pf->hi - pf->lo)
					consumed = pf->hi - pf->lo - pf->done;
				else
					pos = zs;
			}
		} else if (j->hole < 0) {
			/* backwards: below the region's start, fio wraps to its end */
			uint64_t back = (uint64_t)-j->hole, span = pf->hi - pf->lo - j->bs;

			if (pos >= pf->lo + back)
				pos -= back;
			else if (span)
				pos = pf->lo + (span - (pf->lo + back - pos) % span) % span;
			else
				pos = pf->lo;
		}
		pf->pos[*dir] = pos;
	}
	pf->zdone += *len;
	pf->done += consumed;
	p->pass_done += consumed;
	p->issued += consumed;
	p->rate_bytes += *len;
	p->rate_ios++;
	p->nr_ios++;
	p->rr_count++;
	*fi = p->file0 + p->cur;
	if (s->o->iolog) {
		const struct sim_file *f = &s->files[*fi];

		if (!f->logged) {
			s->files[*fi].logged = true;
			fprintf(s->o->iolog, "%llu %s add\n%llu %s open\n",
				(unsigned long long)(s->now / 1000), f->name,
				(unsigned long long)(s->now / 1000), f->name);
		}
		fprintf(s->o->iolog, "%llu %s %s %llu %llu\n", (unsigned long long)(s->now / 1000),
			f->name, *dir ? "write" : "read", (unsigned long long)*off,
			(unsigned long long)*len);
	}
	return 1;
}

/* An exponential draw of mean 1 (a Poisson process's gaps, in means). */
double rng_exponential(uint64_t *rng)
{
	return -ln_(unit_(rng));
}
