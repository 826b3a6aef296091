/* SPDX-License-Identifier: MIT */
/* Raspberry Pi 5 PMIC rails through `vcgencmd pmic_read_adc`: input volts and the rail sum. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/mem.h"
#include "meters/board/board.h"
#include "meters/board/board_meters.h"
#include "meters/transport/sysfs.h"

#define MOD "pmic"
#define PMIC_OUT_MAX 4096
#define PMIC_MAX_RAILS 32
#define PMIC_NAME_LEN 48
#define PMIC_KIND_LEN 16
#define PMIC_CMD_LEN 256
#define PMIC_STEP 1e-8 /* pmic_read_adc prints 8 decimals */

extern char **environ;

struct pmic_priv {
	struct sysfs_poll poll; /* first: sysfs_poll_start() resets it */
	char cmd[PMIC_CMD_LEN];
	char out[PMIC_OUT_MAX];
	int sum; /* EXT5V: input voltage + sum of rails; else one rail */
};

/* The spec's keys (pmic_keys). */
struct pmic_args {
	char *vcgencmd; /* NULL: found on PATH */
	uint64_t interval_ns;
};

static const struct opt_desc pmic_keys[] = {
	{ .name = "vcgencmd", .type = OPT_STRP, .off = offsetof(struct pmic_args, vcgencmd),
	  .metavar = "PATH", .help = "path of vcgencmd (default: found on PATH)", .complete = "file" },
	/* Each reading spawns a process (~10 Hz at best on a Pi 5); leave headroom. */
	SYSFS_INTERVAL_KEY(offsetof(struct pmic_args, interval_ns), "200ms", "time between readings"),
};

/* Run `vcgencmd pmic_read_adc` without a shell; its output lands in p->out. */
static int pmic_run(struct pmic_priv *p)
{
	char *argv[] = { p->cmd, (char *)"pmic_read_adc", NULL };
	posix_spawn_file_actions_t fa;
	size_t len = 0;
	ssize_t n;
	int fds[2], st, ret;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	ret = posix_spawn(&pid, p->cmd, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (ret) {
		close(fds[0]);
		return -ret;
	}
	while (len < sizeof(p->out) - 1) {
		n = read(fds[0], p->out + len, sizeof(p->out) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	p->out[len] = 0;
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
}

/* The rails one pmic_read_adc output lists, each with its current and voltage (NAN: not seen). */
struct pmic_rails {
	struct {
		char name[PMIC_NAME_LEN];
		double a, v;
	} r[PMIC_MAX_RAILS];
	int n;
	double ext5v;
};

/*
 * Lines look like "  VDD_CORE_A current(7)=1.42880000A" and "EXT5V_V volt(24)=5.05716000V".
 * Rail NAME pairs NAME_A with NAME_V; EXT5V_V is the input voltage.
 */
static void pmic_line(const char *line, struct pmic_rails *t)
{
	char name[PMIC_NAME_LEN], kind[PMIC_KIND_LEN];
	double val;
	size_t bl;
	int i;

	if (sscanf(line, " %47s %15[a-z](%*d)=%lf", name, kind, &val) != 3)
		return;
	bl = strlen(name);
	if (bl < 3 || name[bl - 2] != '_')
		return;
	if (!strcmp(name, "EXT5V_V")) {
		t->ext5v = val;
		return;
	}
	name[bl - 2] = 0;
	for (i = 0; i < t->n && strcmp(t->r[i].name, name); i++)
		;
	if (i == t->n) {
		if (t->n == PMIC_MAX_RAILS)
			return;
		snprintf(t->r[i].name, sizeof(t->r[i].name), "%s", name);
		t->r[i].a = t->r[i].v = NAN;
		t->n++;
	}
	if (!strcmp(kind, "current"))
		t->r[i].a = val;
	else if (!strcmp(kind, "volt"))
		t->r[i].v = val;
}

/* With `sum`, v is EXT5V_V and w the sum of V x A over every paired rail; otherwise v,
 * a and w are the named rail's. -ENOENT when the output lacks them. */
static int pmic_parse(const char *text, const char *rail, int sum, struct meter_sample *s)
{
	struct pmic_rails t;
	const char *line;
	int i, found = 0;

	t.n = 0;
	t.ext5v = NAN;
	for (line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		pmic_line(line, &t);
	s->v = sum ? t.ext5v : NAN;
	s->a = NAN;
	s->w = sum ? 0 : NAN;
	for (i = 0; i < t.n; i++) {
		if (isnan(t.r[i].a) || isnan(t.r[i].v))
			continue;
		if (sum) {
			s->w += t.r[i].a * t.r[i].v;
			found++;
		} else if (!strcmp(t.r[i].name, rail)) {
			s->v = t.r[i].v;
			s->a = t.r[i].a;
			s->w = t.r[i].a * t.r[i].v;
			found = 1;
		}
	}
	if (sum && isnan(s->v))
		return -ENOENT;
	return found ? 0 : -ENOENT;
}

/* vcgencmd as given, else the first on PATH. */
static int pmic_find_cmd(const char *given, struct pmic_priv *p)
{
	const char *path = getenv("PATH");
	const char *dir, *end;

	if (given) {
		snprintf(p->cmd, sizeof(p->cmd), "%s", given);
		return access(p->cmd, X_OK) == 0 ? 0 : -ENOENT;
	}
	for (dir = path ? path : "/usr/bin:/bin"; *dir; dir = *end ? end + 1 : end) {
		end = strchrnul(dir, ':');
		snprintf(p->cmd, sizeof(p->cmd), "%.*s/vcgencmd", (int)(end - dir), dir);
		if (access(p->cmd, X_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

static int pmic_open(struct meter_dev *dev, struct meter_info *info)
{
	const struct pmic_args *a = dev->args;
	const char *given = a->vcgencmd;
	struct meter_sample s;
	struct pmic_priv *p = xcalloc(1, sizeof(*p));
	int ret;

	p->sum = !strcmp(dev->conn, "EXT5V");
	ret = pmic_find_cmd(given, p);
	if (ret < 0)
		log_err(MOD, "%s: vcgencmd not found (%s); it comes with Raspberry Pi OS (raspi-utils), or give vcgencmd=PATH",
			dev->spec, given ? given : "PATH");
	if (!ret) {
		ret = pmic_run(p);
		if (ret < 0)
			log_err(MOD, "%s: '%s pmic_read_adc' failed (a Pi 5 only; needs /dev/vcio, group video)",
				dev->spec, p->cmd);
	}
	if (!ret) {
		ret = pmic_parse(p->out, dev->conn, p->sum, &s);
		if (ret < 0)
			log_err(MOD, "%s: pmic_read_adc has no %s (use EXT5V for the input and rail sum, or a rail such as VDD_CORE)",
				dev->spec, p->sum ? "EXT5V_V" : dev->conn);
	}
	if (ret < 0) {
		free(p);
		return ret;
	}
	p->poll.period_ns = info->period_ns = a->interval_ns;
	/* Raspberry Pi publishes no accuracy for the PMIC ADC */
	meter_std_assumed_accuracy(info, PMIC_STEP, PMIC_STEP, 0);
	info->board_level = 1;
	if (p->sum)
		snprintf(info->model, sizeof(info->model), "Pi 5 PMIC (rail sum, not the input)");
	else
		snprintf(info->model, sizeof(info->model), "Pi 5 PMIC rail %.24s", dev->conn);
	dev->priv = p;
	return 0;
}

static int pmic_read(struct meter_dev *dev, struct meter_sample *out, unsigned max, int timeout_ms)
{
	struct pmic_priv *p = dev->priv;
	uint64_t t0, t1;

	if (!max || !sysfs_wait_tick(&p->poll.next_ns, p->poll.period_ns, timeout_ms))
		return 0;
	t0 = now_ns();
	if (pmic_run(p) < 0 || pmic_parse(p->out, dev->conn, p->sum, out) < 0) {
		log_warn(MOD, "%s: pmic_read_adc failed", dev->spec);
		return -EIO;
	}
	t1 = now_ns();
	out->t_ns = t0 + (t1 - t0) / 2;
	out->flags = SAMPLE_W_COMPUTED | (p->sum ? SAMPLE_RAIL_SUM : 0);
	return 1;
}

static void pmic_scan(const char *root, FILE *out)
{
	struct pmic_priv p;

	(void)root;
	memset(&p, 0, sizeof(p));
	if (pmic_find_cmd(NULL, &p) == 0 && sysfs_exists("", "/dev/vcio"))
		fprintf(out, "  Pi 5 PMIC via %s (rail sum, not the input)\n      --meter pmic:EXT5V\n",
			p.cmd);
}

const struct meter_driver meter_pmic = {
	.name = "pmic",
	.desc = "Raspberry Pi 5 PMIC via vcgencmd: EXT5V volts + sum of rails (not the input)",
	.conn = "EXT5V (input volts and the sum of rails) or a rail (VDD_CORE)",
	.conn_rule = METER_CONN_REQUIRED,
	.example = "pmic:EXT5V",
	METER_KEYS(pmic_keys, struct pmic_args),
	.open = pmic_open,
	.start = sysfs_poll_start,
	.read = pmic_read,
	.close = meter_std_free_priv,
	.scan = pmic_scan,
};
