/* SPDX-License-Identifier: MIT */
/* target.c directly: creation, refusals, O_DIRECT/alignment/space checks, layout, cleanup. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "capture.h"
#include "core/clock.h"
#include "io/bench.h"
#include "io/target.h"
#include "tap.h"

static struct capture capt;
static char dir[] = "/var/tmp/iowatt-test-target.XXXXXX";
static atomic_int stop;

/*
 * What the test directory is on, read from /proc/self/mountinfo here as the oracle: the
 * longest mount point that holds dir, its type and its source. A chroot whose directory is
 * not a mount point of its own shows no such entry: the tests that need it skip and say so.
 */
static char mnt_fstype[64], mnt_source[256];

static int find_mount(const char *path)
{
	char line[1024], mp[512], type[64], src[256], *dash;
	size_t best = 0, n;
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %*s %511s", mp) != 1 ||
		    sscanf(dash + 3, "%63s %255s", type, src) != 2)
			continue;
		n = strlen(mp);
		if (strncmp(path, mp, n) || (path[n] != '/' && path[n] && strcmp(mp, "/")))
			continue;
		if (n >= best) {
			best = n;
			snprintf(mnt_fstype, sizeof(mnt_fstype), "%s", type);
			snprintf(mnt_source, sizeof(mnt_source), "%s", src);
		}
	}
	fclose(f);
	return best ? 0 : -1;
}

/* 1 when dir is on a mounted block device the target code can resolve. */
static int on_block_device(void)
{
	struct stat st;

	return mnt_fstype[0] && !stat(mnt_source, &st) && S_ISBLK(st.st_mode);
}

static void job(struct job_opts *jo, const char *name, int rw, uint64_t bs, uint64_t size,
		int direct)
{
	memset(jo, 0, sizeof(*jo));
	snprintf(jo->name, sizeof(jo->name), "%s", name);
	snprintf(jo->ioengine, sizeof(jo->ioengine), "%s", direct ? "libaio" : "psync");
	jo->rw = rw;
	jo->bs = bs;
	jo->size = size;
	jo->direct = direct;
	jo->numjobs = 1;
	jo->iodepth = 1;
	jo->loops = 1;
}

static void opts(struct run_opts *ro, const char *target)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s", target);
	memset(ro, 0, sizeof(*ro));
	ro->target = buf;
}

/* FNV-1a of a whole file: "unchanged" must mean the bytes, not the size. */
static uint64_t file_hash(const char *path)
{
	uint64_t h = 1469598103934665603ULL;
	unsigned char buf[65536];
	ssize_t n, i;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211ULL;
	close(fd);
	return h;
}

static void test_directory(void)
{
	struct target tg;
	struct run_opts ro;
	struct job_opts jo;
	char want[256];
	struct stat st;

	if (!mnt_fstype[0]) {
		skip("no mountinfo entry holds /var/tmp: a chroot whose directory is not bind-mounted "
		     "onto itself");
		return;
	}
	if (!on_block_device()) {
		printf("# skip: /var/tmp is on %s from %s, not a block device\n", mnt_fstype,
		       mnt_source);
		skip("directory target: /var/tmp is not on a block device (container overlay?)");
		return;
	}
	opts(&ro, dir);
	job(&jo, "seqwrite", RW_WRITE, 1 << 20, 4 << 20, 1);
	is_int(target_open(&tg, &ro, &jo, 1), 0, "a directory target opens");
	snprintf(want, sizeof(want), "%s/iowatt-%ld.tmp", dir, (long)getpid());
	is_str(tg.path, want, "the test file is iowatt-PID.tmp in the directory");
	ok(tg.created && tg.may_write && !tg.is_blockdev, "created, writable, not a device");
	ok(tg.blockdev[0] != '\0', "its disk was resolved (%s)", tg.blockdev);
	is_str(tg.fstype, mnt_fstype, "filesystem type from mountinfo");
	ok(tg.logical_bs >= 512, "logical block size %u", tg.logical_bs);
	is_int(target_prepare_job(&tg, &jo), 0, "a write job prepares");
	ok(stat(tg.path, &st) == 0 && (uint64_t)st.st_blocks * 512 >= 4 << 20,
	   "the write job's extent is allocated");
	is_int(tg.laid_out, 0, "nothing laid out for a write-only job");
	target_cleanup(&tg);
	ok(access(want, F_OK) != 0, "cleanup removed the file it created");
	target_cleanup(&tg);
	ok(1, "cleanup twice is harmless");
}

/* A stale file with our own PID (after a reboot) and one of a dead process. */
static void test_stale(void)
{
	char mine[256], dead[256], want[256];
	struct run_opts ro;
	struct job_opts jo;
	struct target tg;
	const char *msg;
	int fd;

	snprintf(mine, sizeof(mine), "%s/iowatt-%ld.tmp", dir, (long)getpid());
	snprintf(dead, sizeof(dead), "%s/iowatt-4194300.tmp", dir);
	fd = open(mine, O_WRONLY | O_CREAT, 0600);
	close(fd);
	fd = open(dead, O_WRONLY | O_CREAT, 0600);
	close(fd);
	opts(&ro, dir);
	job(&jo, "seqwrite", RW_WRITE, 1 << 20, 1 << 20, 1);
	capture_begin(&capt, 2);
	is_int(target_open(&tg, &ro, &jo, 1), 0, "a directory with stale files opens");
	msg = capture_end(&capt);
	snprintf(want, sizeof(want), "%s/iowatt-%ld-1.tmp", dir, (long)getpid());
	is_str(tg.path, want, "a file of the same name is skipped, not reused");
	ok(strstr(msg, "iowatt-4194300.tmp") && strstr(msg, "interrupted run"),
	   "the stale file of a dead process is named in a warning");
	target_cleanup(&tg);
	ok(access(mine, F_OK) == 0 && access(dead, F_OK) == 0 && access(want, F_OK) != 0,
	   "cleanup removes only its own file");
	unlink(mine);
	unlink(dead);
}

static void test_layout(void)
{
	struct job_opts jo[2];
	struct run_opts ro;
	struct target tg;
	char path[256];
	unsigned char a[4096], b[4096];
	struct stat st1, st2;
	size_t i, nonzero = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/new.dat", dir);
	opts(&ro, path);
	job(&jo[0], "seqread", RW_READ, 1 << 20, 3 << 20, 1);
	job(&jo[1], "randread", RW_RANDREAD, 4096, 3 << 20, 1);
	jo[1].size = 1 << 20;
	jo[1].filesize = 3 << 20;
	is_int(target_open(&tg, &ro, jo, 2), 0, "a new file path opens");
	capture_begin(&capt, 2);
	is_int(target_prepare_job(&tg, &jo[0]), 0, "a read job on a new file prepares");
	ok(strstr(capture_end(&capt), "laying out 3 MiB") != NULL, "one info line says it lays out 3 MiB");
	ok(stat(path, &st1) == 0 && st1.st_size == 3 << 20, "the file now holds 3 MiB");
	fd = open(path, O_RDONLY);
	ok(fd >= 0 && pread(fd, a, sizeof(a), 0) == sizeof(a) &&
		   pread(fd, b, sizeof(b), 1 << 20) == sizeof(b),
	   "the laid-out data reads back");
	if (fd >= 0)
		close(fd);
	for (i = 0; i < sizeof(a); i++)
		nonzero += a[i] != 0;
	ok(nonzero > sizeof(a) / 2, "the pattern is not zeros (%zu of 4096 bytes non-zero)", nonzero);
	ok(memcmp(a, b, sizeof(a)) != 0, "each MiB differs (no dedup-able repeats)");
	capture_begin(&capt, 2);
	is_int(target_prepare_job(&tg, &jo[1]), 0, "a second read job on the same extent prepares");
	ok(strstr(capture_end(&capt), "laying out") == NULL, "and does not lay out again");
	ok(stat(path, &st2) == 0 && st2.st_mtim.tv_nsec == st1.st_mtim.tv_nsec &&
		   st2.st_mtim.tv_sec == st1.st_mtim.tv_sec,
	   "the file was not written again");
	target_cleanup(&tg);
	ok(access(path, F_OK) != 0, "the new file is removed at cleanup");

	is_int(target_open(&tg, &ro, jo, 1), 0, "open again");
	tg.stop_flag = &stop;
	stop = 2;
	capture_begin(&capt, 2);
	is_int(target_prepare_job(&tg, &jo[0]), -EINTR, "a signal stops the layout");
	capture_end(&capt);
	ok(tg.laid_out == 0, "and nothing counts as laid out");
	target_cleanup(&tg);
	ok(access(path, F_OK) != 0, "the file is removed after an interrupted layout");
}

static void test_existing(void)
{
	struct job_opts w, r;
	struct run_opts ro;
	struct target tg;
	char path[256], link[256], buf[8192];
	uint64_t before;
	int fd;

	snprintf(path, sizeof(path), "%s/user.dat", dir);
	memset(buf, 'u', sizeof(buf));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ok(fd >= 0 && write(fd, buf, sizeof(buf)) == sizeof(buf), "a user file of 8 KiB exists");
	close(fd);
	before = file_hash(path);
	opts(&ro, path);
	job(&w, "randwrite", RW_RANDWRITE, 4096, 8192, 1);
	capture_begin(&capt, 2);
	is_int(target_open(&tg, &ro, &w, 1), -EEXIST, "a writing job on an existing file is refused");
	ok(strstr(capture_end(&capt), "--force") != NULL, "the refusal names --force");
	target_cleanup(&tg);
	job(&r, "seqread", RW_READ, 4096, 1 << 20, 1);
	is_int(target_open(&tg, &ro, &r, 1), -ENOSPC, "a read job larger than the file is refused");
	target_cleanup(&tg);
	job(&r, "seqread", RW_READ, 4096, 8192, 1);
	is_int(target_open(&tg, &ro, &r, 1), 0, "a read job that fits reads the file as it is");
	ok(!tg.created && !tg.may_write, "not created, not writable");
	is_int(target_prepare_job(&tg, &r), 0, "and prepares without writing");
	target_cleanup(&tg);
	ok(access(path, F_OK) == 0, "cleanup leaves a file iowatt did not create");
	ok(file_hash(path) == before, "the user's file is byte for byte unchanged");
	ro.force = 1;
	capture_begin(&capt, 2);
	is_int(target_open(&tg, &ro, &w, 1), 0, "--force allows a writing job");
	ok(tg.may_write && strstr(capture_end(&capt), "--force") != NULL, "with a warning");
	target_cleanup(&tg);
	ok(access(path, F_OK) == 0, "a forced file is still not removed");
	job(&r, "seqread", RW_READ, 4096, 1 << 20, 1);
	capture_begin(&capt, 2);
	is_int(target_open(&tg, &ro, &r, 1), -ENOSPC,
	       "--force: a read job larger than the existing file is still refused");
	ok(strstr(capture_end(&capt), "not even with --force") != NULL, "saying --force does not extend it");
	target_cleanup(&tg);
	ok(file_hash(path) == before, "the user's file is not extended");
	snprintf(link, sizeof(link), "%s/link.dat", dir);
	ok(symlink(path, link) == 0, "a symlink to the user's file");
	opts(&ro, link);
	ro.force = 1;
	capture_begin(&capt, 2);
	is_int(target_open(&tg, &ro, &r, 1), -ENOSPC, "--force through the symlink: refused too");
	capture_end(&capt);
	target_cleanup(&tg);
	ok(file_hash(path) == before && access(link, F_OK) == 0,
	   "the file behind the symlink is unchanged, the symlink still there");
	unlink(link);
	unlink(path);
}

/* Reads what the job left in buf's first bytes of a file. */
static int read_head(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = (int)pread(fd, buf, len, 0);
	close(fd);
	return n;
}

/*
 * The scratch file's path is swapped for a symlink to a victim file after creation (what
 * another user can do in a world-writable, non-sticky directory): the layout, the job's
 * writes and the cleanup all reach the file iowatt created, through its descriptor, and
 * the victim is never written nor removed.
 */
static void test_swap(void)
{
	char path[256], moved[256], victim[256], head[16];
	struct bench_result *res = calloc(1, sizeof(*res));
	struct job_opts r, w;
	struct run_opts ro;
	struct target tg;
	struct bench *b = NULL;
	struct stat st;
	uint64_t before;
	int fd;

	snprintf(path, sizeof(path), "%s/swap.dat", dir);
	snprintf(moved, sizeof(moved), "%s/swap.moved", dir);
	snprintf(victim, sizeof(victim), "%s/victim.dat", dir);
	fd = open(victim, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ok(fd >= 0 && write(fd, "victim's data\n", 14) == 14, "a victim file of 14 bytes");
	close(fd);
	before = file_hash(victim);
	opts(&ro, path);
	job(&r, "seqread", RW_READ, 1 << 20, 2 << 20, 0);
	job(&w, "seqwrite", RW_WRITE, 1 << 20, 2 << 20, 0);
	is_int(target_open(&tg, &ro, &r, 1), 0, "a new scratch file opens");
	ok(rename(path, moved) == 0 && symlink(victim, path) == 0,
	   "its path is swapped for a symlink to the victim");
	capture_begin(&capt, 2);
	is_int(target_prepare_job(&tg, &r), 0, "the read job's layout runs");
	capture_end(&capt);
	ok(stat(moved, &st) == 0 && st.st_size == 2 << 20, "the layout went to the created file");
	ok(file_hash(victim) == before, "the victim is unchanged after the layout");
	ok(read_head(moved, head, sizeof(head)) == sizeof(head) && memcmp(head, "victim", 6),
	   "the created file holds the layout, not the victim's bytes");
	is_int(bench_start_fd(&w, tg.fd, tg.path, &b), 0, "a write job starts on the descriptor");
	if (b) {
		while (!bench_wait(b, NS_PER_SEC))
			;
		bench_finish(b, res);
		is_int(res->status, BENCH_OK, "and finishes");
	} else {
		ok(0, "and finishes");
	}
	ok(file_hash(victim) == before, "the victim is unchanged after the write job");
	capture_begin(&capt, 2);
	target_cleanup(&tg);
	ok(strstr(capture_end(&capt), "no longer the file iowatt created") != NULL,
	   "cleanup says the path is no longer its file");
	ok(lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && file_hash(victim) == before,
	   "and leaves the symlink and the victim alone");
	unlink(path);
	unlink(moved);

	is_int(target_open(&tg, &ro, &r, 1), 0, "a new scratch file opens again");
	ok(rename(path, moved) == 0 && symlink(victim, path) == 0, "its path is swapped again");
	target_cleanup_signal_safe();
	ok(lstat(path, &st) == 0 && S_ISLNK(st.st_mode), "the signal-path cleanup leaves the symlink");
	capture_begin(&capt, 2);
	target_cleanup(&tg);
	capture_end(&capt);
	ok(access(victim, F_OK) == 0 && file_hash(victim) == before, "the victim is still there");
	unlink(path);
	unlink(moved);
	unlink(victim);
	free(res);
}

/*
 * A file target left by a killed run: the scratch file carries the creating PID
 * (user.iowatt.pid), so the refusal of a later run names it as left over.
 */
static void test_stale_file(void)
{
	char path[256], pid[32], want[32];
	struct run_opts ro;
	struct job_opts w;
	struct target tg;
	const char *msg;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/stale.dat", dir);
	opts(&ro, path);
	job(&w, "seqwrite", RW_WRITE, 4096, 8192, 0);
	is_int(target_open(&tg, &ro, &w, 1), 0, "a new file target opens");
	n = getxattr(path, "user.iowatt.pid", pid, sizeof(pid) - 1);
	if (n < 0 && (errno == ENOTSUP || errno == EOPNOTSUPP)) {
		target_cleanup(&tg);
		skip("stale file targets: the test directory has no user xattrs");
		skip("stale file targets: the test directory has no user xattrs");
		skip("stale file targets: the test directory has no user xattrs");
		return;
	}
	pid[n > 0 ? n : 0] = '\0';
	snprintf(want, sizeof(want), "%ld", (long)getpid());
	is_str(pid, want, "the created file carries the run's PID");
	target_cleanup(&tg);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ok(fd >= 0 && fsetxattr(fd, "user.iowatt.pid", "4194300", 7, 0) == 0,
	   "a file left by a dead run 4194300");
	close(fd);
	capture_begin(&capt, 2);
	is_int(target_open(&tg, &ro, &w, 1), -EEXIST, "is refused for a write job");
	msg = capture_end(&capt);
	ok(strstr(msg, "left over from the interrupted iowatt run 4194300"),
	   "and named as left over from that run");
	target_cleanup(&tg);
	unlink(path);
}

static void test_checks(void)
{
	struct run_opts ro;
	struct job_opts jo;
	struct target tg;
	const char *msg;
	char fs[80];

	if (!on_block_device()) {
		skip("alignment and space checks: /var/tmp is not on a mounted block device");
		return;
	}
	opts(&ro, dir);
	job(&jo, "odd", RW_READ, 2300, 2300 * 100, 1);
	is_int(target_open(&tg, &ro, &jo, 1), 0, "open for the alignment check");
	capture_begin(&capt, 2);
	is_int(target_prepare_job(&tg, &jo), -EINVAL, "bs=2300 with direct=1 is refused");
	msg = capture_end(&capt);
	ok(strstr(msg, "bs=2300 is not a multiple of the logical block size") && strstr(msg, tg.blockdev),
	   "the error names bs, the block size and the device");
	job(&jo, "huge", RW_WRITE, 1 << 20, 1ULL << 50, 1);
	capture_begin(&capt, 2);
	is_int(target_prepare_job(&tg, &jo), -ENOSPC, "a 1 PiB job is refused before writing");
	msg = capture_end(&capt);
	ok(strstr(msg, "needs 1 PiB") || strstr(msg, "needs 1024 TiB"),
	   "the error says how much it needs");
	snprintf(fs, sizeof(fs), "(%s)", mnt_fstype);
	ok(strstr(msg, "free on") && (!on_block_device() || strstr(msg, fs)),
	   "and where, with the filesystem %s", fs);
	target_cleanup(&tg);

	opts(&ro, "/dev/shm");
	job(&jo, "shm", RW_READ, 4096, 1 << 20, 1);
	if (target_open(&tg, &ro, &jo, 1)) {
		skip("no /dev/shm");
		return;
	}
	capture_begin(&capt, 2);
	is_int(target_prepare_job(&tg, &jo), -EINVAL, "direct=1 on tmpfs is refused");
	msg = capture_end(&capt);
	ok(strstr(msg, "tmpfs at /dev/shm has no O_DIRECT support") && strstr(msg, "--direct=0"),
	   "the error names tmpfs and suggests direct=0");
	jo.direct = 0;
	is_int(target_prepare_job(&tg, &jo), 0, "direct=0 on tmpfs lays out buffered");
	ok(tg.blockdev[0] == '\0', "a tmpfs file has no block device");
	target_cleanup(&tg);
}

static void test_raw_and_signal(void)
{
	struct run_opts ro;
	struct job_opts jo;
	struct target tg;
	char path[256];

	job(&jo, "seqread", RW_READ, 4096, 4096, 1);
	if (!on_block_device()) {
		skip("raw device refusals: no mounted block device found under /var/tmp");
	} else {
		/* Both refusals happen before anything opens the device for writing. */
		opts(&ro, mnt_source);
		is_int(target_open(&tg, &ro, &jo, 1), -EPERM, "a device needs --allow-raw-device");
		target_cleanup(&tg);
		ro.allow_raw_device = 1;
		capture_begin(&capt, 2);
		is_int(target_open(&tg, &ro, &jo, 1), -EBUSY, "a mounted device is refused anyway");
		ok(strstr(capture_end(&capt), "mounted") != NULL, "the refusal says it is mounted");
		target_cleanup(&tg);
	}
	snprintf(path, sizeof(path), "%s/sig.dat", dir);
	opts(&ro, path);
	is_int(target_open(&tg, &ro, &jo, 1), 0, "open a new file");
	target_cleanup_signal_safe();
	ok(access(path, F_OK) != 0, "the signal-path cleanup removes it");
	target_cleanup(&tg);
	ro.keep = 1;
	is_int(target_open(&tg, &ro, &jo, 1), 0, "open with --keep");
	target_cleanup_signal_safe();
	target_cleanup(&tg);
	ok(access(path, F_OK) == 0, "--keep leaves the file, even on a signal");
	unlink(path);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	find_mount(dir);
	test_directory();
	test_stale();
	test_layout();
	test_existing();
	test_swap();
	test_stale_file();
	test_checks();
	test_raw_and_signal();
	rmdir(dir);
	return done_testing();
}
