/*
 * drive.c - the commands at the drive: how many it holds (queue_depth),
 * when the drive is busy, and handing them to the mechanism in the order
 * the drive picks (disk_start), with the write cache and FLUSH between.
 * How long each takes, and which goes next, are the disk model's answers
 * (core/disk.c).
 */
#include "sim.h"

static struct sim_rq *cmd_rq(const struct disk_cmd *c)
{
	return (struct sim_rq *)((char *)c - offsetof(struct sim_rq, cmd));
}

static unsigned drive_held(const struct sim *s)
{
	return s->ndrive + s->nabsorbed;
}

/*
 * Room for another command: a tag free, and no FLUSH queued or running
 * (FLUSH CACHE is not an NCQ command: libata drains the queue for it and
 * holds the rest back until it completes).
 */
bool drive_has_room(const struct sim *s)
{
	return drive_held(s) < s->disk.p.queue_depth && !s->flushq &&
	       !s->flush_rq;
}

/* Anything at the drive: what its busy time (util %) counts. */
bool drive_active(const struct sim *s)
{
	return drive_held(s) || s->flushq || s->flush_rq;
}

/* Call before something arrives, and after something leaves. */
static void drive_busy(struct sim *s)
{
	if (!drive_active(s))
		s->busy_since = s->now;
}

static void drive_idle(struct sim *s)
{
	if (!drive_active(s))
		s->r->disk_busy += s->now - s->busy_since;
}

/* The cache takes @rq, if it has room: then it completes at interface speed. */
static bool drive_absorb(struct sim *s, struct sim_rq *rq)
{
	uint64_t done;

	if (!disk_absorb(&s->disk, s->now, &rq->cmd, &done))
		return false;
	s->nabsorbed++;
	rq->absorbed = true;
	event_push(s, done, EV_DONE, 0, rq);
	return true;
}

void drive_submit(struct sim *s, struct sim_rq *rq)
{
	drive_busy(s);
	rq->absorbed = false;
	rq->cmd = (struct disk_cmd){ .sector = rq->rq.sector,
				     .arrival = s->now,
				     .nr = rq->rq.nr_sectors,
				     .write = rq->rq.write };
	if (s->disk.p.type == DISK_SSD) {
		uint64_t done = disk_service(&s->disk, s->now, rq->rq.sector,
					     rq->rq.nr_sectors, rq->rq.write);

		s->drive[s->ndrive++] = &rq->cmd;
		s->nqueued_writes += rq->rq.write;
		event_push(s, done, EV_DONE, 0, rq);
		return;
	}
	if (rq->rq.write && s->disk.p.write_cache && drive_absorb(s, rq))
		return;
	s->drive[s->ndrive++] = &rq->cmd;
	s->nqueued_writes += rq->rq.write;
	drive_start_next(s);
}

/* Command @i leaves the drive's queue; the rest keep their (arrival) order. */
static void drive_take(struct sim *s, unsigned i)
{
	s->nqueued_writes -= s->drive[i]->write;
	for (s->ndrive--; i < s->ndrive; i++)
		s->drive[i] = s->drive[i + 1];
}

/* Writes that waited for room in the cache, oldest first, while it has some. */
static __attribute__((noinline)) void drive_absorb_waiting(struct sim *s)
{
	unsigned i = 0;

	while (i < s->ndrive) {
		struct sim_rq *rq = cmd_rq(s->drive[i]);

		if (!disk_cacheable(&s->disk, &rq->cmd)) {
			i++;	/* the mechanism's, not the cache's */
			continue;
		}
		if (!drive_absorb(s, rq))
			return;	/* no room: the younger wait too */
		drive_take(s, i);
	}
}

/* A FLUSH starts once the drive has drained: it waits for the cache. */
static __attribute__((noinline)) void drive_flush_start(struct sim *s)
{
	struct sim_rq *rq = s->flushq;
	uint64_t done;

	if (!rq || s->flush_rq || drive_held(s))
		return;
	s->flushq = rq->next_free;
	if (!s->flushq)
		s->flushq_tail = NULL;
	s->flush_rq = rq;
	if (disk_flush(&s->disk, s->now, &done))
		event_push(s, done, EV_DONE, 0, rq);
	/* else drive_destage_done completes it */
}

/* The mechanism is free and has work: what the drive picks, or a destage. */
static __attribute__((noinline)) void drive_start_mech(struct sim *s)
{
	uint64_t done;
	int i;

	i = disk_start(&s->disk, s->now, s->drive, s->ndrive, &done);
	if (i == DISK_IDLE)
		return;
	if (i == DISK_DESTAGE) {
		s->destaging = true;
		event_set_side(s, SIDE_MECH, done, EV_DESTAGE, NULL);
		return;
	}
	s->mech = cmd_rq(s->drive[i]);
	event_set_side(s, SIDE_MECH, done, EV_DONE, s->mech);	/* one at a time: s->mech */
}

/*
 * The mechanism may be free: it takes what the drive picks, or destages.
 * Called after every completion, most often with nothing to start; the
 * work (disk_start inlined, the write cache's and FLUSH's rare paths) is
 * in noinline functions, so that this answer costs no stack frame (it
 * was two thirds of the call).
 */
void drive_start_next(struct sim *s)
{
	/*
	 * The cache takes writes, and a FLUSH is issued, whatever the head
	 * does; room may have come (an emptied cache too): waiting writes first.
	 */
	if (s->nqueued_writes && s->disk.p.write_cache)
		drive_absorb_waiting(s);
	if (s->flushq)
		drive_flush_start(s);
	/* an SSD starts each command as it arrives (drive_submit) */
	if (s->mech || s->destaging || s->disk.p.type == DISK_SSD)
		return;
	if (!s->ndrive && !s->disk.ndirty)
		return;
	drive_start_mech(s);
}

/* Cached data reached the media: room for waiting writes, maybe a FLUSH done. */
void drive_destage_done(struct sim *s)
{
	s->destaging = false;
	disk_destage_done(&s->disk);
	if (s->flush_rq && !disk_flush_pending(&s->disk))
		event_push(s, s->now, EV_DONE, 0, s->flush_rq);
	drive_start_next(s);
}

/*
 * A FLUSH for @ap's fsync of @file (@gen: which of the process's fsyncs):
 * it bypasses the scheduler, as in Linux.
 */
int drive_flush(struct sim *s, struct antic_proc *ap, unsigned file,
		unsigned gen)
{
	struct sim_rq *rq = blk_alloc(s, K_FLUSH, ap, 0, 0, true, true, ANTIC_CLASS_BE);

	if (!rq)
		return -1;
	rq->rq.add_time = s->now;
	rq->file = file;
	rq->io = gen;
	rq->absorbed = false;
	drive_busy(s);
	if (s->flushq_tail)
		s->flushq_tail->next_free = rq;
	else
		s->flushq = rq;
	s->flushq_tail = rq;
	drive_start_next(s);
	return 0;
}

/* @rq has completed: it leaves the drive, which may fall idle. */
void drive_remove(struct sim *s, struct sim_rq *rq)
{
	unsigned i;

	if (rq->kind == K_FLUSH) {
		s->flush_rq = NULL;
		drive_idle(s);
		return;
	}
	if (rq->absorbed) {
		s->nabsorbed--;
	} else {
		for (i = 0; i < s->ndrive; i++)
			if (s->drive[i] == &rq->cmd)
				break;
		/* the rest keep their order: disk_pick breaks ties by it */
		if (i < s->ndrive)
			drive_take(s, i);
	}
	drive_idle(s);
	if (s->mech == rq)
		s->mech = NULL;
}
