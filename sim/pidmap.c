/*
 * pidmap.c - the open-addressed pid table behind pidmap.h: linear
 * probing at a load of at most one half, doubled when it would pass it.
 */
#include "pidmap.h"
#include "../core/compat.h"
#include <limits.h>
#include <stdlib.h>

void pidmap_init(struct pidmap *m)
{
	*m = (struct pidmap){ .last = -1 };
}

void pidmap_free(struct pidmap *m)
{
	free(m->slot);
	pidmap_init(m);
}

/* The slot holding @pid, or the empty one where it would go. */
static size_t probe(const struct pidmap_slot *slot, size_t cap, uint32_t pid)
{
	size_t mask = cap - 1, i;

	for (i = antic_mix64(pid) & mask; slot[i].idx >= 0; i = (i + 1) & mask)
		if (slot[i].pid == pid)
			break;
	return i;
}

int pidmap_index(const struct pidmap *m, uint32_t pid)
{
	if (!m->cap)
		return -1;
	return m->slot[probe(m->slot, m->cap, pid)].idx;
}

int pidmap_lookup(struct pidmap *m, uint32_t pid)
{
	int i = pidmap_index(m, pid);

	if (i >= 0) {
		m->last_pid = pid;
		m->last = i;
	}
	return i;
}

static int grow(struct pidmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	struct pidmap_slot *n = malloc(cap * sizeof(*n));

	if (!n)
		return -1;
	for (i = 0; i < cap; i++)
		n[i].idx = -1;
	for (i = 0; i < m->cap; i++)
		if (m->slot[i].idx >= 0)
			n[probe(n, cap, m->slot[i].pid)] = m->slot[i];
	free(m->slot);
	m->slot = n;
	m->cap = cap;
	return 0;
}

int pidmap_add(struct pidmap *m, uint32_t pid)
{
	size_t i;

	if (m->n == INT_MAX || ((size_t)m->n + 1) * 2 > m->cap) {
		if (m->n == INT_MAX || grow(m))
			return -1;
	}
	i = probe(m->slot, m->cap, pid);
	m->slot[i] = (struct pidmap_slot){ pid, m->n };
	m->last_pid = pid;
	return m->last = m->n++;
}
