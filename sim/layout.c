/*
 * layout.c - where the jobs' files lie on the simulated disk: one after
 * another from the first MiB, each aligned to a MiB, file_gap apart; jobs
 * naming the same file share it, and a raw device is the whole disk.
 * Also each job's region of each file, as fio computes it. A layout
 * file (the layout setting) moves the files it names to where a file
 * system put them.
 */
#include "sim.h"
#include <errno.h>

/*
 * fio's filename_format: $jobname, $jobnum and $filenum (in any case)
 * replaced by the job's name, its clone's number and the file's number;
 * cut at @n - 1 characters (the caller's check of the whole path then
 * reports it).
 */
static void format_name(char *out, size_t n, const char *fmt, const char *name,
			unsigned jobnum, unsigned filenum)
{
	static const char *const word[] = { "$jobname", "$jobnum", "$filenum" };
	size_t o = 0;

	while (*fmt && o + 1 < n) {
		char num[16];
		const char *sub = NULL;
		unsigned w;

		for (w = 0; w < 3; w++)
			if (!strncasecmp(fmt, word[w], strlen(word[w])))
				break;
		if (w == 0) {
			sub = name;
		} else if (w < 3) {
			snprintf(num, sizeof(num), "%u", w == 1 ? jobnum : filenum);
			sub = num;
		}
		if (sub) {
			fmt += strlen(word[w]);
			while (*sub && o + 1 < n)
				out[o++] = *sub++;
		} else {
			out[o++] = *fmt++;
		}
	}
	out[o] = 0;
}

static int add_file(struct sim *s, uint64_t *cursor, uint64_t size, size_t *cap)
{
	struct sim_file *f;

	if (s->nfiles == *cap) {
		size_t n = *cap ? *cap * 2 : 16;
		struct sim_file *nf = realloc(s->files, n * sizeof(*nf));

		if (!nf)
			return -1;
		s->files = nf;
		*cap = n;
	}
	f = &s->files[s->nfiles++];
	memset(f, 0, sizeof(*f));
	f->start = *cursor;
	f->size = size;
	f->dirty_next = -1;
	*cursor += (size + PAGE - 1) / PAGE * SECT_PER_PAGE;
	return 0;
}

/* The @n'th name of fio's ':'-separated filename list into @out; the count. */
static unsigned name_at(const char *list, unsigned n, char *out, size_t len)
{
	unsigned i = 0;
	const char *p = list;

	for (;;) {
		const char *e = strchr(p, ':');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (i == n && out)
			snprintf(out, len, "%.*s", (int)l, p);
		i++;
		if (!e)
			return i;
		p = e + 1;
	}
}

/*
 * fio's region of one file for a job: from offset, size's share of it (or
 * the rest of the file), whole blocks only: fio leaves a tail shorter than
 * bs alone rather than issue a short I/O.
 */
static int region(const struct job_spec *j, uint64_t off, uint64_t fsize, unsigned nshare,
		  bool raw, struct proc_file *pf)
{
	uint64_t hi = fsize;

	if (j->size_pct || (j->size && (raw || !j->filesize_lo))) {
		uint64_t want = j->size_pct ? fsize / 100 * j->size_pct : j->size / nshare;

		if (off + want < hi)
			hi = off + want;
	}
	if (off >= hi || hi - off < j->bs)
		return -1;
	pf->lo = off;
	pf->hi = off + (hi - off) / j->bs * j->bs;
	pf->pos[0] = pf->pos[1] = off;
	return 0;
}

/* One line of a layout file: where a file system put a file, and its size. */
struct placed {
	char name[sizeof(((struct sim_file *)0)->name)];
	uint64_t sector, bytes;
	unsigned line;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct placed *)a)->name, ((const struct placed *)b)->name);
}

/* by path, a path's lines in file order */
static int cmp_placed(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/*
 * The layout setting's file into @out (sorted by path): "SECTOR BYTES
 * PATH" lines, a line starting with '#' a comment, PATH as fio names the
 * file (directory/name, or filename=), BYTES the file's size on the file
 * system (layout_files takes it where fio would read that much). A bad
 * field, or a path given twice, is an error.
 */
static int load_layout(const char *path, struct placed **out, size_t *nout,
		       char *err, size_t errlen)
{
	FILE *fp = fopen(path, "r");
	struct placed *v = NULL;
	size_t n = 0, cap = 0, i;
	char buf[512];
	unsigned line = 0;

	*out = NULL;
	*nout = 0;
	if (!fp) {
		snprintf(err, errlen, "layout %s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(buf, sizeof(buf), fp)) {
		char *p = buf, *end;
		unsigned long long x[2];
		size_t len = strlen(buf);
		int k;

		line++;
		if (len && buf[len - 1] != '\n' && !feof(fp)) {
			snprintf(err, errlen, "%s:%u: the line is longer than %zu characters",
				 path, line, sizeof(buf) - 2);
			goto bad;
		}
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' ||
			       buf[len - 1] == ' ' || buf[len - 1] == '\t'))
			buf[--len] = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		for (k = 0; k < 2; k++) {
			const char *field = k ? "BYTES" : "SECTOR";

			errno = 0;
			x[k] = *p >= '0' && *p <= '9' ? strtoull(p, &end, 10) : 0;
			/* BYTES at most 2^50: sectors and pages of it never overflow */
			if (*p < '0' || *p > '9' || errno ||
			    (*end != ' ' && *end != '\t' && *end) ||
			    (k && (!x[k] || x[k] > (1ULL << 50)))) {
				snprintf(err, errlen, "%s:%u: %s: want %s, got '%.40s' (a line is \"SECTOR BYTES PATH\")",
					 path, line, field, k ? "a size in bytes, 1 to 2^50" : "a sector number",
					 *p ? p : "nothing");
				goto bad;
			}
			p = end;
			while (*p == ' ' || *p == '\t')
				p++;
			if (!k && !*p) {
				snprintf(err, errlen, "%s:%u: BYTES: want a size in bytes, 1 to 2^50, got nothing "
					 "(a line is \"SECTOR BYTES PATH\")", path, line);
				goto bad;
			}
		}
		if (!*p || strlen(p) >= sizeof(v->name)) {
			snprintf(err, errlen, "%s:%u: PATH: want a path under %zu characters, got '%.40s'",
				 path, line, sizeof(v->name), p);
			goto bad;
		}
		if (n == cap) {
			struct placed *nv = realloc(v, (cap = cap ? cap * 2 : 256) * sizeof(*v));

			if (!nv) {
				snprintf(err, errlen, "out of memory");
				goto bad;
			}
			v = nv;
		}
		memcpy(v[n].name, p, strlen(p) + 1);
		v[n].sector = x[0];
		v[n].bytes = x[1];
		v[n].line = line;
		n++;
	}
	if (ferror(fp)) {
		snprintf(err, errlen, "layout %s: %s", path, strerror(errno));
		goto bad;
	}
	fclose(fp);
	if (v)
		qsort(v, n, sizeof(*v), cmp_placed);
	for (i = 1; i < n; i++)
		if (!strcmp(v[i - 1].name, v[i].name)) {
			unsigned l1 = v[i - 1].line, l2 = v[i].line;

			snprintf(err, errlen, "%s:%u: PATH: %s is given twice (line %u too)",
				 path, l1 > l2 ? l1 : l2, v[i].name, l1 > l2 ? l2 : l1);
			free(v);
			return -1;
		}
	if (!n) {
		snprintf(err, errlen, "layout %s: no \"SECTOR BYTES PATH\" line in it", path);
		free(v);
		return -1;
	}
	*out = v;
	*nout = n;
	return 0;
bad:
	fclose(fp);
	free(v);
	return -1;
}

static const struct placed *placed_find(const struct placed *v, size_t n, const char *name)
{
	struct placed key;

	if (!v || strlen(name) >= sizeof(key.name))
		return NULL;
	memcpy(key.name, name, strlen(name) + 1);
	return bsearch(&key, v, n, sizeof(*v), cmp_name);
}

static int layout_files(struct sim *s, const struct placed *placed, size_t nplaced,
			size_t *moved, char *err, size_t errlen)
{
	const struct workload *w = s->w;
	uint64_t cursor = 2048, cap_sect = s->disk.p.capacity, map_bytes = 0;
	size_t i, fcap = 0, pi = 0;
	unsigned k, n;

	for (i = 0; i < w->nr_jobs; i++)
		s->nprocs += w->jobs[i].numjobs;
	if (!s->nprocs)
		return 0;	/* a trace replay */
	s->procs = calloc(s->nprocs, sizeof(*s->procs));
	if (!s->procs)
		return -1;
	for (i = 0; i < w->nr_jobs; i++) {
		const struct job_spec *j = &w->jobs[i];

		for (k = 0; k < j->numjobs; k++, pi++) {
			struct sim_proc *p = &s->procs[pi];
			bool raw = !strncmp(j->filename, "/dev/", 5);
			size_t shared = s->nfiles;
			uint64_t off = j->offset + (uint64_t)k * j->offset_increment;
			unsigned nnames = j->filename[0] ? name_at(j->filename, 0, NULL, 0) : 0;

			p->spec = j;
			if (j->numjobs > 1)
				snprintf(p->name, sizeof(p->name), "%s.%u", j->name, k);
			else
				snprintf(p->name, sizeof(p->name), "%s", j->name);
			p->rng = (j->randseed_given ? j->randseed : s->set->seed) *
				0x9e3779b97f4a7c15ULL + pi * 7919 + 1;
			p->prio_rng = p->rng ^ 0x636d647072696fULL;
			p->loops_left = j->loops;
			antic_proc_init(&p->ap);
			p->app = calloc(j->iodepth, sizeof(*p->app));
			if (!p->app)
				return -1;
			/* jobs naming the same file (directory and name) share it, as in fio */
			if (j->filename[0]) {
				size_t q;

				for (q = 0; q < pi; q++)
					if (!strcmp(s->procs[q].spec->filename, j->filename) &&
					    !strcmp(s->procs[q].spec->filename_dir, j->filename_dir))
						break;
				if (q < pi) {
					p->file0 = s->procs[q].file0;
					p->nfiles = s->procs[q].nfiles;
					goto sized;
				}
			}
			p->file0 = (unsigned)shared;
			p->nfiles = nnames ? nnames : j->nrfiles;
			if (raw) {
				/*
				 * One simulated disk: a list of devices shares it
				 * in equal parts, one after another; one device is
				 * the whole disk.
				 */
				uint64_t part = cap_sect / p->nfiles / 2048 * 2048;

				for (n = 0; n < p->nfiles; n++) {
					uint64_t c0 = n * part;

					if (add_file(s, &c0, part * 512, &fcap))
						return -1;
				}
				goto named;
			}
			cursor = (cursor + 2047) / 2048 * 2048;
			for (n = 0; n < p->nfiles; n++) {
				uint64_t sz;

				if (j->filesize_lo) {
					/* fio's random file sizes are whole blocks */
					sz = j->filesize_lo + rng_below(&p->rng, j->filesize_hi - j->filesize_lo + 1);
					sz = sz / j->bs * j->bs;
					if (sz < j->bs)
						sz = j->bs;
				} else {
					/* fio lays the file out to offset + size, and does size of I/O */
					sz = off + j->size / p->nfiles;
				}
				sz = (sz + 511) / 512 * 512;
				if (add_file(s, &cursor, sz, &fcap))
					return -1;
				cursor += j->file_gap / 512;
			}
named:
			for (n = 0; n < p->nfiles; n++) {
				struct sim_file *f = &s->files[p->file0 + n];
				const struct placed *pl;
				char base[sizeof(f->name)];
				const char *dir = nnames ? j->filename_dir : j->directory;

				if (nnames)
					name_at(j->filename, n, base, sizeof(base));
				else if (j->filename_format[0])
					format_name(base, sizeof(base), j->filename_format, j->name, k, n);
				else
					snprintf(base, sizeof(base), "%s.%u.%u", j->name, k, n);
				/* fio's path, as its iolog writes it */
				if ((size_t)snprintf(f->name, sizeof(f->name), "%s%s%s", raw ? "" : dir,
						     dir[0] && !raw ? "/" : "", base) >= sizeof(f->name)) {
					snprintf(err, errlen, "job '%s': the path of its file %s%s%s is longer "
						 "than %zu characters", j->name, raw ? "" : dir,
						 dir[0] && !raw ? "/" : "", base, sizeof(f->name) - 1);
					return -1;
				}
				pl = raw ? NULL : placed_find(placed, nplaced, f->name);
				if (pl) {
					/* whole pages: the page cache reads a file's last one whole */
					uint64_t need = (pl->bytes + PAGE - 1) / PAGE * SECT_PER_PAGE;

					if (pl->sector >= cap_sect || need > cap_sect - pl->sector) {
						snprintf(err, errlen, "%s:%u: SECTOR: %s at %llu would end past "
							 "the disk's %llu sectors", s->set->layout, pl->line,
							 f->name, (unsigned long long)pl->sector,
							 (unsigned long long)cap_sect);
						return -1;
					}
					/*
					 * fio extends an existing file to a job's size and
					 * reads no more than that; a drawn size (filesize=
					 * lo-hi) is the file's own, fio's draw when fio laid
					 * the files out with this job
					 */
					f->start = pl->sector;
					f->size = j->filesize_lo || pl->bytes > f->size ? pl->bytes : f->size;
					(*moved)++;
				}
			}
sized:
			p->pf = calloc(p->nfiles, sizeof(*p->pf));
			if (!p->pf)
				return -1;
			for (n = 0; n < p->nfiles; n++) {
				const struct sim_file *f = &s->files[p->file0 + n];

				if (f->start + (f->size + 511) / 512 > cap_sect) {
					snprintf(err, errlen, "job '%s': its files do not fit on the disk (%llu MiB)",
						 j->name, (unsigned long long)(cap_sect >> 11));
					return -1;
				}
				if (region(j, off, f->size, p->nfiles, raw, &p->pf[n])) {
					snprintf(err, errlen, "job '%s': offset %llu leaves less than one block (bs) of %s",
						 p->name, (unsigned long long)off, f->name);
					return -1;
				}
				p->pass_size += p->pf[n].hi - p->pf[n].lo;
				if (!j->norandommap && (j->rw == RW_RANDREAD || j->rw == RW_RANDWRITE ||
							j->rw == RW_RANDRW))
					map_bytes += ((p->pf[n].hi - p->pf[n].lo) / j->bs + 63) / 64 * 8;
			}
			/* fio's random maps, bounded so that no job file exhausts memory */
			if (map_bytes > (256ULL << 20)) {
				snprintf(err, errlen, "job '%s': the random maps would take %llu MiB (over 256 MiB); "
					 "set norandommap=1, a larger bs or a smaller size", p->name,
					 (unsigned long long)(map_bytes >> 20));
				return -1;
			}
			/* bytes a loop does: io_size, else size, at most the regions */
			p->io_size = j->io_size ? j->io_size :
				j->size && j->size < p->pass_size ? j->size : p->pass_size;
			p->res = &s->r->jobs[pi];
			snprintf(p->res->name, sizeof(p->res->name), "%s", p->name);
			p->res->spec = j;
		}
	}
	return 0;
}

int layout(struct sim *s, char *err, size_t errlen)
{
	struct placed *placed = NULL;
	size_t nplaced = 0, moved = 0;
	int rc;

	if (s->set->layout[0] && !s->w->nr_jobs) {
		snprintf(err, errlen, "layout %s: a replay lays out no file (only --jobs' job files have files)",
			 s->set->layout);
		return -1;
	}
	if (s->set->layout[0] && load_layout(s->set->layout, &placed, &nplaced, err, errlen))
		return -1;
	rc = layout_files(s, placed, nplaced, &moved, err, errlen);
	s->r->layout_placed = moved;
	s->r->layout_files = s->nfiles;
	if (!rc && placed && !moved) {
		snprintf(err, errlen, "layout %s: none of its %zu paths names a file of this run "
			 "(paths as fio names them, e.g. %s)", s->set->layout, nplaced,
			 s->nfiles ? s->files[0].name : "/mnt/file");
		rc = -1;
	}
	free(placed);
	return rc;
}
