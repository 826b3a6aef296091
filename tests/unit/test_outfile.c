/* SPDX-License-Identifier: MIT */
/* core/outfile: every output a new file, never through a link, a FIFO or a hard link's other names. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/mem.h"
#include "core/outfile.h"
#include "tap.h"

static char dir[] = "/tmp/iowatt-test-outfile.XXXXXX";

static char *at(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void put(const char *name, const char *text)
{
	FILE *fp = fopen(at(name), "w");

	fputs(text, fp);
	fclose(fp);
}

static int has(const char *name, const char *text)
{
	char buf[64] = "";
	FILE *fp = fopen(at(name), "r");
	size_t n;

	if (!fp)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return !strcmp(buf, text);
}

static int write_all(int fd, const char *text)
{
	ssize_t n = write(fd, text, strlen(text));

	close(fd);
	return n == (ssize_t)strlen(text);
}

/* The directory holds only the names given (no temporary file left behind). */
static int only(int n)
{
	char cmd[300];
	FILE *p;
	int count = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%d", &count) != 1)
			count = -1;
		pclose(p);
	}
	return count == n;
}

static void test_stream(void)
{
	struct stat st;
	int fd;

	fd = output_open(at("new.csv"), 0);
	ok(fd >= 0 && write_all(fd, "a"), "a new file is created");
	is_int(output_open(at("new.csv"), 0), -EEXIST, "an existing file is refused without replace");
	fd = output_open(at("new.csv"), 1);
	ok(fd >= 0 && write_all(fd, "b") && has("new.csv", "b"), "and replaced with it");

	put("victim", "VICTIM");
	ok(!symlink(at("victim"), at("link.csv")), "symlink made");
	is_int(output_open(at("link.csv"), 1), -ELOOP, "a symlink is refused even with replace");
	is_int(output_open(at("link.csv"), 0), -EEXIST, "and as existing without replace");
	ok(has("victim", "VICTIM"), "the link's target is untouched");
	ok(!symlink(at("nowhere"), at("dangling.csv")), "dangling symlink made");
	ok(output_open(at("dangling.csv"), 1) < 0 && access(at("nowhere"), F_OK),
	   "a dangling symlink is refused and its target not created");

	ok(!link(at("victim"), at("hard.csv")), "hard link made");
	fd = output_open(at("hard.csv"), 1);
	ok(fd >= 0 && write_all(fd, "NEW"), "a hard-linked name is replaced with --force");
	ok(has("hard.csv", "NEW") && has("victim", "VICTIM"),
	   "by a new file: the other name keeps its contents (never truncated in place)");
	ok(!lstat(at("victim"), &st) && st.st_nlink == 1, "the victim is no longer linked");

	ok(!mkfifo(at("fifo.csv"), 0644), "FIFO made");
	is_int(output_open(at("fifo.csv"), 1), -EINVAL, "a FIFO is refused at once (no reader waited for)");
	is_int(output_check(at("fifo.csv"), 1), -EINVAL, "output_check says the same");
	ok(!mkdir(at("sub"), 0755), "directory made");
	is_int(output_open(at("sub"), 1), -EISDIR, "a directory is refused");
	is_int(output_check(at("link.csv"), 1), -ELOOP, "output_check: symlink");
	is_int(output_check(at("absent/x.csv"), 0), 0, "output_check: a missing directory is made later");
	ok(strstr(output_strerror(-EINVAL), "FIFO") != NULL, "output_strerror names the FIFO case");
}

static void test_atomic(void)
{
	struct atomic_file af;
	struct stat st;

	ok(!atomic_file_open(&af, at("page.html"), 1), "atomic file opened");
	fputs("page", af.fp);
	ok(access(at("page.html"), F_OK) != 0, "nothing at the name before commit");
	ok(!atomic_file_commit(&af) && has("page.html", "page"), "committed whole");
	ok(!lstat(at("page.html"), &st) && st.st_ino == af.written.st_ino &&
		   st.st_dev == af.written.st_dev,
	   "commit records the inode put in place");

	put("victim2", "VICTIM");
	ok(!symlink(at("victim2"), at("chart.png")), "symlink at a chart name");
	ok(atomic_file_open(&af, at("chart.png"), 1) == -ELOOP, "refused at open");
	ok(!atomic_file_open(&af, at("chart2.png"), 1), "another name opened");
	fputs("x", af.fp);
	ok(!symlink(at("victim2"), at("chart2.png")), "a symlink swapped in before commit");
	ok(atomic_file_commit(&af) == -ELOOP && has("victim2", "VICTIM"),
	   "refused at commit too, the target untouched");

	ok(!link(at("victim2"), at("hard.png")), "hard link at a chart name");
	ok(!atomic_file_open(&af, at("hard.png"), 1), "opened");
	fputs("chart", af.fp);
	ok(!atomic_file_commit(&af) && has("hard.png", "chart") && has("victim2", "VICTIM"),
	   "a hard-linked name is replaced, the other name untouched");

	put("kept", "KEEP");
	ok(atomic_file_open(&af, at("kept"), 0) == -EEXIST, "without replace an existing file is refused");
	ok(!atomic_file_open(&af, at("late"), 0), "a new name opened without replace");
	put("late", "THEIRS");
	fputs("mine", af.fp);
	ok(atomic_file_commit(&af) == -EEXIST && has("late", "THEIRS"),
	   "a file made meanwhile is not replaced (RENAME_NOREPLACE)");
	ok(!atomic_file_open(&af, at("gone"), 1), "opened");
	atomic_file_abort(&af);
	ok(access(at("gone"), F_OK) != 0, "abort leaves nothing");
}

static void test_dirs(void)
{
	int fd;

	is_int(mkdir_p("", 0755), -ENOENT, "mkdir_p(\"\") is -ENOENT (no read before the string)");
	is_int(output_dir_open("", 0755), -ENOENT, "output_dir_open(\"\") too");
	fd = output_dir_open(at("a/b/c"), 0755);
	ok(fd >= 0, "output_dir_open makes the parents");
	if (fd >= 0)
		close(fd);
	put("plain", "x");
	is_int(output_dir_open(at("plain"), 0755), -ENOTDIR, "a regular file is not a directory");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_stream();
	test_atomic();
	test_dirs();
	/* victim, new.csv, link.csv, dangling.csv, hard.csv, fifo.csv, sub, page.html,
	 * victim2, chart.png, chart2.png, hard.png, kept, late, a, plain: no temporary left. */
	ok(only(16), "no temporary file left in the directory");
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "cleanup failed\n");
	}
	return done_testing();
}
