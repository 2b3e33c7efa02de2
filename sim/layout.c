/*
 * layout.c - where the jobs' files lie on the simulated disk: one after
 * another from the first MiB, each aligned to a MiB, file_gap apart; jobs
 * naming the same file share it, and a raw device is the whole disk.
 */
#include "sim.h"

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

int layout(struct sim *s, char *err, size_t errlen)
{
	const struct workload *w = s->w;
	uint64_t cursor = 2048, cap_sect = s->disk.p.capacity;
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

			p->spec = j;
			if (j->numjobs > 1)
				snprintf(p->name, sizeof(p->name), "%s.%u", j->name, k);
			else
				snprintf(p->name, sizeof(p->name), "%s", j->name);
			p->rng = s->set->seed * 0x9e3779b97f4a7c15ULL + pi * 7919 + 1;
			p->loops_left = j->loops;
			antic_proc_init(&p->ap);
			p->app = calloc(j->iodepth, sizeof(*p->app));
			if (!p->app)
				return -1;
			/* jobs naming the same file share it, as in fio */
			if (j->filename[0]) {
				size_t q;

				for (q = 0; q < pi; q++)
					if (!strcmp(s->procs[q].spec->filename, j->filename))
						break;
				if (q < pi) {
					p->file0 = s->procs[q].file0;
					p->nfiles = s->procs[q].nfiles;
					goto sized;
				}
			}
			p->file0 = (unsigned)shared;
			p->nfiles = j->nrfiles;
			if (raw) {
				uint64_t c0 = 0;

				if (add_file(s, &c0, cap_sect * 512, &fcap))
					return -1;
				p->nfiles = 1;
				goto sized;
			}
			cursor = (cursor + 2047) / 2048 * 2048;
			for (n = 0; n < j->nrfiles; n++) {
				uint64_t sz = j->filesize_lo ?
					j->filesize_lo + rng_below(&p->rng, j->filesize_hi - j->filesize_lo + 1) :
					j->size / j->nrfiles;

				sz = (sz + 511) / 512 * 512;
				if (sz < 512)
					sz = 512;
				if (add_file(s, &cursor, sz, &fcap))
					return -1;
				cursor += j->file_gap / 512;
			}
sized:
			for (n = 0; n < p->nfiles; n++) {
				const struct sim_file *f = &s->files[p->file0 + n];

				if (f->start + (f->size + 511) / 512 > cap_sect) {
					snprintf(err, errlen, "job '%s': its files do not fit on the disk (%llu MiB)",
						 j->name, (unsigned long long)(cap_sect >> 11));
					return -1;
				}
				if (j->offset >= f->size) {
					snprintf(err, errlen, "job '%s': offset is past the end of its file", j->name);
					return -1;
				}
				p->io_size += f->size - j->offset;
			}
			if (j->size && (raw || j->filesize_lo || j->filename[0]))
				p->io_size = j->size < p->io_size || raw ? j->size : p->io_size;
			p->pos = j->offset;
			p->res = &s->r->jobs[pi];
			snprintf(p->res->name, sizeof(p->res->name), "%s", p->name);
		}
	}
	return 0;
}
