/*
 * trace-disksim.c - DiskSim's ASCII input trace, which MQSim and many
 * papers' traces also use: "ARRIVAL DEVNO BLKNO BCOUNT FLAGS" a line,
 * white-space separated. DiskSim's arrival is milliseconds (a float);
 * MQSim's variant (disksim-ns) is integer nanoseconds. Blocks are 512
 * bytes. FLAGS is hexadecimal, as DiskSim reads it: bit 0 set is a read
 * (MQSim writes 1 for read, 0 for write, the same thing), and a write is
 * synchronous when DiskSim's SYNC bit (0x80) is set. No processes (the
 * device is one) and no completions.
 */
#include "trace-int.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DS_READ 0x1u
#define DS_SYNC 0x80u

/* FLAGS: hexadecimal with or without 0x, as scanf's %x takes it */
static int hex_flags(const char *s, uint64_t *v)
{
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!isxdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 16);
	return errno || *end ? -1 : 0;
}

int tr_disksim_line(struct trace *t, char *err, size_t errlen)
{
	char *f[6], *save = NULL, *s, dev[24];
	uint64_t ns, devno, blkno, bcount, flags;
	bool ns_times = t->fmt == TF_DISKSIM_NS;
	int n = 0;

	for (s = strtok_r(t->line, " \t", &save); s; s = strtok_r(NULL, " \t", &save)) {
		if (n == 5)
			return tr_fail(t, err, errlen, "record",
				       "want ARRIVAL DEVNO BLKNO BCOUNT FLAGS, got more than 5 fields");
		f[n++] = s;
	}
	if (n != 5)
		return tr_fail(t, err, errlen, "record",
			       "want ARRIVAL DEVNO BLKNO BCOUNT FLAGS, got %d fields", n);
	if (ns_times ? tr_u64(f[0], &ns) : tr_dec_units(f[0], 1000000, &ns))
		return tr_fail(t, err, errlen, "arrival", "'%s' is not %s", f[0],
			       ns_times ? "whole nanoseconds" : "milliseconds");
	if (tr_u64(f[1], &devno) || devno > UINT32_MAX)
		return tr_fail(t, err, errlen, "devno", "'%s' is not a device number", f[1]);
	if (tr_u64(f[2], &blkno))
		return tr_fail(t, err, errlen, "blkno", "'%s' is not a block number", f[2]);
	if (tr_u64(f[3], &bcount) || bcount > UINT32_MAX)
		return tr_fail(t, err, errlen, "bcount", "'%s' is not a count of blocks", f[3]);
	if (hex_flags(f[4], &flags) || flags > UINT32_MAX)
		return tr_fail(t, err, errlen, "flags", "'%s' is not hexadecimal flags", f[4]);
	snprintf(dev, sizeof(dev), "%" PRIu64, devno);
	return tr_emit(t, ns, dev, blkno, bcount, !(flags & DS_READ), (flags & DS_SYNC) != 0,
		       0, false, 0, err, errlen);
}
