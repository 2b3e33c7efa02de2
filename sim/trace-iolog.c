/*
 * trace-iolog.c - fio's I/O logs (read_iolog=), versions 2 and 3: a
 * header line "fio version N iolog", then "[TIMESTAMP_US] FILENAME
 * ACTION [OFFSET LENGTH]" a line. Version 3 stamps every line; version 2
 * has none and spaces I/O with "wait" actions instead. The file name is
 * the device; add, open, close, sync, datasync and trim make no record.
 */
#define _POSIX_C_SOURCE 200809L
#include "trace-int.h"
#include <string.h>

int tr_iolog_line(struct trace *t, char *err, size_t errlen)
{
	char *tok[6], *save = NULL, *s;
	int n = 0, i = 0;
	uint64_t ts = 0, off, len;
	bool v3 = t->fmt == TF_IOLOG3;
	const char *file, *act;

	for (s = strtok_r(t->line, " \t", &save); s && n < 6; s = strtok_r(NULL, " \t", &save))
		tok[n++] = s;
	if (t->lineno == 1) {
		if (strcmp(t->line, "fio") || n != 4 || strcmp(tok[3], "iolog") ||
		    strcmp(tok[2], v3 ? "3" : "2"))
			return tr_fail(t, err, errlen, "header", "want 'fio version %d iolog'", v3 ? 3 : 2);
		return 0;
	}
	if (v3) {
		if (!n || tr_u64(tok[0], &ts) || ts > UINT64_MAX / 1000)
			return tr_fail(t, err, errlen, "timestamp", "want microseconds first");
		i = 1;
	}
	if (n - i != 2 && n - i != 4)
		return tr_fail(t, err, errlen, "action", "want FILENAME ACTION [OFFSET LENGTH]");
	file = tok[i];
	act = tok[i + 1];
	if (n - i == 2) {
		if (strcmp(act, "add") && strcmp(act, "open") && strcmp(act, "close"))
			return tr_fail(t, err, errlen, "action", "'%s' takes no offset", act);
		return 0;
	}
	if (tr_u64(tok[i + 2], &off))
		return tr_fail(t, err, errlen, "offset", "'%s' is not a byte offset", tok[i + 2]);
	if (tr_u64(tok[i + 3], &len) || len > UINT32_MAX)
		return tr_fail(t, err, errlen, "length", "'%s' is not a length in bytes", tok[i + 3]);
	if (!strcmp(act, "wait")) {
		if (v3)
			return tr_fail(t, err, errlen, "action", "version 3 has no 'wait'");
		if (off > UINT64_MAX / 1000 - t->v2_time / 1000)
			return tr_fail(t, err, errlen, "offset", "wait too long");
		t->v2_time += off * 1000;	/* microseconds, relative to the last */
		return 0;
	}
	if (!strcmp(act, "sync") || !strcmp(act, "datasync") || !strcmp(act, "trim")) {
		t->st.ignored++;
		return 0;
	}
	if (strcmp(act, "read") && strcmp(act, "write"))
		return tr_fail(t, err, errlen, "action", "unknown action '%s'", act);
	if (strlen(file) >= 80)
		return tr_fail(t, err, errlen, "filename", "longer than 79 bytes");
	return tr_emit(t, v3 ? ts * 1000 : t->v2_time, file, off / 512, (off % 512 + len + 511) / 512,
		       act[0] == 'w', false, 0, false, 0, err, errlen);
}

