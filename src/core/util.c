/* SPDX-License-Identifier: MIT */
/* Shared helpers: aborting allocators, monotonic time, unit parsers, atomic files. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/util.h"

static void oom(size_t n)
{
	log_err(NULL, "out of memory allocating %zu bytes", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		oom(n * sz);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		oom(strlen(s));
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	return s;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

int sleep_until_ns(uint64_t deadline_ns)
{
	struct timespec ts;
	int rc;

	ts.tv_sec = (time_t)(deadline_ns / NS_PER_SEC);
	ts.tv_nsec = (long)(deadline_ns % NS_PER_SEC);
	rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	return rc ? -rc : 0;
}

void sleep_ns(uint64_t ns)
{
	sleep_until_ns(now_ns() + ns);
}

/* Skips the number; returns the suffix start. */
static int parse_number_prefix(const char *s, double *val, const char **rest)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*val = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(*val))
		return errno == ERANGE ? -ERANGE : -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	*rest = end;
	return 0;
}

struct unit_mult {
	const char *suffix;
	double mult;
};

/* Number with an optional unit suffix from the table; "" in the table allows none. */
static int parse_with_unit(const char *s, const struct unit_mult *units, size_t n, double *out)
{
	const char *rest;
	double v;
	size_t i;
	int rc;

	if (!s)
		return -EINVAL;
	rc = parse_number_prefix(s, &v, &rest);
	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		if (!strcasecmp(rest, units[i].suffix)) {
			*out = v * units[i].mult;
			return *out >= 1.8e19 ? -ERANGE : 0;
		}
	}
	return -EINVAL;
}

int parse_size(const char *s, uint64_t *out)
{
	/* MB is 10^6 bytes as in every figure iowatt prints; a MiB says so (k, m, g are
	 * binary as in fio job files, which spell 1 MiB "1m"). */
	static const struct unit_mult units[] = {
		{ "", 1 },	       { "b", 1 },		{ "k", 1024.0 },
		{ "kib", 1024.0 },     { "kb", 1e3 },		{ "m", 1048576.0 },
		{ "mib", 1048576.0 },  { "mb", 1e6 },		{ "g", 1073741824.0 },
		{ "gib", 1073741824.0 }, { "gb", 1e9 },	{ "t", 1099511627776.0 },
		{ "tib", 1099511627776.0 }, { "tb", 1e12 },
	};
	double v;
	int rc = parse_with_unit(s, units, ARRAY_SIZE(units), &v);

	if (rc)
		return rc;
	if (v != floor(v))
		return -EINVAL;
	*out = (uint64_t)v;
	return 0;
}

int parse_duration_ns(const char *s, uint64_t default_unit_ns, uint64_t *out)
{
	const struct unit_mult units[] = {
		{ "", (double)default_unit_ns }, { "ns", 1 }, { "us", 1e3 }, { "usec", 1e3 },
		{ "ms", 1e6 }, { "msec", 1e6 }, { "s", 1e9 }, { "sec", 1e9 }, { "m", 60e9 },
		{ "min", 60e9 }, { "h", 3600e9 },
	};
	double v;
	int rc = parse_with_unit(s, units, ARRAY_SIZE(units), &v);

	if (rc)
		return rc;
	*out = (uint64_t)llround(v);
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	/* Decimal unless "0x": a leading zero is not octal ("010" is ten). */
	v = strtoull(s, &end, strncasecmp(s, "0x", 2) ? 10 : 16);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, strncasecmp(s, "0x", 2) ? 10 : 16);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE || !isfinite(v))
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_bool(const char *s, int *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	size_t i;

	if (!s)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

const char *fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1024.0 && u + 1 < ARRAY_SIZE(units)) {
		v /= 1024.0;
		u++;
	}
	if (v == floor(v))
		snprintf(buf, len, "%.0f %s", v, units[u]);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
	return buf;
}

const char *fmt_duration(uint64_t ns, char *buf, size_t len)
{
	double s = (double)ns / 1e9;

	if (ns < NS_PER_MS)
		snprintf(buf, len, "%.0f us", (double)ns / 1e3);
	else if (s < 1.0)
		snprintf(buf, len, "%.0f ms", (double)ns / 1e6);
	else if (s < 60.0)
		snprintf(buf, len, "%.1f s", s);
	else
		snprintf(buf, len, "%" PRIu64 " min %02u s", (uint64_t)(ns / NS_PER_SEC / 60),
			 (unsigned)(ns / NS_PER_SEC % 60));
	return buf;
}

/* Decimals beyond this say nothing a table should (sub-nano figures are 0.000000...). */
#define FMT_SIG_MAX_DECIMALS 9

const char *fmt_sig(double v, int sig, char *buf, size_t len)
{
	int decimals;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (v == 0 || isinf(v)) {
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
	decimals = sig - 1 - (int)floor(log10(fabs(v)));
	if (decimals < 0)
		decimals = 0;
	if (decimals > FMT_SIG_MAX_DECIMALS)
		decimals = FMT_SIG_MAX_DECIMALS;
	snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

int fd_reopen(int fd, int flags)
{
	char path[32];
	int nfd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	nfd = open(path, flags | O_CLOEXEC | O_NOCTTY);
	return nfd < 0 ? -errno : nfd;
}

int output_open(const char *path, int replace)
{
	struct stat st;
	int fd, err;

	/* O_NONBLOCK: opening a FIFO put there must not wait for a reader. */
	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY |
				(replace ? 0 : O_EXCL), 0644);
	if (fd < 0)
		return -errno;
	err = fstat(fd, &st) ? -errno : !S_ISREG(st.st_mode) ? -EINVAL : 0;
	if (!err && (fcntl(fd, F_SETFL, 0) || (st.st_size && ftruncate(fd, 0))))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int output_check(const char *path, int replace)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode))
		return replace ? -ELOOP : -EEXIST;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	return replace ? 0 : -EEXIST;
}

FILE *output_fopen(const char *path, int replace)
{
	int fd = output_open(path, replace);
	FILE *fp;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	fp = fdopen(fd, "w");
	if (!fp) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return fp;
}

const char *output_strerror(int err)
{
	switch (err) {
	case -EEXIST:
		return "already exists (choose another path, or --force to replace it)";
	case -ELOOP:
		return "a symbolic link: iowatt does not write through one";
	case -EISDIR:
		return "a directory";
	case -EINVAL:
		return "not a regular file";
	default:
		return strerror(-err);
	}
}

int mem_available(uint64_t *bytes, const char **what)
{
	unsigned long long kib, pages;
	uint64_t best = UINT64_MAX;
	struct rlimit rl;
	char line[128];
	FILE *fp;

	*what = NULL;
	fp = fopen("/proc/meminfo", "re");
	if (fp) {
		while (fgets(line, sizeof(line), fp))
			if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
				best = (uint64_t)kib * 1024;
				*what = "MemAvailable";
				break;
			}
		fclose(fp);
	}
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY) {
		uint64_t used = 0, lim = (uint64_t)rl.rlim_cur;

		fp = fopen("/proc/self/statm", "re");
		if (fp) {
			if (fscanf(fp, "%llu", &pages) == 1)
				used = (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
			fclose(fp);
		}
		if ((lim > used ? lim - used : 0) < best) {
			best = lim > used ? lim - used : 0;
			*what = "ulimit -v";
		}
	}
	if (!*what)
		return -ENOENT;
	*bytes = best;
	return 0;
}

int read_text_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return 0;
}

int read_int_file(const char *path, long long *out)
{
	char buf[64], *end;
	long long v;
	int rc;

	rc = read_text_file(path, buf, sizeof(buf));
	if (rc)
		return rc;
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (end == buf || errno)
		return -EINVAL;
	*out = v;
	return 0;
}

int atomic_file_open(struct atomic_file *af, const char *path)
{
	int fd;

	memset(af, 0, sizeof(*af));
	af->path = xstrdup(path);
	af->tmp_path = xasprintf("%s.tmp.%ld", path, (long)getpid());
	fd = open(af->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		int err = -errno;

		log_err(NULL, "%s: %s", af->tmp_path, strerror(errno));
		free(af->path);
		free(af->tmp_path);
		memset(af, 0, sizeof(*af));
		return err;
	}
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		close(fd);
		unlink(af->tmp_path);
		free(af->path);
		free(af->tmp_path);
		memset(af, 0, sizeof(*af));
		return -ENOMEM;
	}
	return 0;
}

static void fsync_parent_dir(const char *path)
{
	char *copy = xstrdup(path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

int atomic_file_commit(struct atomic_file *af)
{
	int rc = 0;

	if (!af->fp)
		return -EBADF;
	if (fflush(af->fp) || fsync(fileno(af->fp)))
		rc = -errno;
	if (fclose(af->fp) && !rc)
		rc = -errno;
	af->fp = NULL;
	if (!rc && rename(af->tmp_path, af->path))
		rc = -errno;
	if (rc) {
		log_err(NULL, "%s: %s", af->path, strerror(-rc));
		unlink(af->tmp_path);
	} else {
		fsync_parent_dir(af->path);
	}
	free(af->path);
	free(af->tmp_path);
	af->path = af->tmp_path = NULL;
	return rc;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fp) {
		fclose(af->fp);
		unlink(af->tmp_path);
	}
	free(af->path);
	free(af->tmp_path);
	memset(af, 0, sizeof(*af));
}

int mkdir_p(const char *path, unsigned mode)
{
	char *p = xstrdup(path), *s;
	int rc = 0;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) && errno != EEXIST) {
			rc = -errno;
			break;
		}
		*s = '/';
	}
	if (!rc && mkdir(p, mode) && errno != EEXIST)
		rc = -errno;
	free(p);
	return rc;
}

void opt_name_normalize(char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			*s = '_';
		else
			*s = (char)tolower((unsigned char)*s);
	}
}
