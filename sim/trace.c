/*
 * trace.c - the trace readers' one interface (trace.h): format names and
 * detection, opening, the loop that reads lines or blktrace records and
 * hands each to its format's parser (trace-FORMAT.c), skipping what
 * --skip-bad allows, and the fio iolog v3 writer; also what the text
 * formats share, the line reader and number parsing. Each parser hands
 * its I/O to tr_emit() (trace-dep.c). Memory: one line, or one record
 * per blktrace CPU file, besides trace-dep.c's tables.
 */
#define _POSIX_C_SOURCE 200809L
#include "trace-int.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char *const fmt_names[TF_NR] = {
	"auto", "blktrace", "blkparse", "msr", "spc", "iolog2", "iolog3",
	"disksim", "disksim-ns", "startup",
};

const char *trace_format_name(enum trace_fmt f)
{
	return f < TF_NR ? fmt_names[f] : "?";
}

int trace_format_parse(const char *s, enum trace_fmt *f)
{
	int i;

	for (i = 0; i < TF_NR; i++) {
		if (!strcmp(s, fmt_names[i])) {
			*f = (enum trace_fmt)i;
			return 0;
		}
	}
	return -1;
}

const char *trace_format_list(void)
{
	static char list[160];
	int i;

	if (!list[0]) {
		for (i = 1; i < TF_NR; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i == 1 ? "" : i == TF_NR - 1 ? " or " : ", ", fmt_names[i]);
	}
	return list;
}

enum trace_fmt trace_format(const struct trace *t) { return t->fmt; }
const struct trace_stats *trace_stats(const struct trace *t) { return &t->st; }
const char *trace_device(const struct trace *t) { return t->have_dev ? t->dev : ""; }

int tr_fail(struct trace *t, char *err, size_t errlen, const char *field,
	    const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (t->fmt == TF_BLKTRACE)
		snprintf(err, errlen, "%s: byte %" PRIu64 ": %s: %s", t->path,
			 t->rec_off, field, why);
	else
		snprintf(err, errlen, "%s:%" PRIu64 ": %s: %s", t->path, t->lineno,
			 field, why);
	return -1;
}

/* ---- number parsing ---- */

int tr_u64(const char *s, uint64_t *v)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\r')
		end++;
	return errno || *end ? -1 : 0;
}

int tr_dec_units(const char *s, uint64_t unit, uint64_t *ns)
{
	uint64_t v = 0, frac = 0, scale = unit;
	bool digits = false;

	while (*s == ' ' || *s == '\t')
		s++;
	for (; isdigit((unsigned char)*s); s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		digits = true;
	}
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++) {
			digits = true;
			if (scale >= 10) {	/* below 1 ns: dropped */
				scale /= 10;
				frac += (uint64_t)(*s - '0') * scale;
			}
		}
	}
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (*s || !digits || (unit && v > (UINT64_MAX - frac) / unit))
		return -1;
	*ns = v * unit + frac;
	return 0;
}

/* "SECONDS[.FRACTION]" to ns; a digit first */
int tr_dec_ns(const char *s, uint64_t *ns)
{
	while (*s == ' ')
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	return tr_dec_units(s, 1000000000ULL, ns);
}

/* Split @s at @sep into at most @max fields, in place; more: @max + 1. */
int tr_split(char *s, char sep, char **f, int max)
{
	int n = 0;

	for (;;) {
		if (n == max)
			return n + 1;
		f[n++] = s;
		s = strchr(s, sep);
		if (!s)
			return n;
		*s++ = 0;
	}
}

/* ---- text lines ---- */

/* Read the next line into t->line; 1, 0 at the end, -1 when too long. */
static int next_line(struct trace *t, char *err, size_t errlen)
{
	size_t n;

	if (!fgets(t->line, sizeof(t->line), t->f)) {
		if (ferror(t->f))
			return tr_fail(t, err, errlen, "read", "%s", strerror(errno));
		return 0;
	}
	t->lineno++;
	n = strlen(t->line);
	if (n && t->line[n - 1] == '\n') {
		t->line[--n] = 0;
	} else if (!feof(t->f)) {
		return tr_fail(t, err, errlen, "line", "longer than %d bytes", LINE_MAX_LEN);
	}
	if (n && t->line[n - 1] == '\r')
		t->line[--n] = 0;
	return 1;
}

static bool blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return !*s || *s == '#';
}


/* ---- opening, detection ---- */

/* The S start-up traces' line: NAME-PID ... Seq|Rand ... START|C, ten fields. */
static bool looks_startup(const char *line)
{
	char copy[LINE_MAX_LEN + 2], *f[11], *save = NULL, *s, *dash;
	int n = 0;

	strcpy(copy, line);
	for (s = strtok_r(copy, " \t", &save); s && n < 11; s = strtok_r(NULL, " \t", &save))
		f[n++] = s;
	if (n != 10)
		return false;
	dash = strrchr(f[0], '-');
	return dash && dash > f[0] && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1) &&
	       (!strcmp(f[4], "Seq") || !strcmp(f[4], "Rand")) &&
	       (!strcmp(f[9], "START") || !strcmp(f[9], "C"));
}

/*
 * A DiskSim line: five white-space separated fields, a time, three
 * unsigned integers and hexadecimal flags. 1 with the time's digits in
 * @tm when it is one.
 */
static bool looks_disksim(const char *line, char *tm, size_t tmlen)
{
	char copy[LINE_MAX_LEN + 2], *f[6], *save = NULL, *s;
	int n = 0, i;

	strcpy(copy, line);
	for (s = strtok_r(copy, " \t", &save); s && n < 6; s = strtok_r(NULL, " \t", &save))
		f[n++] = s;
	if (n != 5 || strspn(f[0], "0123456789.") != strlen(f[0]) || !strpbrk(f[0], "0123456789") ||
	    strlen(f[0]) >= tmlen)
		return false;
	for (i = 1; i < 4; i++)
		if (strspn(f[i], "0123456789") != strlen(f[i]))
			return false;
	s = f[4][0] == '0' && (f[4][1] == 'x' || f[4][1] == 'X') ? f[4] + 2 : f[4];
	if (!*s || strspn(s, "0123456789abcdefABCDEF") != strlen(s))
		return false;
	strcpy(tm, f[0]);
	return true;
}

/*
 * DiskSim's milliseconds or MQSim's nanoseconds, from the first lines'
 * arrival times: a fraction means milliseconds (MQSim writes whole
 * nanoseconds). Whole numbers only: a mean gap between arrivals of 1000
 * or more is nanoseconds (in milliseconds it would be a second or more
 * between requests), less is milliseconds (in nanoseconds, over a
 * million requests a second). Times that never change tell nothing.
 */
static enum trace_fmt detect_disksim(FILE *f, const char *first_tm)
{
	char line[LINE_MAX_LEN + 2], tm[64];
	double t0 = strtod(first_tm, NULL), last = t0;
	int n = 1, tries = 0;

	if (strchr(first_tm, '.'))
		return TF_DISKSIM;
	while (tries++ < 64 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (blank(line))
			continue;
		if (!looks_disksim(line, tm, sizeof(tm)))
			break;
		if (strchr(tm, '.'))
			return TF_DISKSIM;
		last = strtod(tm, NULL);
		n++;
	}
	if (n < 2 || last <= t0)
		return TF_AUTO;
	return (last - t0) / (n - 1) >= 1000 ? TF_DISKSIM_NS : TF_DISKSIM;
}

static enum trace_fmt detect_text(FILE *f)
{
	char line[LINE_MAX_LEN + 2];
	int tries = 0;

	while (tries++ < 64 && fgets(line, sizeof(line), f)) {
		char *c = line, copy[LINE_MAX_LEN + 2], *fl[8], tm[64];
		unsigned a, b, cpu;
		unsigned long long seq;
		int n;

		line[strcspn(line, "\r\n")] = 0;
		if (blank(line))
			continue;
		if (!strcmp(line, "fio version 2 iolog"))
			return TF_IOLOG2;
		if (!strcmp(line, "fio version 3 iolog"))
			return TF_IOLOG3;
		if (!strncasecmp(line, "Timestamp,Hostname", 18))
			return TF_MSR;
		strcpy(copy, line);
		n = tr_split(copy, ',', fl, 7);
		if (n == 7 && strlen(fl[0]) >= 15 && strspn(fl[0], "0123456789") == strlen(fl[0]))
			return TF_MSR;
		if (n >= 5) {
			while (*fl[3] == ' ')
				fl[3]++;
			if (strchr("rRwW", fl[3][0]) && fl[3][0])
				return TF_SPC;
		}
		while (*c == ' ')
			c++;
		if (sscanf(c, "%u,%u %u %llu %39s", &a, &b, &cpu, &seq, tm) == 5 && strchr(tm, '.'))
			return TF_BLKPARSE;
		if (looks_startup(line))
			return TF_STARTUP;
		if (looks_disksim(line, tm, sizeof(tm)))
			return detect_disksim(f, tm);
		return TF_AUTO;
	}
	return TF_AUTO;
}

static enum trace_fmt detect(const char *path)
{
	FILE *f = fopen(path, "rb");
	char name[4200];
	uint32_t m;
	enum trace_fmt r = TF_AUTO;

	if (!f) {
		snprintf(name, sizeof(name), "%s.blktrace.0", path);
		return access(name, R_OK) == 0 ? TF_BLKTRACE : TF_AUTO;
	}
	if (fread(&m, 1, 4, f) == 4 && tr_blktrace_magic(m))
		r = TF_BLKTRACE;
	else if (!fseek(f, 0, SEEK_SET))
		r = detect_text(f);
	fclose(f);
	return r;
}

struct trace *trace_open(const char *path, const struct trace_opts *o,
			 char *err, size_t errlen)
{
	struct trace *t = calloc(1, sizeof(*t));

	if (!t || !(t->path = strdup(path)) || tr_dep_init(t)) {
		snprintf(err, errlen, "out of memory");
		trace_close(t);
		return NULL;
	}
	t->o = *o;
	t->fmt = o->fmt;
	if (t->fmt == TF_AUTO) {
		FILE *f = fopen(path, "rb");
		char name[4200];

		snprintf(name, sizeof(name), "%s.blktrace.0", path);
		if (!f && access(name, R_OK) != 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			trace_close(t);
			return NULL;
		}
		if (f)
			fclose(f);
		t->fmt = detect(path);
		if (t->fmt == TF_AUTO) {
			snprintf(err, errlen, "%s: cannot tell the trace format; give --format "
				 "(%s)", path, trace_format_list());
			trace_close(t);
			return NULL;
		}
	}
	if (t->fmt == TF_BLKTRACE) {
		if (tr_blktrace_open(t, err, errlen)) {
			if (!*err)
				snprintf(err, errlen, "out of memory");
			trace_close(t);
			return NULL;
		}
		return t;
	}
	t->f = fopen(path, "r");
	if (!t->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		trace_close(t);
		return NULL;
	}
	if (t->fmt == TF_BLKPARSE || t->fmt == TF_STARTUP)
		t->st.has_pids = true;
	return t;
}

/*
 * The end of a trace that kept no request: an error, never an empty
 * result, naming what dropped everything. -1.
 */
static int nothing_kept(struct trace *t, char *err, size_t errlen)
{
	size_t o;
	unsigned i;

	if (t->o.device && !t->have_t0) {
		o = (size_t)snprintf(err, errlen, "%s: --device %s matches no request; the trace's devices: ",
				     t->path, t->o.device);
		for (i = 0; i < t->nseen_dev && o < errlen; i++)
			o += (size_t)snprintf(err + o, errlen - o, "%s%s", i ? ", " : "", t->seen_dev[i]);
		if (!t->nseen_dev && o < errlen)
			snprintf(err + o, errlen - o, "none (no read or write requests)");
	} else if (t->o.skip && t->have_t0) {
		snprintf(err, errlen, "%s: --skip %.3f s leaves no request: the trace's last one is %.3f s "
			 "after its first", t->path, t->o.skip / 1e9, t->skipped_to / 1e9);
	} else {
		snprintf(err, errlen, "%s: no read or write request in the trace (%llu ignored: flush, "
			 "discard, passthrough)", t->path, (unsigned long long)t->st.ignored);
	}
	return -1;
}

int trace_next(struct trace *t, struct trace_rec *r, char *err, size_t errlen)
{
	int rc;

	*err = 0;
	t->out_rec = r;	/* written only when a record is returned */
	/* its own loop, for speed; binary damage cannot be skipped, it ends the read */
	if (t->fmt == TF_BLKTRACE) {
		rc = tr_blktrace_next(t, err, errlen);
		return rc || t->st.records ? rc : nothing_kept(t, err, errlen);
	}
	while (!t->ended) {
		rc = next_line(t, err, errlen);
		if (rc <= 0) {
			if (rc == 0)
				t->ended = true;
			else if (t->o.skip_bad && strstr(err, "longer than")) {
				/* drop the rest of the overlong line */
				int ch;

				while ((ch = fgetc(t->f)) != EOF && ch != '\n')
					;
				t->st.bad++;
				continue;
			}
			if (rc < 0)
				return -1;
			break;
		}
		if (blank(t->line) && t->fmt != TF_IOLOG2 && t->fmt != TF_IOLOG3)
			continue;
		if (blank(t->line) && t->lineno > 1)
			continue;
		switch (t->fmt) {
		case TF_BLKPARSE: rc = tr_blkparse_line(t, err, errlen); break;
		case TF_MSR: rc = tr_msr_line(t, err, errlen); break;
		case TF_SPC: rc = tr_spc_line(t, err, errlen); break;
		case TF_DISKSIM:
		case TF_DISKSIM_NS: rc = tr_disksim_line(t, err, errlen); break;
		case TF_STARTUP: rc = tr_startup_line(t, err, errlen); break;
		default: rc = tr_iolog_line(t, err, errlen); break;
		}
		if (rc < 0) {
			if (t->o.skip_bad && !strstr(err, "more than one device")) {
				t->st.bad++;
				*err = 0;
				continue;
			}
			return -1;
		}
		if (rc > 0) {
			r->line = t->lineno;
			return 1;
		}
	}
	return t->st.records ? 0 : nothing_kept(t, err, errlen);
}

void trace_close(struct trace *t)
{
	if (!t)
		return;
	if (t->f)
		fclose(t->f);
	tr_blktrace_close(t);
	tr_dep_free(t);
	free(t->path);
	free(t);
}

long long trace_write_iolog3(struct trace *in, FILE *out, const char *target,
			     char *err, size_t errlen)
{
	struct trace_rec r;
	long long n = 0;
	uint64_t last = 0;
	int rc;

	fprintf(out, "fio version 3 iolog\n0 %s add\n0 %s open\n", target, target);
	while ((rc = trace_next(in, &r, err, errlen)) > 0) {
		last = r.t / 1000;
		fprintf(out, "%" PRIu64 " %s %s %" PRIu64 " %" PRIu64 "\n", last, target,
			r.write ? "write" : "read", r.sector * 512, (uint64_t)r.nr * 512);
		n++;
	}
	if (rc < 0)
		return -1;
	fprintf(out, "%" PRIu64 " %s close\n", last, target);
	return n;
}

