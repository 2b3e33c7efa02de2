/* SPDX-License-Identifier: GPL-2.0 */
/*
 * deadline.h - the baselines the simulator compares anticipatory with: a
 * model of today's mq-deadline, and noop (arrival order, like "none").
 */
#ifndef ANTIC_DEADLINE_H
#define ANTIC_DEADLINE_H

#include "sched.h"

enum { DL_READ = 0, DL_WRITE = 1 };

struct dl_tunables {
	u64 read_expire;	/* ns */
	u64 write_expire;	/* ns */
	u32 writes_starved;
	u32 fifo_batch;
	u64 prio_aging_expire;	/* ns */
};

struct dl_sched {
	struct dl_tunables tun;
	/* by I/O priority class (enum antic_prio_class), then data direction */
	struct antic_queue q[ANTIC_NR_CLASSES][2];
	u64 last_end[ANTIC_NR_CLASSES][2];
	u32 in_flight[ANTIC_NR_CLASSES];	/* dispatched, not completed */
	u64 seq;
	int last_dir;
	bool have_last;
	u32 batching;
	u32 starved;
	u64 batches;
};

void dl_default_tunables(struct dl_tunables *t);
void dl_init(struct dl_sched *dl, const struct dl_tunables *t);
extern const struct antic_policy_ops dl_policy_ops;

struct noop_sched {
	struct antic_queue q;
	u64 seq;
};

void noop_init(struct noop_sched *n);
extern const struct antic_policy_ops noop_policy_ops;

#endif /* ANTIC_DEADLINE_H */
