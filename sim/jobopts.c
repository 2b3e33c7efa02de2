/*
 * jobopts.c - fio's values (numbers, sizes with fio's kb_base rule, times)
 * and its job options, one NAME=VALUE at a time into a job_spec; the
 * file around them is jobfile.c's.
 */
#include "job.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Leading decimal digits of @s (no sign, no space); -1 when none or too big. */
static int leading_number(const char *s, unsigned long long *v, char **end)
{
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, end, 10);
	return errno ? -1 : 0;
}

int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (leading_number(s, &v, &end) || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/*
 * fio sizes: a number with an optional k/m/g/t/p suffix. Under fio's
 * default kb_base=1024 a bare suffix or one with "b" is a power of two and
 * "KiB", "MiB"... a power of ten (fio's documented compatibility quirk);
 * kb_base=1000 turns both round.
 */
static int parse_size_base(const char *s, unsigned kb_base, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1, k;
	int pow = 0;

	if (leading_number(s, &v, &end))
		return -1;
	if (*end) {
		const char *rest = end + 1;

		switch (tolower((unsigned char)*end)) {
		case 'k': pow = 1; break;
		case 'm': pow = 2; break;
		case 'g': pow = 3; break;
		case 't': pow = 4; break;
		case 'p': pow = 5; break;
		case 'b': pow = 0; break;
		default: return -1;
		}
		if (pow && !strcasecmp(rest, "ib"))
			k = kb_base == 1000 ? 1024 : 1000;
		else if (pow && (!*rest || !strcasecmp(rest, "b")))
			k = kb_base == 1000 ? 1000 : 1024;
		else if (!pow && !*rest)
			k = 1;
		else
			return -1;
		while (pow--)
			mul *= k;
	}
	if (v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	return parse_size_base(s, 1024, out);
}

/* fio times: a number with an optional unit; @unit_ns when it has none. */
int parse_time(const char *s, uint64_t unit_ns, uint64_t *out)
{
	static const struct { const char *sfx; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 },
		{ "s", 1000000000ULL }, { "sec", 1000000000ULL },
		{ "m", 60000000000ULL }, { "min", 60000000000ULL },
		{ "h", 3600000000000ULL }, { "d", 86400000000000ULL },
	};
	char *end;
	unsigned long long v;
	size_t i;

	if (leading_number(s, &v, &end))
		return -1;
	if (*end) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcasecmp(end, units[i].sfx))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return -1;
		unit_ns = units[i].ns;
	}
	if (v > UINT64_MAX / unit_ns / 4)
		return -1;
	*out = v * unit_ns;
	return 0;
}

static int bool_value(const char *v, bool *out)
{
	if (!*v || !strcmp(v, "1")) {
		*out = true;
		return 0;
	}
	if (!strcmp(v, "0")) {
		*out = false;
		return 0;
	}
	return -1;
}

/*
 * fio options that change what fio reports or how it names things, never
 * which I/O it issues: accepted and ignored (README lists them).
 */
static bool is_reporting(const char *k)
{
	static const char *const names[] = {
		"name", "description", "group_reporting", "thread",
		"disable_lat", "disable_clat", "disable_slat", "disable_bw_measurement",
		"disable_bw", "write_hist_log", "log_hist_msec",
		"slat_percentiles", "unified_rw_reporting", "stats", "gtod_reduce",
		"log_compression", "log_unix_epoch", "invalidate",
		"create_serialize", "fallocate", "unlink", "overwrite",
		"threads", "log_prio", "new_group", "filename_format", "create_on_open",
		"continue_on_error", "ratemin", "random_generator", "io_submit_mode",
		/* the data written: the simulated disk keeps no contents */
		"dedupe_mode", "dedupe_percentage", "buffer_compress_percentage",
		"buffer_compress_chunk", "refill_buffers", "scramble_buffers",
		"zero_buffers", "dedupe_global", "dedupe_working_set_percentage",
		"ignore_error", "error_dump",
		/*
		 * how many files fio holds open at once: the simulator opens
		 * none, and the inode reads an open costs on ext4 are not
		 * modelled (README: what the model lacks)
		 */
		"openfiles",
		/* submission batching: a detail of how fio talks to the kernel */
		"iodepth_batch", "iodepth_batch_submit", "iodepth_batch_complete",
		"iodepth_batch_complete_min", "iodepth_batch_complete_max", "iodepth_low",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(k, names[i]))
			return true;
	return false;
}

/*
 * A value NAME[:ARG] (rw=read:8k, random_distribution=zipf:1.2): copies
 * @v into @buf, splits it at the colon (*arg: what follows, or NULL) and
 * returns NAME's index in @names, @n when it is none of them, or @n + 1
 * when @v does not fit @buf.
 */
static size_t named_value(const char *v, const char *const *names, size_t n,
			  char *buf, size_t size, char **arg)
{
	size_t i;

	if (strlen(v) >= size)
		return n + 1;
	strcpy(buf, v);
	*arg = strchr(buf, ':');
	if (*arg)
		*(*arg)++ = 0;
	for (i = 0; i < n; i++)
		if (!strcmp(buf, names[i]))
			break;
	return i;
}

/* One job option. Returns 0, 1 for an unknown name, -1 for a bad value. */
int job_option(struct job_spec *j, const char *k, const char *v)
{
	uint64_t x;
	int log = fio_log_option(j, k, v);

	if (log <= 0)
		return log;
	if (!strcmp(k, "rw") || !strcmp(k, "readwrite")) {
		static const char *const names[] = { "read", "write", "randread",
			"randwrite", "rw", "randrw" };
		char buf[32], *colon;
		size_t i = named_value(v, names, 6, buf, sizeof(buf), &colon);

		if (i > 6)
			return -1;
		if (i == 6 && !strcmp(buf, "readwrite"))
			i = RW_RW;
		if (i == 6)
			return -1;
		j->rw = (int)i;
		j->hole = 0;
		/* read:8k skips 8k after each I/O, read:-8k goes back; sequential only */
		if (colon) {
			bool neg = *colon == '-';

			if (i == RW_RANDREAD || i == RW_RANDWRITE || i == RW_RANDRW ||
			    parse_size_base(colon + neg, j->kb_base, &x) || x % 512 || x > (1ULL << 40))
				return -1;
			j->hole = neg ? -(int64_t)x : (int64_t)x;
		}
	} else if (!strcmp(k, "rwmixread") || !strcmp(k, "rwmixwrite")) {
		if (parse_uint(v, 100, &x))
			return -1;
		j->rwmixread = (unsigned)(k[5] == 'r' ? x : 100 - x);
	} else if (!strcmp(k, "bs") || !strcmp(k, "blocksize") || !strcmp(k, "bsrange") ||
		   !strcmp(k, "blocksize_range")) {
		char buf[64], *dash;
		uint64_t hi;

		/* a range: each I/O a random multiple of the low end up to the high */
		if (strlen(v) >= sizeof(buf))
			return -1;
		strcpy(buf, v);
		dash = strpbrk(buf, "-:");
		if (dash)
			*dash = 0;
		if (parse_size_base(buf, j->kb_base, &x) || x < 512 || x % 512 || x > (64ULL << 20))
			return -1;
		hi = x;
		if (dash && (parse_size_base(dash + 1, j->kb_base, &hi) || hi < x || hi % 512 ||
			     hi > (64ULL << 20)))
			return -1;
		j->bs = x;
		j->bs_max = hi > x ? hi : 0;
		j->nsplit = 0;
	} else if (!strcmp(k, "bssplit")) {
		char buf[512], *tok, *save = NULL;
		unsigned n = 0, sum = 0;
		uint64_t lo = UINT64_MAX;

		/* bs/percent pairs split by ':'; an empty percent shares what is left */
		if (strlen(v) >= sizeof(buf) || strchr(v, ','))
			return -1;
		strcpy(buf, v);
		for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
			char *slash = strchr(tok, '/');
			uint64_t pct = 0;

			if (n == 16)
				return -1;
			if (slash)
				*slash = 0;
			if (parse_size_base(tok, j->kb_base, &x) || x < 512 || x % 512 || x > (64ULL << 20))
				return -1;
			if (slash && *(slash + 1) && parse_uint(slash + 1, 100, &pct))
				return -1;
			j->split[n].bs = x;
			j->split[n].pct = (unsigned)pct;
			sum += (unsigned)pct;
			if (x < lo)
				lo = x;
			n++;
		}
		if (!n || sum > 100)
			return -1;
		if (sum < 100) {
			unsigned zero = 0, q;

			for (q = 0; q < n; q++)
				zero += !j->split[q].pct;
			if (!zero)
				return -1;
			for (q = 0; q < n; q++)
				if (!j->split[q].pct)
					j->split[q].pct = (100 - sum) / zero;
		}
		j->nsplit = n;
		j->bs = lo;
		j->bs_max = 0;
	} else if (!strcmp(k, "size")) {
		size_t l = strlen(v);

		/* size=N%: of the device (a raw device's only) */
		if (l > 1 && v[l - 1] == '%') {
			char buf[8];

			if (l > sizeof(buf) - 1)
				return -1;
			memcpy(buf, v, l - 1);
			buf[l - 1] = 0;
			if (parse_uint(buf, 100, &x) || !x)
				return -1;
			j->size_pct = (unsigned)x;
			j->size = 0;
			return 0;
		}
		if (parse_size_base(v, j->kb_base, &x) || !x)
			return -1;
		j->size = x;
		j->size_pct = 0;
	} else if (!strcmp(k, "filesize")) {
		char buf[64], *dash;
		uint64_t lo, hi;

		if (strlen(v) >= sizeof(buf))
			return -1;
		strcpy(buf, v);
		dash = strchr(buf, '-');
		if (dash)
			*dash = 0;
		if (parse_size_base(buf, j->kb_base, &lo) || !lo)
			return -1;
		hi = lo;
		if (dash && (parse_size_base(dash + 1, j->kb_base, &hi) || hi < lo))
			return -1;
		j->filesize_lo = lo;
		j->filesize_hi = hi;
	} else if (!strcmp(k, "nrfiles")) {
		if (parse_uint(v, 1000000, &x) || !x)
			return -1;
		j->nrfiles = (unsigned)x;
	} else if (!strcmp(k, "file_service_type")) {
		const char *colon = strchr(v, ':');
		size_t l = colon ? (size_t)(colon - v) : strlen(v);

		x = 1;
		if (colon && (parse_uint(colon + 1, 1U << 30, &x) || !x))
			return -1;
		if (l == 10 && !strncmp(v, "sequential", l) && !colon)
			j->file_service = FS_SEQUENTIAL;
		else if (l == 6 && !strncmp(v, "random", l))
			j->file_service = FS_RANDOM;
		else if (l == 10 && !strncmp(v, "roundrobin", l))
			j->file_service = FS_ROUNDROBIN;
		else
			return -1;
		j->file_service_nr = (unsigned)x;
	} else if (!strcmp(k, "kb_base")) {
		if (strcmp(v, "1024") && strcmp(v, "1000"))
			return -1;
		j->kb_base = v[3] == '4' ? 1024 : 1000;
	} else if (!strcmp(k, "norandommap")) {
		if (bool_value(v, &j->norandommap))
			return -1;
	} else if (!strcmp(k, "randrepeat")) {
		bool b;

		/* antic-sim's runs repeat for a seed anyway */
		if (bool_value(v, &b))
			return -1;
	} else if (!strcmp(k, "randseed")) {
		if (parse_uint(v, UINT64_MAX, &j->randseed))
			return -1;
		j->randseed_given = true;
	} else if (!strcmp(k, "offset_increment")) {
		if (parse_size_base(v, j->kb_base, &x) || x % 512)
			return -1;
		j->offset_increment = x;
	} else if (!strcmp(k, "io_size") || !strcmp(k, "io_limit")) {
		if (parse_size_base(v, j->kb_base, &x) || !x)
			return -1;
		j->io_size = x;
	} else if (!strcmp(k, "number_ios")) {
		if (parse_uint(v, UINT64_MAX, &x))
			return -1;
		j->number_ios = x;
	} else if (!strncmp(k, "random_distribution", 19) && !k[19] && !strncmp(v, "zoned:", 6)) {
		char buf[256], *tok, *save = NULL;
		unsigned n = 0, acc = 0, rng = 0, empty = 0;

		/* zoned:A/R:...: A % of the I/O to the next R % of the region */
		if (strlen(v + 6) >= sizeof(buf) || strchr(v, ','))
			return -1;
		strcpy(buf, v + 6);
		for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
			char *slash = strchr(tok, '/');
			uint64_t a, r = 0;

			if (!slash || n == 16)
				return -1;
			*slash = 0;
			if (parse_uint(tok, 100, &a) || (slash[1] && (parse_uint(slash + 1, 100, &r) || !r)))
				return -1;
			empty += !slash[1];
			j->zones[n].access = (unsigned)a;
			j->zones[n].range = (unsigned)r;
			acc += (unsigned)a;
			rng += (unsigned)r;
			n++;
		}
		if (!n || acc != 100 || rng > 100 || empty > 1 || (!empty && rng != 100))
			return -1;
		for (acc = 0; acc < n; acc++)
			if (!j->zones[acc].range)
				j->zones[acc].range = 100 - rng;
		j->nzones = n;
		j->dist = DIST_ZONED;
	} else if (!strcmp(k, "random_distribution")) {
		static const char *const names[] = { "random", "zipf", "pareto", "normal" };
		char buf[64], *colon, *end;
		size_t i = named_value(v, names, 4, buf, sizeof(buf), &colon);

		if (i >= 4 || (i && !colon) || (!i && colon))
			return -1;
		j->dist = (int)i;
		j->dist_arg = 0;
		if (colon) {
			/* zipf theta > 0 and not 1, pareto h in (0,1), normal's deviation in % */
			errno = 0;
			j->dist_arg = strtod(colon, &end);
			if (errno || *end || end == colon || !(j->dist_arg > 0) ||
			    (i == DIST_ZIPF && (j->dist_arg == 1.0 || j->dist_arg > 100)) ||
			    (i == DIST_PARETO && j->dist_arg >= 1.0) ||
			    (i == DIST_NORMAL && j->dist_arg > 100))
				return -1;
		}
	} else if (!strcmp(k, "zonemode")) {
		/* strided is fio's default zoning; zbd needs a zoned device */
		if (strcmp(v, "none") && strcmp(v, "strided"))
			return -1;
	} else if (!strcmp(k, "zonesize") || !strcmp(k, "zoneskip")) {
		if (parse_size_base(v, j->kb_base, &x) || x % 512 || x > (1ULL << 50))
			return -1;
		*(k[4] == 's' && k[5] == 'i' ? &j->zonesize : &j->zoneskip) = x;
	} else if (!strcmp(k, "rate") || !strcmp(k, "rate_iops")) {
		char buf[64], *comma;

		/* one limit for both directions; "r,w" takes the larger */
		if (strlen(v) >= sizeof(buf))
			return -1;
		strcpy(buf, v);
		comma = strchr(buf, ',');
		if (comma)
			*comma++ = 0;
		if (k[4] ? parse_uint(buf, UINT64_MAX, &x) : parse_size_base(buf, j->kb_base, &x))
			return -1;
		if (comma && *comma) {
			uint64_t y;

			if (k[4] ? parse_uint(comma, UINT64_MAX, &y) : parse_size_base(comma, j->kb_base, &y))
				return -1;
			if (y > x)
				x = y;
		}
		*(k[4] ? &j->rate_iops : &j->rate) = x;
	} else if (!strcmp(k, "ramp_time")) {
		if (parse_time(v, 1000000000ULL, &x))
			return -1;
		j->ramp_time = x;
	} else if (!strcmp(k, "blockalign") || !strcmp(k, "ba")) {
		if (parse_size_base(v, j->kb_base, &x) || !x || x % 512 || x > (64ULL << 20))
			return -1;
		j->blockalign = x;
	} else if (!strcmp(k, "wait_for")) {
		if (!*v || strlen(v) >= sizeof(j->wait_for))
			return -1;
		strcpy(j->wait_for, v);
	} else if (!strcmp(k, "rate_process")) {
		if (strcmp(v, "linear") && strcmp(v, "poisson"))
			return -1;
		j->poisson = v[0] == 'p';
	} else if (!strcmp(k, "stonewall") || !strcmp(k, "wait_for_previous")) {
		if (bool_value(v, &j->stonewall))
			return -1;
	} else if (is_reporting(k)) {
		/* fio's reporting and naming: no effect on what is issued */
	} else if (!strcmp(k, "file_gap")) {
		if (parse_size_base(v, j->kb_base, &x))
			return -1;
		j->file_gap = x;
	} else if (!strcmp(k, "offset")) {
		if (parse_size_base(v, j->kb_base, &x) || x % 512)
			return -1;
		j->offset = x;
	} else if (!strcmp(k, "filename")) {
		if (!*v || strlen(v) >= sizeof(j->filename))
			return -1;
		strcpy(j->filename, v);
	} else if (!strcmp(k, "directory")) {
		/* naming only: the simulated files live on the one disk */
	} else if (!strcmp(k, "numjobs")) {
		if (parse_uint(v, 4096, &x) || !x)
			return -1;
		j->numjobs = (unsigned)x;
	} else if (!strcmp(k, "thinktime")) {
		if (parse_time(v, 1000, &x))
			return -1;
		j->thinktime = x;
	} else if (!strcmp(k, "thinktime_blocks")) {
		if (parse_uint(v, 1U << 30, &x) || !x)
			return -1;
		j->thinktime_blocks = (unsigned)x;
	} else if (!strcmp(k, "iodepth")) {
		if (parse_uint(v, 4096, &x) || !x)
			return -1;
		j->iodepth = (unsigned)x;
	} else if (!strcmp(k, "ioengine")) {
		if (!strcmp(v, "sync") || !strcmp(v, "psync") ||
		    !strcmp(v, "pvsync") || !strcmp(v, "vsync"))
			j->async_engine = false;
		else if (!strcmp(v, "pvsync2"))
			j->async_engine = false;
		else if (!strcmp(v, "libaio") || !strcmp(v, "io_uring") || !strcmp(v, "posixaio"))
			j->async_engine = true;
		else
			return -1;
	} else if (!strcmp(k, "direct")) {
		if (bool_value(v, &j->direct))
			return -1;
	} else if (!strcmp(k, "buffered")) {
		bool b;

		if (bool_value(v, &b))
			return -1;
		j->direct = !b;
	} else if (!strcmp(k, "sync")) {
		if (bool_value(v, &j->osync))
			return -1;
	} else if (!strcmp(k, "runtime") || !strcmp(k, "timeout")) {
		if (parse_time(v, 1000000000ULL, &x))
			return -1;
		j->runtime = x;
	} else if (!strcmp(k, "time_based")) {
		if (bool_value(v, &j->time_based))
			return -1;
	} else if (!strcmp(k, "startdelay")) {
		if (parse_time(v, 1000000000ULL, &x))
			return -1;
		j->startdelay = x;
	} else if (!strcmp(k, "fsync")) {
		if (parse_uint(v, 1U << 30, &x))
			return -1;
		j->fsync_every = (unsigned)x;
	} else if (!strcmp(k, "end_fsync")) {
		if (bool_value(v, &j->end_fsync))
			return -1;
	} else if (!strcmp(k, "exitall")) {
		if (bool_value(v, &j->exitall))
			return -1;
	} else if (!strcmp(k, "loops")) {
		if (parse_uint(v, 1U << 20, &x) || !x)
			return -1;
		j->loops = (unsigned)x;
	} else {
		return 1;
	}
	return 0;
}


