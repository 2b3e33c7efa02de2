/*
 * fuzz_jobfile.c - libFuzzer target: any bytes as a job file. The parser
 * must return 0 or -1 with a message naming the file and line, never
 * crash, leak or read out of bounds; a parsed workload must also run a
 * short simulation without tripping the audit.
 */
#include "../../sim/engine.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct workload w;
	char err[512], *text;

	if (size > 8192)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	if (jobfile_parse("fuzz.fio", text, &w, err, sizeof(err)) == 0) {
		struct sim_options o = { 0 };
		struct sim_result r;
		size_t i;

		/* page-state arrays follow file sizes: keep the fuzzer's memory small */
		for (i = 0; i < w.nr_jobs; i++) {
			const struct job_spec *j = &w.jobs[i];

			if (j->size > (256ULL << 20) || j->filesize_hi > (64ULL << 20) ||
			    (uint64_t)j->nrfiles * j->numjobs > 2000 || j->numjobs > 64 ||
			    j->iodepth > 256 || !strncmp(j->filename, "/dev/", 5))
				goto out;
		}
		if (w.set.mem_bytes > (1ULL << 30) || w.set.disk.capacity > (1ULL << 31))
			goto out;

		/* keep each run short: a second of virtual time */
		w.set.max_time = 1000000000ULL;
		if (sim_run(&w, POL_AS, &o, &r, err, sizeof(err)) == 0) {
			if (r.violations)
				abort();
			sim_result_free(&r);
		}
out:
		workload_free(&w);
	} else if (strncmp(err, "fuzz.fio", 8)) {
		abort();	/* every parse error names the file */
	}
	free(text);
	return 0;
}
