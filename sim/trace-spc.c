/*
 * trace-spc.c - the Storage Performance Council trace format, in which
 * the UMass repository's Financial and WebSearch traces come: CSV of
 * ASU,LBA,Size,Opcode,Timestamp[,...], where the ASU (application
 * storage unit) is the device, LBA counts 512-byte sectors, Size bytes,
 * Opcode is r or w and Timestamp is seconds. No processes, no
 * completions.
 */
#include "trace-int.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int tr_spc_line(struct trace *t, char *err, size_t errlen)
{
	char *f[8], dev[32];
	uint64_t asu, lba, size, ns;
	int n = tr_split(t->line, ',', f, 7);
	char *op;

	if (n < 5)
		return tr_fail(t, err, errlen, "record", "want ASU,LBA,Size,Opcode,Timestamp, got %d fields", n);
	if (tr_u64(f[0], &asu))
		return tr_fail(t, err, errlen, "ASU", "'%s' is not a number", f[0]);
	if (tr_u64(f[1], &lba))
		return tr_fail(t, err, errlen, "LBA", "'%s' is not a number", f[1]);
	if (tr_u64(f[2], &size) || size > UINT32_MAX)
		return tr_fail(t, err, errlen, "Size", "'%s' is not a size in bytes", f[2]);
	for (op = f[3]; *op == ' '; op++)
		;
	if (!strchr("rRwW", *op) || !*op || (op[1] && op[1] != ' ' && op[1] != '\r'))
		return tr_fail(t, err, errlen, "Opcode", "want r or w, got '%s'", f[3]);
	if (tr_dec_ns(f[4], &ns))
		return tr_fail(t, err, errlen, "Timestamp", "'%s' is not seconds", f[4]);
	snprintf(dev, sizeof(dev), "%" PRIu64, asu);
	return tr_emit(t, ns, dev, lba, (size + 511) / 512, *op == 'w' || *op == 'W', false,
		       0, false, 0, err, errlen);
}

