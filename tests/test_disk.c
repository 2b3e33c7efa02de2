/*
 * test_disk.c - the disk model against times computed by hand.
 */
#include "harness.h"
#include "../core/disk.h"

static void no_cache(struct disk *d)
{
	struct disk_params p;

	disk_default_params(&p);
	p.cache_segments = 0;
	CHECK(disk_init(d, &p, NULL) == 0);
}

static void test_seek_curve_endpoints(void)
{
	struct disk d;
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
	struct disk d;
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
	struct disk d;

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
	struct disk d;
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
	struct disk d;
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
	struct disk d;
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
	struct disk d;
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
	struct disk d;
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
	struct disk d;
	const char *why = NULL;
	size_t i;

	for (i = 0; i < DISK_NR_PRESETS; i++) {
		CHECK(disk_preset_find(disk_presets[i].name) == &disk_presets[i]);
		CHECK(disk_init(&d, &disk_presets[i].p, &why) == 0);
		CHECK(disk_presets[i].max_sectors_kb >= 4);
	}
	CHECK(!disk_preset_find("ide200"));
	CHECK(!disk_preset_find(""));
	disk_default_params(&def);
	CHECK_EQ(def.capacity, disk_presets[0].p.capacity);
	CHECK_EQ(disk_preset_find("ide2003")->p.outer_mbps, 40);
	CHECK_EQ(disk_preset_find("ide2003")->max_sectors_kb, 128);
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
}
