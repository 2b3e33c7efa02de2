// SPDX-License-Identifier: GPL-2.0
/*
 * disk.c - a mechanical disk: zoned geometry derived from capacity, Lee's
 * three-point seek curve, rotation tracked against absolute time, a
 * segmented read cache filled by drive read-ahead, and an SSD for contrast.
 * Integer arithmetic only.
 */
#include "disk.h"

/*
 * Where each figure comes from. Where no source pins a figure, it is
 * the model's choice and says so; the SSD fields are the same in both
 * (they matter only with type=ssd).
 */
const struct disk_preset disk_presets[DISK_NR_PRESETS] = {
	{
		.name = "sata7200",
		.what = "a 1 TB 7200 rpm SATA drive of the kind still sold for NAS use",
		.p = {
			.type = DISK_HDD,
			/* IDEMA's LBA count for 1 TB (1000204886016 bytes) */
			.capacity = 1953525168ULL,
			.rpm = 7200,
			/* two platters: the model's choice for 1 TB */
			.heads = 4,
			/* the model's choice; enough for a smooth rate curve */
			.zones = 16,
			/* round figures for a current 7200 rpm drive: the
			 * inner tracks are about half as long as the outer
			 */
			.outer_mbps = 200,
			.inner_mbps = 100,
			/* the usual published class for 7200 rpm drives */
			.track_to_track_us = 1000,
			.avg_seek_us = 8500,
			.full_stroke_us = 18000,
			/* the model's choice: small beside any seek */
			.overhead_us = 50,
			/* the model's choice: 16 MiB of read-ahead segments */
			.cache_segments = 16,
			.segment_kb = 1024,
			/* SATA 6 Gb/s after 8b/10b coding */
			.iface_mbps = 600,
			/* no NCQ, where antic's comparisons start; a setting */
			.queue_depth = 1,
			/*
			 * Drive firmware bounds how long NCQ reordering can
			 * pass a command over; reported bounds run from 0.5
			 * to 4 s. ublk-disksim, a validated userspace HDD
			 * emulator, uses 500 ms; so does the model.
			 */
			.ncq_age_ms = 500,
			/*
			 * Before that limit, a wait counts against a
			 * command's positioning time (aged SATF, Jacobson
			 * and Wilkes 1991). The weight is the model's
			 * choice, fitted to the ST2000DM006's 94 IOPS at
			 * QD32; with none, a full queue of random reads
			 * settles into arrival order once the limit bites.
			 */
			.ncq_age_weight = 60,
			/*
			 * Every SATA drive ships with its write cache on
			 * (hdparm -W1); the share of the buffer it may fill
			 * is the model's choice, a quarter of a 64 MiB buffer
			 */
			.write_cache = 1,
			.cache_mb = 16,
			.ssd_read_us = 80,
			.ssd_write_us = 20,
			.ssd_channels = 8,
			.ssd_mbps = 500,
		},
		/* the model's choice, and hddsim's default before presets */
		.max_sectors_kb = 512,
	},
	{
		.name = "ide2003",
		.what = "a 2003 IDE disk like the one Morton measured AS on",
		.p = {
			.type = DISK_HDD,
			/* 40 GB, the size of Morton's disk */
			.capacity = 40000000000ULL / 512,
			/* as sata7200: no figure of his says otherwise */
			.rpm = 7200,
			.heads = 4,
			.zones = 16,
			/* an approximation of 7200 rpm IDE drives of
			 * 2002-2003, not a figure Morton gave
			 */
			.outer_mbps = 40,
			.inner_mbps = 22,
			.track_to_track_us = 1000,
			/* the usual published class for IDE drives then */
			.avg_seek_us = 9000,
			.full_stroke_us = 17000,
			.overhead_us = 50,
			/* a 2 MB buffer, the common size then, as 4 segments */
			.cache_segments = 4,
			.segment_kb = 512,
			/* ATA/100 */
			.iface_mbps = 100,
			.queue_depth = 1,
			/* as sata7200, should a depth be set: the drive had no NCQ */
			.ncq_age_ms = 500,
			.ncq_age_weight = 60,
			/* write-through, as the 2003 comparison runs */
			.write_cache = 0,
			.ssd_read_us = 80,
			.ssd_write_us = 20,
			.ssd_channels = 8,
			.ssd_mbps = 500,
		},
		/* Linux 2.5's IDE driver sent at most 128 KiB per request */
		.max_sectors_kb = 128,
	},
	{
		.name = "st2000dm006",
		.what = "Seagate BarraCuda ST2000DM006, 2 TB 7200 rpm desktop drive",
		.p = {
			.type = DISK_HDD,
			/* smartctl on an ST2000DM006-2DM164: 2,000,398,934,016
			 * bytes (pastebin.com/Syza2V0X)
			 */
			.capacity = 3907029168ULL,
			/* the same smartctl report: "Rotation Rate: 7200 rpm" */
			.rpm = 7200,
			/* the model's choice: two platters, as for 2 TB */
			.heads = 4,
			/* the model's choice, as sata7200 */
			.zones = 16,
			/* 210 MB/s, BarraCuda 3.5's "max sustained data rate,
			 * OD read", found for its 1 TB sibling ST1000DM010
			 * (zaro.info); the ST2000DM006 sheet was not found
			 */
			.outer_mbps = 210,
			/* the model's choice, fitted so that a file spread
			 * over the platter reads near the measured 143 MB/s
			 * (148 here); lower than the half of the outer rate
			 * real inner tracks give (105 would read 161 MB/s),
			 * as the measured rate also paid NTFS's costs
			 */
			.inner_mbps = 80,
			/* Seagate publishes no seek figures for BarraCuda;
			 * the model's choice, fitted to the drive measured:
			 * random 4 KiB reads over the disk at QD1 took 17.2-
			 * 17.8 ms (p50 17.7, p99 28.4); Lee's curve wants a
			 * full stroke of at least 1.9 times the average
			 */
			.track_to_track_us = 2000,
			.avg_seek_us = 13600,
			.full_stroke_us = 24000,
			/* the model's choice, as sata7200 */
			.overhead_us = 50,
			/* 64 MB of cache (BarraCuda 3.5, as outer_mbps); its
			 * split into 16 segments is the model's choice
			 */
			.cache_segments = 16,
			.segment_kb = 4096,
			/* smartctl: SATA 3.1, 6.0 Gb/s; after 8b/10b coding */
			.iface_mbps = 600,
			/* NCQ depth is a setting (queue_depth=32 for the QD32
			 * figure); depth 1 as the other presets
			 */
			.queue_depth = 1,
			/* as sata7200: firmware's aging, cache on */
			.ncq_age_ms = 500,
			.ncq_age_weight = 60,
			.write_cache = 1,
			.cache_mb = 16,
			.ssd_read_us = 80,
			.ssd_write_us = 20,
			.ssd_channels = 8,
			.ssd_mbps = 500,
		},
		/* the model's choice, as sata7200 */
		.max_sectors_kb = 512,
	},
	{
		.name = "hc310",
		.what = "WD/HGST Ultrastar DC HC310 HUS726T4TALE6L4, 4 TB 7200 rpm enterprise SATA",
		.p = {
			.type = DISK_HDD,
			/* IDEMA's LBA count for 4 TB (4000787030016 bytes) */
			.capacity = 7814037168ULL,
			/* Ultrastar DC HC310 SATA specification rev 1.4
			 * (18 Sep 2018), table 7: 7200 rpm, 4.16 ms latency
			 */
			.rpm = 7200,
			/* the model's choice: four platters */
			.heads = 8,
			.zones = 16,
			/* the specification's transfer rates were not found
			 * in the corpora searched: the model's choice, about
			 * the 205 MB/s of the class
			 */
			.outer_mbps = 205,
			.inner_mbps = 100,
			/* the specification, tables 5 and 6: read seeks,
			 * typical, 7.4 ms average and 0.23 ms single track
			 */
			.track_to_track_us = 230,
			.avg_seek_us = 7400,
			/* not found: the model's choice, inside the range
			 * (13.7-21.7 ms) Lee's curve allows with the two above
			 */
			.full_stroke_us = 16000,
			.overhead_us = 50,
			/* the model's choice: 64 MiB of read-ahead segments */
			.cache_segments = 16,
			.segment_kb = 4096,
			/* SATA 6 Gb/s after 8b/10b coding */
			.iface_mbps = 600,
			.queue_depth = 1,
			/* as sata7200: firmware's aging, cache on */
			.ncq_age_ms = 500,
			.ncq_age_weight = 60,
			.write_cache = 1,
			.cache_mb = 16,
			.ssd_read_us = 80,
			.ssd_write_us = 20,
			.ssd_channels = 8,
			.ssd_mbps = 500,
		},
		.max_sectors_kb = 512,
	},
	{
		.name = "wd40efrx",
		.what = "WD Red WD40EFRX, 4 TB 5400 rpm NAS drive",
		.p = {
			.type = DISK_HDD,
			/* hdparm -I on a WD40EFRX-68WT0N0: 7814037168 LBA48
			 * sectors (pastebin.com/EpcYkVdV)
			 */
			.capacity = 7814037168ULL,
			/* the same report: "Nominal Media Rotation Rate: 5400" */
			.rpm = 5400,
			/* the model's choice: four platters */
			.heads = 8,
			.zones = 16,
			/* WD's data sheet (150 MB/s host to/from drive,
			 * sustained) was not found in the corpora searched:
			 * the model's choice at that figure, and half of it
			 * for the inner tracks
			 */
			.outer_mbps = 150,
			.inner_mbps = 75,
			/* WD publishes no seek figures for the Red: the
			 * model's choice, from the one 5400 rpm specification
			 * found (Hitachi Travelstar 5K320: 1 ms single track,
			 * 12 ms average); full stroke 22 ms, not its 20,
			 * because Lee's curve needs at least 21.6 with them
			 */
			.track_to_track_us = 1000,
			.avg_seek_us = 12000,
			.full_stroke_us = 22000,
			.overhead_us = 50,
			/* 64 MB of cache (the "WD40EFRX 4TB 64MB" of retail
			 * listings); 16 segments is the model's choice
			 */
			.cache_segments = 16,
			.segment_kb = 4096,
			/* hdparm: SATA Rev 3.0, 6 Gb/s, after 8b/10b coding */
			.iface_mbps = 600,
			.queue_depth = 1,
			/* as sata7200: firmware's aging, cache on */
			.ncq_age_ms = 500,
			.ncq_age_weight = 60,
			.write_cache = 1,
			.cache_mb = 16,
			.ssd_read_us = 80,
			.ssd_write_us = 20,
			.ssd_channels = 8,
			.ssd_mbps = 500,
		},
		.max_sectors_kb = 512,
	},
};

const struct disk_preset *disk_preset_find(const char *name)
{
	size_t i;

	for (i = 0; i < DISK_NR_PRESETS; i++)
		if (antic_streq(disk_presets[i].name, name))
			return &disk_presets[i];
	return NULL;
}

void disk_default_params(struct disk_params *p)
{
	*p = disk_presets[0].p;
}

void disk_ssd_params(struct disk_params *p)
{
	disk_default_params(p);
	p->type = DISK_SSD;
	p->queue_depth = 32;
}

static int fail(const char **why, const char *what)
{
	if (why)
		*why = what;
	return -1;
}

int disk_init(struct disk_model *d, const struct disk_params *p, const char **why)
{
	u64 sum_spt = 0, per_zone, sector = 0, cyl = 0;
	s64 tmin, tavg, tmax;
	u32 z;

	*d = (struct disk_model){ 0 };
	d->p = *p;
	d->ra = -1;
	d->destaging = -1;
	if (p->capacity < 2048)
		return fail(why, "capacity");
	if (p->queue_depth < 1 || p->queue_depth > 256)
		return fail(why, "queue_depth");
	if (p->ncq_age_ms > 60000)
		return fail(why, "ncq_age_ms");
	if (p->ncq_age_weight > 1000)
		return fail(why, "ncq_age_weight");
	if (p->write_cache > 1)
		return fail(why, "write_cache");
	if (p->write_cache && (p->cache_mb < 1 || p->cache_mb > 4096))
		return fail(why, "cache_mb");
	if (p->iface_mbps < 1)
		return fail(why, "iface_mbps");
	if (p->cache_segments > DISK_MAX_SEGMENTS)
		return fail(why, "cache_segments");
	if (p->cache_segments && (p->segment_kb < 4 || p->segment_kb > 65536))
		return fail(why, "segment_kb");
	if (p->type == DISK_SSD) {
		if (p->ssd_channels < 1 || p->ssd_channels > DISK_MAX_CHANNELS)
			return fail(why, "ssd_channels");
		if (p->ssd_mbps < 1)
			return fail(why, "ssd_mbps");
		return 0;
	}
	if (p->type != DISK_HDD)
		return fail(why, "type");
	if (p->rpm < 1000 || p->rpm > 30000)
		return fail(why, "rpm");
	if (p->heads < 1 || p->heads > 64)
		return fail(why, "heads");
	if (p->zones < 1 || p->zones > DISK_MAX_ZONES)
		return fail(why, "zones");
	if (p->outer_mbps < 1 || p->outer_mbps > 100000)
		return fail(why, "outer_mbps");
	if (p->inner_mbps < 1 || p->inner_mbps > p->outer_mbps)
		return fail(why, "inner_mbps");
	d->rev_ns = antic_div64(60 * ANTIC_NSEC_PER_SEC, p->rpm);
	d->nr_zones = p->zones;
	for (z = 0; z < p->zones; z++) {
		/* rate falls linearly from the outer zone to the inner one */
		u64 mbps = p->outer_mbps -
			   (p->zones > 1 ? antic_div64((u64)(p->outer_mbps -
							     p->inner_mbps) * z,
						     p->zones - 1) : 0);
		u64 spt = antic_div64(mbps * 1000000ULL * d->rev_ns,
				      512ULL * ANTIC_NSEC_PER_SEC);

		if (spt < 1)
			return fail(why, "inner_mbps");
		d->zone[z].spt = (u32)spt;
		sum_spt += spt;
	}
	per_zone = antic_div64(p->capacity + p->heads * sum_spt - 1,
			       p->heads * sum_spt);
	if (per_zone < 2)
		return fail(why, "capacity");
	for (z = 0; z < p->zones; z++) {
		d->zone[z].first_sector = sector;
		d->zone[z].first_cyl = cyl;
		d->zone[z].cyls = per_zone;
		sector += per_zone * p->heads * d->zone[z].spt;
		cyl += per_zone;
	}
	d->cylinders = cyl;
	/* Lee's three-point curve through track-to-track, average and full */
	tmin = (s64)p->track_to_track_us * 1000;
	tavg = (s64)p->avg_seek_us * 1000;
	tmax = (s64)p->full_stroke_us * 1000;
	if (!(tmin > 0 && tmin <= tavg && tavg <= tmax))
		return fail(why, "avg_seek_us");
	d->seek_a = (-10 * tmin + 15 * tavg - 5 * tmax) / 3;
	d->seek_b = (7 * tmin - 15 * tavg + 8 * tmax) / 3;
	if (d->seek_a < 0 || d->seek_b < 0)
		return fail(why, "avg_seek_us");
	return 0;
}

static const struct disk_zone *zone_of(const struct disk_model *d, u64 sector)
{
	u32 lo = 0, hi = d->nr_zones - 1;

	while (lo < hi) {
		u32 mid = (lo + hi + 1) / 2;

		if (d->zone[mid].first_sector <= sector)
			lo = mid;
		else
			hi = mid - 1;
	}
	return &d->zone[lo];
}

u64 disk_sector_cyl(const struct disk_model *d, u64 sector)
{
	const struct disk_zone *z = zone_of(d, sector);
	u64 cyl = z->first_cyl + antic_div64(sector - z->first_sector,
					     (u64)d->p.heads * z->spt);

	return antic_min64(cyl, d->cylinders - 1);
}

u32 disk_sector_spt(const struct disk_model *d, u64 sector)
{
	return zone_of(d, sector)->spt;
}

u64 disk_media_rate(const struct disk_model *d, u64 sector)
{
	if (d->p.type == DISK_SSD)
		return (u64)d->p.ssd_mbps * 1000000ULL * d->p.ssd_channels;
	return antic_div64((u64)disk_sector_spt(d, sector) * 512 *
				   ANTIC_NSEC_PER_SEC, d->rev_ns);
}

u64 disk_seek_ns(const struct disk_model *d, u64 dist)
{
	u64 span = d->cylinders > 2 ? d->cylinders - 2 : 1;
	u64 x, frac, root;

	if (!dist)
		return 0;
	x = antic_min64(dist - 1, span);
	/* sqrt(x/span) in 16-bit fixed point */
	frac = antic_div64(x << 32, span);
	root = antic_isqrt64(frac);
	return (u64)d->p.track_to_track_us * 1000 +
	       (((u64)d->seek_a * root) >> 16) +
	       antic_div64((u64)d->seek_b * x, span);
}

/* Angular position of @sector, as ns after the index mark. */
static u64 sector_angle(const struct disk_model *d, u64 sector)
{
	const struct disk_zone *z = zone_of(d, sector);
	u64 in_track;

	/* perfect track skew: sector order is continuous in angle */
	in_track = (sector - z->first_sector) % z->spt;
	return antic_div64(in_track * d->rev_ns, z->spt);
}

static u64 transfer_ns(const struct disk_model *d, u64 sector, u32 nr)
{
	return antic_div64((u64)nr * d->rev_ns, disk_sector_spt(d, sector));
}

static u64 iface_ns(const struct disk_model *d, u32 nr)
{
	return antic_div64((u64)nr * 512 * 1000, d->p.iface_mbps);
}

static u64 segment_sectors(const struct disk_model *d)
{
	return (u64)d->p.segment_kb * 2;
}

/*
 * Where the data a segment holds begins, if the head has read [start,
 * end) into it: a segment is segment_kb of buffer, so a stream keeps only
 * its most recent segment_kb, whatever the length of the stream.
 */
static u64 held_from(const struct disk_model *d, u64 start, u64 end)
{
	u64 seg = segment_sectors(d);

	return end - start > seg ? end - seg : start;
}

/* Where read-ahead has reached at @t. */
static u64 ra_pos(const struct disk_model *d, u64 t)
{
	u64 done;

	if (t <= d->ra_t0)
		return d->ra_base;
	done = antic_div64((t - d->ra_t0) * d->ra_spt, d->rev_ns);
	return antic_min64(d->ra_base + done, d->ra_cap);
}

static u64 ra_time_of(const struct disk_model *d, u64 sector)
{
	return d->ra_t0 + antic_div64((sector - d->ra_base) * d->rev_ns +
					      d->ra_spt - 1, d->ra_spt);
}

/*
 * Would a read of [sector, sector+nr) at @t come from the cache? If so,
 * *ready is when its last sector is in the buffer. inline, because gcc
 * kept it a call: its frame and the results it passed back through
 * memory cost about 40 instructions a read.
 */
static inline bool cache_lookup(const struct disk_model *d, u64 t, u64 sector,
				u32 nr, int *which, u64 *ready)
{
	u64 end = sector + nr;
	u32 i;

	/* data written and not yet destaged is read back from the buffer */
	for (i = 0; i < d->ndirty; i++) {
		const struct disk_cmd *c = &d->dirty[i].cmd;

		if (sector >= c->sector && end <= c->sector + c->nr) {
			*which = -1;
			*ready = t;
			return true;
		}
	}
	for (i = 0; i < d->p.cache_segments; i++) {
		const struct disk_segment *s = &d->seg[i];

		if ((int)i == d->ra) {
			/* ra_pos divides: once per lookup, not twice */
			u64 pos = ra_pos(d, t);

			if (sector >= held_from(d, s->start, pos) &&
			    sector <= pos && end <= d->ra_cap) {
				*which = (int)i;
				*ready = end <= pos ? t : ra_time_of(d, end);
				return true;
			}
		} else if (sector >= s->start && end <= s->end &&
			   s->end > s->start) {
			*which = (int)i;
			*ready = t;
			return true;
		}
	}
	return false;
}

/* The head leaves the read-ahead stream: freeze what it has read. */
static void stop_read_ahead(struct disk_model *d, u64 t)
{
	if (d->ra < 0)
		return;
	d->seg[d->ra].end = ra_pos(d, t);
	d->seg[d->ra].start = held_from(d, d->seg[d->ra].start,
					d->seg[d->ra].end);
	d->head_sector = d->seg[d->ra].end;
	d->cyl = disk_sector_cyl(d, d->head_sector);
	d->ra = -1;
}

static void invalidate(struct disk_model *d, u64 sector, u32 nr)
{
	u32 i;

	for (i = 0; i < d->p.cache_segments; i++) {
		struct disk_segment *s = &d->seg[i];

		if (s->start < sector + nr && sector < s->end)
			s->start = s->end = 0;
	}
}

static void start_read_ahead(struct disk_model *d, u64 t, u64 sector, u64 end)
{
	u32 i, victim = 0;

	for (i = 1; i < d->p.cache_segments; i++)
		if (d->seg[i].used < d->seg[victim].used)
			victim = i;
	d->seg[victim].start = held_from(d, sector, end);
	d->seg[victim].end = end;
	d->seg[victim].used = ++d->stamp;
	d->ra = (int)victim;
	d->ra_t0 = t;
	d->ra_base = end;
	d->ra_cap = antic_min64(end + segment_sectors(d), d->p.capacity);
	d->ra_spt = disk_sector_spt(d, end < d->p.capacity ? end : sector);
}

static u64 ssd_service(struct disk_model *d, u64 now, u32 nr, bool write)
{
	u32 i, best = 0;
	u64 start, done;

	for (i = 1; i < d->p.ssd_channels; i++)
		if (d->chan_free[i] < d->chan_free[best])
			best = i;
	start = antic_max64(now, d->chan_free[best]);
	done = start + (u64)(write ? d->p.ssd_write_us : d->p.ssd_read_us) *
			       1000 +
	       antic_div64((u64)nr * 512 * 1000, d->p.ssd_mbps);
	d->chan_free[best] = done;
	return done;
}

/* When [sector, +nr) is under the head (or in the buffer) if started at @t. */
static u64 position_from(const struct disk_model *d, u64 t, u64 sector, u32 nr,
			 bool write)
{
	u64 ready, head, cyl, rot;
	int which;

	if (!write && cache_lookup(d, t, sector, nr, &which, &ready))
		return antic_max64(ready, t);
	head = d->ra >= 0 ? ra_pos(d, t) : d->head_sector;
	cyl = disk_sector_cyl(d, head);
	t += disk_seek_ns(d, antic_absdiff(cyl, disk_sector_cyl(d, sector)));
	rot = (sector_angle(d, sector) + d->rev_ns - t % d->rev_ns) %
	      d->rev_ns;
	return t + rot;
}

u64 disk_position_time(const struct disk_model *d, u64 now, u64 sector, u32 nr,
		       bool write)
{
	if (d->p.type == DISK_SSD)
		return 0;
	return position_from(d, now + (u64)d->p.overhead_us * 1000, sector,
			     nr, write) - now;
}

/*
 * The drive's choice among candidates offered one by one, twice: first
 * for the oldest (aging), then for the shortest positioning time. A
 * candidate is a queued command or, for the write cache, a destage.
 */
struct pick {
	const struct disk_model *d;
	u64 now, age;
	bool aged;
	int oldest, best;
	u64 oldest_arrival, best_t, best_arrival;
};

static void pick_init(struct pick *k, const struct disk_model *d, u64 now)
{
	*k = (struct pick){ .d = d, .now = now, .oldest = -1, .best = -1,
			    .age = (u64)d->p.ncq_age_ms * ANTIC_NSEC_PER_MSEC };
}

/* First pass: the oldest, the first offered of those that arrived first. */
static void pick_age(struct pick *k, const struct disk_cmd *c, int id)
{
	if (k->oldest < 0 || c->arrival < k->oldest_arrival) {
		k->oldest = id;
		k->oldest_arrival = c->arrival;
	}
}

/* Starvation: firmware serves a command that has waited too long. */
static bool pick_aged(struct pick *k)
{
	k->aged = k->oldest >= 0 && k->age && k->now >= k->oldest_arrival &&
		  k->now - k->oldest_arrival >= k->age;
	if (k->aged)
		k->best = k->oldest;
	return k->aged;
}

/* Waits credited beyond a minute change nothing (the age limit is 60 s at most). */
#define PICK_CREDIT_MAX (60ULL * ANTIC_NSEC_PER_SEC)

/* Second pass: shortest positioning time, the older on a tie. */
/* No wait to credit: a destage nobody is waiting for. */
#define PICK_NO_WAIT (~0ULL)

/*
 * @since: the arrival whose wait is credited (the command's own; for a
 * destage, that of the oldest write waiting for the room it makes).
 */
static void pick_pos(struct pick *k, const struct disk_cmd *c, int id,
		     bool destage, u64 since)
{
	u64 t;

	if (destage)	/* the drive's own write: no command overhead */
		t = position_from(k->d, k->now, c->sector, c->nr, true) - k->now;
	else
		t = disk_position_time(k->d, k->now, c->sector, c->nr, c->write);
	/*
	 * Aged shortest access time first (Jacobson and Wilkes, HP Labs
	 * 1991): a wait is credited against positioning time,
	 * ncq_age_weight per mille of it, so a far command that has waited
	 * long enough wins before the hard age limit. Scores are kept
	 * unsigned by an offset.
	 */
	if (k->d->p.ncq_age_weight && since != PICK_NO_WAIT && k->now > since) {
		u64 credit = antic_div64((k->now - since) *
					 k->d->p.ncq_age_weight, 1000);

		t += PICK_CREDIT_MAX - antic_min64(credit, PICK_CREDIT_MAX);
	} else {
		t += PICK_CREDIT_MAX;
	}
	if (k->best < 0 || t < k->best_t ||
	    (t == k->best_t && c->arrival < k->best_arrival)) {
		k->best = id;
		k->best_t = t;
		k->best_arrival = c->arrival;
	}
}

unsigned int disk_pick(const struct disk_model *d, u64 now,
		       const struct disk_cmd *const *cmds, unsigned int n)
{
	struct pick k;
	unsigned int i;

	if (n <= 1)
		return 0;
	pick_init(&k, d, now);
	for (i = 0; i < n; i++)
		pick_age(&k, cmds[i], (int)i);
	if (pick_aged(&k))
		return (unsigned int)k.best;
	for (i = 0; i < n; i++)
		pick_pos(&k, cmds[i], (int)i, false, cmds[i]->arrival);
	return (unsigned int)k.best;
}

/* The head reads or writes [sector, +nr) starting at @t; returns the end. */
static u64 media(struct disk_model *d, u64 t, u64 sector, u32 nr, bool write)
{
	u64 target, seek, rot, xfer, done;

	stop_read_ahead(d, t);
	if (write)
		invalidate(d, sector, nr);
	target = disk_sector_cyl(d, sector);
	if (d->st.requests > 1 && sector != d->head_sector)
		d->st.seek_sectors += antic_absdiff(sector, d->head_sector);
	seek = disk_seek_ns(d, antic_absdiff(d->cyl, target));
	if (seek) {
		d->st.seeks++;
		d->st.seek_cyls += antic_absdiff(d->cyl, target);
	}
	t += seek;
	rot = (sector_angle(d, sector) + d->rev_ns - t % d->rev_ns) %
	      d->rev_ns;
	t += rot;
	xfer = transfer_ns(d, sector, nr);
	done = t + xfer;
	d->st.seek_ns += seek;
	d->st.rotate_ns += rot;
	d->st.transfer_ns += xfer;
	d->head_sector = sector + nr;
	d->cyl = disk_sector_cyl(d, antic_min64(sector + nr,
						d->p.capacity - 1));
	if (!write && d->p.cache_segments && sector + nr < d->p.capacity)
		start_read_ahead(d, done, sector, sector + nr);
	d->busy_until = done;
	return done;
}

u64 disk_service(struct disk_model *d, u64 now, u64 sector, u32 nr, bool write)
{
	u64 t = now + (u64)d->p.overhead_us * 1000, ready, done;
	int which;

	d->st.requests++;
	d->st.sectors += nr;
	if (d->p.type == DISK_SSD)
		return ssd_service(d, now, nr, write);

	if (!write && (d->p.cache_segments || d->ndirty) &&
	    cache_lookup(d, t, sector, nr, &which, &ready)) {
		d->st.cache_hits++;
		done = antic_max64(t + iface_ns(d, nr), ready);
		if (which >= 0)
			d->seg[which].used = ++d->stamp;
		if (which >= 0 && which == d->ra) {
			/* a streaming reader keeps the drive reading ahead */
			d->ra_cap = antic_min64(antic_max64(d->ra_cap,
							    sector + nr +
							    segment_sectors(d)),
						d->p.capacity);
		}
		d->busy_until = done;
		return done;
	}
	return media(d, t, sector, nr, write);
}

/* ---- the write cache */

/* Merged destages stay below this, as a drive's largest media write. */
#define DISK_MERGE_MAX 2048
/* Destages the drive weighs at once: the oldest of what it holds. */
#define DISK_DESTAGE_WINDOW 32

static bool cache_on(const struct disk_model *d)
{
	return d->p.write_cache && d->p.type == DISK_HDD;
}

bool disk_cacheable(const struct disk_model *d, const struct disk_cmd *c)
{
	return cache_on(d) && c->write && !c->fua &&
	       c->nr <= disk_cache_sectors(d);
}

bool disk_absorb(struct disk_model *d, u64 now, const struct disk_cmd *c,
		 u64 *done)
{
	struct disk_dirty *last = d->ndirty ? &d->dirty[d->ndirty - 1] : NULL;
	bool merge;

	if (!disk_cacheable(d, c) ||
	    d->dirty_sectors + c->nr > disk_cache_sectors(d))
		return false;
	/* a stream's next write extends its extent, unless a FLUSH holds it */
	merge = last && (int)d->ndirty - 1 != d->destaging &&
		!d->flush_pending &&
		last->cmd.sector + last->cmd.nr == c->sector &&
		last->cmd.nr + c->nr <= DISK_MERGE_MAX;
	if (!merge && d->ndirty == DISK_MAX_DIRTY)
		return false;
	/* the read cache must not serve what this write replaces */
	invalidate(d, c->sector, c->nr);
	if (merge) {
		last->cmd.nr += c->nr;
		last->seq = ++d->dirty_seq;
	} else {
		d->dirty[d->ndirty].cmd = (struct disk_cmd){
			.sector = c->sector, .arrival = now, .nr = c->nr,
			.write = true };
		d->dirty[d->ndirty++].seq = ++d->dirty_seq;
	}
	d->dirty_sectors += c->nr;
	d->st.requests++;
	d->st.sectors += c->nr;
	d->st.absorbed++;
	/* one link: writes taken together cross it one after another */
	*done = antic_max64(now, d->iface_free) +
		(u64)d->p.overhead_us * 1000 + iface_ns(d, c->nr);
	d->iface_free = *done;
	return true;
}

/* Extent @i leaves the cache; the rest keep their (arrival) order. */
static void dirty_remove(struct disk_model *d, u32 i)
{
	if (ANTIC_WARN_ON(d->dirty_sectors < d->dirty[i].cmd.nr))
		d->dirty_sectors = 0;
	else
		d->dirty_sectors -= d->dirty[i].cmd.nr;
	if (d->destaging > (int)i)
		d->destaging--;
	for (d->ndirty--; i < d->ndirty; i++)
		d->dirty[i] = d->dirty[i + 1];
}

/* Cached data a write to the media at [sector, +nr) makes stale. */
static void drop_overwritten(struct disk_model *d, u64 sector, u32 nr)
{
	u32 i = 0;

	while (i < d->ndirty) {
		const struct disk_cmd *c = &d->dirty[i].cmd;

		if ((int)i != d->destaging && c->sector >= sector &&
		    c->sector + c->nr <= sector + nr)
			dirty_remove(d, i);
		else
			i++;
	}
}

int disk_start(struct disk_model *d, u64 now,
	       const struct disk_cmd *const *cmds, unsigned int n, u64 *done)
{
	u32 window = (u32)antic_min64(d->ndirty, DISK_DESTAGE_WINDOW), j;
	u64 age = (u64)d->p.ncq_age_ms * ANTIC_NSEC_PER_MSEC;
	u64 room_since = PICK_NO_WAIT;	/* oldest write waiting for room */
	bool destage, forced = false;
	unsigned int i, ncmd = 0;
	struct pick k;

	/* the common case, one command and nothing cached: no choice */
	if (n == 1 && !d->ndirty && !d->flush_pending &&
	    (!cmds[0]->write || !disk_cacheable(d, cmds[0]))) {
		d->destage_run = 0;
		*done = disk_service(d, now, cmds[0]->sector, cmds[0]->nr,
				     cmds[0]->write);
		return 0;
	}
	pick_init(&k, d, now);
	/* a FLUSH is not queued: the commands behind it wait for it */
	for (i = 0; i < n && !d->flush_pending; i++) {
		if (disk_cacheable(d, cmds[i])) {
			room_since = antic_min64(room_since, cmds[i]->arrival);
			continue;
		}
		pick_age(&k, cmds[i], (int)i);
		ncmd++;
	}
	/*
	 * A write waiting for room is served by destages: they carry its
	 * wait, and once it is the oldest command past the age limit they
	 * go first, whatever the burst count says.
	 */
	if (d->ndirty && room_since != PICK_NO_WAIT && age && now >= room_since &&
	    now - room_since >= age &&
	    (k.oldest < 0 || room_since <= k.oldest_arrival))
		forced = true;
	destage = d->ndirty && (d->flush_pending || !ncmd || forced ||
				(room_since != PICK_NO_WAIT &&
				 d->destage_run < DISK_DESTAGE_BURST));
	if (!ncmd && !destage)
		return DISK_IDLE;
	if (forced)
		ncmd = 0;	/* the commands wait this turn */
	if (ncmd + (destage ? window : 0) == 1) {
		k.best = ncmd ? k.oldest : (int)n;	/* nothing to choose */
	} else if (forced || !pick_aged(&k)) {
		k.best = -1;
		for (i = 0; i < n && ncmd; i++)
			if (!disk_cacheable(d, cmds[i]))
				pick_pos(&k, cmds[i], (int)i, false,
					 cmds[i]->arrival);
		for (j = 0; destage && j < window; j++)
			pick_pos(&k, &d->dirty[j].cmd, (int)(n + j), true,
				 room_since);
	}
	if (k.best >= (int)n) {
		struct disk_cmd *c = &d->dirty[k.best - (int)n].cmd;

		d->destaging = k.best - (int)n;
		if (ncmd)
			d->destage_run++;
		d->st.destages++;
		*done = media(d, now, c->sector, c->nr, true);
		return DISK_DESTAGE;
	}
	d->destage_run = 0;
	if (cmds[k.best]->write)
		drop_overwritten(d, cmds[k.best]->sector, cmds[k.best]->nr);
	*done = disk_service(d, now, cmds[k.best]->sector, cmds[k.best]->nr,
			     cmds[k.best]->write);
	return k.best;
}

void disk_destage_done(struct disk_model *d)
{
	u32 i = (u32)d->destaging;

	if (ANTIC_WARN_ON(d->destaging < 0 || i >= d->ndirty))
		return;
	/* the room is free only now: the data is on the media */
	d->destaging = -1;
	dirty_remove(d, i);
	/* written in arrival order: the oldest left says whether it is done */
	if (d->flush_pending &&
	    (!d->ndirty || d->dirty[0].seq > d->flush_seq))
		d->flush_pending = false;
}

bool disk_flush(struct disk_model *d, u64 now, u64 *done)
{
	d->st.flushes++;
	*done = now + (u64)d->p.overhead_us * 1000;
	if (!d->ndirty)
		return true;
	d->flush_seq = d->dirty_seq;
	d->flush_pending = true;
	return false;
}

void disk_power_cut(struct disk_model *d, u64 now)
{
	u32 i;

	d->ndirty = 0;
	d->dirty_sectors = 0;
	d->destaging = -1;
	d->destage_run = 0;
	d->flush_pending = false;
	d->flush_seq = d->dirty_seq;
	/* the buffer is RAM too; read-ahead stops with the head */
	d->ra = -1;
	for (i = 0; i < d->p.cache_segments; i++)
		d->seg[i].start = d->seg[i].end = 0;
	d->busy_until = antic_min64(d->busy_until, now);
	d->iface_free = antic_min64(d->iface_free, now);
}

bool disk_set_write_cache(struct disk_model *d, bool on)
{
	if (d->p.type != DISK_HDD)
		return !on;
	if (on && (d->p.cache_mb < 1 || d->p.cache_mb > 4096))
		return false;
	if (!on && (d->ndirty || d->flush_pending))
		return false;
	d->p.write_cache = on;
	return true;
}
