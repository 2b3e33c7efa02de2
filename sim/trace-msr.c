/*
 * trace-msr.c - the MSR Cambridge block traces (SNIA IOTTA), CSV with
 * seven fields: Timestamp,Hostname,DiskNumber,Type,Offset,Size,
 * ResponseTime. Times are Windows filetime (100 ns units), offset and
 * size are bytes, Type is Read or Write. The response time gives each
 * I/O's completion, so dependencies are inferred without C events; there
 * are no processes (pid 0), and a device is "HOSTNAME_DISK".
 */
#define _POSIX_C_SOURCE 200809L
#include "trace-int.h"
#include <inttypes.h>
#include <stdio.h>
#include <strings.h>

int tr_msr_line(struct trace *t, char *err, size_t errlen)
{
	char *f[8], dev[80];
	uint64_t ts, disk, off, size, resp, raw;
	int n = tr_split(t->line, ',', f, 7);
	bool write;

	if (n != 7)
		return tr_fail(t, err, errlen, "record", "want 7 comma-separated fields, got %d", n > 7 ? 8 : n);
	if (t->lineno == 1 && !strcasecmp(f[0], "Timestamp"))
		return 0;	/* a header line */
	if (tr_u64(f[0], &ts))
		return tr_fail(t, err, errlen, "Timestamp", "'%s' is not a Windows filetime", f[0]);
	if (tr_u64(f[2], &disk))
		return tr_fail(t, err, errlen, "DiskNumber", "'%s' is not a number", f[2]);
	if (!strcasecmp(f[3], "Read"))
		write = false;
	else if (!strcasecmp(f[3], "Write"))
		write = true;
	else
		return tr_fail(t, err, errlen, "Type", "want Read or Write, got '%s'", f[3]);
	if (tr_u64(f[4], &off))
		return tr_fail(t, err, errlen, "Offset", "'%s' is not a byte offset", f[4]);
	if (tr_u64(f[5], &size) || size > UINT32_MAX)
		return tr_fail(t, err, errlen, "Size", "'%s' is not a size in bytes", f[5]);
	if (tr_u64(f[6], &resp))
		return tr_fail(t, err, errlen, "ResponseTime", "'%s' is not a number", f[6]);
	if (ts > UINT64_MAX / 100 || resp > UINT64_MAX / 100)
		return tr_fail(t, err, errlen, "Timestamp", "out of range");
	snprintf(dev, sizeof(dev), "%.60s_%" PRIu64, f[1], disk);
	raw = ts * 100;	/* filetime counts 100 ns */
	t->st.has_completions = true;
	tr_settle(t, 0, raw);
	return tr_emit(t, raw, dev, off / 512, (off % 512 + size + 511) / 512, write, false, 0,
		       true, raw + resp * 100, err, errlen);
}

