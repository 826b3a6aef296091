/* SPDX-License-Identifier: MIT */
/* INI job profiles through libinih: [global] inheritance, one job per section, FILE:LINE errors. */
#include <errno.h>
#include <glob.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/input.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/options.h"
#include "core/version.h"
#include "run/profile.h"
#include "run/profile_fio.h"
#include "run/run_options.h"

#define MOD "profile"

/*
 * Debian's libinih 55 is built without INI_HANDLER_LINENO and without
 * INI_CALL_HANDLER_ON_NEW_SECTION, so the handler knows neither the line nor a section
 * that has no keys. Our reader feeds inih one line at a time, so it knows the line the
 * handler is working on, and it sees every section header (a job may be all [global]).
 *
 * The profile rules must not depend on how the distribution built inih (r55 on Debian 12,
 * r59 on Debian 13): the reader enforces its own line limit, and every buffer it returns
 * ends with '\n' (except the last line of a file without one). r59 reads on to the next
 * newline when handed a full buffer without one, which would swallow the line after a
 * long comment that the reader already skipped.
 */
#define PROFILE_LINE_MAX 198 /* characters, without the newline: inih's default buffer */
/* A profile is a page of text; anything larger is the wrong file (a device, a log). */
#define PROFILE_MAX_BYTES (1u << 20)
struct prof_state {
	const char *path;
	FILE *fp;
	int line;
	int err; /* first error, already logged; parsing stops there */
	struct job_opts global;
	struct job_opts *jobs;
	size_t njobs, cap;
	struct job_opts *cur; /* &global, a job, or NULL before the first section */
	const struct opt_desc *table;
	size_t ntable;
	int *key_line; /* per table row: where the current section set it, 0 = not yet */
	int fio;       /* a fio job file: its keys go through profile_fio.c first */
	unsigned char *fio_said; /* per fio key row: its note was printed */
	/* fio's filename= and directory=: one each for the whole file (one target a run) */
	char fio_path[2][PROFILE_LINE_MAX + 1];
	int fio_path_line[2];
};

static void perr(struct prof_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void perr(struct prof_state *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (s->err)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_err(MOD, "%s:%d: %s", s->path, s->line, msg);
	s->err = -EINVAL;
}

/* "job 'SEQ1M'" or "[global]" for messages. */
static const char *sect_name(const struct prof_state *s, char *buf, size_t len)
{
	if (s->cur == &s->global)
		snprintf(buf, len, "[global]");
	else
		snprintf(buf, len, "job '%s'", s->cur->name);
	return buf;
}

/* Job names end up in file names and CSV columns: keep them plain. */
static int name_ok(const char *name)
{
	const char *p;

	for (p = name; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && !strchr("._+-", *p))
			return 0;
	return *name != '\0';
}

/* "[name]" into name; 0, or -1 with the error reported. */
static int section_name(struct prof_state *s, const char *hdr, char *name, size_t len)
{
	const char *end = strchr(hdr, ']');
	size_t n;

	if (!end) {
		perr(s, "section header without ']'");
		return -1;
	}
	n = (size_t)(end - hdr - 1);
	if (n >= len) {
		perr(s, "section name longer than %zu characters", len - 1);
		return -1;
	}
	memcpy(name, hdr + 1, n);
	name[n] = '\0';
	return 0;
}

/* A job section starts from what [global] holds at this point of the file. */
static void add_job(struct prof_state *s, const char *name)
{
	size_t i;

	if (!name_ok(name)) {
		perr(s, "job name '%s': use letters, digits and . _ + - only", name);
		return;
	}
	for (i = 0; i < s->njobs; i++) {
		if (!strcmp(s->jobs[i].name, name)) {
			perr(s, "duplicate section [%s] (first at line %d)", name,
			     s->jobs[i].src_line);
			return;
		}
	}
	if (s->njobs == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->jobs = xrealloc(s->jobs, s->cap * sizeof(*s->jobs));
	}
	s->cur = &s->jobs[s->njobs++];
	*s->cur = s->global;
	snprintf(s->cur->name, sizeof(s->cur->name), "%s", name);
	snprintf(s->cur->src_file, sizeof(s->cur->src_file), "%s", s->path);
	s->cur->src_line = s->line;
}

static void new_section(struct prof_state *s, const char *hdr)
{
	char name[sizeof(((struct job_opts *)0)->name)];

	if (section_name(s, hdr, name, sizeof(name)))
		return;
	memset(s->key_line, 0, s->ntable * sizeof(*s->key_line));
	/* As in fio, a later [global] changes what the jobs after it inherit. */
	if (!strcmp(name, "global"))
		s->cur = &s->global;
	else
		add_job(s, name);
}

/* fio's bare boolean key (`time_based`) is `key=1`; inih wants a value. */
static void bare_key(struct prof_state *s, char *line, size_t size)
{
	size_t n = strcspn(line, "\r\n");

	if (n + 4 > size) {
		perr(s, "line longer than %zu characters", size - 4);
		return;
	}
	memcpy(line + n, "=1\n", 4);
}

static char *reader(char *str, int num, void *stream)
{
	struct prof_state *s = stream;
	char *line = str, *p, tail[256];
	size_t len;
	int size = num < PROFILE_LINE_MAX + 2 ? num : PROFILE_LINE_MAX + 2;

	if (s->err || !fgets(str, size, s->fp))
		return NULL;
	s->line++;
	/* inih skips a UTF-8 byte order mark on the first line; so must we. */
	if (s->line == 1 && !strncmp(str, "\xEF\xBB\xBF", 3))
		str += 3;
	for (p = str; *p == ' ' || *p == '\t'; p++)
		;
	len = strlen(line);
	if (len == (size_t)size - 1 && line[len - 1] != '\n' && !feof(s->fp)) {
		/* inih would read the rest as a line of its own; a long comment is harmless. */
		if (*p != ';' && *p != '#') {
			perr(s, "line longer than %d characters", size - 2);
			return NULL;
		}
		while (fgets(tail, sizeof(tail), s->fp) && !strchr(tail, '\n'))
			;
		line[len - 1] = '\n'; /* the comment is cut; the line ends here for every inih */
	}
	if (s->fio && p != str) {
		/* fio strips the blanks in front of every line and has no continuation lines. */
		memmove(str, p, strlen(p) + 1);
		p = str;
	}
	if (s->fio && *p && !strchr("[;#\r\n", *p) && !strpbrk(p, "=:"))
		bare_key(s, line, (size_t)size);
	if (*p == '[' && p == str)
		new_section(s, str);
	else if (p != str && *p && *p != '\n' && *p != '\r' && *p != ';' && *p != '#')
		/* inih would glue it to the previous value as a continuation line. */
		perr(s, "indented line: start keys and sections in the first column");
	return s->err ? NULL : line;
}

/* inih strips only ';' inline comments; fio job files also use '#'. */
static void strip_hash_comment(char *v)
{
	char *p, *end;

	for (p = v; *p; p++) {
		if (*p == '#' && (p == v || p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			break;
		}
	}
	end = v + strlen(v);
	while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
}

/* The job option key names, or the error says what the key is instead. */
static const struct opt_desc *find_key(struct prof_state *s, const char *key)
{
	const struct opt_desc *d = opt_find(s->table, s->ntable, key);
	const char *hint;
	char sn[96];

	if (d)
		return d;
	sect_name(s, sn, sizeof(sn));
	hint = opt_suggest(s->table, s->ntable, key);
	if (s->fio)
		perr(s, "%s: fio's '%s' is not a key iowatt reads (iowatt run --help lists the "
			"keys it has)%s%s%s", sn, key, hint ? "; did you mean '" : "", hint ? hint : "",
		     hint ? "'?" : "");
	else if (opt_find(run_options, run_options_count, key))
		perr(s, "%s: '%s' is a run option: give it on the command line (a shared "
			"profile never chooses the device or the meters)", sn, key);
	else if (hint)
		perr(s, "%s: unknown key '%s'; did you mean '%s'?", sn, key, hint);
	else
		perr(s, "%s: unknown key '%s' (iowatt run --help lists them)", sn, key);
	return NULL;
}

/* filename= or directory=: the same for every job, since a run has one target. */
static void fio_target(struct prof_state *s, size_t which, const char *key, const char *v)
{
	if (!v[0]) {
		perr(s, "'%s' has no value", key);
	} else if (strchr(v, ':')) {
		perr(s, "%s=%s: several files (':') in one job; iowatt runs on one target", key, v);
	} else if (!s->fio_path_line[which]) {
		snprintf(s->fio_path[which], sizeof(s->fio_path[which]), "%s", v);
		s->fio_path_line[which] = s->line;
	} else if (strcmp(s->fio_path[which], v)) {
		perr(s, "%s=%s: iowatt runs every job of a file on one target, and line %d gave "
			"%s=%s", key, v, s->fio_path_line[which], key, s->fio_path[which]);
	}
}

/*
 * A fio file's key through the fio table: 1 when it was handled here (the target, ignored,
 * refused), 0 to go on as iowatt's key *key with the value v rewritten in iowatt's syntax.
 */
static int fio_key(struct prof_state *s, const char **key, char *v, size_t vlen)
{
	size_t idx;
	const struct fio_key *fk = profile_fio_key(*key, &idx);
	char out[256], err[400], sn[96];

	if (fk && fk->action == FIO_KEY_TARGET) {
		fio_target(s, !strcmp(fk->name, "directory"), *key, v);
		return 1;
	}
	if (fk && fk->action == FIO_KEY_REFUSE && !(fk->fine && !strcmp(v, fk->fine))) {
		perr(s, "%s: fio's '%s' is not something iowatt can do: %s",
		     sect_name(s, sn, sizeof(sn)), *key, fk->why);
		return 1;
	}
	if (fk && fk->action != FIO_KEY_RENAME) {
		if (fk->action == FIO_KEY_IGNORE && !s->fio_said[idx])
			log_warn(MOD, "%s:%d: fio's '%s' is ignored: %s", s->path, s->line, *key,
				 fk->why);
		s->fio_said[idx] = 1;
		return 1;
	}
	if (fk) {
		if (!s->fio_said[idx])
			log_info(MOD, "%s:%d: fio's %s=%s is read as %s=%s: %s", s->path, s->line, *key, v,
				 fk->to, v, fk->why);
		s->fio_said[idx] = 1;
		*key = fk->to;
	}
	if (profile_fio_value(*key, v, out, sizeof(out), err, sizeof(err))) {
		perr(s, "%s: %s: %s", sect_name(s, sn, sizeof(sn)), *key, err);
		return 1;
	}
	snprintf(v, vlen, "%s", out);
	return 0;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct prof_state *s = user;
	const struct opt_desc *d;
	char v[256], err[400], sn[96];
	size_t idx;

	(void)section; /* the reader tracked it, with its line */
	if (s->err)
		return 1;
	if (!s->cur) {
		perr(s, "'%s' before any section: put it under [global] or a [job]", key);
		return 1;
	}
	snprintf(v, sizeof(v), "%s", value);
	strip_hash_comment(v);
	if (s->fio && fio_key(s, &key, v, sizeof(v)))
		return 1;
	d = find_key(s, key);
	if (!d)
		return 1;
	idx = (size_t)(d - s->table);
	if (s->key_line[idx]) {
		perr(s, "%s: '%s' given twice in this section (first at line %d)",
		     sect_name(s, sn, sizeof(sn)), key, s->key_line[idx]);
		return 1;
	}
	s->key_line[idx] = s->line;
	if (!v[0]) {
		perr(s, "%s: '%s' has no value", sect_name(s, sn, sizeof(sn)), key);
		return 1;
	}
	if (opt_set_for(d, s->cur, v, key, err, sizeof(err)))
		perr(s, "%s: %s", sect_name(s, sn, sizeof(sn)), err);
	return 1;
}

/* The line (1-based) that holds offset off. */
static int line_of(const char *text, size_t off)
{
	int line = 1;
	size_t i;

	for (i = 0; i < off; i++)
		line += text[i] == '\n';
	return line;
}

/*
 * The whole profile, checked for what inih would misread silently: a NUL byte ends its
 * line early, and a CR-only line end (old Mac files) makes the file one long line.
 */
static int profile_slurp(struct prof_state *s, char **text, size_t *len)
{
	const char *nul, *cr;
	int rc = input_read(s->path, 0, PROFILE_MAX_BYTES, text, len);

	if (rc == -EFBIG) {
		log_err(MOD, "%s: is larger than %u KiB: not a profile", s->path,
			PROFILE_MAX_BYTES >> 10);
		return -EINVAL;
	}
	if (rc) {
		log_err(MOD, "%s: %s", s->path, input_strerror(rc));
		return rc == -ESPIPE || rc == -EISDIR ? -EINVAL : rc;
	}
	nul = memchr(*text, '\0', *len);
	for (cr = memchr(*text, '\r', *len); cr && cr + 1 < *text + *len && cr[1] == '\n';
	     cr = memchr(cr + 1, '\r', (size_t)(*text + *len - cr - 1)))
		;
	if (cr && cr + 1 == *text + *len)
		cr = NULL; /* a last line ending in CR alone is still one line */
	if (nul) {
		s->line = line_of(*text, (size_t)(nul - *text));
		perr(s, "NUL byte in the line: a profile is text (is this a binary file?)");
	} else if (cr) {
		s->line = line_of(*text, (size_t)(cr - *text));
		perr(s, "line ends with a lone CR (carriage return): save the file with LF "
			"or CRLF line ends");
	}
	if (s->err) {
		free(*text);
		*text = NULL;
	}
	return s->err;
}

/* fio's defaults where iowatt's differ, on [global] before the file's first line. */
static void fio_global(struct prof_state *s)
{
	const struct fio_default *fd;
	char err[400];

	for (fd = fio_defaults; fd->key; fd++)
		if (opt_set(opt_find(s->table, s->ntable, fd->key), &s->global, fd->value, err,
			    sizeof(err)))
			log_err(MOD, "fio's default %s=%s: %s", fd->key, fd->value, err);
}

/* filename= and directory= into the target, and what a fio file's defaults did. */
static void fio_finish(struct prof_state *s, struct profile_info *info)
{
	const char *dir = s->fio_path[1], *file = s->fio_path[0];
	char names[256];
	size_t i, used = 0;

	names[0] = '\0';
	for (i = 0; i < s->njobs; i++)
		if (!s->jobs[i].direct && used < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 used ? ", " : "", s->jobs[i].name);
	if (used)
		log_warn(MOD, "%s: %s run%s buffered (direct=0, fio's default where a fio file "
			 "does not set direct): the page cache takes part in what is measured; "
			 "direct=1 measures the device", s->path, names, strchr(names, ',') ? "" : "s");
	if (!info)
		return;
	info->fio = 1;
	if (*dir && *file && *file != '/')
		info->target = xasprintf("%s/%s", dir, file);
	else if (*file || *dir)
		info->target = xstrdup(*file ? file : dir);
	info->target_line = s->fio_path_line[*file ? 0 : 1];
}

int profile_load(const char *path, struct job_opts **jobs, size_t *njobs,
		 struct profile_info *info)
{
	struct prof_state s;
	char *text;
	size_t len;
	int rc;

	*jobs = NULL;
	*njobs = 0;
	if (info)
		memset(info, 0, sizeof(*info));
	memset(&s, 0, sizeof(s));
	s.path = path;
	s.fio = profile_fio_is(path);
	s.table = job_option_table(&s.ntable);
	job_defaults(&s.global);
	if (s.fio)
		fio_global(&s);
	rc = profile_slurp(&s, &text, &len);
	if (rc)
		return rc;
	s.fp = fmemopen(text, len ? len : 1, "r");
	if (!s.fp) {
		rc = -errno;
		log_err(MOD, "%s: %s", path, strerror(errno));
		free(text);
		return rc;
	}
	s.key_line = xcalloc(s.ntable, sizeof(*s.key_line));
	s.fio_said = xcalloc(profile_fio_nkeys(), 1);
	rc = ini_parse_stream(reader, &s, handler, &s);
	fclose(s.fp);
	free(text);
	free(s.key_line);
	free(s.fio_said);
	if (!s.err && rc > 0) {
		s.line = rc;
		perr(&s, "expected 'key = value', a [section] or a comment");
	} else if (!s.err && rc < 0) {
		log_err(MOD, "%s: out of memory while parsing", path);
		s.err = -ENOMEM;
	}
	if (!s.err && !s.njobs) {
		s.line = s.line ? s.line : 1;
		perr(&s, "no jobs: a profile is [global] then one [NAME] section per job");
	}
	if (s.err) {
		free(s.jobs);
		return s.err;
	}
	if (s.fio)
		fio_finish(&s, info);
	*jobs = s.jobs;
	*njobs = s.njobs;
	return 0;
}

static char *exe_dir_self(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrdup(buf);
}

static int ends_with(const char *s, const char *sfx)
{
	size_t n = strlen(s), k = strlen(sfx);

	return n >= k && !strcmp(s + n - k, sfx);
}

static const char *const rel_dirs[] = { "configs", "../configs", "../share/iowatt/configs" };

/* Search directory i (0..ARRAY_SIZE(rel_dirs)); NULL when it needs an unknown exe_dir. */
static char *search_dir(size_t i, const char *exe_dir)
{
	if (i < ARRAY_SIZE(rel_dirs))
		return exe_dir ? xasprintf("%s/%s", exe_dir, rel_dirs[i]) : NULL;
	return xasprintf("%s/share/iowatt/configs", iowatt_prefix);
}

char *profile_find(const char *name, const char *exe_dir)
{
	const char *ext = ends_with(name, ".ini") || profile_fio_is(name) ? "" : ".ini";
	char *own = NULL, *dir, *cand, *real, tried[1024];
	size_t used = 0, i;

	/* A path, or a file named like a profile that is right here, is used as given. */
	if (strchr(name, '/') || (!ext[0] && !access(name, R_OK))) {
		if (!access(name, R_OK))
			return xstrdup(name);
		log_err(MOD, "profile %s: %s", name, strerror(errno));
		return NULL;
	}
	if (!exe_dir)
		exe_dir = own = exe_dir_self();
	tried[0] = '\0';
	for (i = 0; i <= ARRAY_SIZE(rel_dirs); i++) {
		dir = search_dir(i, exe_dir);
		if (!dir)
			continue;
		cand = xasprintf("%s/%s%s", dir, name, ext);
		free(dir);
		if (!access(cand, R_OK)) {
			real = realpath(cand, NULL);
			free(own);
			if (!real)
				return cand;
			free(cand);
			return real;
		}
		if (used < sizeof(tried))
			used += (size_t)snprintf(tried + used, sizeof(tried) - used, "%s%s",
						 used ? ", " : "", cand);
		free(cand);
	}
	free(own);
	if (!access(name, R_OK))
		return xstrdup(name);
	log_err(MOD, "profile '%s' not found (looked for %s; give a path to use another file)",
		name, tried);
	return NULL;
}

void profile_names(char *buf, size_t len)
{
	char *exe_dir = exe_dir_self(), *dir, *pat, *base;
	size_t i, k, used = 0;
	glob_t g;

	buf[0] = '\0';
	for (i = 0; i <= ARRAY_SIZE(rel_dirs) && !buf[0]; i++) {
		dir = search_dir(i, exe_dir);
		if (!dir)
			continue;
		pat = xasprintf("%s/*.ini", dir);
		if (!glob(pat, 0, NULL, &g)) {
			for (k = 0; k < g.gl_pathc && used < len; k++) {
				base = strrchr(g.gl_pathv[k], '/') + 1;
				used += (size_t)snprintf(buf + used, len - used, "%s%.*s",
							 used ? ", " : "",
							 (int)(strlen(base) - 4), base);
			}
			globfree(&g);
		}
		free(pat);
		free(dir);
	}
	free(exe_dir);
}
