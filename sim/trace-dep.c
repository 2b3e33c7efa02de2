/*
 * trace-dep.c - the path every format's I/O takes on its way out of the
 * reader: the device filter, the time window, and dependency inference,
 * which tells from the completions the trace recorded whether a request
 * came a think time after its process's previous one completed or while
 * that one was outstanding. Memory: a table of processes and a bounded
 * table of requests awaiting their completion, matched by start sector.
 * The per-record part (tr_emit_io, the process lookup, a request's entry
 * in that table) is inline in trace-int.h, for the blktrace reader.
 */
#include "trace-int.h"
#include "../core/compat.h"
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- processes ---- */

/* A process seen for the first time (tr_proc_get's miss). NULL: out of memory. */
struct tproc *tr_proc_add(struct trace *t, uint32_t pid)
{
	int i;

	if ((size_t)pidmap_count(&t->pids) == t->cap_procs) {
		size_t cap = t->cap_procs ? t->cap_procs * 2 : 64;
		struct tproc *n = realloc(t->procs, cap * sizeof(*n));

		if (!n)
			return NULL;
		memset(n + t->cap_procs, 0, (cap - t->cap_procs) * sizeof(*n));
		t->procs = n;
		t->cap_procs = cap;
	}
	i = pidmap_add(&t->pids, pid);
	if (i < 0)
		return NULL;
	t->st.procs++;
	return &t->procs[i];
}

const char *trace_proc_name(const struct trace *t, uint32_t pid)
{
	int i = pidmap_index(&t->pids, pid);

	return i >= 0 && t->procs[i].comm[0] ? t->procs[i].comm : NULL;
}

void tr_set_comm(struct trace *t, uint32_t pid, const char *s, size_t n)
{
	struct tproc *p = tr_proc_get(t, pid);
	size_t i;

	if (!p)
		return;
	for (i = 0; i < n && i < 16 && s[i]; i++)
		p->comm[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	p->comm[i] = 0;
}

/* ---- requests awaiting their completion ---- */

int tr_dep_init(struct trace *t)
{
	int i;

	pidmap_init(&t->pids);
	t->out = malloc(TR_OUT_SLOTS * sizeof(*t->out));
	t->bucket = malloc(TR_OUT_SLOTS * sizeof(*t->bucket));
	if (!t->out || !t->bucket)
		return -1;
	for (i = 0; i < TR_OUT_SLOTS; i++) {
		t->bucket[i] = -1;
		t->out[i].next = i + 1 < TR_OUT_SLOTS ? i + 1 : -1;
	}
	t->free_out = 0;
	return 0;
}

/* Remove the request starting at @sector; its pid in @pid, its size in @nr. */
static bool out_take(struct trace *t, uint64_t sector, uint32_t *pid, uint32_t *nr)
{
	uint32_t b = antic_mix64(sector) & (TR_OUT_SLOTS - 1);
	int *pp = &t->bucket[b], i;

	for (i = *pp; i >= 0; pp = &t->out[i].next, i = *pp) {
		if (t->out[i].sector == sector) {
			*pid = t->out[i].pid;
			*nr = t->out[i].nr;
			*pp = t->out[i].next;
			t->out[i].next = t->free_out;
			t->free_out = i;
			return true;
		}
	}
	return false;
}

void tr_dep_free(struct trace *t)
{
	pidmap_free(&t->pids);
	free(t->procs);
	free(t->out);
	free(t->bucket);
}

/* ---- the common path of every format ---- */

bool tr_dev_keep(struct trace *t, const char *dev, char *err, size_t errlen, int *rc)
{
	*rc = 0;
	if (t->o.device) {
		unsigned i;

		if (!strcmp(dev, t->o.device))
			return true;
		/* another device: remembered, to name it if --device keeps nothing */
		for (i = 0; i < t->nseen_dev && strcmp(t->seen_dev[i], dev); i++)
			;
		if (i == t->nseen_dev && i < 8)
			snprintf(t->seen_dev[t->nseen_dev++], sizeof(t->seen_dev[0]), "%s", dev);
		return false;
	}
	if (!t->have_dev) {
		snprintf(t->dev, sizeof(t->dev), "%s", dev);
		t->have_dev = true;
		return true;
	}
	if (strcmp(dev, t->dev)) {
		*rc = tr_fail(t, err, errlen, "device",
			      "the trace has more than one device (%s and %s); choose one with --device",
			      t->dev, dev);
		return false;
	}
	return true;
}

bool tr_dev_passes(const struct trace *t, const char *dev)
{
	if (t->o.device)
		return !strcmp(dev, t->o.device);
	return !t->have_dev || !strcmp(dev, t->dev);
}

/*
 * A completion at raw time @time of @nr sectors from @sector: it ends the
 * request starting there and any merged into it behind.
 */
void tr_complete(struct trace *t, uint64_t time, uint64_t sector, uint64_t nr)
{
	uint64_t pos = sector;
	uint32_t pid, n;

	while (pos < sector + nr && out_take(t, pos, &pid, &n)) {
		struct tproc *p = tr_proc_get(t, pid);

		if (p) {
			if (p->outstanding)
				p->outstanding--;
			p->done = time;
		}
		t->st.completions++;
		pos += n ? n : 1;
	}
}

/* tr_emit_io, out of line for the text formats (a line costs more than a call) */
int tr_emit(struct trace *t, uint64_t raw, const char *dev, uint64_t sector,
	    uint64_t nr, bool write, bool sync, uint32_t pid, bool done_known,
	    uint64_t done, char *err, size_t errlen)
{
	return tr_emit_io(t, raw, dev, sector, nr, write, sync, pid, done_known,
			  done, err, errlen);
}

/*
 * For formats that give each I/O's completion time (MSR): at raw time
 * @raw the process is no longer outstanding if its latest completion has
 * passed.
 */
void tr_settle(struct trace *t, uint32_t pid, uint64_t raw)
{
	struct tproc *p = tr_proc_get(t, pid);

	if (p && p->outstanding && p->done <= raw)
		p->outstanding = 0;
}

/*
 * The S suite's replayer (replay-startup-io.cc) runs each process's
 * requests in order: it sleeps the recorded gap, then a readahead goes
 * out without waiting, while any other read first waits for the
 * process's readaheads in flight and then blocks until it is done. So
 * after a blocking request the gap is a think time counted from its
 * completion; after a readahead it counts from that one's issue, and a
 * blocking request also waits for everything outstanding (TD_UNKNOWN's
 * rule in replay.c). The gap is this process's own: the time since its
 * previous record, which is the trace's delta when processes do not
 * interleave.
 */
void tr_chain(struct trace *t, uint32_t pid, uint64_t raw, bool async)
{
	struct trace_rec *r = t->out_rec;
	struct tproc *p = tr_proc_get(t, pid);

	if (!p)
		return;
	if (r->dep != TD_FIRST) {
		uint64_t gap = raw > p->last_raw ? raw - p->last_raw : 0;

		if (!p->last_async) {
			r->dep = TD_AFTER_DONE;
			r->think = gap;
		} else {
			r->dep = async ? TD_OVERLAP : TD_UNKNOWN;
		}
	}
	p->last_raw = raw;
	p->last_async = async;
}
