/*
 * watchdog.c - turns a simulator that has stopped getting anywhere into
 * an error with a message, instead of a process that never ends.
 */
#include "watchdog.h"
#include <stdio.h>

int watchdog_tick(struct watchdog *wd, uint64_t now, uint64_t requests,
		  uint64_t completed, char *err, size_t errlen)
{
	uint64_t limit = wd->limit ? wd->limit : WATCHDOG_EVENTS;

	if (now != wd->now || requests != wd->requests || completed != wd->completed) {
		wd->now = now;
		wd->requests = requests;
		wd->completed = completed;
		wd->idle = 0;
		return 0;
	}
	if (++wd->idle < limit)
		return 0;
	snprintf(err, errlen,
		 "internal error: the simulation stalled at %llu.%09llu s: %llu events "
		 "with virtual time standing still and no request made or completed",
		 (unsigned long long)(now / 1000000000ULL),
		 (unsigned long long)(now % 1000000000ULL),
		 (unsigned long long)wd->idle);
	return -1;
}
