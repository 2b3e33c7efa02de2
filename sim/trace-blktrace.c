/*
 * trace-blktrace.c - blktrace's binary output: one file per CPU
 * (NAME.blktrace.N, or one file given by name), each a run of
 * struct blk_io_trace records (the kernel's uapi header) in the byte
 * order of the machine that wrote them, each followed by pdu_len bytes
 * of payload. The files are merged by time. Q events are the
 * application's I/O, C events end them, and notify records name the
 * processes. Read with read(2) through a buffer per file, because one
 * fread per 48-byte record was a tenth of a replay's time.
 */
#define _POSIX_C_SOURCE 200809L
#include "trace-int.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/blktrace_api.h>

#define MAX_CPU_FILES 1024
#define PDU_MAX 65536
#define CF_BUF 65536

/* One per-CPU file. */
struct cpufile {
	int fd;
	char *name;
	bool swap, has;
	uint64_t off;		/* of the current record */
	struct blk_io_trace cur;
	unsigned char *buf;
	size_t pos, len;	/* unread bytes: buf[pos, len) */
};

struct blktrace {
	struct cpufile *cpu;
	unsigned ncpu;
	unsigned char *pdu;
	uint32_t devnum;	/* the last device seen, and its name */
	bool have_devnum;
	bool devnum_kept;	/* it passed the device filter (once, not per record) */
	char devname[32];
};

static uint32_t sw32(uint32_t x) { return __builtin_bswap32(x); }
static uint64_t sw64(uint64_t x) { return __builtin_bswap64(x); }

static bool magic_ok(uint32_t m)
{
	return (m & 0xffffff00u) == BLK_IO_TRACE_MAGIC;
}

/*
 * Make at least @need bytes (at most CF_BUF) readable at c->buf + c->pos,
 * or as many as the file has left. Returns the bytes readable, -1 on a
 * read error (in @err).
 */
static ssize_t cf_fill(struct cpufile *c, size_t need, char *err, size_t errlen)
{
	if (c->len - c->pos >= need)
		return (ssize_t)(c->len - c->pos);
	memmove(c->buf, c->buf + c->pos, c->len - c->pos);
	c->len -= c->pos;
	c->pos = 0;
	while (c->len < need) {
		ssize_t n = read(c->fd, c->buf + c->len, CF_BUF - c->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: byte %" PRIu64 ": %s", c->name,
				 c->off, strerror(errno));
			return -1;
		}
		if (!n)
			break;
		c->len += (size_t)n;
	}
	return (ssize_t)c->len;
}

/* Read the next record of @c into c->cur; 1, 0 at its end, -1 on error. */
static int cpu_read(struct cpufile *c, char *err, size_t errlen)
{
	struct blk_io_trace *b = &c->cur;
	ssize_t n;

	/* offsets are counted, not asked for: ftell costs a system call */
	if (c->has)
		c->off += sizeof(*b) + c->cur.pdu_len;
	n = cf_fill(c, sizeof(*b), err, errlen);
	if (n < 0)
		return -1;
	if (!n) {
		c->has = false;
		return 0;
	}
	if ((size_t)n < sizeof(*b)) {
		snprintf(err, errlen, "%s: byte %" PRIu64 ": record: truncated (%zd of %zu bytes)",
			 c->name, c->off, n, sizeof(*b));
		return -1;
	}
	memcpy(b, c->buf + c->pos, sizeof(*b));
	c->pos += sizeof(*b);
	if (c->swap) {
		b->magic = sw32(b->magic); b->sequence = sw32(b->sequence);
		b->time = sw64(b->time); b->sector = sw64(b->sector);
		b->bytes = sw32(b->bytes); b->action = sw32(b->action);
		b->pid = sw32(b->pid); b->device = sw32(b->device);
		b->cpu = sw32(b->cpu);
		b->error = __builtin_bswap16(b->error);
		b->pdu_len = __builtin_bswap16(b->pdu_len);
	}
	if (!magic_ok(b->magic) || (b->magic & 0xff) != BLK_IO_TRACE_VERSION) {
		snprintf(err, errlen, "%s: byte %" PRIu64 ": magic: 0x%08x is not a version-%d blktrace record",
			 c->name, c->off, b->magic, BLK_IO_TRACE_VERSION);
		return -1;
	}
	c->has = true;
	return 1;
}

/* The pdu of the current record of @c: copied to @buf if @want, else skipped. */
static int cpu_pdu(struct cpufile *c, unsigned char *buf, bool want, char *err, size_t errlen)
{
	size_t left = c->cur.pdu_len;

	while (left) {
		ssize_t n = cf_fill(c, left < CF_BUF ? left : CF_BUF, err, errlen);
		size_t k;

		if (n < 0)
			return -1;
		if (!n) {
			snprintf(err, errlen, "%s: byte %" PRIu64 ": pdu: truncated (%u bytes expected)",
				 c->name, c->off, c->cur.pdu_len);
			return -1;
		}
		k = (size_t)n < left ? (size_t)n : left;
		if (want) {
			memcpy(buf, c->buf + c->pos, k);
			buf += k;
		}
		c->pos += k;
		left -= k;
	}
	return 0;
}

bool tr_blktrace_magic(uint32_t m)
{
	return magic_ok(m) || magic_ok(sw32(m));
}

/*
 * One record, the earliest of all the files': 1 when it made a record
 * (in *t->out_rec), 0 when it made none, -1 with @err.
 */
static int step(struct trace *t, char *err, size_t errlen)
{
	struct blktrace *bt = t->bt;
	struct cpufile *c = NULL;
	struct blk_io_trace *b;
	unsigned i, act, cat;
	const char *dev;
	int rc;

	if (bt->ncpu == 1) {	/* one file, nothing to merge: no comparison per record */
		if (bt->cpu[0].has)
			c = &bt->cpu[0];
	} else {
		for (i = 0; i < bt->ncpu; i++)
			if (bt->cpu[i].has && (!c || bt->cpu[i].cur.time < c->cur.time))
				c = &bt->cpu[i];
	}
	if (!c) {
		t->ended = true;
		return 0;
	}
	b = &c->cur;
	act = b->action & 0xff;
	cat = b->action >> BLK_TC_SHIFT;
	t->rec_off = c->off;
	/* formatting the device name per record cost a fifth of the time */
	if (!bt->have_devnum || b->device != bt->devnum) {
		snprintf(bt->devname, sizeof(bt->devname), "%u,%u", b->device >> 20, b->device & 0xfffff);
		bt->devnum = b->device;
		bt->have_devnum = true;
		bt->devnum_kept = false;
	}
	dev = bt->devname;
	rc = 0;
	if (cat & BLK_TC_NOTIFY) {
		bool cg = (b->action & __BLK_TN_CGROUP) != 0;

		if (cpu_pdu(c, bt->pdu, act == __BLK_TN_PROCESS, err, errlen))
			return -1;
		if (act == __BLK_TN_PROCESS && b->pdu_len > (cg ? 8 : 0))
			tr_set_comm(t, b->pid, (const char *)bt->pdu + (cg ? 8 : 0),
				    b->pdu_len - (cg ? 8u : 0u));
	} else {
		if (b->pdu_len && cpu_pdu(c, bt->pdu, false, err, errlen))
			return -1;
		if (act == __BLK_TA_COMPLETE && !(cat & BLK_TC_PC)) {
			if (bt->devnum_kept || tr_dev_passes(t, dev))
				tr_complete(t, b->time, b->sector, b->bytes / 512);
		} else if (act == __BLK_TA_QUEUE) {
			if (cat & (BLK_TC_PC | BLK_TC_DISCARD) || !b->bytes) {
				t->st.ignored++;
			} else if (!bt->devnum_kept && !tr_dev_keep(t, dev, err, errlen, &rc)) {
				if (!rc)
					t->st.ignored++;
			} else {
				/* a device that passed stays passed: no strcmp per record */
				bt->devnum_kept = true;
				rc = tr_emit_io(t, b->time, NULL, b->sector, (b->bytes + 511) / 512,
						(cat & BLK_TC_WRITE) != 0, (cat & BLK_TC_SYNC) != 0,
						b->pid, false, 0, err, errlen);
			}
		}
	}
	if (rc < 0)
		return rc;
	if (cpu_read(c, err, errlen) < 0)
		return -1;
	return rc;
}

/* Inside this file, so that step() is inlined: it was a tenth of reading's time. */
int tr_blktrace_next(struct trace *t, char *err, size_t errlen)
{
	int rc = 0;

	while (!t->ended && !(rc = step(t, err, errlen)))
		;
	if (rc > 0)
		t->out_rec->line = t->rec_off;
	return rc;
}

int tr_blktrace_open(struct trace *t, char *err, size_t errlen)
{
	struct blktrace *bt = t->bt = calloc(1, sizeof(*bt));
	char name[4200];
	unsigned i;

	if (!bt)
		return -1;
	bt->pdu = malloc(PDU_MAX);
	bt->cpu = calloc(MAX_CPU_FILES, sizeof(*bt->cpu));
	if (!bt->pdu || !bt->cpu)
		return -1;
	/*
	 * NAME.blktrace.N given (what tab completion offers) is one CPU's
	 * share: a request queued on one CPU may complete on another, so the
	 * CPU files beside it are read too, as blkparse -i NAME would.
	 */
	{
		const char *dot = strrchr(t->path, '.');
		size_t base = dot ? (size_t)(dot - t->path) : 0;

		if (dot && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1) &&
		    base >= 9 && !strncmp(t->path + base - 9, ".blktrace", 9) &&
		    base - 9 < 4096) {
			char stem[4096];

			snprintf(stem, sizeof(stem), "%.*s", (int)(base - 9), t->path);
			for (i = 0; i < MAX_CPU_FILES; i++) {
				snprintf(name, sizeof(name), "%s.blktrace.%u", stem, i);
				if (access(name, R_OK) == 0)
					bt->cpu[bt->ncpu++].name = strdup(name);
			}
			t->st.siblings = bt->ncpu > 1;
		}
	}
	if (bt->ncpu > 1) {
		/* the siblings found above */
	} else if (access(t->path, R_OK) == 0) {
		free(bt->cpu[0].name);
		bt->cpu[0].name = strdup(t->path);
		bt->ncpu = 1;
	} else {
		for (i = 0; i < MAX_CPU_FILES; i++) {
			snprintf(name, sizeof(name), "%s.blktrace.%u", t->path, i);
			if (access(name, R_OK) == 0)
				bt->cpu[bt->ncpu++].name = strdup(name);
		}
		if (!bt->ncpu) {
			snprintf(err, errlen, "%s: no such file, nor %s.blktrace.N", t->path, t->path);
			return -1;
		}
	}
	t->st.files = bt->ncpu;
	t->st.has_completions = t->st.has_pids = true;
	for (i = 0; i < bt->ncpu; i++) {
		struct cpufile *c = &bt->cpu[i];
		uint32_t m;

		/* fd is meaningful once buf is set (tr_blktrace_close) */
		if (!c->name || !(c->buf = malloc(CF_BUF)))
			return -1;
		if ((c->fd = open(c->name, O_RDONLY | O_CLOEXEC)) < 0) {
			snprintf(err, errlen, "%s: %s", c->name, strerror(errno));
			return -1;
		}
		if (pread(c->fd, &m, 4, 0) == 4) {
			if (!magic_ok(m) && magic_ok(sw32(m)))
				c->swap = true;
		}
		if (cpu_read(c, err, errlen) < 0)
			return -1;
	}
	return 0;
}

void tr_blktrace_close(struct trace *t)
{
	struct blktrace *bt = t->bt;
	unsigned i;

	if (!bt)
		return;
	for (i = 0; bt->cpu && i < MAX_CPU_FILES; i++) {
		if (bt->cpu[i].buf && bt->cpu[i].fd >= 0)
			close(bt->cpu[i].fd);
		free(bt->cpu[i].buf);
		free(bt->cpu[i].name);
	}
	free(bt->cpu);
	free(bt->pdu);
	free(bt);
	t->bt = NULL;
}
