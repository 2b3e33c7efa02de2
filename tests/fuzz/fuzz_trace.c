/*
 * fuzz_trace.c - libFuzzer target: any bytes as a trace, the first byte
 * choosing the format (or detection). Reading must end in records, the
 * end, or an error that names the file; what reads must convert to fio
 * iolog v3 and replay (closed and open loop) without tripping the audit.
 */
#define _POSIX_C_SOURCE 200809L
#include "../../sim/engine.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char path[64];

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct trace_opts o = { 0 };
	struct trace *t;
	struct trace_rec r;
	char err[512];
	FILE *f;
	int rc, k;

	if (!size || size > 16384)
		return 0;
	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/antic-fuzz-trace-%ld", (long)getpid());
	f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data + 1, 1, size - 1, f);
	fclose(f);
	o.fmt = (enum trace_fmt)(data[0] % TF_NR);
	o.skip_bad = data[0] & 0x80;
	t = trace_open(path, &o, err, sizeof(err));
	if (!t) {
		if (strncmp(err, path, strlen(path)))
			abort();	/* every error names the file */
		return 0;
	}
	while ((rc = trace_next(t, &r, err, sizeof(err))) > 0)
		if (!r.nr)
			abort();
	if (rc < 0 && strncmp(err, path, strlen(path)))
		abort();
	trace_close(t);
	if (rc < 0)
		return 0;
	t = trace_open(path, &o, err, sizeof(err));
	f = fopen("/dev/null", "w");
	if (!t || !f || trace_write_iolog3(t, f, "/dev/x", err, sizeof(err)) < 0)
		abort();	/* it read once: it must read again */
	fclose(f);
	trace_close(t);
	for (k = 0; k < 2; k++) {
		struct workload w;
		struct replay_spec rs = { .path = path, .topts = o, .closed = k, .time_scale = 1.0 };
		struct sim_options so = { .drain = true, .replay = &rs };
		struct sim_result res;

		memset(&w, 0, sizeof(w));
		sim_default_settings(&w.set);
		w.set.max_time = 100000000000ULL;	/* 100 s of virtual time */
		if (sim_run(&w, POL_AS, &so, &res, err, sizeof(err)) == 0) {
			if (res.violations && !res.timed_out)
				abort();
			sim_result_free(&res);
		}
	}
	return 0;
}
