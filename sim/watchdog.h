/*
 * watchdog.h - a stall detector for the simulator's event loop: a long
 * run of events in which virtual time stands still and no request is made
 * or completes is a simulator bug, to be reported rather than spun on.
 */
#ifndef SIM_WATCHDOG_H
#define SIM_WATCHDOG_H

#include <stddef.h>
#include <stdint.h>

/*
 * Events without progress that make a stall: far above the longest real
 * run at one instant (under ten in every example and fixture trace), a
 * few timers and flusher wake-ups. What grows with the workload, a
 * wake-up per process at a shared start or end, the caller adds.
 */
#define WATCHDOG_EVENTS 1000000ULL

/* Zeroed, it is ready, with the limit above. */
struct watchdog {
	uint64_t limit;		/* 0: WATCHDOG_EVENTS */
	uint64_t now;		/* virtual time at the last progress */
	uint64_t requests;	/* requests made then */
	uint64_t completed;	/* bytes completed then */
	uint64_t idle;		/* events since */
};

/*
 * Once per event, with the event's virtual time and the run's count of
 * requests made and bytes completed. Returns 0, or -1 with the reason
 * in @err once @limit events in a row have changed none of the three.
 * A request made counts as progress: an open-loop replay with its times
 * scaled to nothing makes every request at one instant.
 */
int watchdog_tick(struct watchdog *wd, uint64_t now, uint64_t requests,
		  uint64_t completed, char *err, size_t errlen);

#endif
