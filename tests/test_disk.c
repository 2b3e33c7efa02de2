/*
 * test_disk.c - the disk model against times computed by hand.
 */
#include <string.h>
#include "harness.h"
#include "../core/disk.h"

static void no_cache(struct disk_model *d)
{
	struct disk_params p;

	disk_default_params(&p);
	p.cache_segments = 0;
	CHECK(disk_init(d, &p, NULL) == 0);
}

static void test_seek_curve_endpoints(void)
{
	struct disk_model d;
	u64 full;

	no_cache(&d);
	CHECK_EQ(disk_seek_ns(&d, 0), 0);
	CHECK_EQ(disk_seek_ns(&d, 1), 1000000);
	full = disk_seek_ns(&d, d.cylinders - 1);
	/* full stroke 18 ms, to within the fixed-point rounding */
	CHECK(full >= 17999000 && full <= 18001000);
}

static void test_seek_curve_average(void)
{
	struct disk_model d;
	u64 n = 0, sum = 0, x = 12345, i;

	no_cache(&d);
	/* random pairs of cylinders: the mean should be the 8.5 ms given */
	for (i = 0; i < 200000; i++) {
		u64 a, b;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		a = (x >> 33) % d.cylinders;
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		b = (x >> 33) % d.cylinders;
		sum += disk_seek_ns(&d, a > b ? a - b : b - a);
		n++;
	}
	CHECK(sum / n > 8200000 && sum / n < 8800000);
}

static void test_geometry(void)
{
	struct disk_model d;

	no_cache(&d);
	/* 200 MB/s at 7200 rpm: 200e6 * 8333333 ns / 512 B = 3255 sectors a track */
	CHECK_EQ(d.rev_ns, 8333333);
	CHECK_EQ(disk_sector_spt(&d, 0), 3255);
	CHECK_EQ(disk_sector_spt(&d, d.p.capacity - 1), 1627);
	CHECK(disk_media_rate(&d, 0) > 199000000 && disk_media_rate(&d, 0) < 201000000);
	CHECK(d.cylinders > 100000 && d.cylinders < 300000);
	CHECK_EQ(disk_sector_cyl(&d, 0), 0);
	CHECK_EQ(disk_sector_cyl(&d, 4 * 3255), 1);
}

static void test_same_track_sequential_read(void)
{
	struct disk_model d;
	u64 t1, t2;

	no_cache(&d);
	/* sector 0 at t=0: 50 us overhead, then wait for the index mark to come round */
	t1 = disk_service(&d, 0, 0, 8, false);
	CHECK_EQ(t1, 8333333 + 8 * 8333333 / 3255);
	/* the next 8 sectors right away: the overhead lets them pass the head: one turn lost */
	t2 = disk_service(&d, t1, 8, 8, false);
	CHECK_EQ(t2, t1 + 50000 + (20481 + 8333333 - (t1 + 50000) % 8333333) + 20481);
	CHECK_EQ(d.st.seeks, 0);
}

static void test_cache_hit(void)
{
	struct disk_model d;
	struct disk_params p;
	u64 t1, t2;

	disk_default_params(&p);
	CHECK(disk_init(&d, &p, NULL) == 0);
	t1 = disk_service(&d, 0, 0, 8, false);
	/* read-ahead has the next sectors by the time the command is parsed */
	t2 = disk_service(&d, t1, 8, 8, false);
	CHECK_EQ(t2, t1 + 50000 + 8 * 512 * 1000 / 600);
	CHECK_EQ(d.st.cache_hits, 1);
	/* a write over cached data invalidates it */
	disk_service(&d, t2, 0, 8, true);
	disk_service(&d, t2 + 100000000, 2000000, 8, false);
	t1 = disk_service(&d, t2 + 200000000, 0, 8, false);
	CHECK_EQ(d.st.cache_hits, 1);
	(void)t1;
}

static void test_full_stroke_access(void)
{
	struct disk_model d;
	u64 last = 0, t, seek;

	no_cache(&d);
	disk_service(&d, 0, 0, 8, false);
	last = d.p.capacity - 8;
	t = disk_busy_until(&d);
	seek = disk_seek_ns(&d, disk_sector_cyl(&d, last));
	{
		u64 done = disk_service(&d, t, last, 8, false);

		/* at least overhead + full seek + transfer, at most one turn more */
		CHECK(done >= t + 50000 + seek + 8 * d.rev_ns / 1627);
		CHECK(done <= t + 50000 + seek + d.rev_ns + 8 * d.rev_ns / 1627 + 1);
		CHECK(seek > 17900000);
	}
}

static void test_ssd(void)
{
	struct disk_model d;
	struct disk_params p;

	disk_ssd_params(&p);
	CHECK(disk_init(&d, &p, NULL) == 0);
	CHECK(!disk_rotational(&d));
	CHECK_EQ(disk_service(&d, 1000, 0, 8, false), 1000 + 80000 + 4096 * 1000 / 500);
	/* eight channels serve eight requests at once */
	CHECK_EQ(disk_service(&d, 1000, 999999, 8, true), 1000 + 20000 + 4096 * 1000 / 500);
}

static void test_bad_params(void)
{
	struct disk_model d;
	struct disk_params p;
	const char *why = NULL;

	disk_default_params(&p);
	p.inner_mbps = 300;
	CHECK(disk_init(&d, &p, &why) == -1 && why);
	disk_default_params(&p);
	p.avg_seek_us = 20000;
	CHECK(disk_init(&d, &p, &why) == -1);
	disk_default_params(&p);
	p.queue_depth = 0;
	CHECK(disk_init(&d, &p, &why) == -1);
}

/* Every preset is a drive the model takes, found by its name; the first is the default. */
static void test_presets(void)
{
	struct disk_params def;
	struct disk_model d;
	const char *why = NULL;
	size_t i;

	for (i = 0; i < DISK_NR_PRESETS; i++) {
		CHECK(disk_preset_find(disk_presets[i].name) == &disk_presets[i]);
		CHECK(disk_init(&d, &disk_presets[i].p, &why) == 0);
		CHECK(disk_presets[i].max_sectors_kb >= 4);
		/* a rotating drive's firmware bounds NCQ starvation (0 was a preset merged without it) */
		CHECK(disk_presets[i].p.type != DISK_HDD ||
		      disk_presets[i].p.ncq_age_ms > 0);
	}
	CHECK(!disk_preset_find("ide200"));
	CHECK(!disk_preset_find(""));
	disk_default_params(&def);
	CHECK_EQ(def.capacity, disk_presets[0].p.capacity);
	CHECK_EQ(disk_preset_find("ide2003")->p.outer_mbps, 40);
	CHECK_EQ(disk_preset_find("ide2003")->max_sectors_kb, 128);
}

/*
 * disk_position_time, figures by hand. The default drive: one turn is
 * 60e9 / 7200 = 8333333 ns; zone z runs at 200 - 100z/15 MB/s, so zone 0
 * has 3255 sectors a track, zone 8 2392 and zone 15 1627; 4 heads and
 * 12479 cylinders a zone (199664 in all), zone 8 starting at cylinder
 * 99832, sector 1150264304, zone 15 at cylinder 187185, sector 1872349160.
 * Lee's curve: seek(d) = 1 ms + a sqrt(x) + b x, x = (d - 1) / 199662,
 * a = (-10 tmin + 15 tavg - 5 tmax) / 3 = 9166666 ns,
 * b = (7 tmin - 15 tavg + 8 tmax) / 3 = 7833333 ns.
 * A sector k into its track passes under the head k * 8333333 / spt ns
 * after the index mark; the drive spends 50 us on the command, seeks,
 * then waits for its sector to come round.
 */
#define REV 8333333ULL

static void test_position_same_cylinder(void)
{
	struct disk_model d;

	no_cache(&d);
	/* head on cylinder 0 at the index mark: the command takes 50 us ... */
	CHECK_EQ(disk_position_time(&d, 0, 1627, 8, false), 4165386);	/* 1627 * REV / 3255 */
	CHECK_EQ(disk_position_time(&d, 0, 20, 8, false), 51203);	/* 20 * REV / 3255 */
	/* ... during which sectors 0-19 pass: a whole turn for them */
	CHECK_EQ(disk_position_time(&d, 0, 19, 8, false), 48643 + REV);
	CHECK_EQ(disk_position_time(&d, 0, 0, 8, true), REV);
	/* 1 ms into a later turn, the same sector is 1 ms nearer */
	CHECK_EQ(disk_position_time(&d, 3 * REV + 1000000, 1627, 8, false),
		 4165386 - 1000000);
	/* the fourth surface of cylinder 0 needs no seek: 100 * REV / 3255 */
	CHECK_EQ(disk_position_time(&d, 0, 3 * 3255 + 100, 8, false), 256016);
	/* the first of cylinder 1 does: 1 ms, by which time it has passed */
	CHECK_EQ(disk_position_time(&d, 0, 4 * 3255 + 100, 8, false),
		 256016 + REV);
	/* an SSD has nothing to position */
	{
		struct disk_params p;

		disk_ssd_params(&p);
		CHECK(disk_init(&d, &p, NULL) == 0);
		CHECK_EQ(disk_position_time(&d, 0, 123456, 8, false), 0);
	}
}

static void test_position_seek_and_zones(void)
{
	struct disk_model d;
	u64 cyl1000 = 1000ULL * 4 * 3255;
	u64 z8 = 1150264304, z15_last = 1872349160ULL + 12473ULL * 4 * 1627;

	no_cache(&d);
	/* cylinder 100: 50 us + 1.21 ms, well inside the turn */
	CHECK_EQ(disk_position_time(&d, 0, 100ULL * 4 * 3255, 8, false), REV);
	CHECK_EQ(disk_position_time(&d, 0, 100ULL * 4 * 3255 + 1627, 8, false),
		 4165386);
	/*
	 * cylinder 1000: 50 us + 1 ms + a sqrt(999/199662) + b 999/199662
	 * = 1737599 ns. Sector 678 of the track (1735791 ns) has just gone
	 * by, sector 679 (1738351 ns) has not: the seek to within 2.6 us.
	 */
	CHECK_EQ(disk_position_time(&d, 0, cyl1000 + 678, 8, false),
		 1735791 + REV);
	CHECK_EQ(disk_position_time(&d, 0, cyl1000 + 679, 8, false), 1738351);
	/*
	 * half the stroke, into zone 8: 50 us + 1 ms + a sqrt(1/2) + b / 2
	 * = 11448478 ns = REV + 3115145. Zone 8's 2392 sectors a track put
	 * sector 894 at 3114548 ns, 895 at 3118032, 1196 at half a turn.
	 */
	CHECK_EQ(disk_position_time(&d, 0, z8 + 894, 8, false),
		 2 * REV + 3114548);
	CHECK_EQ(disk_position_time(&d, 0, z8 + 895, 8, false), REV + 3118032);
	CHECK_EQ(disk_position_time(&d, 0, z8 + 1196, 8, false), REV + 4166666);
	/*
	 * the last cylinder holding data, 199658 (zone 15, 1627 sectors a
	 * track): 50 us + 17999688 ns = 2 REV + 1383022. Sector 269 passes
	 * at 1377791 ns, 272 at 1393157.
	 */
	CHECK_EQ(disk_position_time(&d, 0, z15_last + 269, 8, false),
		 3 * REV + 1377791);
	CHECK_EQ(disk_position_time(&d, 0, z15_last + 272, 8, false),
		 2 * REV + 1393157);
	CHECK_EQ(disk_sector_cyl(&d, d.p.capacity - 1), 199658);

	/* the way back is as long: head moved to cylinder 1000, seek to 0 */
	disk_service(&d, 0, cyl1000, 8, true);
	CHECK_EQ(disk_position_time(&d, 10 * REV, 678, 8, false), 1735791 + REV);
	CHECK_EQ(disk_position_time(&d, 10 * REV, 679, 8, false), 1738351);
}

static void test_position_read_ahead(void)
{
	struct disk_model d;
	struct disk_params p;
	u64 t1;

	disk_default_params(&p);
	CHECK(disk_init(&d, &p, NULL) == 0);
	/* sectors 0-7 at REV (the index mark came round) + 8 sectors' transfer */
	t1 = disk_service(&d, 0, 0, 8, false);
	CHECK_EQ(t1, REV + 20481);
	/*
	 * read-ahead goes on from sector 8; 50 us later it has read 19 more
	 * (50000 * 3255 / REV), so sectors 8-15 are in the buffer: the command
	 * time alone
	 */
	CHECK_EQ(disk_position_time(&d, t1, 8, 8, false), 50000);
	/*
	 * sectors 24-39: ready when read-ahead has passed sector 39, 32
	 * sectors after it began at 8: 32 * REV / 3255, rounded up
	 */
	CHECK_EQ(disk_position_time(&d, t1, 24, 16, false), 81926);
	/*
	 * sector 100 is beyond read-ahead's reach at t1 + 50 us: the head,
	 * 70481 ns into its turn, reaches it at 256016 ns
	 */
	CHECK_EQ(disk_position_time(&d, t1, 100, 8, false),
		 50000 + 256016 - 70481);
	/* a write never comes from the buffer: sector 8 has gone by */
	CHECK_EQ(disk_position_time(&d, t1, 8, 8, true), REV);

	/*
	 * read-ahead carries the head to the next cylinder. Sectors 13004-
	 * 13011 (cylinder 0, 3239 into the fourth track, at 8292370 ns) end
	 * at 8312851; 1 ms and 50 us later read-ahead has reached 13422
	 * (cylinder 1) and the head is 1029518 ns into its turn, 250563 ns
	 * before sector 13520 (500 into cylinder 1, at 1280081 ns). From
	 * cylinder 0 a 1 ms seek would have missed it by a turn.
	 */
	CHECK(disk_init(&d, &p, NULL) == 0);
	t1 = disk_service(&d, 0, 13004, 8, false);
	CHECK_EQ(t1, 8312851);
	CHECK_EQ(disk_position_time(&d, t1 + 1000000, 13520, 8, true),
		 50000 + 250563);
	CHECK_EQ(disk_position_time(&d, t1 + 1000000, 13520, 8, false),
		 50000 + 250563);
}

/*
 * NCQ picks the command with the shortest positioning time (SPTF), so
 * disk_position_time must be what disk_service then takes, less the
 * transfer: for accesses that miss the cache, over the whole disk.
 */
static void test_position_agrees_with_service(void)
{
	struct disk_model d;
	struct disk_params p;
	u64 x = 99991, now = 0, i, checked = 0;
	int cache;

	for (cache = 0; cache < 2; cache++) {
		disk_default_params(&p);
		if (!cache)
			p.cache_segments = 0;
		CHECK(disk_init(&d, &p, NULL) == 0);
		for (i = 0; i < 2000; i++) {
			u64 sector, pos, done, hits = d.st.cache_hits;
			u32 nr;
			bool write;

			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			/* half of them near the last, to catch read-ahead */
			if ((x >> 60) & 1)
				sector = d.head_sector + ((x >> 20) % 30000);
			else
				sector = (x >> 17) % (p.capacity - 512);
			if (sector > p.capacity - 512)
				sector = p.capacity - 512;
			nr = 8 + (u32)((x >> 8) % 248);
			write = (x >> 5) % 3 == 0;
			now = disk_busy_until(&d) + (x >> 40) % (20 * 1000000);
			pos = disk_position_time(&d, now, sector, nr, write);
			done = disk_service(&d, now, sector, nr, write);
			if (d.st.cache_hits != hits)
				continue;
			checked++;
			if (done - now != pos + (u64)nr * d.rev_ns /
					   disk_sector_spt(&d, sector))
				fprintf(stderr, "  sector %llu nr %u %s: position %llu, service %llu\n",
					(unsigned long long)sector, nr,
					write ? "write" : "read",
					(unsigned long long)pos,
					(unsigned long long)(done - now));
			CHECK_EQ(done - now, pos + (u64)nr * d.rev_ns /
					     disk_sector_spt(&d, sector));
		}
	}
	CHECK(checked > 3000);
}

/*
 * A host for the read cache tests: streams of sequential reads, each with
 * @depth commands at the drive and none thinking, served in the order the
 * drive picks. A stream reads [first, first + len) @passes times, from
 * @t0 on; it is done when its last read completes.
 */
struct stream {
	u64 first, len, t0;
	u32 bs, depth, passes;
	/* progress */
	u64 next, issued, completed, end_ns;
	u32 at_drive;
};

struct host_cmd {
	struct stream *st;
	struct disk_cmd cmd;
};

#define HOST_MAX_CMDS 128

static void host_issue(struct stream *st, struct host_cmd *q, unsigned *n,
		       u64 now)
{
	u64 total = st->len * st->passes;

	while (st->at_drive < st->depth && st->issued < total) {
		u64 off = st->issued % st->len;
		u32 nr = (u32)antic_min64(st->bs, st->len - off);

		q[*n] = (struct host_cmd){ st, { .sector = st->first + off,
						 .arrival = now, .nr = nr } };
		(*n)++;
		st->issued += nr;
		st->at_drive++;
	}
}

/* The drive's choice among the @n commands at it. */
static unsigned host_pick(const struct disk_model *d, u64 now,
			  const struct host_cmd *q, unsigned n)
{
	const struct disk_cmd *cmds[HOST_MAX_CMDS];
	unsigned i;

	for (i = 0; i < n; i++)
		cmds[i] = &q[i].cmd;
	return disk_pick(d, now, cmds, n);
}

static void host_run(struct disk_model *d, struct stream *st, unsigned nst)
{
	struct host_cmd q[HOST_MAX_CMDS];
	unsigned n = 0, i, k;
	u64 now = 0;

	for (;;) {
		u64 wake = UINT64_MAX, done;

		for (i = 0; i < nst; i++) {
			if (st[i].t0 <= now)
				host_issue(&st[i], q, &n, now);
			else if (st[i].t0 < wake)
				wake = st[i].t0;
		}
		if (!n) {
			if (wake == UINT64_MAX)
				return;
			now = wake;
			continue;
		}
		now = antic_max64(now, disk_busy_until(d));
		k = host_pick(d, now, q, n);
		done = disk_service(d, now, q[k].cmd.sector, q[k].cmd.nr, false);
		q[k].st->completed += q[k].cmd.nr;
		q[k].st->end_ns = done;
		q[k].st->at_drive--;
		/* keep the queue in arrival order */
		for (i = k; i + 1 < n; i++)
			q[i] = q[i + 1];
		n--;
		now = done;
	}
}

/* A stream's rate in bytes/s over its whole run. */
static u64 stream_rate(const struct stream *st)
{
	return antic_div64(st->completed * 512 * ANTIC_NSEC_PER_SEC,
			   st->end_ns - st->t0);
}

/* No stream reads faster than the media under it, to within 0.1%. */
static void check_streams(const struct disk_model *d, const struct stream *st,
			  unsigned nst, const char *what)
{
	unsigned i;

	for (i = 0; i < nst; i++) {
		u64 media = disk_media_rate(d, st[i].first);
		u64 rate = stream_rate(&st[i]);

		CHECK_EQ(st[i].completed, st[i].len * st[i].passes);
		if (rate > media + media / 1000) {
			fprintf(stderr, "  %s: stream %u bs %u depth %u reads at %llu B/s, media %llu\n",
				what, i, st[i].bs, st[i].depth,
				(unsigned long long)rate,
				(unsigned long long)media);
			CHECK(rate <= media + media / 1000);
		}
	}
}

/*
 * A region four times the cache (64 MiB beside 16 MiB), read twice over,
 * by two readers together or one behind the other, at every block size
 * and at depths 1 and 32: no reader gets more than the media gives. (A
 * region little larger than the cache is another matter: at depth 32 and
 * 512 KiB a reader has 16 MiB at the drive, its second pass begins while
 * the first is still in the cache, and the hits are real.)
 * The drive's read-ahead once kept growing one segment with the stream,
 * so a second pass came from the "cache" at interface speed.
 */
static void test_cache_never_beats_media(void)
{
	static const u32 bs[] = { 8, 128, 1024, 2048 };
	static const u32 depth[] = { 1, 32 };
	struct disk_params p;
	struct disk_model d;
	u64 region = 64 * 2048;
	unsigned b, q, zone;

	disk_default_params(&p);
	for (zone = 0; zone < 2; zone++) {
		/* the outer zone, and the innermost one */
		u64 first = zone ? p.capacity - 2 * region : 0;

		for (b = 0; b < sizeof(bs) / sizeof(bs[0]); b++) {
			for (q = 0; q < 2; q++) {
				const struct stream proto = {
					.first = first, .len = region,
					.bs = bs[b], .depth = depth[q], .passes = 1
				};
				struct stream one = proto, two[2] = { proto, proto };

				one.passes = 2;
				CHECK(disk_init(&d, &p, NULL) == 0);
				host_run(&d, &one, 1);
				check_streams(&d, &one, 1, "loops");

				/* two readers of one region, side by side */
				CHECK(disk_init(&d, &p, NULL) == 0);
				host_run(&d, two, 2);
				check_streams(&d, two, 2, "two readers");

				/* the second starts when the first is 100 ms in */
				two[0] = two[1] = proto;
				two[1].t0 = 100 * ANTIC_NSEC_PER_MSEC;
				CHECK(disk_init(&d, &p, NULL) == 0);
				host_run(&d, two, 2);
				check_streams(&d, two, 2, "a region read twice");
			}
		}
	}
}

/*
 * The cache holds cache_segments segments of segment_kb: after more than
 * that has been read, the oldest data is gone, whether it was read as one
 * stream or as many.
 */
static void test_cache_capacity(void)
{
	struct disk_params p;
	struct disk_model d;
	u64 seg, cache, t, hits, i;

	disk_default_params(&p);
	CHECK(disk_init(&d, &p, NULL) == 0);
	seg = (u64)p.segment_kb * 2;
	cache = seg * p.cache_segments;

	/* one stream of a segment more than the cache */
	t = 0;
	for (i = 0; i < cache + seg; i += 128)
		t = disk_service(&d, t, i, 128, false);
	hits = d.st.cache_hits;
	/* the latest is still there, in the segment being read ahead */
	t = disk_service(&d, t, cache + seg - 128, 128, false);
	CHECK_EQ(d.st.cache_hits, hits + 1);
	/* a segment's length back is not */
	t = disk_service(&d, t, cache - 128, 128, false);
	CHECK_EQ(d.st.cache_hits, hits + 1);
	/* and neither is the first */
	disk_service(&d, t, 0, 128, false);
	CHECK_EQ(d.st.cache_hits, hits + 1);

	/* one segment's worth from each of cache_segments + 1 places */
	CHECK(disk_init(&d, &p, NULL) == 0);
	t = 0;
	for (i = 0; i <= p.cache_segments; i++)
		t = disk_service(&d, t, i * 100 * seg, (u32)seg, false);
	hits = d.st.cache_hits;
	/*
	 * the ends of the newest and the second oldest are there (their
	 * beginnings made room for what the drive read ahead)
	 */
	t = disk_service(&d, t, p.cache_segments * 100 * seg + seg - 128, 128,
			 false);
	t = disk_service(&d, t, 100 * seg + seg - 128, 128, false);
	CHECK_EQ(d.st.cache_hits, hits + 2);
	/* the oldest is not */
	disk_service(&d, t, seg - 128, 128, false);
	CHECK_EQ(d.st.cache_hits, hits + 2);
}

/*
 * NCQ: the drive serves the command it can reach soonest. Random sets of
 * up to 32 commands, none near the age limit, at random times after
 * random work: disk_pick's choice has the least disk_position_time, and
 * is the oldest of those that share it.
 */
static void test_pick_shortest_positioning(void)
{
	struct disk_params p;
	struct disk_model d;
	struct disk_cmd c[32];
	const struct disk_cmd *cmds[32];
	u64 x = 4242, now = 0;
	unsigned round, i;

	disk_default_params(&p);
	CHECK(disk_init(&d, &p, NULL) == 0);
	for (round = 0; round < 2000; round++) {
		unsigned n, k, want = 0;
		u64 want_t = UINT64_MAX, arrival;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		n = 2 + (unsigned)((x >> 33) % 31);
		now = disk_busy_until(&d) + (x >> 45) % 5000000;
		/* arrivals over the last 100 ms, oldest first */
		arrival = now - 100 * ANTIC_NSEC_PER_MSEC;
		for (i = 0; i < n; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			arrival += (x >> 50) % 3000000;
			/* some near the head, some read-ahead hits, some anywhere */
			if ((x >> 20) % 3 == 0)
				c[i].sector = d.head_sector + (x >> 30) % 20000;
			else
				c[i].sector = (x >> 17) % (p.capacity - 256);
			/* a few the same as one before: ties */
			if (i && (x >> 10) % 8 == 0)
				c[i].sector = c[(x >> 40) % i].sector;
			c[i].nr = 8 + 8 * (u32)((x >> 4) % 16);
			c[i].write = (x >> 8) % 4 == 0;
			c[i].arrival = antic_min64(arrival, now);
			cmds[i] = &c[i];
		}
		for (i = 0; i < n; i++) {
			u64 t = disk_position_time(&d, now, c[i].sector,
						   c[i].nr, c[i].write);

			if (t < want_t) {
				want_t = t;
				want = i;
			}
		}
		k = disk_pick(&d, now, cmds, n);
		CHECK_EQ(k, want);
		if (k != want)
			break;
		disk_service(&d, now, c[k].sector, c[k].nr, c[k].write);
	}
}

/* Commands the drive can reach equally soon: the oldest goes first. */
static void test_pick_ties_oldest(void)
{
	struct disk_params p;
	struct disk_model d;
	u64 now = 50 * ANTIC_NSEC_PER_MSEC, far = 1000000000;
	struct disk_cmd a = { .sector = 5000, .arrival = 1000, .nr = 8 };
	struct disk_cmd b = a, c = a, f = { .sector = far, .arrival = 10, .nr = 8 };

	disk_default_params(&p);
	p.queue_depth = 32;
	CHECK(disk_init(&d, &p, NULL) == 0);
	b.arrival = 2000;
	c.arrival = 3000;
	{
		const struct disk_cmd *q[] = { &a, &b, &c };

		CHECK_EQ(disk_pick(&d, now, q, 3), 0);
	}
	{
		/* an older one further away does not count */
		const struct disk_cmd *q[] = { &f, &a, &b };

		CHECK_EQ(disk_pick(&d, now, q, 3), 1);
	}
	{
		/* the arrival decides, not the place in the array ... */
		const struct disk_cmd *q[] = { &c, &b, &a };

		CHECK_EQ(disk_pick(&d, now, q, 3), 2);
	}
	{
		/* ... unless they arrived together */
		const struct disk_cmd *q[] = { &b, &b, &a, &a };

		CHECK_EQ(disk_pick(&d, now, q, 4), 2);
	}
	/* a read and a write of one place can tie too */
	b.write = true;
	{
		const struct disk_cmd *q[] = { &b, &f, &c };

		if (disk_position_time(&d, now, b.sector, 8, true) ==
		    disk_position_time(&d, now, c.sector, 8, false))
			CHECK_EQ(disk_pick(&d, now, q, 3), 0);
	}
}

/* At depth 1 there is no choice: the one command goes, however far or old. */
static void test_pick_depth_one(void)
{
	struct disk_params p;
	struct disk_model d;
	struct disk_cmd f = { .sector = 1000000000, .arrival = 0, .nr = 8 };
	const struct disk_cmd *q[] = { &f };

	disk_default_params(&p);
	CHECK(disk_init(&d, &p, NULL) == 0);
	CHECK_EQ(disk_pick(&d, 0, q, 1), 0);
	CHECK_EQ(disk_pick(&d, 10 * ANTIC_NSEC_PER_SEC, q, 1), 0);
}

/*
 * The age bound. A far read waits at the drive while a sequential reader
 * keeps 31 close reads there, each of which the drive can always reach
 * sooner; the far one goes when it has waited ncq_age_ms, or at most one
 * service later (the one under way when its time came). Without the
 * bound it would wait as long as the reader goes on.
 */
static u64 far_read_wait(u32 age_ms, u32 weight, u64 *longest)
{
	struct disk_params p;
	struct disk_model d;
	struct disk_cmd far = { .sector = 1900000000, .arrival = 0, .nr = 8 };
	struct disk_cmd close[31];
	const struct disk_cmd *q[32];
	u64 now = 0, next = 0;
	unsigned n = 0, i, k;

	disk_default_params(&p);
	p.queue_depth = 32;
	p.ncq_age_ms = age_ms;
	p.ncq_age_weight = weight;
	CHECK(disk_init(&d, &p, NULL) == 0);
	*longest = 0;
	q[n++] = &far;
	for (i = 0; i < 31; i++, next += 128) {
		close[i] = (struct disk_cmd){ .sector = next, .arrival = 0,
					      .nr = 128 };
		q[n++] = &close[i];
	}
	/* five seconds of the reader at most */
	while (now < 5 * ANTIC_NSEC_PER_SEC) {
		u64 done;

		k = disk_pick(&d, now, q, n);
		if (q[k] == &far)
			return now;
		done = disk_service(&d, now, q[k]->sector, q[k]->nr, false);
		if (done - now > *longest)
			*longest = done - now;
		now = done;
		/* its slot takes the reader's next read, at the back */
		{
			struct disk_cmd *c = &close[q[k] - close];

			memmove(&q[k], &q[k + 1], (n - k - 1) * sizeof(q[0]));
			*c = (struct disk_cmd){ .sector = next, .arrival = now,
						.nr = 128 };
			q[n - 1] = c;
			next += 128;
		}
	}
	return UINT64_MAX;
}

static void test_pick_age_bound(void)
{
	static const u32 ages[] = { 500, 100, 2000 };
	unsigned i;

	for (i = 0; i < sizeof(ages) / sizeof(ages[0]); i++) {
		u64 limit = ages[i] * ANTIC_NSEC_PER_MSEC, longest, wait;

		/* the hard limit alone (no aging credit) */
		wait = far_read_wait(ages[i], 0, &longest);
		/* it was passed over until its time came ... */
		CHECK(wait >= limit);
		/* ... and then served */
		CHECK(wait <= limit + longest);
		/* one service is a few ms here, not a turn of the stream */
		CHECK(longest < 20 * ANTIC_NSEC_PER_MSEC);
		/* with the default credit too: never past the limit */
		wait = far_read_wait(ages[i], 60, &longest);
		CHECK(wait <= limit + longest);
	}
	/*
	 * The credit: a far command's wait, 60 per mille of it, counts
	 * against its positioning time, so it goes before the limit, and
	 * the heavier the weight the sooner.
	 */
	{
		u64 l, w60 = far_read_wait(2000, 60, &l),
		    w200 = far_read_wait(2000, 200, &l);

		CHECK(w60 < 2000 * ANTIC_NSEC_PER_MSEC);
		CHECK(w200 < w60);
		CHECK(far_read_wait(2000, 0, &l) >= 2000 * ANTIC_NSEC_PER_MSEC);
	}
	/* the default is the 500 ms given for it */
	{
		struct disk_params p;

		disk_default_params(&p);
		CHECK_EQ(p.ncq_age_ms, 500);
	}
	/* more than one overdue: the oldest first, wherever it is */
	{
		struct disk_params p;
		struct disk_model d;
		struct disk_cmd a = { .sector = 5000, .arrival = 2000, .nr = 8 };
		struct disk_cmd o = { .sector = 1900000000, .arrival = 1000, .nr = 8 };
		const struct disk_cmd *q[] = { &a, &o };

		disk_default_params(&p);
		CHECK(disk_init(&d, &p, NULL) == 0);
		CHECK_EQ(disk_pick(&d, 499 * ANTIC_NSEC_PER_MSEC, q, 2), 0);
		CHECK_EQ(disk_pick(&d, 501 * ANTIC_NSEC_PER_MSEC, q, 2), 1);
	}
}

void suite_disk(void)
{
	RUN(test_seek_curve_endpoints);
	RUN(test_seek_curve_average);
	RUN(test_geometry);
	RUN(test_same_track_sequential_read);
	RUN(test_cache_hit);
	RUN(test_full_stroke_access);
	RUN(test_ssd);
	RUN(test_bad_params);
	RUN(test_presets);
	RUN(test_position_same_cylinder);
	RUN(test_position_seek_and_zones);
	RUN(test_position_read_ahead);
	RUN(test_position_agrees_with_service);
	RUN(test_cache_never_beats_media);
	RUN(test_cache_capacity);
	RUN(test_pick_shortest_positioning);
	RUN(test_pick_ties_oldest);
	RUN(test_pick_depth_one);
	RUN(test_pick_age_bound);
}
