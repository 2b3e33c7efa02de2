/*
 * drive.c - the commands at the drive: how many it holds (queue_depth),
 * which one its mechanism serves next, and when the drive is busy. How
 * long each takes is the disk model's answer (core/disk.c).
 */
#include "sim.h"

void drive_submit(struct sim *s, struct sim_rq *rq)
{
	if (!s->ndrive)
		s->busy_since = s->now;
	s->drive[s->ndrive++] = rq;
	if (s->disk.p.type == DISK_SSD) {
		uint64_t done = disk_service(&s->disk, s->now, rq->rq.sector,
					     rq->rq.nr_sectors, rq->rq.write);

		event_push(s, done, EV_DONE, 0, rq);
	} else {
		drive_start_next(s);
	}
}

/* The drive picks its next command: the only one, or shortest-first (NCQ). */
void drive_start_next(struct sim *s)
{
	unsigned i, best = 0;
	uint64_t best_t = UINT64_MAX, done;
	struct sim_rq *rq;

	/* an SSD starts each command as it arrives (drive_submit) */
	if (s->mech || !s->ndrive || s->disk.p.type == DISK_SSD)
		return;
	if (s->ndrive > 1) {
		for (i = 0; i < s->ndrive; i++) {
			uint64_t t = disk_position_time(&s->disk, s->now,
							s->drive[i]->rq.sector,
							s->drive[i]->rq.nr_sectors,
							s->drive[i]->rq.write);
			if (t < best_t) {
				best_t = t;
				best = i;
			}
		}
	}
	rq = s->drive[best];
	s->mech = rq;
	done = disk_service(&s->disk, s->now, rq->rq.sector, rq->rq.nr_sectors,
			    rq->rq.write);
	event_set_side(s, SIDE_MECH, done, EV_DONE, rq);	/* one at a time: s->mech */
}

/* @rq has completed: it leaves the drive, which may fall idle. */
void drive_remove(struct sim *s, struct sim_rq *rq)
{
	unsigned i;

	for (i = 0; i < s->ndrive; i++)
		if (s->drive[i] == rq)
			break;
	if (i < s->ndrive)
		s->drive[i] = s->drive[--s->ndrive];
	if (!s->ndrive)
		s->r->disk_busy += s->now - s->busy_since;
	if (s->mech == rq)
		s->mech = NULL;
}
