/*
 * replay-rule.h - the closed-loop replay rule, in one place for the two
 * replayers that must agree on it: antic-sim's (sim/replay.c, against the
 * model) and bench/replay-startup.c (against a real block device in the
 * VM). A process's records go out in trace order, each when the rule says
 * so; the rule sees only the process's own history.
 */
#ifndef SIM_REPLAY_RULE_H
#define SIM_REPLAY_RULE_H

#include "trace.h"

/* What the rule needs to know of a process's replay so far. */
struct replay_chain {
	bool any;		/* it has issued a request */
	unsigned outstanding;	/* its requests not yet completed */
	uint64_t last_issue;	/* when it issued its latest, ns */
	uint64_t last_done;	/* when its latest completion came, ns */
	uint64_t last_t;	/* the recorded time of its previous record (replay_wait) */
};

/*
 * The wait a record carries, computed as it is read (@at: its recorded
 * time, already scaled, as is @think): after a completion (TD_AFTER_DONE)
 * its recorded think time, else the recorded gap since the same process's
 * previous record. Updates c->last_t.
 */
static inline uint64_t replay_wait(struct replay_chain *c, uint8_t dep, uint64_t at,
				   uint64_t think)
{
	uint64_t w = dep == TD_AFTER_DONE ? think : at - (c->last_t < at ? c->last_t : at);

	c->last_t = at;
	return w;
}

/*
 * When the process may issue a record: the first at its recorded time
 * @at; an asynchronous write (writeback) at its recorded time, not before
 * the previous issue; one recorded while the previous was outstanding
 * (TD_OVERLAP) its gap after the previous issue; one recorded after a
 * completion (TD_AFTER_DONE) its think time after the latest completion,
 * once nothing of the process is outstanding; with no completions
 * recorded (TD_UNKNOWN) its gap after the previous issue, once nothing is
 * outstanding and not before the latest completion. Returns false while
 * it must wait for a completion; else true with the time in @t.
 */
static inline bool replay_when(const struct replay_chain *c, uint64_t at, uint64_t wait,
			       bool sync, uint8_t dep, uint64_t *t)
{
	if (!c->any) {
		*t = at;
	} else if (!sync) {
		*t = at > c->last_issue ? at : c->last_issue;
	} else if (dep == TD_OVERLAP) {
		*t = c->last_issue + wait;
	} else {
		if (c->outstanding)
			return false;
		if (dep == TD_AFTER_DONE) {
			*t = c->last_done + wait;
		} else {
			*t = c->last_issue + wait;
			if (*t < c->last_done)
				*t = c->last_done;
		}
	}
	return true;
}

#endif
