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

int parse_bool(const char *v, bool *out)
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
 * fio options that cannot change which I/O is issued, when, or what the
 * simulated disk does with it: accepted and ignored (docs/simulator.md's
 * table gives each one's reason). Any other option is handled below or
 * refused.
 */
static bool is_reporting(const char *k)
{
	static const char *const names[] = {
		"name", "description", "group_reporting", "new_group", "stats",
		"disable_lat", "disable_clat", "disable_slat", "disable_bw_measurement",
		"disable_bw", "gtod_reduce", "slat_percentiles", "unified_rw_reporting",
		/* the logs' memory, not their contents: they are written whole */
		"log_compression",
		/*
		 * threads or processes: each has its own I/O context in Linux
		 * (fio's threads are not cloned with CLONE_IO), as a job here
		 */
		"thread", "threads",
		/* laying out and removing files: the simulated files exist, laid out whole */
		"create_serialize", "create_on_open", "fallocate", "unlink", "overwrite",
		/* the simulated disk fails no I/O */
		"continue_on_error", "ignore_error", "error_dump",
		/* the data written: the simulated disk keeps no contents */
		"dedupe_mode", "dedupe_percentage", "buffer_compress_percentage",
		"buffer_compress_chunk", "refill_buffers", "scramble_buffers",
		"zero_buffers", "dedupe_global", "dedupe_working_set_percentage",
		/*
		 * how fio groups its system calls: its own CPU time is none
		 * here, so the same I/Os reach the block layer at the same
		 * instants (fio commits a part batch before it waits)
		 */
		"iodepth_batch", "iodepth_batch_submit", "iodepth_batch_complete_max",
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

/*
 * Every option job_option takes besides is_reporting's: the list a near
 * miss is matched against, and the gate job_option passes a name through
 * first, so an option handled below but missing here is refused (and
 * test_sim's check of each name here finds one listed but not handled).
 */
static const char *const option_names[] = {
	"rw", "readwrite", "rwmixread", "rwmixwrite", "bs", "blocksize", "bsrange",
	"blocksize_range", "bssplit", "size", "filesize", "nrfiles", "file_service_type",
	"kb_base", "norandommap", "randrepeat", "randseed", "offset_increment", "io_size",
	"io_limit", "number_ios", "random_distribution", "zonemode", "zonesize", "zoneskip",
	"rate", "rate_iops", "ramp_time", "blockalign", "ba", "wait_for", "rate_process",
	"stonewall", "wait_for_previous", "file_gap", "offset", "filename", "directory",
	"random_generator", "io_submit_mode", "iodepth_low", "iodepth_batch_complete",
	"iodepth_batch_complete_min", "filename_format", "log_unix_epoch", "openfiles", "invalidate",
	"numjobs", "thinktime", "thinktime_blocks", "iodepth", "ioengine", "direct",
	"buffered", "sync", "runtime", "timeout", "time_based", "startdelay", "fsync",
	"end_fsync", "exitall", "loops", "ioscheduler", "prio", "prioclass",
	"cmdprio_percentage", "cmdprio_class",
};

static bool option_known(const char *k)
{
	size_t i;

	for (i = 0; i < sizeof(option_names) / sizeof(option_names[0]); i++)
		if (!strcmp(k, option_names[i]))
			return true;
	return is_reporting(k);
}

const char *job_option_name(size_t i)
{
	return i < sizeof(option_names) / sizeof(option_names[0]) ? option_names[i] : NULL;
}

/* One job option. Returns 0, 1 for an unknown name, -1 for a bad value. */
/*
 * fio's "N" or "READ,WRITE" (an empty side keeps the default of 0 for a
 * percentage, and N alone is both): each in @lo..@hi.
 */
static int read_write_pair(const char *v, uint64_t hi, uint64_t lo,
			   unsigned out[2])
{
	const char *comma = strchr(v, ',');
	char side[2][24];
	uint64_t x;
	int d;

	if (!comma) {
		if (parse_uint(v, hi, &x) || x < lo)
			return -1;
		out[0] = out[1] = (unsigned)x;
		return 0;
	}
	if ((size_t)(comma - v) >= sizeof(side[0]) || strlen(comma + 1) >= sizeof(side[1]) ||
	    strchr(comma + 1, ','))
		return -1;
	snprintf(side[0], sizeof(side[0]), "%.*s", (int)(comma - v), v);
	snprintf(side[1], sizeof(side[1]), "%s", comma + 1);
	for (d = 0; d < 2; d++) {
		if (!side[d][0] && !lo) {
			out[d] = 0;
			continue;
		}
		if (parse_uint(side[d], hi, &x) || x < lo)
			return -1;
		out[d] = (unsigned)x;
	}
	return 0;
}

int job_option(struct job_spec *j, const char *k, const char *v)
{
	uint64_t x;
	int log = fio_log_option(j, k, v);

	if (log <= 0)
		return log;
	if (!option_known(k))
		return 1;
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
		if (parse_bool(v, &j->norandommap))
			return -1;
	} else if (!strcmp(k, "randrepeat")) {
		bool b;

		/* antic-sim's runs repeat for a seed anyway */
		if (parse_bool(v, &b))
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
		if (parse_bool(v, &j->stonewall))
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
		strcpy(j->filename_dir, j->directory);
	} else if (!strcmp(k, "directory")) {
		/* the simulated files live on the one disk; jobs share a file by its path */
		if (strlen(v) >= sizeof(j->directory))
			return -1;
		strcpy(j->directory, v);
	} else if (!strcmp(k, "random_generator")) {
		/*
		 * tausworthe's offsets are uniform draws, as antic-sim's; lfsr's
		 * follow from each other (a shift register), an order of seeks
		 * antic-sim would not issue: refused in job_option_error
		 */
		if (strcmp(v, "tausworthe") && strcmp(v, "tausworthe64"))
			return -1;
	} else if (!strcmp(k, "io_submit_mode")) {
		/* offload submits on the rate's schedule, not after completions */
		if (strcmp(v, "inline"))
			return -1;
	} else if (!strcmp(k, "iodepth_low")) {
		if (parse_uint(v, 4096, &x))
			return -1;
		j->iodepth_low = (unsigned)x;
	} else if (!strcmp(k, "iodepth_batch_complete") || !strcmp(k, "iodepth_batch_complete_min")) {
		if (parse_uint(v, 4096, &x))
			return -1;
		j->reap_min = (unsigned)x;
	} else if (!strcmp(k, "filename_format")) {
		/* without $filenum a job's files would be one (fio's words in any case) */
		if (!strcasestr(v, "$filenum") || strlen(v) >= sizeof(j->filename_format))
			return -1;
		snprintf(j->filename_format, sizeof(j->filename_format), "%s", v);
	} else if (!strcmp(k, "invalidate")) {
		bool on;

		if (parse_bool(v, &on))
			return -1;
		j->keep_cache = !on;
	} else if (!strcmp(k, "log_unix_epoch")) {
		bool on;

		if (parse_bool(v, &on) || on)
			return -1;
	} else if (!strcmp(k, "openfiles")) {
		/* fewer than the job's files: checked once the job is whole */
		if (parse_uint(v, 1U << 20, &x))
			return -1;
		j->openfiles = (unsigned)x;
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
	} else if (!strcmp(k, "prio")) {
		/*
		 * the level within a class: in the logs' prio column; no
		 * simulated scheduler looks at it (nor mq-deadline's classes)
		 */
		if (parse_uint(v, 7, &x))
			return -1;
		j->prio = (unsigned)x;
		j->prio_given = true;
	} else if (!strcmp(k, "prioclass")) {
		if (parse_uint(v, 3, &x))
			return -1;
		j->prioclass = (unsigned)x;
	} else if (!strcmp(k, "cmdprio_percentage") || !strcmp(k, "cmdprio_class")) {
		bool pct = k[8] == 'p';
		unsigned vals[2];

		if (read_write_pair(v, pct ? 100 : 3, pct ? 0 : 1, vals))
			return -1;
		if (pct) {
			j->cmdprio_pct[0] = vals[0];
			j->cmdprio_pct[1] = vals[1];
		} else {
			j->cmdprio_class[0] = vals[0];
			j->cmdprio_class[1] = vals[1];
		}
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
		if (parse_bool(v, &j->direct))
			return -1;
	} else if (!strcmp(k, "buffered")) {
		bool b;

		if (parse_bool(v, &b))
			return -1;
		j->direct = !b;
	} else if (!strcmp(k, "sync")) {
		if (parse_bool(v, &j->osync))
			return -1;
	} else if (!strcmp(k, "runtime") || !strcmp(k, "timeout")) {
		if (parse_time(v, 1000000000ULL, &x))
			return -1;
		j->runtime = x;
	} else if (!strcmp(k, "time_based")) {
		if (parse_bool(v, &j->time_based))
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
		if (parse_bool(v, &j->end_fsync))
			return -1;
	} else if (!strcmp(k, "exitall")) {
		if (parse_bool(v, &j->exitall))
			return -1;
	} else if (!strcmp(k, "loops")) {
		if (parse_uint(v, 1U << 20, &x) || !x)
			return -1;
		j->loops = (unsigned)x;
	} else if (!strcmp(k, "ioscheduler")) {
		/* fio switches the device to it; here: the one scheduler to run */
		int id = antic_policy_find(v);

		if (id < 0)
			return -1;
		j->ioscheduler = id + 1;
	} else {
		return 1;
	}
	return 0;
}



/*
 * Optimal string alignment distance (an adjacent swap costs one, so
 * "szie" is one from "size"), for "did you mean"; capped at 9.
 */
static unsigned distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, k;
	unsigned d[24][24];

	if (la > 22 || lb > 22)
		return 9;
	for (i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (k = 0; k <= lb; k++)
		d[0][k] = (unsigned)k;
	for (i = 1; i <= la; i++) {
		for (k = 1; k <= lb; k++) {
			unsigned c = d[i - 1][k - 1] + (a[i - 1] != b[k - 1]);

			if (d[i - 1][k] + 1 < c)
				c = d[i - 1][k] + 1;
			if (d[i][k - 1] + 1 < c)
				c = d[i][k - 1] + 1;
			if (i > 1 && k > 1 && a[i - 1] == b[k - 2] && a[i - 2] == b[k - 1] &&
			    d[i - 2][k - 2] + 1 < c)
				c = d[i - 2][k - 2] + 1;
			d[i][k] = c;
		}
	}
	return d[la][lb] > 9 ? 9 : d[la][lb];
}

/*
 * The nearest of @names to @s when near enough to be a slip (one edit in
 * a short name, two from six letters on), else NULL.
 */
const char *nearest_name(const char *s, const char *const *names, size_t n)
{
	unsigned best = 9, limit = strlen(s) >= 6 ? 2 : 1;
	const char *won = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned d = distance(s, names[i]);

		if (d < best) {
			best = d;
			won = names[i];
		}
	}
	return best <= limit ? won : NULL;
}

/*
 * fio's option names (fio 3.33's --cmdhelp=all, the engine options of
 * libaio, io_uring and psync, and aliases): a name here that job_option
 * does not take is a fio feature antic-sim lacks, not a slip.
 */
static const char *const fio_names[] = {
	"allow_file_create", "allow_mounted_write", "allrandrepeat", "atomic", "ba",
	"block_error_percentiles", "blocksize", "blocksize_range", "bs", "bs_unaligned",
	"bsrange", "bssplit", "buffer_compress_chunk", "buffer_compress_percentage",
	"buffer_pattern", "buffered", "bwavgtime", "cgroup", "cgroup_nodelete",
	"cgroup_weight", "clat_percentiles", "clocksource", "cmd_type", "cmdprio",
	"cmdprio_bssplit", "cmdprio_class", "cmdprio_percentage", "continue_on_error",
	"cpumask", "cpus_allowed", "cpus_allowed_policy", "create_fsync", "create_on_open",
	"create_only", "create_serialize", "dedupe_global", "dedupe_mode", "dedupe_percentage",
	"dedupe_working_set_percentage", "description", "direct", "directory",
	"disable_bw_measurement", "disable_clat", "disable_lat", "disable_slat", "disk_util",
	"do_verify", "end_fsync", "error_dump", "exec_postrun", "exec_prerun", "exit_what",
	"exitall", "exitall_on_error", "experimental_verify", "fadvise_hint", "fallocate",
	"fdatasync", "file_append", "file_service_type", "filename", "filename_format",
	"filesize", "fill_device", "fixedbufs", "flow", "flow_id", "flow_sleep", "force_async",
	"fsync", "fsync_on_close", "gid", "group_reporting", "gtod_cpu", "gtod_reduce",
	"hipri", "hugepage-size", "ignore_error", "ignore_zone_limits", "invalidate",
	"io_limit", "io_size", "io_submit_mode", "iodepth", "iodepth_batch",
	"iodepth_batch_complete_max", "iodepth_batch_complete_min", "iodepth_low", "ioengine",
	"ioprio", "ioprio_class", "iopsavgtime", "ioscheduler", "job_max_open_zones",
	"kb_base", "lat_percentiles", "latency_percentile", "latency_run", "latency_target",
	"latency_window", "lockfile", "lockmem", "log_alternate_epoch",
	"log_alternate_epoch_clock_id", "log_avg_msec", "log_compression",
	"log_compression_cpus", "log_entries", "log_hist_coarseness", "log_hist_msec",
	"log_max_value", "log_offset", "log_prio", "log_store_compressed", "log_unix_epoch",
	"loops", "max_latency", "max_open_zones", "mem", "merge_blktrace_file",
	"merge_blktrace_iters", "merge_blktrace_scalars", "name", "new_group", "nice",
	"nonvectored", "norandommap", "nowait", "nrfiles", "numa_cpu_nodes", "numa_mem_policy",
	"number_ios", "numjobs", "offset", "offset_align", "offset_increment", "opendir",
	"openfiles", "overwrite", "per_job_logs", "percentage_random", "percentile_list",
	"pre_read", "prio", "prioclass", "priohint", "profile", "ramp_time",
	"random_distribution", "random_generator", "randrepeat", "randseed", "rate",
	"rate_cycle", "rate_ignore_thinktime", "rate_iops", "rate_iops_min", "rate_min",
	"rate_process", "read_beyond_wp", "read_iolog", "read_iolog_chunked", "readwrite",
	"refill_buffers", "registerfiles", "replay_align", "replay_no_stall",
	"replay_redirect", "replay_scale", "replay_skip", "replay_time_scale", "runtime", "rw",
	"rw_sequencer", "rwmixread", "rwmixwrite", "scramble_buffers", "serialize_overlap",
	"significant_figures", "size", "slat_percentiles", "sqthread_poll",
	"sqthread_poll_cpu", "ss", "ss_dur", "ss_ramp", "startdelay", "stats", "steadystate",
	"steadystate_duration", "steadystate_ramp_time", "stonewall", "sync",
	"sync_file_range", "thinktime", "thinktime_blocks", "thinktime_blocks_type",
	"thinktime_iotime", "thinktime_spin", "thread", "time_based", "timeout",
	"trim_backlog", "trim_backlog_batch", "trim_percentage", "trim_verify_zero", "uid",
	"uncached", "unified_rw_reporting", "unique_filename", "unit_base", "unlink",
	"unlink_each_loop", "userspace_reap", "verify", "verify_async", "verify_backlog",
	"verify_backlog_batch", "verify_dump", "verify_fatal", "verify_interval",
	"verify_offset", "verify_only", "verify_pattern", "verify_state_load",
	"verify_state_save", "wait_for", "wait_for_previous", "write_barrier", "write_bw_log",
	"write_hint", "write_hist_log", "write_iolog", "write_iops_log", "write_lat_log",
	"zero_buffers", "zone_reset_frequency", "zone_reset_threshold", "zonecapacity",
	"zonemode", "zonerange", "zonesize", "zoneskip",
};

/* fio's options antic-sim does not model, with the reason where one is short */
static const struct { const char *name, *why; } fio_only[] = {
	{ "priohint", "the simulated disk keeps no per-command priority hints" },
	{ "cmdprio", "the level within a class is not modelled: cmdprio_class is" },
	{ "cmdprio_bssplit", "give cmdprio_percentage instead" },
	{ "cgroup", "the simulator has no control groups" },
	{ "cgroup_weight", "the simulator has no control groups" },
	{ "cgroup_nodelete", "the simulator has no control groups" },
	{ "nice", "the simulator has no CPU scheduler" },
	{ "cpus_allowed", "the simulator has no CPU scheduler" },
	{ "cpumask", "the simulator has no CPU scheduler" },
	{ "verify", "the simulated disk keeps no data to verify" },
	{ "do_verify", "the simulated disk keeps no data to verify" },
	{ "verify_pattern", "the simulated disk keeps no data to verify" },
	{ "trim_percentage", "the simulated disk has no discard" },
	{ "fdatasync", "only fsync is modelled" },
	{ "sync_file_range", "only fsync is modelled" },
	{ "fadvise_hint", "page-cache advice is not modelled" },
	{ "pre_read", "page-cache advice is not modelled" },
	{ "read_iolog", "replay a trace with antic-sim replay instead" },
	{ "write_iolog", "use antic-sim --write_iolog instead" },
	{ "replay_redirect", "replay a trace with antic-sim replay instead" },
	{ "replay_scale", "use antic-sim replay --remap scale instead" },
	{ "replay_align", "use antic-sim replay --remap instead" },
	{ "lockmem", "the simulator models a fixed amount of memory (--set mem=)" },
	{ "iomem", "the data buffers are not modelled" },
	{ "mem", "the data buffers are not modelled" },
	{ "exec_prerun", "the simulator runs no commands" },
	{ "exec_postrun", "the simulator runs no commands" },
	{ "flow", "flow control between jobs is not modelled" },
	{ "rate_min", "only rate and rate_iops are modelled" },
	{ "ratemin", "only rate and rate_iops are modelled" },
	{ "write_hist_log", "antic-sim writes the lat, bw and iops logs, not the histogram log" },
	{ "log_hist_msec", "antic-sim writes the lat, bw and iops logs, not the histogram log" },
	{ "rate_cycle", "only rate and rate_iops are modelled" },
	{ "latency_target", "only rate and rate_iops are modelled" },
	{ "max_latency", "the simulator does not stop jobs on latency" },
	{ "steadystate", "runs end at their size or runtime" },
	{ "ss", "runs end at their size or runtime" },
	{ "uid", "the simulator has no users" },
	{ "gid", "the simulator has no users" },
	{ "serialize_overlap", "overlapping I/O is not modelled" },
	{ "lockfile", "the simulated files take no locks" },
	{ "allow_mounted_write", "the simulator writes nothing" },
};

static const char *const rw_names[] = { "read", "write", "randread", "randwrite", "rw",
	"readwrite", "randrw" };
static const char *const rw_fio_only[] = { "trim", "randtrim", "trimwrite", "randtrimwrite" };
static const char *const engines[] = { "sync", "psync", "vsync", "pvsync", "pvsync2", "libaio",
	"io_uring", "posixaio" };
/* fio's engines that are not one of the above (fio 3.33's --enghelp and its examples') */
static const char *const fio_engines[] = { "mmap", "splice", "sg", "null", "net", "netsplice",
	"cpuio", "rdma", "falloc", "e4defrag", "rbd", "http", "nfs", "gfapi", "gfapi_async",
	"libhdfs", "mtd", "dev-dax", "libpmem", "filecreate", "filestat", "filedelete", "dircreate",
	"dirstat", "dirdelete", "exec", "io_uring_cmd", "xnvme", "libzbc", "nbd", "libcufile",
	"windowsaio", "solarisaio", "guasi", "external", "libiscsi", "rados", "dfs", "ftruncate",
	"cpp_null", "pmemblk", "ime_psync", "ime_psyncv", "ime_aio", "spdk", "librpma_apm_client",
	"librpma_apm_server", "librpma_gpspm_client", "librpma_gpspm_server", "libblkio", "http" };

/* "a, b, c or d" of @names into @buf */
static void name_list(char *buf, size_t size, const char *const *names, size_t n)
{
	size_t i, o = 0;

	buf[0] = 0;
	for (i = 0; i < n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", !i ? "" : i + 1 < n ? ", " : " or ",
				      names[i]);
}

static bool in(const char *v, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v, names[i]))
			return true;
	return false;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* what a value of option @k must be, for the options whose rule is short */
static const char *value_rule(const char *k)
{
	static const struct { const char *names, *rule; } rules[] = {
		{ " size io_size io_limit offset offset_increment file_gap ",
		  "a size such as 4k, 100m or 1g (size also N%)" },
		{ " bs blocksize bsrange blocksize_range blockalign ba ",
		  "a size in whole 512-byte sectors from 512 to 64m (bs also a range such as 4k-64k)" },
		{ " filesize ", "a size such as 1g, or a range such as 1m-8m" },
		{ " runtime timeout ramp_time startdelay ", "a time such as 30s, 500ms or 2m" },
		{ " thinktime ", "a time such as 500us or 2ms (default unit us)" },
		{ " norandommap randrepeat stonewall wait_for_previous direct buffered sync "
		  "time_based end_fsync exitall invalidate ", "0 or 1" },
		{ " rwmixread rwmixwrite ", "a percentage 0..100" },
		{ " iodepth ", "1..4096" },
		{ " iodepth_low iodepth_batch_complete iodepth_batch_complete_min ", "0..4096" },
		{ " openfiles ", "a whole number" },
		{ " random_generator ", "tausworthe or tausworthe64 (lfsr is not supported)" },
		{ " io_submit_mode ", "inline (offload is not supported)" },
		{ " directory ", "a path of fewer than 256 characters" },
		{ " kb_base ", "1024 or 1000" },
		{ " rate_process ", "linear or poisson" },
		{ " zonemode ", "none or strided (zbd needs a zoned device, which is not modelled)" },
		{ " file_service_type ", "sequential, random[:N] or roundrobin[:N]" },
		{ " random_distribution ", "random, zipf:THETA, pareto:H, normal:DEV or zoned:A/R:..." },
		{ " nrfiles loops thinktime_blocks ", "a whole number of at least 1" },
		{ " prio ", "a priority level 0..7 (0 the highest)" },
		{ " prioclass ", "an I/O priority class 0..3 (0 none, 1 real-time, 2 best effort, 3 idle)" },
		{ " cmdprio_class ", "an I/O priority class 1..3, or one for reads and one for writes: 1,3" },
		{ " cmdprio_percentage ", "a percentage 0..100, or one for reads and one for writes: 50,0" },
	};
	char key[40];
	size_t i;

	if (strlen(k) > 36)
		return NULL;
	snprintf(key, sizeof(key), " %s ", k);
	for (i = 0; i < N(rules); i++)
		if (strstr(rules[i].names, key))
			return rules[i].rule;
	return NULL;
}

void job_option_error(const char *k, const char *v, int rc, char *why, size_t n)
{
	char list[512];
	const char *near;
	size_t i;

	if (rc > 0) {
		for (i = 0; i < N(fio_only); i++) {
			if (!strcmp(k, fio_only[i].name)) {
				snprintf(why, n, "fio's %s is not supported by antic-sim (%s)", k, fio_only[i].why);
				return;
			}
		}
		if (in(k, fio_names, N(fio_names))) {
			snprintf(why, n, "fio's %s is not supported by antic-sim", k);
			return;
		}
		near = nearest_name(k, option_names, N(option_names));
		if (near)
			snprintf(why, n, "%s: no such option; did you mean %s?", k, near);
		else
			snprintf(why, n, "%s: no such option (antic-sim(1) lists the options it takes)", k);
		return;
	}
	if (!strcmp(k, "rw") || !strcmp(k, "readwrite")) {
		char base[32];

		snprintf(base, sizeof(base), "%.*s", (int)strcspn(v, ":"), v);
		if (in(base, rw_fio_only, N(rw_fio_only))) {
			snprintf(why, n, "fio's %s=%s is not supported by antic-sim (the simulated disk has no discard)",
				 k, base);
			return;
		}
		name_list(list, sizeof(list), rw_names, N(rw_names));
		near = in(base, rw_names, N(rw_names)) ? NULL : nearest_name(base, rw_names, N(rw_names));
		snprintf(why, n, "%s: want %s (sequential ones may add :SIZE), got '%s'%s%s%s", k, list, v,
			 near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
		return;
	}
	if (!strcmp(k, "ioengine")) {
		if (in(v, fio_engines, N(fio_engines))) {
			snprintf(why, n, "fio's ioengine=%s is not supported by antic-sim (it models the "
				 "block I/O of read/write and asynchronous engines)", v);
			return;
		}
		name_list(list, sizeof(list), engines, N(engines));
		near = nearest_name(v, engines, N(engines));
		snprintf(why, n, "ioengine: want %s, got '%s'%s%s%s", list, v,
			 near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
		return;
	}
	if (!strcmp(k, "random_generator") && !strcmp(v, "lfsr")) {
		snprintf(why, n, "fio's random_generator=lfsr is not supported by antic-sim (its random "
			 "offsets are uniform draws, as tausworthe's; lfsr's would come in another order)");
		return;
	}
	if (!strcmp(k, "io_submit_mode") && !strcmp(v, "offload")) {
		snprintf(why, n, "fio's io_submit_mode=offload is not supported by antic-sim (a job "
			 "submits as inline does, after its completions)");
		return;
	}
	if (!strcmp(k, "filename_format") && strlen(v) >= sizeof(((struct job_spec *)0)->filename_format)) {
		snprintf(why, n, "fio's filename_format is longer than antic-sim takes (%zu characters)",
			 sizeof(((struct job_spec *)0)->filename_format) - 1);
		return;
	}
	if (!strcmp(k, "filename_format")) {
		snprintf(why, n, "fio's filename_format must name each of a job's files apart ($filenum) "
			 "for antic-sim, which gives every job its own files, got '%s'", v);
		return;
	}
	if (!strcmp(k, "log_unix_epoch")) {
		snprintf(why, n, "fio's log_unix_epoch is not supported by antic-sim (simulated time has "
			 "no epoch: the logs count from each job's start), got '%s'", v);
		return;
	}
	if (!strcmp(k, "zonemode") && !strcmp(v, "zbd")) {
		snprintf(why, n, "fio's zonemode=zbd is not supported by antic-sim (zoned devices are not modelled)");
		return;
	}
	if (!strcmp(k, "random_distribution") && !strncmp(v, "zoned_abs", 9)) {
		snprintf(why, n, "fio's random_distribution=zoned_abs is not supported by antic-sim (zoned: is)");
		return;
	}
	if ((!strcmp(k, "bssplit") || !strcmp(k, "random_distribution")) && strchr(v, ',')) {
		snprintf(why, n, "fio's %s per direction (with ',') is not supported by antic-sim: "
			 "give one for both, got '%s'", k, v);
		return;
	}
	if (!strcmp(k, "numjobs")) {
		uint64_t x;

		if (!parse_uint(v, UINT64_MAX, &x) && x > 4096)
			snprintf(why, n, "numjobs: at most 4096 (fio's own limit), got '%s'", v);
		else
			snprintf(why, n, "numjobs: want 1..4096, got '%s'", v);
		return;
	}
	if (!strcmp(k, "ioscheduler")) {
		if (!strcmp(v, "bfq") || !strcmp(v, "kyber") || !strcmp(v, "cfq") || !strcmp(v, "bfq-mq")) {
			snprintf(why, n, "fio's ioscheduler=%s is not supported by antic-sim (it simulates "
				 "none, mq-deadline and anticipatory)", v);
			return;
		}
		snprintf(why, n, "ioscheduler: want none (noop), mq-deadline (deadline) or anticipatory "
			 "(as), got '%s'", v);
		return;
	}
	if (value_rule(k)) {
		snprintf(why, n, "%s: want %s, got '%s'", k, value_rule(k), v);
		return;
	}
	snprintf(why, n, "%s: bad value '%s'", k, v);
}
