/*
 * replay-startup.c - replays a recorded start-up (a bench/startup/NAME.blkparse,
 * or any trace antic-sim replay reads) on a real block device or file with
 * O_DIRECT, each process a dependency chain under the closed-loop rule of
 * sim/replay-rule.h, the processes concurrently; prints the start-up time
 * (first issue to last completion) and the requests' latencies. It reads
 * the trace with antic-sim's own reader, so both replay the same records
 * under the same rule. Each process is a thread of its own with its own
 * Linux native AIO context: a process may keep several requests in flight
 * (a readahead goes out beside the read), and a submission that blocks
 * (the queue's tags all taken by a background load) holds up only its own
 * process, as it would the program recorded.
 * Usage: replay-startup [--time-scale X] [--offset SIZE] [--writes] [--log FILE]
 *        TARGET TRACE
 */
#include "../sim/trace.h"
#include "../sim/replay-rule.h"
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/aio_abi.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* a record, with the wait replay_wait gave it as it was read */
struct rec {
	uint64_t at, wait, sector, line;
	uint32_t nr;
	bool write, sync;
	uint8_t dep;
};

struct proc {
	uint32_t pid;
	struct rec *recs;
	size_t n, cap, next;	/* next: the first not yet issued */
	struct replay_chain c;
	/* per record: issue and completion, ns from the common start */
	uint64_t *issue, *done;
	pthread_t th;
};

/* a request in flight: its record and issue time */
struct live {
	struct iocb cb;
	size_t rec;
	bool used;
};

static struct proc *procs;
static size_t nprocs;
static int fd;
static void *buf;
static const char *path;
static uint64_t t0;
/* every thread's AIO context is set up before the clock starts */
static pthread_barrier_t ready;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("replay-startup: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static struct proc *proc_of(uint32_t pid)
{
	size_t i;

	for (i = 0; i < nprocs; i++)
		if (procs[i].pid == pid)
			return &procs[i];
	procs = realloc(procs, (nprocs + 1) * sizeof(*procs));
	if (!procs)
		die("out of memory");
	memset(&procs[nprocs], 0, sizeof(*procs));
	procs[nprocs].pid = pid;
	return &procs[nprocs++];
}

static uint64_t target_size(int fd, const char *path)
{
	struct stat st;
	uint64_t sz;

	if (fstat(fd, &st))
		die("%s: %s", path, strerror(errno));
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &sz))
			die("%s: size: %s", path, strerror(errno));
		return sz;
	}
	return (uint64_t)st.st_size;
}

/* One process's chain, from the common start t0 to its last completion. */
static void *run_proc(void *arg)
{
	struct proc *p = arg;
	/* in flight at once per process: a start-up keeps a few; aio-max-nr bounds the sum */
	size_t maxlive = p->n < 64 ? p->n : 64, completed = 0;
	struct live *live = calloc(maxlive, sizeof(*live));
	aio_context_t ctx = 0;

	if (!live)
		die("out of memory");
	if (syscall(SYS_io_setup, (unsigned)maxlive, &ctx))
		die("io_setup: %s", strerror(errno));
	pthread_barrier_wait(&ready);
	while (completed < p->n) {
		uint64_t now = now_ns() - t0, wake = UINT64_MAX;
		struct io_event ev[64];
		struct timespec ts;
		long k, n;

		/* issue what the rule lets out now; note when the next one may go */
		while (p->next < p->n) {
			struct rec *x = &p->recs[p->next];
			struct iocb *cbp;
			struct live *l = NULL;
			uint64_t at;
			size_t j;

			if (!replay_when(&p->c, x->at, x->wait, x->sync, x->dep, &at))
				break;
			if (at > now) {
				wake = at;
				break;
			}
			for (j = 0; j < maxlive && !l; j++)
				if (!live[j].used)
					l = &live[j];
			if (!l)
				break;	/* every slot in flight: after the next completion */
			memset(&l->cb, 0, sizeof(l->cb));
			l->cb.aio_data = (uint64_t)(l - live);
			l->cb.aio_lio_opcode = x->write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
			l->cb.aio_fildes = (uint32_t)fd;
			l->cb.aio_buf = (uint64_t)(uintptr_t)buf;
			l->cb.aio_nbytes = (uint64_t)x->nr * 512;
			l->cb.aio_offset = (int64_t)(x->sector * 512);
			l->rec = p->next;
			l->used = true;
			cbp = &l->cb;
			now = now_ns() - t0;
			p->issue[p->next] = now;
			p->c.any = true;
			p->c.outstanding++;
			p->c.last_issue = now;
			p->next++;
			if (syscall(SYS_io_submit, ctx, 1L, &cbp) != 1)
				die("%s:%" PRIu64 ": io_submit: %s", path, x->line, strerror(errno));
		}
		/* a completion, or the time the next request may go */
		if (wake != UINT64_MAX) {
			uint64_t d;

			now = now_ns() - t0;
			d = wake > now ? wake - now : 0;
			ts.tv_sec = (time_t)(d / 1000000000ULL);
			ts.tv_nsec = (long)(d % 1000000000ULL);
		}
		n = syscall(SYS_io_getevents, ctx, 1L, 64L, ev, wake == UINT64_MAX ? NULL : &ts);
		if (n < 0 && errno != EINTR)
			die("io_getevents: %s", strerror(errno));
		now = now_ns() - t0;
		for (k = 0; k < n; k++) {
			struct live *l = &live[ev[k].data];
			struct rec *x = &p->recs[l->rec];

			if (ev[k].res != (int64_t)l->cb.aio_nbytes)
				die("%s:%" PRIu64 ": %s of %llu bytes at %" PRIu64 " gave %lld%s%s",
				    path, x->line, x->write ? "write" : "read",
				    (unsigned long long)l->cb.aio_nbytes, x->sector * 512,
				    (long long)ev[k].res, ev[k].res < 0 ? ": " : "",
				    ev[k].res < 0 ? strerror((int)-ev[k].res) : "");
			p->c.outstanding--;
			p->c.last_done = now;
			p->done[l->rec] = now;
			l->used = false;
			completed++;
		}
	}
	syscall(SYS_io_destroy, ctx);
	free(live);
	return NULL;
}


/* a size in bytes, with a k, m, g or t suffix (powers of two): --offset */
static int parse_bytes(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (*end || v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct trace_opts to = { .fmt = TF_AUTO };
	double scale = 1.0;
	bool writes = false;
	const char *target, *logpath = NULL;
	char err[512];
	struct trace *t;
	struct trace_rec r;
	uint64_t size, maxbytes = 0, bytes = 0, first = UINT64_MAX, last = 0, sum = 0, *lat;
	size_t total = 0, i, j, nlat = 0;
	FILE *logf = NULL;
	int rc, argi = 1;

	for (; argi < argc && !strncmp(argv[argi], "--", 2); argi++) {
		char *end;

		if (!strcmp(argv[argi], "--writes")) {
			writes = true;
		} else if (!strcmp(argv[argi], "--time-scale") && argi + 1 < argc) {
			scale = strtod(argv[++argi], &end);
			if (*end || !(scale > 0) || scale > 1e6)
				die("--time-scale: want a number above 0, at most 1e6, got '%s'", argv[argi]);
		} else if (!strcmp(argv[argi], "--offset") && argi + 1 < argc) {
			uint64_t b;

			/* the same placement antic-sim replay --offset gives */
			if (parse_bytes(argv[++argi], &b) || b % 512)
				die("--offset: want a size in whole sectors such as 30g, got '%s'", argv[argi]);
			to.offset = b / 512;
		} else if (!strcmp(argv[argi], "--log") && argi + 1 < argc) {
			logpath = argv[++argi];
		} else {
			die("unknown option '%s'\n"
			    "usage: replay-startup [--time-scale X] [--offset SIZE] [--writes] [--log FILE] TARGET TRACE",
			    argv[argi]);
		}
	}
	if (argc - argi != 2)
		die("usage: replay-startup [--time-scale X] [--offset SIZE] [--writes] [--log FILE] TARGET TRACE");
	target = argv[argi];
	path = argv[argi + 1];

	/* the whole trace first: a start-up is small, and replay must not wait on parsing */
	t = trace_open(path, &to, err, sizeof(err));
	if (!t)
		die("%s", err);
	fd = open(target, (writes ? O_RDWR : O_RDONLY) | O_DIRECT);
	if (fd < 0)
		die("%s: %s (O_DIRECT)", target, strerror(errno));
	size = target_size(fd, target);
	while ((rc = trace_next(t, &r, err, sizeof(err))) > 0) {
		struct proc *p = proc_of(r.pid);
		struct rec *x;
		uint64_t at = (uint64_t)((double)r.t * scale);

		if (r.write && !writes)
			die("%s:%" PRIu64 ": action: a write; --writes replays writes (they overwrite %s)",
			    path, r.line, target);
		if ((r.sector + r.nr) * 512 > size)
			die("%s:%" PRIu64 ": sector: %" PRIu64 " + %u is beyond %s's %" PRIu64 " sectors",
			    path, r.line, r.sector, r.nr, target, size / 512);
		if (p->n == p->cap) {
			p->cap = p->cap ? 2 * p->cap : 64;
			p->recs = realloc(p->recs, p->cap * sizeof(*p->recs));
			if (!p->recs)
				die("out of memory");
		}
		x = &p->recs[p->n++];
		*x = (struct rec){ .at = at, .sector = r.sector, .nr = r.nr, .write = r.write,
				   .sync = r.sync, .dep = r.dep, .line = r.line };
		x->wait = replay_wait(&p->c, r.dep, at, (uint64_t)((double)r.think * scale));
		bytes += (uint64_t)r.nr * 512;
		if ((uint64_t)r.nr * 512 > maxbytes)
			maxbytes = (uint64_t)r.nr * 512;
		total++;
	}
	if (rc < 0)
		die("%s", err);
	trace_close(t);
	if (!total)
		die("%s: no requests to replay", path);
	/* reads land in one buffer (their data is not looked at); writes write zeros */
	if (posix_memalign(&buf, 4096, maxbytes))
		die("out of memory");
	memset(buf, 0, maxbytes);
	lat = calloc(total, sizeof(*lat));
	if (!lat)
		die("out of memory");
	for (i = 0; i < nprocs; i++) {
		procs[i].issue = calloc(procs[i].n, sizeof(uint64_t));
		procs[i].done = calloc(procs[i].n, sizeof(uint64_t));
		if (!procs[i].issue || !procs[i].done)
			die("out of memory");
	}
	if (pthread_barrier_init(&ready, NULL, (unsigned)nprocs + 1))
		die("out of memory");
	for (i = 0; i < nprocs; i++)
		if (pthread_create(&procs[i].th, NULL, run_proc, &procs[i]))
			die("cannot start a thread");
	t0 = now_ns();
	pthread_barrier_wait(&ready);
	for (i = 0; i < nprocs; i++)
		pthread_join(procs[i].th, NULL);

	if (logpath) {
		logf = fopen(logpath, "w");
		if (!logf)
			die("%s: %s", logpath, strerror(errno));
		fprintf(logf, "# pid record issue_ns done_ns sector nr dep wait_ns\n");
	}
	for (i = 0; i < nprocs; i++) {
		struct proc *p = &procs[i];

		for (j = 0; j < p->n; j++) {
			if (p->issue[j] < first)
				first = p->issue[j];
			if (p->done[j] > last)
				last = p->done[j];
			lat[nlat++] = p->done[j] - p->issue[j];
			sum += p->done[j] - p->issue[j];
			if (logf)
				fprintf(logf, "%u %zu %" PRIu64 " %" PRIu64 " %" PRIu64 " %u %u %" PRIu64 "\n",
					p->pid, j, p->issue[j], p->done[j], p->recs[j].sector,
					p->recs[j].nr, p->recs[j].dep, p->recs[j].wait);
		}
	}
	if (logf && fclose(logf))
		die("%s: %s", logpath, strerror(errno));
	qsort(lat, nlat, sizeof(*lat), cmp_u64);
	/* one line, by key: the benchmark's report reads it */
	printf("STARTUP-REPLAY time_ms=%.3f requests=%zu processes=%zu bytes=%" PRIu64
	       " lat_mean_ms=%.3f lat_p50_ms=%.3f lat_p99_ms=%.3f lat_max_ms=%.3f\n",
	       (double)(last - first) / 1e6, total, nprocs, bytes,
	       (double)sum / (double)nlat / 1e6, (double)lat[nlat / 2] / 1e6,
	       (double)lat[nlat * 99 / 100] / 1e6, (double)lat[nlat - 1] / 1e6);
	for (i = 0; i < nprocs; i++) {
		free(procs[i].recs);
		free(procs[i].issue);
		free(procs[i].done);
	}
	free(procs);
	free(lat);
	free(buf);
	close(fd);
	return 0;
}
