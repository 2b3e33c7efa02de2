/* SPDX-License-Identifier: GPL-2.0 */
/*
 * disk.h - the mechanical disk model (and an SSD for contrast): given the
 * drive's state and a request, when does it complete and where is the
 * head afterwards. The simulator advances virtual time with it; hddsim.ko
 * times real completions with it.
 */
#ifndef ANTIC_DISK_H
#define ANTIC_DISK_H

#include "compat.h"

#define DISK_MAX_ZONES 64
#define DISK_MAX_SEGMENTS 64
#define DISK_MAX_CHANNELS 64
/* extents the write cache tracks; a real drive's table is finite too */
#define DISK_MAX_DIRTY 256

enum disk_type { DISK_HDD = 0, DISK_SSD = 1 };

/*
 * Parameters, with the names the CLI, job files and hddsim's module
 * parameters use. Rates are 10^6 bytes/s, times in us.
 */
struct disk_params {
	u32 type;
	u64 capacity;		/* sectors */
	u32 rpm;
	u32 heads;		/* recording surfaces */
	u32 zones;
	u32 outer_mbps;
	u32 inner_mbps;
	u32 track_to_track_us;
	u32 avg_seek_us;
	u32 full_stroke_us;
	u32 overhead_us;	/* command processing per request */
	u32 cache_segments;	/* 0 disables the read cache */
	u32 segment_kb;
	u32 iface_mbps;		/* cache hits move at interface speed */
	u32 queue_depth;	/* 1, or NCQ depth: see disk_pick */
	u32 ncq_age_ms;		/* a command this old goes first; 0: never */
	u32 ncq_age_weight;	/* per mille of a wait credited in disk_pick */
	u32 write_cache;	/* 1: writes complete in the cache (hdparm -W1) */
	u32 cache_mb;		/* MiB of it that may hold written data */
	/* SSD */
	u32 ssd_read_us;
	u32 ssd_write_us;
	u32 ssd_channels;
	u32 ssd_mbps;		/* per channel */
};

struct disk_zone {
	u64 first_sector;
	u64 first_cyl;
	u64 cyls;
	u32 spt;		/* sectors per track */
};

struct disk_segment {
	u64 start, end;		/* cached [start, end) */
	u64 used;		/* LRU stamp */
};

struct disk_stats {
	u64 requests;
	u64 sectors;
	u64 cache_hits;
	u64 seeks;		/* head moved to another cylinder */
	u64 seek_cyls;
	u64 seek_sectors;	/* distance from the head's sector to the start */
	u64 seek_ns;
	u64 rotate_ns;
	u64 transfer_ns;
	u64 absorbed;		/* writes the write cache took */
	u64 destages;		/* its writes to the media */
	u64 flushes;
};

/*
 * A command at the drive, as the drive sees it: where, how much, which
 * way, and when it arrived (ns, the clock disk_service is given).
 */
struct disk_cmd {
	u64 sector;
	u64 arrival;
	u32 nr;
	bool write;
	bool fua;		/* a write that must reach the media first */
};

/*
 * Written data the drive holds and has not yet put on the media, in the
 * order it arrived. seq orders it against a FLUSH.
 */
struct disk_dirty {
	struct disk_cmd cmd;	/* as it came, merged with what followed it */
	u64 seq;
};

struct disk_model {
	struct disk_params p;
	u64 rev_ns;
	u64 cylinders;
	s64 seek_a, seek_b;	/* Lee's coefficients, ns */
	u32 nr_zones;
	struct disk_zone zone[DISK_MAX_ZONES];

	/* head */
	u64 cyl;
	u64 head_sector;	/* sector under the head when it last stopped */
	u64 busy_until;

	/* read cache; segment ra (if >= 0) is being filled by read-ahead */
	struct disk_segment seg[DISK_MAX_SEGMENTS];
	int ra;
	u64 ra_t0, ra_base, ra_cap;
	u32 ra_spt;
	u64 stamp;

	/* write cache: dirty[0, ndirty), oldest first */
	struct disk_dirty dirty[DISK_MAX_DIRTY];
	u32 ndirty;
	u64 dirty_sectors;	/* held, including the one being destaged */
	u64 dirty_seq;		/* seq of the latest write taken */
	int destaging;		/* index of the one on its way, or -1 */
	u32 destage_run;	/* destages in a row while a command waited */
	u64 flush_seq;		/* a FLUSH waits for every seq <= this */
	bool flush_pending;
	u64 iface_free;		/* when the link is free for the next write */

	u64 chan_free[DISK_MAX_CHANNELS];
	struct disk_stats st;
};


/*
 * Named drives: antic-sim's disk=NAME and hddsim's profile=NAME both take
 * these, and parameters given beside the name override single figures.
 * max_sectors_kb is the host's, not the drive's: the largest request the
 * block layer sends it (for ide2003, what Linux 2.5's IDE driver sent).
 */
struct disk_preset {
	const char *name;
	const char *what;
	struct disk_params p;
	u32 max_sectors_kb;
};

#define DISK_NR_PRESETS 5
/* The first is the default drive. */
extern const struct disk_preset disk_presets[DISK_NR_PRESETS];
/* The preset named @name, or NULL. */
const struct disk_preset *disk_preset_find(const char *name);

/* The default drive's parameters (the first preset). */
void disk_default_params(struct disk_params *p);
void disk_ssd_params(struct disk_params *p);
/* 0, or -1 with *why naming the parameter that is wrong. */
int disk_init(struct disk_model *d, const struct disk_params *p, const char **why);
/*
 * Serve one request starting at @now (an HDD's mechanism must be free:
 * now >= disk_busy_until()). Returns the completion time.
 */
u64 disk_service(struct disk_model *d, u64 now, u64 sector, u32 nr, bool write);
/* Positioning time @sector would cost at @now, for SPTF; no state change. */
u64 disk_position_time(const struct disk_model *d, u64 now, u64 sector, u32 nr,
		       bool write);
/*
 * The drive's choice of its next command at @now among the @n (at least
 * one) it holds, in the order they arrived: the one with the shortest
 * positioning time, the oldest of those on a tie; but a command that has
 * waited ncq_age_ms goes first, the oldest such. Returns its index.
 */
unsigned int disk_pick(const struct disk_model *d, u64 now,
		       const struct disk_cmd *const *cmds, unsigned int n);
/*
 * The write cache (write_cache=1). A write that fits is taken at
 * interface speed: disk_absorb returns true and its completion in *done,
 * and the mechanism destages it later. FUA writes, and every write with
 * the cache off, go to the media as commands.
 */
bool disk_absorb(struct disk_model *d, u64 now, const struct disk_cmd *c,
		 u64 *done);
/* A write the cache would take, were there room (cache on, not FUA, not too big). */
bool disk_cacheable(const struct disk_model *d, const struct disk_cmd *c);
/*
 * The mechanism is free at @now (now >= disk_busy_until()): it starts
 * its next operation and *done is when that ends. Returns the index of
 * the command of @cmds (in arrival order) it serves, DISK_DESTAGE for a
 * write of cached data to the media (call disk_destage_done at *done),
 * or DISK_IDLE when there is nothing to do. Commands are served as
 * disk_pick orders them; cached data is destaged, in positioning order,
 * when no command needs the mechanism, when a write waits for room, or
 * for a FLUSH; a command waits for at most DISK_DESTAGE_BURST destages
 * in a row. Writes among @cmds are those the cache had no room for: they
 * wait until disk_absorb takes them; destages carry their wait (the age
 * credit, and the age limit once one of them is the oldest command).
 */
#define DISK_DESTAGE (-1)
#define DISK_IDLE (-2)
#define DISK_DESTAGE_BURST 4
int disk_start(struct disk_model *d, u64 now,
	       const struct disk_cmd *const *cmds, unsigned int n, u64 *done);
/* The destage disk_start began has reached the media: its room is free. */
void disk_destage_done(struct disk_model *d);
/*
 * A FLUSH arrives at @now (the host has drained its queue, as for any
 * non-queued command): true when the cache holds nothing written before
 * it, so it completes at once (after the command overhead, *done).
 * Otherwise it completes at the end of the destage after which
 * disk_flush_pending() turns false.
 */
bool disk_flush(struct disk_model *d, u64 now, u64 *done);
static inline bool disk_flush_pending(const struct disk_model *d)
{
	return d->flush_pending;
}
/*
 * The drive loses power at @now: written data its cache held and had not
 * put on the media is gone (an extent being destaged too: its write did
 * not finish), so is the read cache, and the mechanism stops where it
 * is. A FLUSH waiting is forgotten (the host sees it fail). Power comes
 * back at once, without a spin-up; the cache keeps its setting.
 */
void disk_power_cut(struct disk_model *d, u64 now);
/*
 * Turn the write cache on or off at run time (hdparm -W). False, and
 * nothing changes, when turning it off while it holds data (the host
 * must make it durable first: a FLUSH) or on without a valid cache_mb.
 */
bool disk_set_write_cache(struct disk_model *d, bool on);
/* Sectors the write cache may hold. */
static inline u64 disk_cache_sectors(const struct disk_model *d)
{
	return (u64)d->p.cache_mb << 11;
}
/* Seek time over @dist cylinders. */
u64 disk_seek_ns(const struct disk_model *d, u64 dist);
u64 disk_sector_cyl(const struct disk_model *d, u64 sector);
u32 disk_sector_spt(const struct disk_model *d, u64 sector);
/* Sustained media rate at @sector, bytes per second. */
u64 disk_media_rate(const struct disk_model *d, u64 sector);

static inline bool disk_rotational(const struct disk_model *d)
{
	return d->p.type == DISK_HDD;
}

static inline u64 disk_busy_until(const struct disk_model *d)
{
	return d->busy_until;
}

#endif /* ANTIC_DISK_H */
