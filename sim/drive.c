/*
 * drive.c - the commands at the drive: how many it holds (queue_depth),
 * when the drive is busy, and handing them to the mechanism in the order
 * the drive picks (disk_pick). How long each takes, and which goes next,
 * are the disk model's answers (core/disk.c).
 */
#include "sim.h"

static struct sim_rq *cmd_rq(const struct disk_cmd *c)
{
	return (struct sim_rq *)((char *)c - offsetof(struct sim_rq, cmd));
}

void drive_submit(struct sim *s, struct sim_rq *rq)
{
	if (!s->ndrive)
		s->busy_since = s->now;
	rq->cmd = (struct disk_cmd){ .sector = rq->rq.sector,
				     .arrival = s->now,
				     .nr = rq->rq.nr_sectors,
				     .write = rq->rq.write };
	s->drive[s->ndrive++] = &rq->cmd;
	if (s->disk.p.type == DISK_SSD) {
		uint64_t done = disk_service(&s->disk, s->now, rq->rq.sector,
					     rq->rq.nr_sectors, rq->rq.write);

		event_push(s, done, EV_DONE, 0, rq);
	} else {
		drive_start_next(s);
	}
}

/* The mechanism is free: it takes the command the drive picks. */
void drive_start_next(struct sim *s)
{
	const struct disk_cmd *c;
	struct sim_rq *rq;
	uint64_t done;

	/* an SSD starts each command as it arrives (drive_submit) */
	if (s->mech || !s->ndrive || s->disk.p.type == DISK_SSD)
		return;
	/* at depth 1 there is nothing to pick: spare replay the call */
	c = s->drive[s->ndrive > 1 ?
		     disk_pick(&s->disk, s->now, s->drive, s->ndrive) : 0];
	rq = cmd_rq(c);
	s->mech = rq;
	done = disk_service(&s->disk, s->now, c->sector, c->nr, c->write);
	event_set_side(s, SIDE_MECH, done, EV_DONE, rq);	/* one at a time: s->mech */
}

/* @rq has completed: it leaves the drive, which may fall idle. */
void drive_remove(struct sim *s, struct sim_rq *rq)
{
	unsigned i;

	for (i = 0; i < s->ndrive; i++)
		if (s->drive[i] == &rq->cmd)
			break;
	if (i < s->ndrive) {
		/* the rest keep their order: disk_pick breaks ties by it */
		for (s->ndrive--; i < s->ndrive; i++)
			s->drive[i] = s->drive[i + 1];
	}
	if (!s->ndrive)
		s->r->disk_busy += s->now - s->busy_since;
	if (s->mech == rq)
		s->mech = NULL;
}
