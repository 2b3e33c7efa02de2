/*
 * test_wcache.c - the disk model's write-back cache: what it holds, the
 * order it destages in, when a FLUSH may complete, and that a stream of
 * writes through it never beats the media.
 */
#include <string.h>
#include "harness.h"
#include "../core/disk.h"

#define MS ANTIC_NSEC_PER_MSEC

static void cached(struct disk_model *d, u32 cache_mb)
{
	struct disk_params p;

	disk_default_params(&p);
	p.write_cache = 1;
	p.cache_mb = cache_mb;
	CHECK(disk_init(d, &p, NULL) == 0);
}

static struct disk_cmd wr(u64 sector, u32 nr, u64 arrival)
{
	return (struct disk_cmd){ .sector = sector, .arrival = arrival,
				  .nr = nr, .write = true };
}

/* What the model says it holds is what its extents add up to. */
static void check_books(const struct disk_model *d)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < d->ndirty; i++)
		sum += d->dirty[i].cmd.nr;
	CHECK_EQ(sum, d->dirty_sectors);
	CHECK(d->dirty_sectors <= disk_cache_sectors(d));
	CHECK(d->ndirty <= DISK_MAX_DIRTY);
}

/* The mechanism destages until idle; returns when it stopped. */
static u64 drain(struct disk_model *d, u64 t)
{
	u64 done;

	while (disk_start(d, t, NULL, 0, &done) == DISK_DESTAGE) {
		CHECK(done >= t);
		t = done;
		disk_destage_done(d);
		check_books(d);
	}
	return t;
}

static void test_capacity(void)
{
	struct disk_model d;
	u64 done, t = 0, taken = 0, x = 99, prev = 0;
	struct disk_cmd c;
	int i;

	cached(&d, 1);	/* 2048 sectors */
	/* scattered 64 KiB writes: 16 fit, the 17th finds no room */
	for (i = 0; i < 17; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		c = wr((x >> 20) % (d.p.capacity - 128), 128, t);
		if (disk_absorb(&d, t, &c, &done)) {
			taken++;
			/*
			 * Interface speed, one write after another on the one
			 * link: 64 KiB at 600 MB/s (109 us) and the overhead
			 */
			CHECK(done > prev && done - prev >= 109000 &&
			      done - prev < 200000);
			prev = done;
		}
		check_books(&d);
	}
	CHECK_EQ(taken, 16);
	CHECK_EQ(d.dirty_sectors, 2048);
	/* a destage frees its room only when it is on the media */
	CHECK_EQ(disk_start(&d, t, NULL, 0, &done), DISK_DESTAGE);
	CHECK(!disk_absorb(&d, t, &c, &t));
	CHECK_EQ(d.dirty_sectors, 2048);
	disk_destage_done(&d);
	CHECK_EQ(d.dirty_sectors, 2048 - 128);
	CHECK(disk_absorb(&d, done, &c, &t));
	/* a write bigger than the cache goes to the media as a command */
	c = wr(0, 4096, done);
	CHECK(!disk_absorb(&d, done, &c, &t));
	/* and with the cache off, nothing is absorbed */
	{
		struct disk_model off;
		struct disk_params p;

		disk_default_params(&p);
		p.write_cache = 0;
		CHECK(disk_init(&off, &p, NULL) == 0);
		c = wr(0, 8, 0);
		CHECK(!disk_absorb(&off, 0, &c, &t));
	}
}

/* Cache off: a random 4 KiB write costs what a read at the same place does. */
static void test_off_write_costs_a_read(void)
{
	struct disk_model r, w;
	struct disk_params p;
	u64 x = 7, i, tr = 0, tw = 0;

	disk_default_params(&p);
	p.write_cache = 0;
	p.cache_segments = 0;
	CHECK(disk_init(&r, &p, NULL) == 0);
	CHECK(disk_init(&w, &p, NULL) == 0);
	for (i = 0; i < 200; i++) {
		u64 sector;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		sector = (x >> 16) % (p.capacity - 8);
		tr = disk_service(&r, tr, sector, 8, false);
		tw = disk_service(&w, tw, sector, 8, true);
	}
	CHECK_EQ(tr, tw);
	/* and about a seek and half a turn each: no cache answers either */
	CHECK(tw / 200 > 8 * MS);
}

/* Destage goes in positioning order, not arrival order. */
static void test_destage_positioning_order(void)
{
	struct disk_model d;
	struct disk_cmd far = wr(1800000000, 8, 0), near = wr(4096, 8, 1);
	u64 done;

	cached(&d, 16);
	/* the head rests at sector 0: the far write arrived first */
	CHECK(disk_absorb(&d, 0, &far, &done));
	CHECK(disk_absorb(&d, 1, &near, &done));
	CHECK_EQ(disk_start(&d, 2 * MS, NULL, 0, &done), DISK_DESTAGE);
	CHECK_EQ(d.destaging, 1);
	CHECK_EQ(d.dirty[d.destaging].cmd.sector, 4096);
	/* a short hop, not a full stroke */
	CHECK(done - 2 * MS < 9 * MS);
}

/*
 * A FLUSH completes only when every write taken before it is on the
 * media, and not one destage earlier; writes taken after it need not be.
 */
static void test_flush_waits_for_earlier_writes(void)
{
	struct disk_model d;
	struct disk_cmd c;
	u64 done, t = 0, x = 3, before = 0, destaged = 0, flush_seq;
	int i;

	cached(&d, 16);
	for (i = 0; i < 20; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		c = wr((x >> 20) % (d.p.capacity - 8), 8, t);
		CHECK(disk_absorb(&d, t, &c, &done));
		before += 8;
	}
	CHECK(!disk_flush(&d, t, &done));
	CHECK(disk_flush_pending(&d));
	flush_seq = d.dirty_seq;
	/* the host drained for the FLUSH, so later writes come after it */
	while (disk_flush_pending(&d)) {
		u32 i2;
		bool old_left = false;

		CHECK_EQ(disk_start(&d, t, NULL, 0, &done), DISK_DESTAGE);
		t = done;
		disk_destage_done(&d);
		destaged++;
		check_books(&d);
		for (i2 = 0; i2 < d.ndirty; i2++)
			old_left |= d.dirty[i2].seq <= flush_seq;
		/* pending exactly while something older than it is held */
		CHECK(disk_flush_pending(&d) == old_left);
		if (destaged > 40)
			break;
	}
	CHECK_EQ(destaged, 20);
	CHECK_EQ(d.dirty_sectors, 0);
	/*
	 * The last write before the FLUSH destaged last (the farthest; the
	 * head rests at 0 on a fresh drive, the rest are next to it): the
	 * FLUSH is pending until that one too is on the media, not one
	 * destage early; a write taken after the FLUSH is not waited for.
	 */
	{
		struct disk_model e;
		struct disk_cmd near1 = wr(1000, 8, 0), near2 = wr(3000, 8, 0),
				far = wr(1900000000, 8, 0), later = wr(2000, 8, 0);
		u64 te = 0, seq;
		u32 i2;

		cached(&e, 16);
		CHECK(disk_absorb(&e, 0, &near1, &done));
		CHECK(disk_absorb(&e, 0, &near2, &done));
		CHECK(disk_absorb(&e, 0, &far, &done));
		CHECK(!disk_flush(&e, 0, &done));
		seq = e.flush_seq;
		CHECK(disk_absorb(&e, 0, &later, &done));
		while (disk_flush_pending(&e) &&
		       disk_start(&e, te, NULL, 0, &done) == DISK_DESTAGE) {
			bool old_left = false;

			te = done;
			disk_destage_done(&e);
			for (i2 = 0; i2 < e.ndirty; i2++)
				old_left |= e.dirty[i2].seq <= seq;
			CHECK(disk_flush_pending(&e) == old_left);
		}
		/* the far one went last of those before the FLUSH */
		CHECK(!disk_flush_pending(&e));
		CHECK(e.ndirty == 0 || e.dirty[0].cmd.sector == 2000);
	}
	/* an empty cache answers a FLUSH at once */
	CHECK(disk_flush(&d, t, &done));
	CHECK(done - t < MS);
	(void)before;
}

/* While a command waits, destages run at most DISK_DESTAGE_BURST in a row. */
static void test_read_waits_bounded_destages(void)
{
	struct disk_model d;
	struct disk_cmd c, rd = { .sector = 1900000000, .arrival = 0, .nr = 8 };
	struct disk_cmd big = wr(1000000, 8, 0);
	const struct disk_cmd *q[2];
	u64 done, t = 0;
	int i, run = 0, r;

	cached(&d, 1);
	/* fill the cache with writes near the head, far from the read */
	for (i = 0; i < 256 && d.dirty_sectors + 8 <= 2048; i++) {
		c = wr(8192 + (u64)i * 4096, 8, 0);
		CHECK(disk_absorb(&d, 0, &c, &done));
	}
	/* a write waits for room and a far read waits: destages are nearer */
	q[0] = &rd;
	q[1] = &big;
	big.arrival = rd.arrival = 0;
	for (i = 0; i < 20; i++) {
		r = disk_start(&d, t, q, 2, &done);
		t = done;
		if (r == DISK_DESTAGE) {
			disk_destage_done(&d);
			run++;
			CHECK(run <= DISK_DESTAGE_BURST);
		} else {
			CHECK_EQ(r, 0);	/* the read, not the waiting write */
			break;
		}
	}
	CHECK_EQ(run, DISK_DESTAGE_BURST);
}

/*
 * A stream of 1 MiB writes through the cache, at queue depth 1: the time
 * until a FLUSH at its end says all is on the media is never shorter
 * than the media's rate allows.
 */
static void test_stream_never_beats_media(void)
{
	u32 sizes[] = { 8, 128, 1024, 2048 };
	unsigned si;

	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		struct disk_model d;
		u64 t = 0, mech_end = 0, done, sector = 0, bytes = 0;
		bool busy = false;
		u64 rate;
		double mbps, host, floor;

		cached(&d, 16);
		rate = disk_media_rate(&d, 0);
		while (bytes < (256ULL << 20)) {
			struct disk_cmd c = wr(sector, sizes[si], t);

			for (;;) {
				if (busy && mech_end <= t) {
					disk_destage_done(&d);
					busy = false;
				}
				if (!busy && d.ndirty) {
					busy = disk_start(&d, antic_max64(t, mech_end),
							  NULL, 0, &mech_end) == DISK_DESTAGE;
				}
				if (disk_absorb(&d, t, &c, &done)) {
					t = done;
					break;
				}
				CHECK(busy);
				if (!busy)
					return;
				t = antic_max64(t, mech_end);
			}
			sector += sizes[si];
			bytes += (u64)sizes[si] * 512;
			check_books(&d);
		}
		if (busy) {
			t = antic_max64(t, mech_end);
			disk_destage_done(&d);
		}
		if (!disk_flush(&d, t, &done))
			done = drain(&d, t);
		CHECK(!disk_flush_pending(&d));
		mbps = (double)bytes * 1e9 / (double)done;
		/*
		 * Never faster than the outer zone; and a stream costs no
		 * turns, so it runs at the media's rate or at what the
		 * command overhead lets the host send, whichever is less.
		 */
		host = (double)sizes[si] * 512 * 1e9 /
		       (d.p.overhead_us * 1000.0 + sizes[si] * 512 * 1000.0 / d.p.iface_mbps);
		floor = 0.8 * (host < (double)rate ? host : (double)rate);
		CHECK(mbps <= (double)rate * 1.001);
		CHECK(mbps >= floor);
		if (mbps > (double)rate * 1.001 || mbps < floor)
			fprintf(stderr, "  %u-sector writes: %.1f MB/s, media %.1f\n",
				sizes[si], mbps / 1e6, (double)rate / 1e6);
	}
}

/*
 * Random calls with the books checked after each: writes taken, reads
 * and writes served as commands, FLUSHes; every operation ends at or
 * after it starts, and a FLUSH never leaves anything older behind.
 */
/*
 * A write that continues the extent being destaged starts an extent of
 * its own: the media operation under way carries only what it started
 * with, so merging would let destage_done drop data never written.
 */
static void test_no_merge_into_destaging(void)
{
	struct disk_model d;
	struct disk_cmd a = wr(1 << 20, 128, 0), b = wr((1 << 20) + 128, 128, 0);
	u64 done, t;

	cached(&d, 16);
	CHECK(disk_absorb(&d, 0, &a, &done));
	t = done;
	CHECK_EQ(disk_start(&d, t, NULL, 0, &done), DISK_DESTAGE);
	CHECK(disk_absorb(&d, t, &b, &t));
	CHECK_EQ(d.ndirty, 2);
	CHECK_EQ(d.dirty_sectors, 256);
	check_books(&d);
	disk_destage_done(&d);
	/* what is left is b, whole, and it still needs the media */
	CHECK_EQ(d.ndirty, 1);
	CHECK_EQ(d.dirty[0].cmd.sector, b.sector);
	CHECK_EQ(d.dirty_sectors, 128);
	CHECK(!disk_flush(&d, done, &t));
	CHECK_EQ(disk_start(&d, done, NULL, 0, &t), DISK_DESTAGE);
	disk_destage_done(&d);
	CHECK(!disk_flush_pending(&d));
	CHECK_EQ(d.dirty_sectors, 0);
}

static void test_random_calls(void)
{
	struct disk_model d;
	u64 x = 2024, t = 0, done, mech_end = 0;
	struct disk_cmd q[4];
	const struct disk_cmd *qp[4];
	unsigned nq = 0, i;
	bool destaging = false, flushing = false;
	u64 flush_seq = 0;
	int step;

	cached(&d, 2);
	for (step = 0; step < 20000; step++) {
		unsigned op;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		op = (unsigned)(x >> 60) % 4;
		t += (x >> 40) % (2 * MS);
		if (destaging && mech_end <= t) {
			disk_destage_done(&d);
			destaging = false;
			if (flushing && !disk_flush_pending(&d)) {
				for (i = 0; i < d.ndirty; i++)
					CHECK(d.dirty[i].seq > flush_seq);
				flushing = false;
			}
		}
		if (op == 0) {	/* during a FLUSH too: it must not wait for these */
			struct disk_cmd c = wr((x >> 8) % (d.p.capacity - 64),
					       8 + (unsigned)(x % 56), t);

			if (disk_absorb(&d, t, &c, &done))
				CHECK(done >= t);
			else if (nq < 4)
				q[nq++] = c;
		} else if (op == 1 && nq < 4 && !flushing) {
			q[nq] = (struct disk_cmd){ .sector = (x >> 8) % (d.p.capacity - 8),
						   .arrival = t, .nr = 8 };
			nq++;
		} else if (op == 2 && !flushing && !nq && !destaging) {
			if (!disk_flush(&d, t, &done)) {
				flushing = true;
				flush_seq = d.flush_seq;
			}
		}
		if (!destaging && mech_end <= t) {
			int r;

			for (i = 0; i < nq; i++)
				qp[i] = &q[i];
			r = disk_start(&d, t, qp, nq, &mech_end);
			CHECK(r == DISK_IDLE || mech_end >= t);
			if (r == DISK_DESTAGE) {
				destaging = true;
			} else if (r >= 0) {
				for (i = (unsigned)r; i + 1 < nq; i++)
					q[i] = q[i + 1];
				nq--;
			}
		}
		check_books(&d);
	}
}

/*
 * A power cut empties the cache, the one being destaged included, forgets
 * a FLUSH waiting for it and the read cache, and stops the mechanism:
 * the drive then works as new (hddsim's power_cut is this call).
 */
static void test_power_cut(void)
{
	struct disk_model d;
	struct disk_cmd c;
	u64 done, t = 0, hits, i;

	cached(&d, 1);
	/* a read the buffer holds afterwards */
	done = disk_service(&d, t, 500000, 8, false);
	t = done + MS;
	hits = d.st.cache_hits;
	done = disk_service(&d, t, 500000, 8, false);
	CHECK_EQ(d.st.cache_hits, hits + 1);
	t = done;
	for (i = 0; i < 6; i++) {
		c = wr(1000000 + i * 100000, 64, t);
		CHECK(disk_absorb(&d, t, &c, &done));
	}
	CHECK(!disk_flush(&d, t, &done));
	CHECK_EQ(disk_start(&d, t, NULL, 0, &done), DISK_DESTAGE);
	CHECK(done > t + MS);	/* the mechanism is busy well past the cut */
	disk_power_cut(&d, t + MS);
	CHECK_EQ(d.ndirty, 0);
	CHECK_EQ(d.dirty_sectors, 0);
	CHECK_EQ(d.destaging, -1);
	CHECK(!disk_flush_pending(&d));
	CHECK(disk_busy_until(&d) <= t + MS);
	CHECK(d.p.write_cache);
	check_books(&d);
	t += MS;
	CHECK_EQ(disk_start(&d, t, NULL, 0, &done), DISK_IDLE);
	/* the buffer is gone: the same read goes to the media */
	hits = d.st.cache_hits;
	done = disk_service(&d, t, 500000, 8, false);
	CHECK_EQ(d.st.cache_hits, hits);
	CHECK(done - t > 2 * MS);
	/* and the cache takes writes again, all of its room free */
	t = done;
	c = wr(2000000, 2048, t);
	CHECK(disk_absorb(&d, t, &c, &done));
	CHECK(disk_flush(&d, t, &done) == false);
	drain(&d, t);
	CHECK(!disk_flush_pending(&d));
}

/* Off only once it holds nothing; on only with room to hold something. */
static void test_set_write_cache(void)
{
	struct disk_model d;
	struct disk_cmd c = wr(4096, 8, 0);
	u64 done;

	cached(&d, 1);
	CHECK(disk_absorb(&d, 0, &c, &done));
	CHECK(!disk_set_write_cache(&d, false));
	CHECK(d.p.write_cache);
	drain(&d, done);
	CHECK(disk_set_write_cache(&d, false));
	CHECK(!d.p.write_cache);
	CHECK(!disk_absorb(&d, done, &c, &done));
	CHECK(!disk_cacheable(&d, &c));
	CHECK(disk_set_write_cache(&d, true));
	CHECK(disk_absorb(&d, done, &c, &done));
	drain(&d, done);
	d.p.cache_mb = 0;
	CHECK(disk_set_write_cache(&d, false));
	CHECK(!disk_set_write_cache(&d, true));
	CHECK(!d.p.write_cache);
}

void suite_wcache(void)
{
	RUN(test_capacity);
	RUN(test_off_write_costs_a_read);
	RUN(test_destage_positioning_order);
	RUN(test_flush_waits_for_earlier_writes);
	RUN(test_read_waits_bounded_destages);
	RUN(test_stream_never_beats_media);
	RUN(test_no_merge_into_destaging);
	RUN(test_random_calls);
	RUN(test_power_cut);
	RUN(test_set_write_cache);
}
