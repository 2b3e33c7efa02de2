/*
 * fuzz_cmdline.c - libFuzzer target: antic-sim's whole command line. The
 * input is its arguments, one per line; the first byte picks the command
 * (a job run, replay or convert) and the last argument is always a small
 * job file or trace written here. Every option value must be refused
 * with an exit code of 1 or 2, or run (0, or 3 when stopped at
 * max_time): never a crash, undefined behaviour or a leak. --output is
 * dropped, so nothing is written but the target's own two files.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define main antic_sim_main
#include "../../sim/main.c"
#undef main

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define MAX_ARGS 24

static char job[64], trace[64];

static const char job_text[] =
	"[antic-sim]\nmem=64m\n"
	"[r]\nrw=randread\nbs=4k\nsize=256k\nthinktime=1ms\n"
	"[w]\nrw=write\nbs=64k\nsize=512k\n";
static const char trace_text[] =
	"  8,0 0 1 0.000000000 100 Q R 2048 + 8 [cat]\n"
	"  8,0 0 2 0.000400000 100 C R 2048 + 8 [0]\n"
	"  8,0 0 3 0.000900000 100 Q R 2056 + 8 [cat]\n"
	"  8,0 0 4 0.001000000 200 Q WS 4096 + 16 [dd]\n"
	"  8,0 0 5 0.002000000 100 C R 2056 + 8 [0]\n";

static void write_once(char *path, const char *what, const char *text)
{
	FILE *f;

	snprintf(path, 64, "/tmp/antic-fuzz-cmdline-%ld.%s", (long)getpid(), what);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const char *const cmds[] = { NULL, "replay", "convert" };
	char buf[4096], *argv[MAX_ARGS + 4], *line, *save = NULL;
	int argc = 0, rc, cmd;

	if (!size || size >= sizeof(buf))
		return 0;
	if (!job[0]) {
		write_once(job, "fio", job_text);
		write_once(trace, "blkparse", trace_text);
		/* reports go nowhere; errors still reach stderr */
		if (!freopen("/dev/null", "w", stdout))
			abort();
	}
	cmd = data[0] % 3;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = 0;
	argv[argc++] = "antic-sim";
	if (cmds[cmd])
		argv[argc++] = (char *)cmds[cmd];
	for (line = strtok_r(buf, "\n", &save); line && argc < MAX_ARGS;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "--output") || !strncmp(line, "--output=", 9))
			continue;	/* would write files anywhere */
		argv[argc++] = line;
	}
	argv[argc++] = cmd ? trace : job;
	argv[argc] = NULL;
	rc = antic_sim_main(argc, argv);
	if (rc < 0 || rc > 3)
		abort();
	return 0;
}
