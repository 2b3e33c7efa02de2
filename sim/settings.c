/*
 * settings.c - the simulator's settings ([antic-sim] in a job file, --set
 * on the command line): their defaults and one checked setter by name,
 * so a job file and the command line cannot accept different things.
 */
#include "job.h"
#include <stddef.h>
#include <string.h>

void sim_default_settings(struct sim_settings *s)
{
	memset(s, 0, sizeof(*s));
	s->seed = 1;
	/*
	 * Today's disk: a 2 TB 7200 rpm SATA drive (the one core's
	 * st2000dm006 preset was fitted to) with NCQ at libata's depth of
	 * 32, as such a drive runs under Linux. disk= loads a preset whole,
	 * its depth of 1 included.
	 */
	{
		const struct disk_preset *pr = disk_preset_find("st2000dm006");

		if (pr) {
			s->disk = pr->p;
			s->disk.queue_depth = 32;
		} else {
			disk_default_params(&s->disk);
		}
	}
	as_default_tunables(&s->as, true);
	dl_default_tunables(&s->dl);
	s->mem_bytes = 256ULL << 20;	/* Morton's test machine */
	s->dirty_ratio = 20;
	s->dirty_background_ratio = 10;
	s->read_ahead_kb = 128;
	s->max_sectors_kb = 512;
	s->nr_requests = 64;
	s->wakeup = 20 * 1000;
	s->wbt = true;
	s->max_time = 3600ULL * ANTIC_NSEC_PER_SEC;
}

/* the disk's single figures, each a uint32_t of struct disk_params */
static const struct { const char *name; size_t off; uint64_t lo, hi; } dp[] = {
#define P(f, lo, hi) { #f, offsetof(struct disk_params, f), lo, hi }
	P(rpm, 1000, 30000), P(heads, 1, 64), P(zones, 1, 64),
	P(outer_mbps, 1, 100000), P(inner_mbps, 1, 100000),
	P(track_to_track_us, 1, 1000000), P(avg_seek_us, 1, 1000000),
	P(full_stroke_us, 1, 1000000), P(overhead_us, 0, 1000000),
	P(cache_segments, 0, 64), P(segment_kb, 4, 65536),
	P(iface_mbps, 1, 100000), P(queue_depth, 1, 256),
	P(ncq_age_ms, 0, 60000), P(ncq_age_weight, 0, 1000),
	P(write_cache, 0, 1), P(cache_mb, 1, 4096),
	P(ssd_read_us, 0, 1000000), P(ssd_write_us, 0, 1000000),
	P(ssd_channels, 1, 64), P(ssd_mbps, 1, 100000),
#undef P
};

/* the settings besides dp's and the AS tunables, for the list an unknown one prints */
static const char *const other_names[] = {
	"disk", "type", "capacity", "seed", "dl_read_expire", "dl_write_expire",
	"writes_starved", "fifo_batch", "mem", "dirty_ratio", "dirty_background_ratio",
	"read_ahead_kb", "max_sectors_kb", "nr_requests", "max_time", "wbt", "wakeup",
	"layout",
};

#define NR_SETTINGS (sizeof(dp) / sizeof(dp[0]) + AS_NR_TUNABLES + \
		     sizeof(other_names) / sizeof(other_names[0]))

const char *settings_name(size_t i)
{
	if (i < sizeof(dp) / sizeof(dp[0]))
		return dp[i].name;
	i -= sizeof(dp) / sizeof(dp[0]);
	if (i < AS_NR_TUNABLES)
		return as_tunable_descs[i].name;
	i -= AS_NR_TUNABLES;
	return i < sizeof(other_names) / sizeof(other_names[0]) ? other_names[i] : NULL;
}

static int ms_value(const char *v, uint64_t max_ms, uint64_t *ns)
{
	uint64_t x;

	if (parse_uint(v, max_ms, &x))
		return -1;
	*ns = x * ANTIC_NSEC_PER_MSEC;
	return 0;
}

int settings_apply(struct sim_settings *s, const char *k, const char *v,
		   char *err, size_t errlen)
{
	uint64_t x;
	size_t i;

	for (i = 0; i < sizeof(dp) / sizeof(dp[0]); i++) {
		if (strcmp(k, dp[i].name))
			continue;
		if (parse_uint(v, dp[i].hi, &x) || x < dp[i].lo)
			return seterr(err, errlen,
				      "%s: want an integer in %llu..%llu, got '%s'",
				      k, (unsigned long long)dp[i].lo,
				      (unsigned long long)dp[i].hi, v);
		*(uint32_t *)((char *)&s->disk + dp[i].off) = (uint32_t)x;
		return 0;
	}
	/* a named drive from core's table; later settings override single figures */
	if (!strcmp(k, "disk")) {
		const struct disk_preset *pr = disk_preset_find(v);
		char names[128] = "";
		size_t n = 0;

		if (pr) {
			s->disk = pr->p;
			s->max_sectors_kb = pr->max_sectors_kb;
			return 0;
		}
		for (i = 0; i < DISK_NR_PRESETS; i++)
			n += (size_t)snprintf(names + n, n < sizeof(names) ? sizeof(names) - n : 0, "%s%s",
					      !i ? "" : i + 1 < DISK_NR_PRESETS ? ", " : " or ",
					      disk_presets[i].name);
		return seterr(err, errlen, "disk: want %s, got '%s'", names, v);
	}
	if (!strcmp(k, "type")) {
		if (!strcmp(v, "hdd")) {
			s->disk.type = DISK_HDD;
		} else if (!strcmp(v, "ssd")) {
			s->disk.type = DISK_SSD;
			if (s->disk.queue_depth == 1)
				s->disk.queue_depth = 32;
		} else {
			return seterr(err, errlen, "type: want hdd or ssd, got '%s'", v);
		}
		return 0;
	}
	if (!strcmp(k, "capacity")) {
		if (parse_size(v, &x) || x < (1ULL << 20))
			return seterr(err, errlen, "capacity: want a size of at least 1m, got '%s'", v);
		s->disk.capacity = x / 512;
		return 0;
	}
	if (!strcmp(k, "seed")) {
		if (parse_uint(v, UINT64_MAX, &s->seed))
			return seterr(err, errlen, "seed: want an unsigned integer, got '%s'", v);
		return 0;
	}
	/* AS tunables, in ms or counts and in the ranges the kernel module's sysfs files take */
	{
		const struct as_tunable_desc *d = as_tunable_find(k);

		if (d) {
			if (parse_uint(v, d->max_ms, &x) || x < d->min_ms)
				return seterr(err, errlen, "%s: want %s %u..%u, got '%s'", k,
					      d->scale == 1 ? "a count" : "milliseconds",
					      d->min_ms, d->max_ms, v);
			*(uint64_t *)((char *)&s->as + d->off) = x * d->scale;
			if (d->off == offsetof(struct as_tunables, antic_expire))
				s->as_explicit_antic = true;
			return 0;
		}
	}
	if (!strcmp(k, "dl_read_expire") || !strcmp(k, "dl_write_expire")) {
		if (ms_value(v, 3600000, k[3] == 'r' ? &s->dl.read_expire : &s->dl.write_expire))
			return seterr(err, errlen, "%s: want milliseconds 0..3600000, got '%s'", k, v);
		return 0;
	}
	if (!strcmp(k, "writes_starved") || !strcmp(k, "fifo_batch")) {
		if (parse_uint(v, 1U << 20, &x) || (k[0] == 'f' && !x))
			return seterr(err, errlen, "%s: want an integer%s, got '%s'", k,
				      k[0] == 'f' ? " of at least 1" : "", v);
		*(k[0] == 'w' ? &s->dl.writes_starved : &s->dl.fifo_batch) = (uint32_t)x;
		return 0;
	}
	if (!strcmp(k, "mem")) {
		if (parse_size(v, &x) || x < (16ULL << 20))
			return seterr(err, errlen, "mem: want a size of at least 16m, got '%s'", v);
		s->mem_bytes = x;
		return 0;
	}
	if (!strcmp(k, "dirty_ratio") || !strcmp(k, "dirty_background_ratio")) {
		if (parse_uint(v, 100, &x) || !x)
			return seterr(err, errlen, "%s: want a percentage 1..100, got '%s'", k, v);
		*(k[6] == 'r' ? &s->dirty_ratio : &s->dirty_background_ratio) = (unsigned)x;
		return 0;
	}
	if (!strcmp(k, "read_ahead_kb") || !strcmp(k, "max_sectors_kb")) {
		if (parse_uint(v, 65536, &x) || (k[0] == 'm' && x < 4))
			return seterr(err, errlen, "%s: want KiB %s..65536, got '%s'", k,
				      k[0] == 'm' ? "4" : "0", v);
		*(k[0] == 'r' ? &s->read_ahead_kb : &s->max_sectors_kb) = x;
		return 0;
	}
	if (!strcmp(k, "nr_requests")) {
		if (parse_uint(v, 100000, &x) || !x)
			return seterr(err, errlen, "nr_requests: want 1..100000, got '%s'", v);
		s->nr_requests = (unsigned)x;
		return 0;
	}
	if (!strcmp(k, "max_time")) {
		if (parse_time(v, ANTIC_NSEC_PER_SEC, &x) || !x)
			return seterr(err, errlen, "max_time: want a time, got '%s'", v);
		s->max_time = x;
		return 0;
	}
	if (!strcmp(k, "wbt")) {
		if (strcmp(v, "0") && strcmp(v, "1"))
			return seterr(err, errlen, "wbt: want 0 or 1, got '%s'", v);
		s->wbt = v[0] == '1';
		return 0;
	}
	if (!strcmp(k, "requeue_per_mille")) {
		/* at most half: a command is given back again with that chance */
		if (parse_uint(v, 500, &x))
			return seterr(err, errlen, "requeue_per_mille: want an integer 0..500, got '%s'", v);
		s->requeue_per_mille = (unsigned)x;
		return 0;
	}
	if (!strcmp(k, "layout")) {
		if (!*v || strlen(v) >= sizeof(s->layout))
			return seterr(err, errlen, "layout: want a file's path (under %zu characters), got '%s'",
				      sizeof(s->layout), v);
		memcpy(s->layout, v, strlen(v) + 1);
		return 0;
	}
	if (!strcmp(k, "wakeup")) {
		if (parse_time(v, 1000, &x) || x > ANTIC_NSEC_PER_SEC)
			return seterr(err, errlen, "wakeup: want a time up to 1s (default unit us), got '%s'", v);
		s->wakeup = x;
		return 0;
	}
	{
		const char *names[NR_SETTINGS], *near;
		char list[1024];
		size_t o = 0;

		for (i = 0; i < NR_SETTINGS; i++)
			names[i] = settings_name(i);
		near = nearest_name(k, names, NR_SETTINGS);
		if (near)
			return seterr(err, errlen, "unknown setting '%s'; did you mean %s?", k, near);
		for (i = 0; i < NR_SETTINGS && o < sizeof(list); i++)
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? " " : "", names[i]);
		return seterr(err, errlen, "unknown setting '%s'; the settings are: %s", k, list);
	}
}
