/*
 * pidmap.h - pid -> dense index (0, 1, 2, ... in order of first sight),
 * for the tables that keep one record per traced process: the trace
 * reader's and the replay's. The caller keeps its records in an array
 * of its own; the map only says where. Open addressing keyed by pid,
 * and the last pid found kept beside it, inline: records come in runs
 * from one process, so most lookups never reach the table.
 */
#ifndef SIM_PIDMAP_H
#define SIM_PIDMAP_H

#include <stddef.h>
#include <stdint.h>

struct pidmap_slot {
	uint32_t pid;
	int idx;		/* -1: empty */
};

struct pidmap {
	struct pidmap_slot *slot;
	size_t cap;		/* a power of two, at least twice n; 0 before the first add */
	int n;			/* pids added: their indexes are 0 .. n - 1 */
	uint32_t last_pid;	/* the last pid found or added, and its index (-1: none) */
	int last;
};

void pidmap_init(struct pidmap *m);
void pidmap_free(struct pidmap *m);
/* The index of @pid, or -1; leaves the last-hit cache alone. */
int pidmap_index(const struct pidmap *m, uint32_t pid);
/* pidmap_index, remembering a hit for pidmap_find. */
int pidmap_lookup(struct pidmap *m, uint32_t pid);
/*
 * Give @pid, which must not be in @m yet, the next index (pidmap_count
 * before the call) and return it; -1 when out of memory (then @m is as
 * it was). Callers grow their own arrays first, so a failure leaves both
 * consistent.
 */
int pidmap_add(struct pidmap *m, uint32_t pid);

static inline int pidmap_count(const struct pidmap *m)
{
	return m->n;
}

/* The index of @pid, or -1: the last hit without a probe. */
static inline int pidmap_find(struct pidmap *m, uint32_t pid)
{
	if (m->last >= 0 && m->last_pid == pid)
		return m->last;
	return pidmap_lookup(m, pid);
}

#endif
