/*
 * trace-startup.c - the start-up I/O traces of the S benchmark suite (the
 * .trace files of its comm_startup_lat/), the read chains of an
 * application's start, as its replayer replay-startup-io.cc reads them:
 * ten white-space separated columns, "NAME-PID DELTA SIZE SECTOR
 * Seq|Rand SEEK OFFSET ACTION TIMESTAMP START|C". DELTA is seconds since
 * the previous line (".015820" too: no leading zero), SIZE and SECTOR are
 * 512-byte sectors, SEEK is the signed distance from the previous
 * request, OFFSET the position within a sequential run, ACTION
 * blkparse's RWBS (R, RA readahead, RM metadata, WS...), TIMESTAMP
 * seconds, and START marks a process's first request. Times are the
 * running sum of DELTA, as the replayer sleeps them; the columns the
 * replayer ignores are checked and dropped. Each process is a dependency
 * chain (tr_chain in trace-dep.c).
 */
#include "trace-int.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* a signed decimal integer: SEEK */
static bool signed_int(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return false;
	return strspn(s, "0123456789") == strlen(s);
}

int tr_startup_line(struct trace *t, char *err, size_t errlen)
{
	char *f[11], *save = NULL, *s, *dash;
	uint64_t delta, size, sector, pid, off, ts;
	bool write = false, read = false, sync = false, ra = false;
	int n = 0;

	for (s = strtok_r(t->line, " \t", &save); s; s = strtok_r(NULL, " \t", &save)) {
		if (n == 10)
			return tr_fail(t, err, errlen, "record", "more than 10 fields");
		f[n++] = s;
	}
	if (n != 10)
		return tr_fail(t, err, errlen, "record",
			       "want NAME-PID DELTA SIZE SECTOR Seq|Rand SEEK OFFSET ACTION "
			       "TIMESTAMP START|C, got %d fields", n);
	dash = strrchr(f[0], '-');
	if (!dash || dash == f[0] || tr_u64(dash + 1, &pid) || pid > UINT32_MAX)
		return tr_fail(t, err, errlen, "process", "'%s' is not NAME-PID", f[0]);
	if (tr_dec_units(f[1], 1000000000ULL, &delta))
		return tr_fail(t, err, errlen, "delta", "'%s' is not seconds", f[1]);
	if (tr_u64(f[2], &size) || size > UINT32_MAX)
		return tr_fail(t, err, errlen, "size", "'%s' is not a count of sectors", f[2]);
	if (tr_u64(f[3], &sector))
		return tr_fail(t, err, errlen, "sector", "'%s' is not a sector", f[3]);
	if (strcmp(f[4], "Seq") && strcmp(f[4], "Rand"))
		return tr_fail(t, err, errlen, "pattern", "want Seq or Rand, got '%s'", f[4]);
	if (!signed_int(f[5]))
		return tr_fail(t, err, errlen, "seek", "'%s' is not a distance in sectors", f[5]);
	if (tr_u64(f[6], &off))
		return tr_fail(t, err, errlen, "offset", "'%s' is not a count of sectors", f[6]);
	for (s = f[7]; *s; s++) {
		switch (*s) {
		case 'R': read = true; break;
		case 'W': write = true; break;
		case 'S': sync = true; break;
		case 'A': ra = true; break;
		case 'M': case 'F': case 'D': case 'N': case 'E': break;
		default:
			return tr_fail(t, err, errlen, "action", "'%s' is not blkparse's RWBS", f[7]);
		}
	}
	if (read && write)
		return tr_fail(t, err, errlen, "action", "'%s' both reads and writes", f[7]);
	if (tr_dec_units(f[8], 1000000000ULL, &ts))
		return tr_fail(t, err, errlen, "timestamp", "'%s' is not seconds", f[8]);
	if (strcmp(f[9], "START") && strcmp(f[9], "C"))
		return tr_fail(t, err, errlen, "mark", "want START or C, got '%s'", f[9]);
	if (delta > UINT64_MAX / 2 - t->v2_time)
		return tr_fail(t, err, errlen, "delta", "the trace is longer than 292 years");
	t->v2_time += delta;
	tr_set_comm(t, (uint32_t)pid, f[0], (size_t)(dash - f[0]));
	if (!read && !write) {
		t->st.ignored++;	/* a flush or discard: no data */
		return 0;
	}
	n = tr_emit(t, t->v2_time, NULL, sector, size, write, sync, (uint32_t)pid, false, 0,
		    err, errlen);
	if (n > 0)
		tr_chain(t, (uint32_t)pid, t->v2_time, ra || (write && !sync));
	return n;
}
