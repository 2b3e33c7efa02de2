/*
 * trace-blkparse.c - blkparse's default text output, one event a line:
 * "MAJ,MIN CPU SEQ SECONDS.NANOSECONDS PID ACTION RWBS SECTOR + COUNT
 * [PROCESS]", e.g. "8,0 1 5 0.000123 42 Q R 2048 + 8 [cat]", followed by
 * a summary. Q (queued) events are the application's I/O, C (complete)
 * events end them; the bracketed name names the process.
 */
#include "trace-int.h"
#include <stdio.h>
#include <string.h>

int tr_blkparse_line(struct trace *t, char *err, size_t errlen)
{
	unsigned maj, min, cpu, pid;
	unsigned long long seq;
	char tm[40], act[8], rwbs[12], dev[32];
	int pos = 0;
	unsigned long long sector, nr;
	const char *rest;
	uint64_t ns;
	bool write, sync;

	if (!strncmp(t->line, "CPU", 3) || !strncmp(t->line, "Total", 5) ||
	    !strncmp(t->line, "Throughput", 10) || !strncmp(t->line, "Events", 6)) {
		t->ended = true;	/* blkparse's summary follows the events */
		return 0;
	}
	if (sscanf(t->line, " %u,%u %u %llu %39s %u %7s %11s %n", &maj, &min, &cpu,
		   &seq, tm, &pid, act, rwbs, &pos) < 8 || !pos) {
		/* an event without rwbs (a plug or message line) has no I/O */
		if (sscanf(t->line, " %u,%u %u %llu %39s %u %7s", &maj, &min, &cpu,
			   &seq, tm, &pid, act) == 7)
			return 0;
		return tr_fail(t, err, errlen, "event", "not 'MAJ,MIN CPU SEQ TIME PID ACTION RWBS ...'");
	}
	if (tr_dec_ns(tm, &ns))
		return tr_fail(t, err, errlen, "time", "'%s' is not SECONDS.NANOSECONDS", tm);
	if (strcmp(act, "Q") && strcmp(act, "C"))
		return 0;
	rest = t->line + pos;
	if (sscanf(rest, "%llu + %llu", &sector, &nr) != 2) {
		/* the end of a flush sequence completes with no count */
		if (!strcmp(act, "C") && sscanf(rest, "%llu [", &sector) == 1)
			return 0;
		if (strchr(rwbs, 'N') || strchr(rwbs, 'F')) {
			if (!strcmp(act, "Q"))
				t->st.ignored++;	/* a flush or passthrough: no sectors */
			return 0;
		}
		return tr_fail(t, err, errlen, "sector", "want 'SECTOR + COUNT', got '%.40s'", rest);
	}
	snprintf(dev, sizeof(dev), "%u,%u", maj, min);
	if (!strcmp(act, "C")) {
		if (tr_dev_passes(t, dev))
			tr_complete(t, ns, sector, nr);
		return 0;
	}
	t->st.has_completions = true;	/* blkparse prints C events by default */
	t->st.has_pids = true;
	if (strchr(rwbs, 'D') || strchr(rwbs, 'N')) {
		t->st.ignored++;
		return 0;
	}
	write = strchr(rwbs, 'W') != NULL;
	sync = strchr(rwbs, 'S') != NULL;
	{
		const char *lb = strchr(rest, '['), *rb = lb ? strchr(lb, ']') : NULL;

		if (lb && rb)
			tr_set_comm(t, pid, lb + 1, (size_t)(rb - lb - 1));
	}
	return tr_emit(t, ns, dev, sector, nr, write, sync, pid, false, 0, err, errlen);
}

