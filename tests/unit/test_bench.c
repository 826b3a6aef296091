/* SPDX-License-Identifier: MIT */
/* The job runner on a temp file: exact sizes per engine and mode, syncs, pacing, stop, errors. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "core/units.h"
#include "engines_util.h"
#include "io/bench.h"
#include "io/engine.h"
#include "io/job.h"
#include "io/pattern.h"
#include "run/result_from_bench.h"
#include "tap.h"


static char dir[] = "/var/tmp/iowatt-bench.XXXXXX";
static char path[256];
static const char *const rw_names[] = {"read", "write", "randread", "randwrite", "randrw"};

/* A small job on engine (its own options at their defaults). */
static void test_job(struct job_opts *jo, const char *engine, int rw)
{
	job_defaults(jo);
	snprintf(jo->name, sizeof(jo->name), "%s-%s", engine, rw_names[rw]);
	snprintf(jo->ioengine, sizeof(jo->ioengine), "%s", engine);
	jo->rw = rw;
	jo->bs = 4 * KIB;
	jo->iodepth = 4;
	jo->size = 256 * KIB;
	jo->randseed = 42;
}

/* The best usable engine of this build that is (or is not) asynchronous, or NULL. */
static const struct io_engine *engine_with(unsigned flag, int set)
{
	size_t i;

	for (i = 0; engines[i]; i++)
		if (!!(engines[i]->flags & flag) == set)
			return engines[i];
	return NULL;
}

/* A file of `len` bytes of non-zero data, as the target module would lay it out. */
static int make_file(const char *p, uint64_t len)
{
	static char chunk[64 * 1024];
	uint64_t done = 0;
	size_t n;
	int fd;

	memset(chunk, 0xa5, sizeof(chunk));
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -errno;
	while (done < len) {
		n = len - done < sizeof(chunk) ? (size_t)(len - done) : sizeof(chunk);
		if (write(fd, chunk, n) != (ssize_t)n) {
			close(fd);
			return -EIO;
		}
		done += n;
	}
	fsync(fd);
	close(fd);
	return 0;
}

static int run_job(const struct job_opts *jo, struct bench_result *res)
{
	struct bench *b;
	int rc;

	rc = bench_start(jo, path, &b);
	if (rc)
		return rc;
	while (!bench_wait(b, NS_PER_SEC))
		;
	bench_finish(b, res);
	return 0;
}

static void test_exact_sizes(void)
{
	struct bench_result *res = malloc(sizeof(*res));
	struct job_opts jo;
	uint64_t bytes, ios;
	size_t e;
	int rw, rc;

	for (e = 0; engines[e]; e++) {
		for (rw = RW_READ; rw <= RW_RANDRW; rw++) {
			test_job(&jo, engines[e]->name, rw);
			jo.filesize =
			    1 * MIB; /* a quarter of the region: random spreads, seq stops */
			rc = run_job(&jo, res);
			bytes = res->dir[0].io_bytes + res->dir[1].io_bytes;
			ios = res->dir[0].total_ios + res->dir[1].total_ios;
			ok(!rc && res->status == BENCH_OK && bytes == jo.size &&
			       ios == jo.size / jo.bs,
			   "%s: status ok, exactly %" PRIu64 " bytes in %" PRIu64 " I/Os", jo.name,
			   jo.size, jo.size / jo.bs);
			if (rc || res->status)
				printf("#   rc %d status %d: %s\n", rc, res->status, res->errmsg);
			printf("#   read %" PRIu64 " write %" PRIu64 " bytes, syncs %" PRIu64 "\n",
			       res->dir[0].io_bytes, res->dir[1].io_bytes, res->syncs);
			ok((rw_reads(rw) || !res->dir[DDIR_READ].io_bytes) &&
			       (rw_writes(rw) || !res->dir[DDIR_WRITE].io_bytes) &&
			       (rw != RW_RANDRW ||
				(res->dir[0].total_ios && res->dir[1].total_ios)),
			   "%s: directions as the mode says", jo.name);
			ok(res->dir[0].clat.n == res->dir[0].total_ios &&
			       res->dir[1].clat.n == res->dir[1].total_ios &&
			       res->t_end_ns > res->t_start_ns,
			   "%s: one latency per I/O, t_end after t_start", jo.name);
			is_int(res->syncs, rw_writes(rw) ? 1 : 0, "%s: end_fsync default", jo.name);
		}
	}
	free(res);
}

static void test_fdatasync(void)
{
	struct bench_result *res = malloc(sizeof(*res));
	struct job_opts jo;
	size_t e;

	for (e = 0; engines[e]; e++) {
		const char *name = engines[e]->name;

		test_job(&jo, name, RW_RANDWRITE);
		jo.fdatasync = 4;
		jo.size = 64 * jo.bs;
		ok(!run_job(&jo, res) && res->status == BENCH_OK, "%s fdatasync=4: ok", name);
		is_int(res->syncs, 64 / 4 + 1, "%s fdatasync=4: 16 syncs + end_fsync", name);
		is_int(res->sync_lat.n, res->syncs, "%s fdatasync=4: each sync timed", name);
		if (engines[e]->flags & IOENG_NEEDS_DIRECT)
			continue;

		test_job(&jo, name, RW_WRITE);
		jo.fdatasync = 1;
		jo.end_fsync = 0;
		jo.direct = 0;
		jo.bs = 2300; /* the small synced record of a log or database */
		jo.size = 20 * jo.bs;
		ok(!run_job(&jo, res) && res->status == BENCH_OK &&
		       res->dir[DDIR_WRITE].io_bytes == 20 * 2300,
		   "%s buffered bs=2300 fdatasync=1: ok, exact bytes", name);
		is_int(res->syncs, 20, "%s fdatasync=1 end_fsync=0: one sync per write", name);
	}
	free(res);
}

static void test_rate(void)
{
	struct bench_result *res = malloc(sizeof(*res));
	struct job_opts jo;
	uint64_t min_ns;
	size_t e;

	for (e = 0; engines[e]; e++) {
		test_job(&jo, engines[e]->name, RW_RANDREAD);
		jo.rate_iops = 50;
		jo.size = 10 * jo.bs;
		/* I/O k starts at t0 + k/rate: the last one no sooner than (n-1)/rate. */
		min_ns = 9 * NS_PER_SEC / 50;
		ok(!run_job(&jo, res) && res->status == BENCH_OK &&
		       res->dir[DDIR_READ].total_ios == 10,
		   "%s rate_iops=50: all 10 I/Os done", jo.name);
		if (!ok(res->t_end_ns - res->t_start_ns >= min_ns,
			"%s rate_iops=50: took at least 9/50 s", jo.name))
			printf("#   took %" PRIu64 " ns\n", res->t_end_ns - res->t_start_ns);
	}
	free(res);
}

static void test_stop_and_cap(void)
{
	struct bench_result *res = malloc(sizeof(*res));
	const char *best = engines[0]->name, *sync = engine_with(IOENG_ASYNC, 0)->name;
	struct bench_progress pr;
	struct job_opts jo;
	struct bench *b;
	int rc, i;

	test_job(&jo, best, RW_RANDREAD);
	jo.size = 64 * 1024 * MIB; /* far more than the test waits for */
	jo.filesize = 1 * MIB;
	rc = bench_start(&jo, path, &b);
	ok(!rc, "stop: started");
	if (rc)
		return;
	ok(!bench_wait(b, 50 * NS_PER_MS), "stop: still running after 50 ms");
	/* Stopped once an I/O is counted: on a busy machine the workers may not have done one
	 * within any fixed time, and "partial figures" needs one. */
	for (i = 0; i < 3000 && (bench_get_progress(b, &pr), !pr.ios[0]); i++)
		bench_wait(b, 10 * NS_PER_MS);
	bench_stop(b);
	ok(bench_wait(b, 30 * NS_PER_SEC), "stop: workers drained and ended");
	bench_get_progress(b, &pr);
	bench_finish(b, res);
	is_int(res->status, BENCH_INTERRUPTED, "stop: status INTERRUPTED");
	ok(res->dir[0].total_ios > 0 && res->dir[0].total_ios < jo.size / jo.bs &&
	       res->dir[0].io_bytes == res->dir[0].total_ios * jo.bs,
	   "stop: partial figures kept (%" PRIu64 " I/Os)", res->dir[0].total_ios);
	ok(pr.ios[0] == res->dir[0].total_ios && pr.bytes[0] == res->dir[0].io_bytes,
	   "stop: live counters equal the final figures");

	/* A paced job sleeping for its next slot must wake on stop, not after its sleep. */
	test_job(&jo, sync, RW_RANDREAD);
	jo.rate_iops = 1;
	jo.size = 1000 * jo.bs;
	rc = bench_start(&jo, path, &b);
	ok(!rc, "paced stop: started");
	if (rc)
		return;
	/* Stopped once its first I/O is counted, so it is asleep until the next slot (1 s on). */
	for (i = 0; i < 1000 && (bench_get_progress(b, &pr), !pr.ios[0]); i++)
		bench_wait(b, 10 * NS_PER_MS);
	bench_stop(b);
	ok(bench_wait(b, 30 * NS_PER_SEC), "paced stop: ended long before its 999 s schedule");
	bench_finish(b, res);
	ok(res->status == BENCH_INTERRUPTED && res->dir[0].total_ios >= 1 &&
	       res->dir[0].total_ios < 1000,
	   "paced stop: INTERRUPTED with %" PRIu64 " I/Os", res->dir[0].total_ios);

	test_job(&jo, best, RW_RANDWRITE);
	jo.size = 64 * 1024 * MIB;
	jo.filesize = 1 * MIB;
	jo.runtime_ns = NS_PER_SEC; /* long enough for a starved worker's first I/O */
	ok(!run_job(&jo, res) && res->status == BENCH_OK, "runtime cap: status stays ok");
	ok(res->dir[1].io_bytes > 0 && res->dir[1].io_bytes < jo.size &&
	       res->t_end_ns - res->t_start_ns >= jo.runtime_ns,
	   "runtime cap: stopped early with %" PRIu64 " bytes", res->dir[1].io_bytes);
	is_int(res->syncs, 1, "runtime cap: end_fsync still done");
	free(res);
}

static void test_errors(void)
{
	struct bench_result *res = malloc(sizeof(*res));
	char small[300], want[64];
	const char *name;
	struct job_opts jo;
	struct bench *b;
	size_t e;
	int rc;

	snprintf(small, sizeof(small), "%s/small", dir);
	make_file(small, 64 * KIB);
	for (e = 0; engines[e]; e++) {
		name = engines[e]->name;
		test_job(&jo, name, RW_READ);
		jo.iodepth = 1;
		jo.size = 1 * MIB;
		rc = bench_start(&jo, small, &b);
		is_int(rc, 0, "%s past EOF: starts", name);
		if (rc)
			continue;
		while (!bench_wait(b, NS_PER_SEC))
			;
		bench_finish(b, res);
		is_int(res->status, BENCH_FAILED, "%s past EOF: FAILED", name);
		is_int(res->err, -EIO, "%s past EOF: err -EIO", name);
		snprintf(want, sizeof(want), "read at offset %llu: short read", 64 * KIB);
		if (!ok(!strncmp(res->errmsg, want, strlen(want)),
			"%s past EOF: message names the offset", name))
			printf("#   got '%s'\n", res->errmsg);
		is_int(res->dir[0].io_bytes, 64 * KIB, "%s past EOF: the good part counted", name);

		/* O_DIRECT needs aligned sizes: the kernel refuses, the job fails cleanly. */
		test_job(&jo, name, RW_RANDWRITE);
		jo.bs = 1000;
		jo.size = 10 * jo.bs;
		ok(!run_job(&jo, res) && res->status == BENCH_FAILED && res->err == -EINVAL &&
		       strstr(res->errmsg, "write at offset"),
		   "%s misaligned O_DIRECT write: FAILED with EINVAL (%s)", name, res->errmsg);
	}
	unlink(small);
	test_job(&jo, engines[0]->name, RW_READ);
	snprintf(small, sizeof(small), "%s/missing", dir);
	is_int(bench_start(&jo, small, &b), -ENOENT, "missing file: -ENOENT, nothing runs");
	snprintf(jo.ioengine, sizeof(jo.ioengine), "nope");
	is_int(bench_start(&jo, path, &b), -EINVAL, "unknown engine: -EINVAL");
	free(res);
}

/* One engine filling a sparse file on a full tmpfs: the first ENOSPC fails the job. */
static void enospc_on(const char *engine, const char *file)
{
	struct bench_result *res = malloc(sizeof(*res));
	struct bench *b = NULL;
	struct job_opts jo;
	int fd, rc;

	fd = open(file, O_RDWR | O_CREAT | O_EXCL, 0600);
	rc = fd >= 0 && !ftruncate(fd, 1 * MIB) ? 0 : -1;
	if (fd >= 0)
		close(fd);
	test_job(&jo, engine, RW_WRITE);
	jo.direct = 0;
	jo.size = 1 * MIB;
	ok(!rc && !bench_start(&jo, file, &b), "%s ENOSPC: started on a sparse file", engine);
	if (b) {
		while (!bench_wait(b, NS_PER_SEC))
			;
		bench_finish(b, res);
		ok(res->status == BENCH_FAILED && res->err == -ENOSPC &&
		       strstr(res->errmsg, "write at offset") &&
		       strstr(res->errmsg, "No space left on device"),
		   "%s ENOSPC: FAILED, -ENOSPC, '%s'", engine, res->errmsg);
		ok(res->dir[1].io_bytes > 0 && res->dir[1].io_bytes < jo.size && res->syncs == 0,
		   "%s ENOSPC: the writes before it counted (%" PRIu64 " bytes), no end_fsync",
		   engine, res->dir[1].io_bytes);
	}
	unlink(file);
	free(res);
}

/*
 * ENOSPC mid-job: buffered writes into the holes of a sparse file on a 256 KiB tmpfs
 * (root only; tmpfs has no O_DIRECT, so direct=0 with each engine that does buffered I/O).
 */
static void test_enospc(void)
{
	char mnt[300], file[320];
	size_t e;

	snprintf(mnt, sizeof(mnt), "%s/tiny", dir);
	snprintf(file, sizeof(file), "%s/sparse", mnt);
	if (geteuid() != 0 || mkdir(mnt, 0700) ||
	    mount("iowatt-test", mnt, "tmpfs", MS_NOSUID | MS_NODEV, "size=256k")) {
		skip("ENOSPC: needs root to mount a small tmpfs");
		rmdir(mnt);
		return;
	}
	for (e = 0; engines[e]; e++)
		if (!(engines[e]->flags & IOENG_NEEDS_DIRECT))
			enospc_on(engines[e]->name, file);
	umount(mnt);
	rmdir(mnt);
}

/* Each block of thread t's region must come from thread t's own write buffers. */
static int region_owner(const unsigned char *blk, const unsigned char *pools, unsigned nthreads,
			unsigned nbuf, uint64_t bs)
{
	unsigned t, i;

	for (t = 0; t < nthreads; t++)
		for (i = 0; i < nbuf; i++)
			if (!memcmp(blk, pools + ((uint64_t)t * nbuf + i) * bs, bs))
				return (int)t;
	return -1;
}

/* Every engine option lies inside the engine's options struct. */
static int options_fit(const struct io_engine *e)
{
	size_t k, need;

	if (e->noptions && (!e->options || !e->options_size))
		return 0;
	for (k = 0; k < e->noptions; k++) {
		need = e->options[k].type == OPT_BOOL || e->options[k].type == OPT_UINT ||
			       e->options[k].type == OPT_ENUM
			   ? sizeof(int)
			   : sizeof(uint64_t);
		if (e->options[k].off + need > e->options_size || !e->options[k].help)
			return 0;
	}
	return 1;
}

static void test_registry(void)
{
	const unsigned known = IOENG_ASYNC | IOENG_NEEDS_DIRECT | IOENG_DISCARD;
	size_t i, complete = 1, fits = 1;
	const struct io_engine *sync = engine_with(IOENG_ASYNC, 0);

	for (i = 0; io_engines[i]; i++) {
		if (!io_engines[i]->name || !io_engines[i]->help || !io_engines[i]->init ||
		    !io_engines[i]->submit || !io_engines[i]->reap || !io_engines[i]->cleanup ||
		    (io_engines[i]->flags & ~known) ||
		    io_engine_find(io_engines[i]->name) != io_engines[i])
			complete = 0;
		if (!options_fit(io_engines[i]))
			fits = 0;
	}
	ok(i >= 1 && complete, "registry: %zu engines, every hook and flag known, found by name",
	   i);
	ok(fits, "registry: every engine option lies inside its engine's options struct");
	ok(sync && !(sync->flags & IOENG_NEEDS_DIRECT) && !io_engine_find("posixaio"),
	   "registry: a synchronous engine that does buffered I/O; unknown names are not found");
#ifdef HAVE_LIBURING
	ok(io_engines[0] == io_engine_find("io_uring"), "registry: io_uring is the best engine");
#endif
#ifdef HAVE_LIBAIO
	ok(io_engine_find("libaio") != NULL, "registry: libaio is built in");
#endif
}

/* Engines' own options are rows of the job table that apply to their engine only. */
static void test_option_table(void)
{
	const struct opt_desc *t;
	struct job_opts jo;
	size_t n, i, k, rows = 0, wrong = 0;

	t = job_option_table(&n);
	for (i = 0; io_engines[i]; i++) {
		const struct io_engine *e = io_engines[i];

		test_job(&jo, e->name, RW_READ);
		for (k = 0; k < e->noptions; k++) {
			const struct opt_desc *d = opt_find(t, n, e->options[k].name);

			rows++;
			if (!d || job_option_engine(d) != e || !job_option_applies(&jo, d) ||
			    d->off < offsetof(struct job_opts, engine_opts) ||
			    d->off >= offsetof(struct job_opts, engine_opts) + JOB_ENGINE_OPTS_SIZE)
				wrong++;
		}
	}
	is_int(wrong, 0, "job table: the %zu engine options are rows of their engine", rows);
	for (i = 0, wrong = 0; i < n; i++) {
		const struct io_engine *e = job_option_engine(&t[i]);

		if (!e)
			continue;
		test_job(&jo, e == io_engines[0] && io_engines[1] ? io_engines[1]->name
								   : io_engines[0]->name,
			 RW_READ);
		if (e != io_engines[0] || io_engines[1])
			wrong += (size_t)job_option_applies(&jo, &t[i]);
	}
	is_int(wrong, 0, "job table: an engine option does not apply to another engine's job");
	ok(job_option_engine(opt_find(t, n, "bs")) == NULL, "job table: bs is generic");
}

/* Each boolean engine option flipped from its default still moves exactly size bytes. */
static void test_engine_options(void)
{
	struct bench_result *res = malloc(sizeof(*res));
	const struct opt_desc *t, *d;
	char err[256], val[8];
	struct job_opts jo;
	size_t n, i, k;

	t = job_option_table(&n);
	for (i = 0; engines[i]; i++) {
		for (k = 0; k < engines[i]->noptions; k++) {
			d = opt_find(t, n, engines[i]->options[k].name);
			if (d->type != OPT_BOOL)
				continue;
			test_job(&jo, engines[i]->name, RW_RANDRW);
			jo.iodepth = 8;
			snprintf(val, sizeof(val), "%d", !*(const int *)((const char *)&jo + d->off));
			ok(!opt_set(d, &jo, val, err, sizeof(err)), "%s=%s set", d->name, val);
			ok(!run_job(&jo, res) && res->status == BENCH_OK &&
			       res->dir[0].io_bytes + res->dir[1].io_bytes == jo.size,
			   "%s with %s=%s: exact bytes (%s)", jo.name, d->name, val, res->errmsg);
		}
	}
	free(res);
}

/* The default engine: the best one, or the best that does buffered I/O for direct=0. */
static void test_default_engine(void)
{
	const struct io_engine *buffered = engine_with(IOENG_NEEDS_DIRECT, 0);
	struct job_opts jo;

	job_defaults(&jo);
	is_str(jo.ioengine, "", "defaults leave ioengine unset");
	jo.size = 1 * MIB;
	job_fixup(&jo);
	is_str(jo.ioengine, engines[0]->name, "fixup picks the best engine this kernel runs");
	is_int(job_validate(&jo), 0, "and it validates");
	job_defaults(&jo);
	jo.size = 1 * MIB;
	jo.direct = 0;
	job_fixup(&jo);
	is_str(jo.ioengine, buffered->name, "direct=0: the best engine that does buffered I/O");
}

#if defined(HAVE_LIBURING) && defined(__NR_io_uring_setup)
/* From now on io_uring_setup fails with err in this process, as a container's filter does. */
static int block_io_uring(int err)
{
	struct sock_filter f[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA)),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = ARRAY_SIZE(f), .filter = f};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -errno;
	return 0;
}

/* In a child refused io_uring: what the default, validation and start say, on stderr. */
static void refused_child(int err, int out)
{
	const struct opt_desc *t;
	struct job_opts jo;
	struct bench *b;
	char e[256];
	size_t n;

	dup2(out, 2);
	log_set_level(LOG_WARN);
	if (block_io_uring(err)) {
		fprintf(stderr, "seccomp failed: %s\n", strerror(errno));
		_exit(1);
	}
	t = job_option_table(&n);
	job_defaults(&jo);
	jo.size = 1 * MIB;
	opt_set(opt_find(t, n, "fixedbufs"), &jo, "0", e, sizeof(e));
	job_fixup(&jo);
	fprintf(stderr, "auto=%s\n", jo.ioengine);
	test_job(&jo, "io_uring", RW_READ);
	fprintf(stderr, "validate=%d\n", job_validate(&jo));
	fprintf(stderr, "start=%d\n", bench_start(&jo, path, &b));
	_exit(0);
}

static const char *run_refused(int err, char *buf, size_t len)
{
	int fds[2], status;
	size_t used = 0;
	ssize_t k;
	pid_t pid;

	buf[0] = '\0';
	if (pipe(fds))
		return buf;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		refused_child(err, fds[1]);
	close(fds[1]);
	while (used + 1 < len && (k = read(fds[0], buf + used, len - 1 - used)) > 0)
		used += (size_t)k;
	buf[used] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return buf;
}

/*
 * A kernel that refuses io_uring (sysctl, seccomp): jobs that chose no engine fall back
 * to the next one with a warning; a job that chose io_uring fails before it starts, with
 * the reason.
 */
static void test_io_uring_refused(void)
{
	const char *next;
	char out[4096], want[64];

	if (engines[0] != io_engine_find("io_uring") || !engines[1]) {
		skip("io_uring refusal: io_uring does not run here, so it cannot be refused");
		return;
	}
	next = engines[1]->name;

	run_refused(EPERM, out, sizeof(out));
	snprintf(want, sizeof(want), "auto=%s\n", next);
	if (!ok(strstr(out, want) && strstr(out, "warning: job: ioengine io_uring is unavailable") &&
		    strstr(out, "seccomp"),
		"EPERM: unset ioengine falls back to %s with a warning naming seccomp", next))
		printf("# %s", out);
	ok(strstr(out, "fixedbufs is an option of ioengine=io_uring, which is not used: ignored") !=
	       NULL,
	   "EPERM: an io_uring option of a job that fell back is ignored with a warning");
	ok(strstr(out, "validate=-22\n") && strstr(out, "ioengine=io_uring: the kernel refuses"),
	   "EPERM: a job that chose io_uring fails validation, saying why");
	ok(strstr(out, "start=-1\n") != NULL, "EPERM: and bench_start refuses it with -EPERM");

	run_refused(ENOSYS, out, sizeof(out));
	ok(strstr(out, "auto=") && !strstr(out, "auto=io_uring") &&
	       strstr(out, "the kernel has no io_uring") && strstr(out, "validate=-22\n"),
	   "ENOSYS: fallback, and the message says the kernel has no io_uring");
}
#else
static void test_io_uring_refused(void)
{
	skip("io_uring is not in this build");
}
#endif

#if defined(HAVE_LIBAIO) && defined(__NR_io_setup)
/* As under qemu-user: the aio and io_uring syscalls answer ENOSYS in this process. */
static int block_async_syscalls(void)
{
	struct sock_filter f[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_setup, 2, 0),
#ifdef __NR_io_uring_setup
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 1, 0),
#else
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_setup, 1, 0),
#endif
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
	};
	struct sock_fprog prog = {.len = ARRAY_SIZE(f), .filter = f};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -errno;
	return 0;
}

/* What child(fd) writes to fd, in a forked process; NULL if no pipe could be made. */
static const char *child_stderr(void (*child)(int fd), char *out, size_t len)
{
	int fds[2], status;
	size_t used = 0;
	ssize_t k;
	pid_t pid;

	if (pipe(fds))
		return NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		child(fds[1]);
	close(fds[1]);
	while (used + 1 < len && (k = read(fds[0], out + used, len - 1 - used)) > 0)
		used += (size_t)k;
	out[used] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return out;
}

static void no_aio_child(int out)
{
	struct job_opts jo;

	dup2(out, 2);
	log_set_level(LOG_WARN);
	/* qemu-user has no seccomp, but there the syscalls are ENOSYS already. */
	if (block_async_syscalls())
		fprintf(stderr, "seccomp failed: %s\n", strerror(errno));
	job_defaults(&jo);
	jo.size = 1 * MIB;
	job_fixup(&jo);
	fprintf(stderr, "auto=%s\n", jo.ioengine);
	test_job(&jo, "libaio", RW_READ);
	fprintf(stderr, "validate=%d\n", job_validate(&jo));
	_exit(0);
}

/*
 * qemu-user answers io_setup (and io_uring_setup) with ENOSYS: a job that chose no engine
 * runs on psync after one warning naming libaio, a job that chose libaio is refused
 * before it starts with the engine to use instead.
 */
static void test_no_aio(void)
{
	char out[4096];

	if (!child_stderr(no_aio_child, out, sizeof(out))) {
		skip("no pipe");
		return;
	}
	/* Where the filter cannot be installed (qemu-user) the syscalls fail anyway, and the
	 * one warning per process was given before the fork. */
	if (!ok(strstr(out, "auto=psync\n") &&
		    (strstr(out, "seccomp failed") ||
		     strstr(out, "ioengine libaio is unavailable: libaio is not available here "
				 "(io_setup: ENOSYS")),
		"no aio syscalls: unset ioengine falls back to psync, saying libaio is not available"))
		printf("# %s", out);
	ok(strstr(out, "validate=-22\n") && strstr(out, "ioengine=libaio: libaio is not available") &&
	       strstr(out, "use --ioengine psync"),
	   "no aio syscalls: a job that chose libaio is refused, with the engine to use");
}

/* io_setup asking for more than AIO_BUSY_MAX events fails with EAGAIN, as when other
 * programs hold the kernel's aio request limit (fs.aio-max-nr). */
#define AIO_BUSY_MAX 4

static int limit_aio_events(void)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const unsigned arg0_low = offsetof(struct seccomp_data, args[0]);
#else
	const unsigned arg0_low = offsetof(struct seccomp_data, args[0]) + 4;
#endif
	struct sock_filter f[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_setup, 0, 3),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arg0_low),
	    BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, AIO_BUSY_MAX, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EAGAIN & SECCOMP_RET_DATA)),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = ARRAY_SIZE(f), .filter = f};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -errno;
	return 0;
}

static void busy_aio_child(int out)
{
	struct bench_result *res = malloc(sizeof(*res));
	struct job_result j;
	struct job_opts jo;
	int rc;

	dup2(out, 2);
	log_set_level(LOG_WARN);
	if (limit_aio_events()) {
		fprintf(stderr, "seccomp failed: %s\n", strerror(errno));
		_exit(1);
	}
	test_job(&jo, "libaio", RW_RANDREAD);
	jo.iodepth = 32;
	rc = run_job(&jo, res);
	fprintf(stderr, "rc=%d status=%d depth=%u ios=%" PRIu64 "\n", rc, res->status, res->depth,
		res->dir[DDIR_READ].total_ios);
	memset(&j, 0, sizeof(j));
	result_job_from_bench(&j, &jo, 1, res);
	fprintf(stderr, "reported iodepth=%" PRId64 "\n", result_opt_find(&j, "iodepth")->i);
	_exit(0);
}

/*
 * io_setup answering EAGAIN (fs.aio-max-nr taken by other programs): the job retries,
 * then runs at the depth the kernel gives, warning with the sysctl's name, and the
 * result records the depth it ran at.
 */
/* The three cases of test_aio_busy, skipped with the reason. */
static void skip_aio_busy(const char *why)
{
	char line[200];
	int i;

	snprintf(line, sizeof(line), "io_setup EAGAIN: %s", why);
	for (i = 0; i < 3; i++)
		skip(line);
}

static void test_aio_busy(void)
{
	const struct io_engine *aio = io_engine_find("libaio");
	char out[4096], why[160];
	const char *e;

	if (!aio) {
		skip_aio_busy("libaio does not run here");
		return;
	}
	if (aio->probe && aio->probe(why, sizeof(why))) {
		skip_aio_busy(why);
		return;
	}
	if (!child_stderr(busy_aio_child, out, sizeof(out))) {
		skip_aio_busy("no pipe");
		return;
	}
	/* qemu-user refuses seccomp filters (EINVAL): the EAGAIN cannot be staged there. */
	if ((e = strstr(out, "seccomp failed: "))) {
		snprintf(why, sizeof(why), "cannot be staged here (%.*s)", (int)strcspn(e, "\n"), e);
		skip_aio_busy(why);
		return;
	}
	if (!ok(strstr(out, "rc=0 status=0 depth=4 ios=64\n") != NULL,
		"io_setup EAGAIN above 4 events: the job runs to its end at iodepth 4"))
		printf("# %s", out);
	ok(strstr(out, "refused 32 requests in flight (EAGAIN, 5 tries") &&
		   strstr(out, "/proc/sys/fs/aio-max-nr") && strstr(out, "running at iodepth 4"),
	   "after retries, one warning naming /proc/sys/fs/aio-max-nr and the depth used");
	ok(strstr(out, "reported iodepth=4\n") != NULL, "the result records iodepth 4");
}
#else
static void test_no_aio(void)
{
	skip("libaio is not in this build");
}

static void test_aio_busy(void)
{
	skip("libaio is not in this build");
}
#endif

static void test_numjobs(void)
{
	struct bench_result *res = malloc(sizeof(*res));
	struct job_opts jo;
	unsigned char *pools, *blk;
	unsigned t, nbuf, bad;
	uint64_t off;
	size_t e;
	int fd;

	for (e = 0; engines[e]; e++) {
		test_job(&jo, engines[e]->name, e % 2 ? RW_WRITE : RW_RANDWRITE);
		jo.numjobs = 3;
		jo.size = 1 * MIB;
		jo.filesize = 64 * KIB;
		jo.randseed = 1234;
		make_file(path, 3 * jo.filesize);
		ok(!run_job(&jo, res) && res->status == BENCH_OK && res->threads == 3 &&
		       res->dir[1].io_bytes == 3 * jo.size,
		   "%s numjobs=3: each thread moved its size", jo.name);
		nbuf = engines[e]->flags & IOENG_ASYNC ? jo.iodepth : 1;
		pools = malloc(3 * nbuf * jo.bs);
		blk = malloc(jo.bs);
		for (t = 0; t < 3; t++)
			pattern_fill(pools + (uint64_t)t * nbuf * jo.bs, nbuf * jo.bs,
				     pattern_thread_seed(jo.randseed, t));
		fd = open(path, O_RDONLY);
		bad = 0;
		for (off = 0; off < 3 * jo.filesize; off += jo.bs) {
			if (pread(fd, blk, jo.bs, (off_t)off) != (ssize_t)jo.bs ||
			    region_owner(blk, pools, 3, nbuf, jo.bs) != (int)(off / jo.filesize))
				bad++;
		}
		close(fd);
		is_int(bad, 0, "%s numjobs=3: every block holds its own thread's data", jo.name);
		free(pools);
		free(blk);
	}
	make_file(path, 4 * MIB);
	free(res);
}

/*
 * The I/O buffers a job needs, known before anything is laid out: the job
 * (ulimit -v 4000000; bs=1g, numjobs=8, write) is refused with a clean -ENOMEM.
 */
static void test_memory_check(void)
{
	struct job_opts jo;

	test_job(&jo, "psync", RW_WRITE);
	jo.bs = GIB;
	jo.size = GIB;
	jo.numjobs = 8;
	is_int(bench_buffer_bytes(&jo), 8 * GIB, "bs=1g x numjobs=8 writes: 8 GiB of buffers");
	is_int(bench_check_memory(&jo, 4000000ULL * KIB, "ulimit -v"), -ENOMEM,
	       "refused under ulimit -v 4000000");
	jo.rw = RW_RANDRW;
	is_int(bench_buffer_bytes(&jo), 16 * GIB, "randrw: a read and a write pool per thread");
	test_job(&jo, "psync", RW_READ);
	jo.numjobs = 8;
	is_int(bench_buffer_bytes(&jo), 8 * 4 * KIB, "4 KiB reads, 8 threads: 32 KiB");
	is_int(bench_check_memory(&jo, 4000000ULL * KIB, "ulimit -v"), 0, "which fits");
}

static int test_all(void)
{
	int rc;

	if (!mkdtemp(dir)) {
		skip("no /var/tmp");
		return done_testing();
	}
	snprintf(path, sizeof(path), "%s/file", dir);
	rc = make_file(path, 4 * MIB);
	if (rc) {
		skip("cannot create the test file");
		rmdir(dir);
		return done_testing();
	}
	log_set_level(-1); /* the error tests log on purpose */
	find_usable_engines();
	test_registry();
	test_memory_check();
	test_option_table();
	test_default_engine();
	test_io_uring_refused();
	test_no_aio();
	test_aio_busy();
	test_exact_sizes();
	test_engine_options();
	test_fdatasync();
	test_rate();
	test_stop_and_cap();
	test_errors();
	test_enospc();
	test_numjobs();
	unlink(path);
	rmdir(dir);
	return done_testing();
}

/*
 * --bench FILE RW BS IODEPTH SIZE [ENGINE [BATCH_SUBMIT BATCH_COMPLETE]]: one job on an
 * existing file, printing IOPS and CPU time per I/O; the engines without the CLI around them.
 */
static int bench_mode(int argc, char **argv)
{
	struct bench_result *res = malloc(sizeof(*res));
	struct rusage ru;
	struct job_opts jo;
	uint64_t ios, ns, cpu_ns;
	int rw;

	if (argc < 7)
		return 2;
	for (rw = 0; rw < (int)ARRAY_SIZE(rw_names); rw++)
		if (!strcmp(argv[3], rw_names[rw]))
			break;
	test_job(&jo, argc > 7 ? argv[7] : io_engines[0]->name, rw);
	parse_size(argv[4], &jo.bs);
	jo.iodepth = (unsigned)atoi(argv[5]);
	parse_size(argv[6], &jo.size);
	if (argc > 9) {
		jo.iodepth_batch_submit = (unsigned)atoi(argv[8]);
		jo.iodepth_batch_complete = (unsigned)atoi(argv[9]);
	}
	snprintf(path, sizeof(path), "%s", argv[2]);
	if (run_job(&jo, res) || res->status)
		return 1;
	getrusage(RUSAGE_SELF, &ru);
	ios = res->dir[0].total_ios + res->dir[1].total_ios;
	ns = res->t_end_ns - res->t_start_ns;
	cpu_ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * NS_PER_SEC +
		 (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
	printf("iops=%.0f ios=%" PRIu64 " cpu_ns_per_io=%.0f clat_mean_us=%.1f\n",
	       (double)ios * 1e9 / (double)ns, ios, (double)cpu_ns / (double)ios,
	       (res->dir[0].clat.mean_ns + res->dir[1].clat.mean_ns) / 1000.0);
	free(res);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--bench"))
		return bench_mode(argc, argv);
	return test_all();
}
