/* SPDX-License-Identifier: MIT */
/* The job runner on a temp file: exact sizes per engine and mode, syncs, pacing, stop, errors. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/engine.h"
#include "bench/pattern.h"
#include "core/log.h"
#include "core/util.h"
#include "tap.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)

static char dir[] = "/var/tmp/iowatt-bench.XXXXXX";
static char path[256];
static const char *const rw_names[] = {"read", "write", "randread", "randwrite", "randrw"};

static void test_job(struct job_opts *jo, const char *engine, int rw)
{
	memset(jo, 0, sizeof(*jo));
	snprintf(jo->name, sizeof(jo->name), "%s-%s", engine, rw_names[rw]);
	snprintf(jo->ioengine, sizeof(jo->ioengine), "%s", engine);
	jo->rw = rw;
	jo->rwmixread = 50;
	jo->bs = 4 * KIB;
	jo->iodepth = 4;
	jo->size = 256 * KIB;
	jo->direct = 1;
	jo->end_fsync = -1;
	jo->randseed = 42;
	jo->numjobs = 1;
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
	static const char *const engines[] = {"libaio", "psync"};
	struct bench_result *res = malloc(sizeof(*res));
	struct job_opts jo;
	uint64_t bytes, ios;
	unsigned e;
	int rw, rc;

	for (e = 0; e < ARRAY_SIZE(engines); e++) {
		for (rw = RW_READ; rw <= RW_RANDRW; rw++) {
			test_job(&jo, engines[e], rw);
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

	test_job(&jo, "libaio", RW_RANDWRITE);
	jo.fdatasync = 4;
	jo.size = 64 * jo.bs;
	ok(!run_job(&jo, res) && res->status == BENCH_OK, "libaio fdatasync=4: ok");
	is_int(res->syncs, 64 / 4 + 1, "libaio fdatasync=4: 16 syncs + end_fsync");
	is_int(res->sync_lat.n, res->syncs, "libaio fdatasync=4: each sync timed");

	test_job(&jo, "psync", RW_WRITE);
	jo.fdatasync = 1;
	jo.end_fsync = 0;
	jo.direct = 0;
	jo.bs = 2300; /* the small synced record of a log or database */
	jo.size = 20 * jo.bs;
	ok(!run_job(&jo, res) && res->status == BENCH_OK &&
	       res->dir[DDIR_WRITE].io_bytes == 20 * 2300,
	   "psync buffered bs=2300 fdatasync=1: ok, exact bytes");
	is_int(res->syncs, 20, "psync fdatasync=1 end_fsync=0: one sync per write");
	free(res);
}

static void test_rate(void)
{
	static const char *const engines[] = {"libaio", "psync"};
	struct bench_result *res = malloc(sizeof(*res));
	struct job_opts jo;
	uint64_t min_ns;
	unsigned e;

	for (e = 0; e < ARRAY_SIZE(engines); e++) {
		test_job(&jo, engines[e], RW_RANDREAD);
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
	struct bench_progress pr;
	struct job_opts jo;
	struct bench *b;
	int rc;

	test_job(&jo, "libaio", RW_RANDREAD);
	jo.size = 64 * 1024 * MIB; /* far more than the test waits for */
	jo.filesize = 1 * MIB;
	rc = bench_start(&jo, path, &b);
	ok(!rc, "stop: started");
	if (rc)
		return;
	ok(!bench_wait(b, 50 * NS_PER_MS), "stop: still running after 50 ms");
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
	test_job(&jo, "psync", RW_RANDREAD);
	jo.rate_iops = 1;
	jo.size = 1000 * jo.bs;
	rc = bench_start(&jo, path, &b);
	ok(!rc, "paced stop: started");
	if (rc)
		return;
	bench_wait(b, 20 * NS_PER_MS);
	bench_stop(b);
	ok(bench_wait(b, 30 * NS_PER_SEC), "paced stop: ended long before its 999 s schedule");
	bench_finish(b, res);
	ok(res->status == BENCH_INTERRUPTED && res->dir[0].total_ios >= 1 &&
	       res->dir[0].total_ios < 1000,
	   "paced stop: INTERRUPTED with %" PRIu64 " I/Os", res->dir[0].total_ios);

	test_job(&jo, "libaio", RW_RANDWRITE);
	jo.size = 64 * 1024 * MIB;
	jo.filesize = 1 * MIB;
	jo.runtime_ns = 100 * NS_PER_MS;
	ok(!run_job(&jo, res) && res->status == BENCH_OK, "runtime cap: status stays ok");
	ok(res->dir[1].io_bytes > 0 && res->dir[1].io_bytes < jo.size &&
	       res->t_end_ns - res->t_start_ns >= jo.runtime_ns,
	   "runtime cap: stopped early with %" PRIu64 " bytes", res->dir[1].io_bytes);
	is_int(res->syncs, 1, "runtime cap: end_fsync still done");
	free(res);
}

static void test_errors(void)
{
	static const char *const engines[] = {"libaio", "psync"};
	struct bench_result *res = malloc(sizeof(*res));
	char small[300], want[64];
	struct job_opts jo;
	struct bench *b;
	unsigned e;

	snprintf(small, sizeof(small), "%s/small", dir);
	make_file(small, 64 * KIB);
	for (e = 0; e < ARRAY_SIZE(engines); e++) {
		test_job(&jo, engines[e], RW_READ);
		jo.iodepth = 1;
		jo.size = 1 * MIB;
		is_int(bench_start(&jo, small, &b), 0, "%s past EOF: starts", engines[e]);
		while (!bench_wait(b, NS_PER_SEC))
			;
		bench_finish(b, res);
		is_int(res->status, BENCH_FAILED, "%s past EOF: FAILED", engines[e]);
		is_int(res->err, -EIO, "%s past EOF: err -EIO", engines[e]);
		snprintf(want, sizeof(want), "read at offset %llu: short read", 64 * KIB);
		if (!ok(!strncmp(res->errmsg, want, strlen(want)),
			"%s past EOF: message names "
			"the offset",
			engines[e]))
			printf("#   got '%s'\n", res->errmsg);
		is_int(res->dir[0].io_bytes, 64 * KIB, "%s past EOF: the good part counted",
		       engines[e]);

		/* O_DIRECT needs aligned sizes: the kernel refuses, the job fails cleanly. */
		test_job(&jo, engines[e], RW_RANDWRITE);
		jo.bs = 1000;
		jo.size = 10 * jo.bs;
		ok(!run_job(&jo, res) && res->status == BENCH_FAILED && res->err == -EINVAL &&
		       strstr(res->errmsg, "write at offset"),
		   "%s misaligned O_DIRECT write: FAILED with EINVAL (%s)", engines[e],
		   res->errmsg);
	}
	unlink(small);
	test_job(&jo, "libaio", RW_READ);
	snprintf(small, sizeof(small), "%s/missing", dir);
	is_int(bench_start(&jo, small, &b), -ENOENT, "missing file: -ENOENT, nothing runs");
	snprintf(jo.ioengine, sizeof(jo.ioengine), "nope");
	is_int(bench_start(&jo, path, &b), -EINVAL, "unknown engine: -EINVAL");
	free(res);
}

/*
 * ENOSPC mid-job: buffered writes into the holes of a sparse file on a 256 KiB tmpfs
 * (root only; tmpfs has no O_DIRECT, so psync with direct=0).
 */
static void test_enospc(void)
{
	struct bench_result *res = malloc(sizeof(*res));
	char mnt[300], file[320];
	struct bench *b = NULL;
	struct job_opts jo;
	int fd, rc;

	snprintf(mnt, sizeof(mnt), "%s/tiny", dir);
	snprintf(file, sizeof(file), "%s/sparse", mnt);
	if (geteuid() != 0 || mkdir(mnt, 0700) ||
	    mount("iowatt-test", mnt, "tmpfs", MS_NOSUID | MS_NODEV, "size=256k")) {
		skip("ENOSPC: needs root to mount a small tmpfs");
		rmdir(mnt);
		free(res);
		return;
	}
	fd = open(file, O_RDWR | O_CREAT | O_EXCL, 0600);
	rc = fd >= 0 && !ftruncate(fd, 1 * MIB) ? 0 : -1;
	if (fd >= 0)
		close(fd);
	test_job(&jo, "psync", RW_WRITE);
	jo.direct = 0;
	jo.size = 1 * MIB;
	ok(!rc && !bench_start(&jo, file, &b), "ENOSPC: started on a sparse file");
	if (b) {
		while (!bench_wait(b, NS_PER_SEC))
			;
		bench_finish(b, res);
		ok(res->status == BENCH_FAILED && res->err == -ENOSPC &&
		       strstr(res->errmsg, "write at offset") &&
		       strstr(res->errmsg, "No space left on device"),
		   "ENOSPC: FAILED, -ENOSPC, '%s'", res->errmsg);
		ok(res->dir[1].io_bytes > 0 && res->dir[1].io_bytes < jo.size && res->syncs == 0,
		   "ENOSPC: the writes before it counted (%" PRIu64 " bytes), no end_fsync",
		   res->dir[1].io_bytes);
	}
	unlink(file);
	umount(mnt);
	rmdir(mnt);
	free(res);
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

static void test_registry(void)
{
	size_t i, complete = 1;

	for (i = 0; io_engines[i]; i++)
		if (!io_engines[i]->name || !io_engines[i]->init || !io_engines[i]->submit ||
		    !io_engines[i]->reap || !io_engines[i]->cleanup ||
		    io_engine_find(io_engines[i]->name) != io_engines[i])
			complete = 0;
	ok(i >= 2 && complete, "registry: %zu engines, every hook set, found by name", i);
	ok(io_engine_find("psync") == &engine_psync && !io_engine_find("posixaio"),
	   "registry: psync found, unknown names are not");
}

static void test_numjobs(void)
{
	static const char *const engines[] = {"libaio", "psync"};
	struct bench_result *res = malloc(sizeof(*res));
	struct job_opts jo;
	unsigned char *pools, *blk;
	unsigned e, t, nbuf, bad;
	uint64_t off;
	int fd;

	for (e = 0; e < ARRAY_SIZE(engines); e++) {
		test_job(&jo, engines[e], e ? RW_WRITE : RW_RANDWRITE);
		jo.numjobs = 3;
		jo.size = 1 * MIB;
		jo.filesize = 64 * KIB;
		jo.randseed = 1234;
		make_file(path, 3 * jo.filesize);
		ok(!run_job(&jo, res) && res->status == BENCH_OK && res->threads == 3 &&
		       res->dir[1].io_bytes == 3 * jo.size,
		   "%s numjobs=3: each thread moved its size", jo.name);
		nbuf = e ? 1 : jo.iodepth;
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
	test_registry();
	test_exact_sizes();
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
 * existing file, printing IOPS and CPU time per I/O; for bench scripts until `iowatt run`.
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
	test_job(&jo, argc > 7 ? argv[7] : "libaio", rw);
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
