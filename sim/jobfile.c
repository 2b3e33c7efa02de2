/*
 * jobfile.c - reads the subset of fio's job-file syntax antic-sim
 * understands; anything else is an error naming the file, line and option,
 * so a workload never runs differently from what its file says. The
 * simulator's own settings ride in "; antic-sim: NAME=VALUE" comments
 * (or an [antic-sim] section, which fio itself refuses).
 */
#include "job.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

char *trim_space(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/*
 * fio's ${VAR}: the variable's value from the environment, in place. On
 * error @line holds the reason instead and -1 is returned.
 */
static int expand_env(char *line, size_t size)
{
	char out[1024], name[128];
	size_t o = 0;
	const char *p = line;

	while (*p) {
		const char *e, *val;

		if (p[0] != '$' || p[1] != '{') {
			if (o + 1 >= sizeof(out))
				goto toolong;
			out[o++] = *p++;
			continue;
		}
		e = strchr(p, '}');
		if (!e || e == p + 2 || (size_t)(e - p - 2) >= sizeof(name)) {
			snprintf(line, size, "unterminated or empty ${...}");
			return -1;
		}
		memcpy(name, p + 2, (size_t)(e - p - 2));
		name[e - p - 2] = 0;
		val = getenv(name);
		if (!val) {
			snprintf(line, size, "${%s}: not set in the environment", name);
			return -1;
		}
		if (o + strlen(val) >= sizeof(out))
			goto toolong;
		memcpy(out + o, val, strlen(val));
		o += strlen(val);
		p = e + 1;
	}
	out[o] = 0;
	if (o >= size)
		goto toolong;
	memcpy(line, out, o + 1);
	return 0;
toolong:
	snprintf(line, size, "line too long once ${...} is expanded");
	return -1;
}

static void default_job(struct job_spec *j)
{
	memset(j, 0, sizeof(*j));
	j->rw = RW_READ;
	j->rwmixread = 50;
	j->bs = 4096;
	j->nrfiles = 1;
	j->file_service = FS_ROUNDROBIN;
	j->file_service_nr = 1;
	j->kb_base = 1024;
	j->numjobs = 1;
	j->thinktime_blocks = 1;
	j->iodepth = 1;
	j->loops = 1;
	j->cmdprio_class[0] = j->cmdprio_class[1] = 1;	/* fio's: the highest */
}

int seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int finish_job(const char *file, struct job_spec *j, char *err,
		      size_t errlen)
{
	if (j->size_pct && strncmp(j->filename, "/dev/", 5))
		return seterr(err, errlen, "%s:%d: job '%s': size=N%% is a share of a device; give filename=/dev/...",
			      file, j->line, j->name);
	/* a raw device without size is the whole device, as in fio */
	if (!j->size && !j->filesize_lo && strncmp(j->filename, "/dev/", 5))
		return seterr(err, errlen, "%s:%d: job '%s': needs size or filesize (or a /dev/ filename)",
			      file, j->line, j->name);
	if ((j->zonesize || j->zoneskip) && (!j->zonesize || j->zonesize < j->bs))
		return seterr(err, errlen, "%s:%d: job '%s': zoneskip wants a zonesize of at least bs",
			      file, j->line, j->name);
	/* finer than bs would need a map finer than bs: not modelled */
	if (j->blockalign && j->blockalign % j->bs)
		return seterr(err, errlen, "%s:%d: job '%s': blockalign must be a multiple of bs (the smallest)",
			      file, j->line, j->name);
	if (j->poisson && !j->rate_iops)
		return seterr(err, errlen, "%s:%d: job '%s': rate_process=poisson wants rate_iops",
			      file, j->line, j->name);
	if (j->time_based && !j->runtime && !j->exitall)
		return seterr(err, errlen,
			      "%s:%d: job '%s': time_based without runtime never ends (add runtime or exitall to another job)",
			      file, j->line, j->name);
	if ((j->cmdprio_pct[0] || j->cmdprio_pct[1]) && !j->async_engine)
		return seterr(err, errlen,
			      "%s:%d: job '%s': cmdprio_percentage is an option of fio's libaio and io_uring engines",
			      file, j->line, j->name);
	/* fio gives a job's numjobs clones one $jobname: only $jobnum tells them apart */
	if (j->filename_format[0] && !j->filename[0] && j->numjobs > 1 &&
	    !strcasestr(j->filename_format, "$jobnum"))
		return seterr(err, errlen, "%s:%d: job '%s': filename_format '%s' without $jobnum would "
			      "have fio's %u clones share their files, which antic-sim does not model",
			      file, j->line, j->name, j->filename_format, j->numjobs);
	if (j->openfiles && j->file_service != FS_SEQUENTIAL) {
		/* fio's: the filename list's names, else nrfiles */
		unsigned nfiles = j->nrfiles;
		const char *c;

		if (j->filename[0])
			for (nfiles = 1, c = j->filename; (c = strchr(c, ':')); c++)
				nfiles++;
		if (j->openfiles < nfiles)
			return seterr(err, errlen, "%s:%d: job '%s': fio's openfiles below the job's %u files "
				      "is not supported by antic-sim (it would choose among the open ones only)",
				      file, j->line, j->name, nfiles);
	}
	if (!j->async_engine)
		j->iodepth = 1;
	return 0;
}

/*
 * A simulator setting from the job file @file. A relative layout= path is
 * the job file's own: taken from @file's directory, so that a job file
 * and its map travel together (--set's stays relative to the current
 * directory).
 */
static int file_setting(struct workload *w, const char *file, const char *key,
			const char *val, char *why, size_t len)
{
	const char *slash = strrchr(file, '/');
	char path[2 * sizeof(w->set.layout)];

	if (!strcmp(key, "layout") && *val && *val != '/' && slash) {
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - file), file, val);
		val = path;
	}
	return settings_apply(&w->set, key, val, why, len);
}

int jobfile_parse(const char *file, const char *text, struct workload *w,
		  char *err, size_t errlen)
{
	struct job_spec global, *cur = NULL;
	struct job_spec *jobs = NULL;
	size_t nr = 0, cap = 0;
	int lineno = 0, in_global = 0, in_sim = 0;
	const char *p = text;
	char line[1024];

	default_job(&global);
	sim_default_settings(&w->set);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *s, *eq, *key, *val;

		lineno++;
		if (len >= sizeof(line)) {
			seterr(err, errlen, "%s:%d: line too long", file, lineno);
			goto fail;
		}
		memcpy(line, p, len);
		line[len] = 0;
		p += len + (nl ? 1 : 0);
		/*
		 * "; antic-sim: NAME=VALUE" is antic-sim's own setting in a
		 * comment, where fio (--parse-only too) passes over it: a
		 * simulator setting anywhere, or file_gap in a section.
		 */
		s = trim_space(line);
		if ((*s == ';' || *s == '#') && !strncmp(trim_space(s + 1), "antic-sim", 9) &&
		    isspace((unsigned char)trim_space(s + 1)[9])) {
			/* "; antic-sim rpm=5400": a setting meant, its colon forgotten */
			const char *q = trim_space(trim_space(s + 1) + 9);
			size_t nl = strspn(q, "abcdefghijklmnopqrstuvwxyz_0123456789");

			if (nl && (q[nl] == '=' || (isspace((unsigned char)q[nl]) &&
					 trim_space((char *)q + nl)[0] == '='))) {
				seterr(err, errlen, "%s:%d: %.*s: an antic-sim setting in a comment wants a colon: "
				       "'; antic-sim: %s'", file, lineno, (int)nl, q, q);
				goto fail;
			}
		}
		if ((*s == ';' || *s == '#') && !strncmp(trim_space(s + 1), "antic-sim:", 10)) {
			char why[1024];

			s = trim_space(trim_space(s + 1) + 10);
			eq = strchr(s, '=');
			if (!eq) {
				seterr(err, errlen, "%s:%d: antic-sim: want NAME=VALUE, got '%s'", file, lineno, s);
				goto fail;
			}
			*eq = 0;
			key = trim_space(s);
			val = trim_space(eq + 1);
			if (!strcmp(key, "file_gap") && (cur || in_global)) {
				if (job_option(cur ? cur : &global, key, val)) {
					job_option_error(key, val, -1, why, sizeof(why));
					seterr(err, errlen, "%s:%d: %s", file, lineno, why);
					goto fail;
				}
			} else if (file_setting(w, file, key, val, why, sizeof(why))) {
				seterr(err, errlen, "%s:%d: %s", file, lineno, why);
				goto fail;
			}
			continue;
		}
		/* fio ends a line at ';' or '#' anywhere, not only at its start */
		line[strcspn(line, ";#")] = 0;
		if (expand_env(line, sizeof(line))) {
			seterr(err, errlen, "%s:%d: %s", file, lineno, line);
			goto fail;
		}
		s = trim_space(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *e = strchr(s, ']');

			if (!e || e[1] || e == s + 1 || (size_t)(e - s) > sizeof(global.name)) {
				seterr(err, errlen, "%s:%d: bad section header '%s'", file, lineno, s);
				goto fail;
			}
			*e = 0;
			if (cur && finish_job(file, cur, err, errlen))
				goto fail;
			cur = NULL;
			in_global = !strcmp(s + 1, "global");
			in_sim = !strcmp(s + 1, "antic-sim");
			if (in_global || in_sim)
				continue;
			if (nr == cap) {
				struct job_spec *n;

				cap = cap ? cap * 2 : 8;
				n = realloc(jobs, cap * sizeof(*jobs));
				if (!n) {
					seterr(err, errlen, "%s: out of memory", file);
					goto fail;
				}
				jobs = n;
			}
			cur = &jobs[nr++];
			*cur = global;
			snprintf(cur->name, sizeof(cur->name), "%s", s + 1);
			cur->line = lineno;
			continue;
		}
		eq = strchr(s, '=');
		key = s;
		val = (char *)"";
		if (eq) {
			*eq = 0;
			key = trim_space(s);
			val = trim_space(eq + 1);
		}
		if (in_sim) {
			char why[1024];

			if (file_setting(w, file, key, val, why, sizeof(why))) {
				seterr(err, errlen, "%s:%d: %s", file, lineno, why);
				goto fail;
			}
			continue;
		}
		if (!cur && !in_global) {
			seterr(err, errlen, "%s:%d: option '%s' outside any section", file, lineno, key);
			goto fail;
		}
		{
			int rc = job_option(cur ? cur : &global, key, val);
			char why[640];

			if (rc) {
				job_option_error(key, val, rc, why, sizeof(why));
				seterr(err, errlen, "%s:%d: %s", file, lineno, why);
				goto fail;
			}
		}
	}
	if (cur && finish_job(file, cur, err, errlen))
		goto fail;
	if (!nr) {
		seterr(err, errlen, "%s: no jobs", file);
		goto fail;
	}
	/*
	 * fio's $jobnum counts each job's clones from 0: two jobs whose
	 * format names no $jobname, in one directory, would share files
	 */
	{
		size_t i, k;

		for (i = 0; i < nr; i++)
			for (k = 0; k < i; k++) {
				const struct job_spec *a = &jobs[k], *b = &jobs[i];

				if (!b->filename_format[0] || b->filename[0] || a->filename[0] ||
				    strcasestr(b->filename_format, "$jobname") ||
				    strcasecmp(a->filename_format, b->filename_format) ||
				    strcmp(a->directory, b->directory))
					continue;
				seterr(err, errlen, "%s:%d: job '%s': filename_format '%s' without $jobname names "
				       "the files of job '%s' (line %d) too, which antic-sim does not model",
				       file, b->line, b->name, b->filename_format, a->name, a->line);
				goto fail;
			}
	}
	/* ioscheduler=: one disk, so one scheduler for every job that names one */
	{
		size_t i, first = nr;

		for (i = 0; i < nr; i++) {
			if (!jobs[i].ioscheduler)
				continue;
			if (first == nr) {
				first = i;
			} else if (jobs[i].ioscheduler != jobs[first].ioscheduler) {
				seterr(err, errlen, "%s:%d: job '%s': ioscheduler=%s, but job '%s' (line %d) "
				       "has %s: the jobs share one disk, so one scheduler",
				       file, jobs[i].line, jobs[i].name,
				       antic_policy_names[jobs[i].ioscheduler - 1].kernel, jobs[first].name,
				       jobs[first].line, antic_policy_names[jobs[first].ioscheduler - 1].kernel);
				goto fail;
			}
		}
		if (first < nr)
			w->set.ioscheduler = jobs[first].ioscheduler;
	}
	w->jobs = jobs;
	w->nr_jobs = nr;
	return 0;
fail:
	free(jobs);
	w->jobs = NULL;
	w->nr_jobs = 0;
	return -1;
}

int jobfile_load(const char *path, struct workload *w, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	int rc;

	if (!f)
		return seterr(err, errlen, "%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return seterr(err, errlen, "%s: cannot read", path);
	}
	if (n > (16 << 20)) {
		fclose(f);
		return seterr(err, errlen, "%s: larger than 16 MiB", path);
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return seterr(err, errlen, "%s: cannot read", path);
	}
	fclose(f);
	buf[n] = 0;
	if (strlen(buf) != (size_t)n) {
		free(buf);
		return seterr(err, errlen, "%s: contains a NUL byte", path);
	}
	rc = jobfile_parse(path, buf, w, err, errlen);
	free(buf);
	return rc;
}

void workload_free(struct workload *w)
{
	free(w->jobs);
	w->jobs = NULL;
	w->nr_jobs = 0;
}
