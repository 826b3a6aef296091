/* SPDX-License-Identifier: MIT */
/* Event sources on fake sysfs trees and kmsg replays: events by order, temps, listing. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/events.h"
#include "core/log.h"
#include "core/mem.h"
#include "events_util.h"
#include "sources/gpio_line.h"
#include "sources/get_throttled/get_throttled.h"
#include "sources/kmsg/kmsg.h"
#include "sources/kmsg/kmsg_match.h"
#include "sources/registry/registry.h"
#include "sources/rpi_volt/rpi_volt.h"
#include "sources/source-internal.h"
#include "tap.h"

#define DATA "tests/data"
/* Only a fallback so a broken watcher fails instead of hanging; nothing is timed. */
#define WAIT_NS (15 * NS_PER_SEC)

static char tmp[64];

static void write_file(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f) {
		printf("# cannot write %s\n", path);
		return;
	}
	fputs(text, f);
	fclose(f);
}

/* A private copy of a tree, so the test can flip its files. */
static char *copy_tree(const char *name)
{
	char cmd[512];
	char *dir = xasprintf("%s/%s", tmp, name);

	snprintf(cmd, sizeof(cmd), "cp -a %s/sysfs-flags/%s %s", DATA, name, dir);
	if (system(cmd) != 0)
		printf("# %s failed\n", cmd);
	return dir;
}

static void drain(void)
{
	struct run_event ev[64];

	while (test_events_pop(ev, ARRAY_SIZE(ev)))
		;
}

/* Collect events until `want` arrived (or the fallback deadline passed). */
static size_t wait_events(struct run_event *out, size_t want)
{
	uint64_t deadline = now_ns() + WAIT_NS;
	size_t n = 0;

	while (n < want && now_ns() < deadline) {
		n += test_events_pop(out + n, want - n);
		if (n < want)
			sleep_ns(20 * NS_PER_MS);
	}
	return n;
}

/* What the run does: open every source, then start the watcher. */
static int start(const struct sources_config *cfg, struct sources **out)
{
	int rc = sources_open(cfg, source_registry, out);

	if (rc == 0)
		rc = sources_start(*out);
	return rc;
}

static void test_classify(void)
{
	char ports[2][KMSG_PORT_LEN] = { "2-1.3", "2-1" };
	const char (*p)[KMSG_PORT_LEN] = (const char (*)[KMSG_PORT_LEN])ports;

	is_int(kmsg_classify("hwmon hwmon1: Undervoltage detected!", p, 2), EV_UNDERVOLTAGE,
	       "upstream spelling");
	is_int(kmsg_classify("raspberrypi-hwmon x: Under-voltage detected! (0x00050005)", p,
				   2),
	       EV_UNDERVOLTAGE, "downstream spelling");
	is_int(kmsg_classify("raspberrypi-hwmon x: Voltage normalised (0x00000000)", p, 2),
	       EV_UNDERVOLTAGE_END, "normalised");
	is_int(kmsg_classify("usb usb1-port2: over-current condition", p, 2),
	       EV_USB_OVERCURRENT, "over-current");
	is_int(kmsg_classify("usb 2-1.3: USB disconnect, device number 5", p, 2),
	       EV_USB_DISCONNECT, "target's disconnect");
	is_int(kmsg_classify("usb 2-1: USB disconnect, device number 2", p, 2),
	       EV_USB_DISCONNECT, "hub above the target");
	is_int(kmsg_classify("usb 2-1.4: USB disconnect, device number 6", p, 2), -1,
	       "a neighbour's disconnect is ignored");
	is_int(kmsg_classify("usb 2-1.3: USB disconnect, device number 5", p, 0), -1,
	       "no target: disconnects ignored");
	is_int(kmsg_classify("usb 2-1.3: new high-speed USB device number 5", p, 2), -1,
	       "unrelated line");
	is_str(kmsg_text("6,1007,11000000,-;usb 2-1.3: x"), "usb 2-1.3: x", "kmsg record");
	is_str(kmsg_text("12,7,1,c,caller=T1;hello; world"), "hello; world",
	       "kmsg record with extra fields");
	is_str(kmsg_text("[   13.000001] usb 2-1: y"), "usb 2-1: y", "dmesg line");
	is_str(kmsg_text("plain; text"), "plain; text", "plain line");
}

static void test_ports(const char *pi)
{
	char ports[KMSG_MAX_PORTS][KMSG_PORT_LEN];
	int n;

	n = kmsg_usb_ports(pi, "sda1", ports, KMSG_MAX_PORTS);
	ok(n == 2 && !strcmp(ports[0], "2-1.3") && !strcmp(ports[1], "2-1"),
	   "sda1 sits on 2-1.3 under hub 2-1 (%d found)", n);
	n = kmsg_usb_ports(pi, "/dev/sdb", ports, KMSG_MAX_PORTS);
	ok(n == 2 && !strcmp(ports[0], "1-1.2"), "sdb sits on 1-1.2");
	is_int(kmsg_usb_ports(pi, "nvme0n1", ports, KMSG_MAX_PORTS), 0, "absent device: none");
}

static void test_rpi_volt_and_temps(const char *pi)
{
	struct sources_config cfg = { .events = test_queue(), .sysfs_root = pi, .kmsg_path = "none" };
	struct sources *fs = NULL;
	struct run_event ev[4];
	struct temps t;
	uint64_t t1, t2;
	size_t n;

	drain();
	write_file(pi, "sys/class/hwmon/hwmon0/in0_lcrit_alarm", "0\n");
	is_int(start(&cfg, &fs), 0, "sources on the Pi tree");
	if (!fs)
		return;
	ok(source_find(fs, &source_rpi_volt) && !source_find(fs, &source_get_throttled),
	   "rpi_volt watched; get_throttled present but not read");
	ok(!source_find(fs, &source_kmsg), "kmsg none: off");

	t1 = now_ns();
	write_file(pi, "sys/class/hwmon/hwmon0/in0_lcrit_alarm", "1\n");
	n = wait_events(ev, 1);
	ok(n == 1 && ev[0].kind == EV_UNDERVOLTAGE && !strcmp(ev[0].source, "rpi_volt"),
	   "alarm 0 -> 1 is an undervoltage event");
	ok(n == 1 && ev[0].t_ns >= t1, "stamped after the flip");
	t2 = now_ns();
	write_file(pi, "sys/class/hwmon/hwmon0/in0_lcrit_alarm", "0\n");
	n = wait_events(ev + 1, 1);
	ok(n == 1 && ev[1].kind == EV_UNDERVOLTAGE_END, "alarm 1 -> 0 ends it");
	ok(n == 1 && ev[1].t_ns >= t2 && ev[1].t_ns >= ev[0].t_ns, "end lands after the start");

	sources_temps_reset(fs);
	sources_temps_get(fs, &t);
	is_dbl(t.soc_c, 51.234, 1e-9, "soc temp from the cpu-thermal zone, not zone0");
	ok(isnan(t.drive_c), "no target and two drivetemp sensors: no drive temp guessed");
	sources_close(fs);

	cfg.target_blockdev = "sda1";
	is_int(start(&cfg, &fs), 0, "restart with target sda1");
	if (!fs)
		return;
	sources_temps_reset(fs);
	sources_temps_get(fs, &t);
	is_dbl(t.drive_c, 38.0, 1e-9, "sda1's drivetemp (sdb's reads 45)");
	write_file(pi, "sys/devices/virtual/thermal/thermal_zone1/temp", "70000\n");
	sources_temps_get(fs, &t);
	ok(t.soc_c == 70.0 && t.soc_max_c == 70.0, "rise: current and max 70");
	write_file(pi, "sys/devices/virtual/thermal/thermal_zone1/temp", "55000\n");
	sources_temps_get(fs, &t);
	ok(t.soc_c == 55.0 && t.soc_max_c == 70.0, "fall: current 55, max stays 70");
	sources_temps_reset(fs);
	sources_temps_get(fs, &t);
	ok(t.soc_max_c == 55.0 && t.drive_max_c == 38.0, "reset starts a new max window");
	sources_close(fs);
	drain();
}

static void test_get_throttled(const char *fw)
{
	struct sources_config cfg = { .events = test_queue(), .sysfs_root = fw, .kmsg_path = "none" };
	struct sources *fs = NULL;
	struct run_event ev[8];
	struct temps t;
	size_t n;

	drain();
	is_int(start(&cfg, &fs), 0, "sources on the firmware-only tree");
	if (!fs)
		return;
	ok(source_find(fs, &source_get_throttled) && !source_find(fs, &source_rpi_volt),
	   "get_throttled found by glob, read where rpi_volt is absent");
	n = wait_events(ev, 1);
	ok(n == 1 && ev[0].kind == EV_INFO && strstr(ev[0].text, "may be stale") &&
		   strstr(ev[0].text, "rpi_volt"),
	   "the fallback says its flags may be stale without rpi_volt: %s", n ? ev[0].text : "");
	write_file(fw, "sys/devices/platform/axi/axi:firmware/get_throttled", "50005\n");
	n = wait_events(ev, 2);
	ok(n == 2 && ev[0].kind == EV_UNDERVOLTAGE && ev[1].kind == EV_THROTTLED,
	   "0x50000 -> 0x50005: under-voltage and throttled, not the old sticky bits");
	ok(n == 2 && strstr(ev[0].text, "0x50005"), "text holds the value: %s",
	   n ? ev[0].text : "");
	write_file(fw, "sys/devices/platform/axi/axi:firmware/get_throttled", "70005\n");
	n = wait_events(ev, 1);
	ok(n == 1 && ev[0].kind == EV_THROTTLED && strstr(ev[0].text, "occurred"),
	   "a new sticky bit alone: capping came and went");
	write_file(fw, "sys/devices/platform/axi/axi:firmware/get_throttled", "70000\n");
	n = wait_events(ev, 2);
	ok(n == 2 && ev[0].kind == EV_UNDERVOLTAGE_END && ev[1].kind == EV_INFO,
	   "live bits clear: under-voltage ends, throttling ends");
	sources_temps_get(fs, &t);
	is_dbl(t.soc_c, 40.5, 1e-9, "no SoC-typed zone: zone0");
	ok(isnan(t.drive_c), "no drive hwmon: NAN");
	sources_close(fs);
	is_int(test_events_pop(ev, 8), 0, "nothing else was reported");
}

static void test_kmsg_replay(const char *pi)
{
	static const int want[] = { EV_UNDERVOLTAGE, EV_UNDERVOLTAGE, EV_UNDERVOLTAGE_END,
				    EV_USB_OVERCURRENT, EV_USB_DISCONNECT };
	struct sources_config cfg = { .events = test_queue(), .sysfs_root = pi, .kmsg_path = DATA "/kmsg/pi-events.txt",
				    .target_blockdev = "sda1", .kmsg_replay = 1 };
	struct sources *fs = NULL;
	struct run_event ev[16];
	size_t n, i, same = 0, seen = 0;
	uint64_t k;

	drain();
	is_int(start(&cfg, &fs), 0, "replay start");
	if (!fs)
		return;
	/* The two spellings of the undervoltage line may be one entry counting two: events
	 * of one kind from one source coalesce while queued. */
	n = wait_events(ev, ARRAY_SIZE(want) - 1);
	sources_close(fs);
	n += test_events_pop(ev + n, ARRAY_SIZE(ev) - n);
	for (i = 0; i < n; i++)
		for (k = 0; k < event_count(&ev[i]); k++, seen++)
			same += seen < ARRAY_SIZE(want) && ev[i].kind == want[seen] &&
				!strcmp(ev[i].source, "kmsg");
	ok(seen == ARRAY_SIZE(want) && same == seen,
	   "both spellings, normalised, over-current, the target's disconnect only (%zu events)",
	   seen);
	ok(n && strstr(ev[n - 1].text, "usb 2-1.3:") && !strchr(ev[n - 1].text, ';'),
	   "event text is the message: %s", n ? ev[n - 1].text : "");

	cfg.kmsg_path = DATA "/kmsg/dmesg-hub.txt";
	cfg.target_blockdev = "sda";
	is_int(start(&cfg, &fs), 0, "dmesg-format replay");
	if (!fs)
		return;
	n = wait_events(ev, 1);
	sources_close(fs);
	n += test_events_pop(ev + n, ARRAY_SIZE(ev) - n);
	ok(n == 1 && ev[0].kind == EV_USB_DISCONNECT && strstr(ev[0].text, "usb 2-1:"),
	   "the hub above the target counts; other ports do not");
}

static void test_kmsg_live(const char *pi)
{
	struct sources_config cfg = { .events = test_queue(), .sysfs_root = pi, .target_blockdev = "sda" };
	struct sources *fs = NULL;
	struct run_event ev[4];
	char *fifo = xasprintf("%s/kmsg.fifo", tmp), *file = xasprintf("%s/kmsg.log", tmp);
	uint64_t t1, t2;
	size_t n;
	int w;

	drain();
	ok(mkfifo(fifo, 0600) == 0, "mkfifo");
	cfg.kmsg_path = fifo;
	is_int(start(&cfg, &fs), 0, "live start on a FIFO");
	if (!fs)
		goto out;
	w = open(fifo, O_WRONLY | O_NONBLOCK);
	ok(w >= 0, "FIFO writable while the watcher reads");
	t1 = now_ns();
	if (write(w, "2,9,1,-;hwmon hwmon0: Undervoltage detected!\n", 45) != 45)
		printf("# short write\n");
	n = wait_events(ev, 1);
	ok(n == 1 && ev[0].kind == EV_UNDERVOLTAGE && ev[0].t_ns >= t1,
	   "a line written mid-run lands after the moment it was written");
	/* A record split across two writes is one line. */
	if (write(w, "6,10,2,-;rpi: Voltage norm", 26) != 26)
		printf("# short write\n");
	sleep_ns(300 * NS_PER_MS); /* let the watcher see the half line */
	t2 = now_ns();
	if (write(w, "alised (0x0)\n", 13) != 13)
		printf("# short write\n");
	n = wait_events(ev + 1, 1);
	ok(n == 1 && ev[1].kind == EV_UNDERVOLTAGE_END && ev[1].t_ns >= t2,
	   "a split record is matched when its line completes");
	close(w);
	sources_close(fs);

	/* A regular file in live mode: lines already there are history. */
	write_file(tmp, "kmsg.log", "2,1,1,-;hwmon hwmon0: Undervoltage detected!\n");
	cfg.kmsg_path = file;
	is_int(start(&cfg, &fs), 0, "live start on a regular file");
	if (!fs)
		goto out;
	{
		FILE *f = fopen(file, "a");

		if (f) {
			fputs("3,2,2,-;usb usb2-port1: over-current condition\n", f);
			fclose(f);
		}
	}
	n = wait_events(ev, 1);
	ok(n == 1 && ev[0].kind == EV_USB_OVERCURRENT,
	   "only the appended line is seen, not the old undervoltage");
	sources_close(fs);

	cfg.kmsg_path = "/nonexistent/kmsg";
	is_int(start(&cfg, &fs), 0, "an unreadable kmsg is a warning, not a failure");
	sources_close(fs);
	/* A log that never runs dry: start and stop still return, nothing is matched. */
	cfg.kmsg_path = "/dev/zero";
	t1 = now_ns();
	is_int(start(&cfg, &fs), 0, "a kmsg that never runs dry starts");
	sources_close(fs);
	ok(now_ns() - t1 < WAIT_NS, "... and stops: no read loop holds the watcher");
	is_int(test_events_pop(ev, 4), 0, "... with no event from its zeros");
	cfg.kmsg_path = tmp; /* opens, but read() fails: dropped, not polled forever */
	is_int(start(&cfg, &fs), 0, "a kmsg path that cannot be read still starts");
	ok(fs && !source_find(fs, &source_kmsg), "the failing kernel-log source is closed");
	sources_close(fs);
out:
	free(fifo);
	free(file);
	drain();
}

static void test_registry(void)
{
	unsigned i, j, complete = 0, unique = 1, n = 0;

	for (i = 0; source_registry[i].drv; i++) {
		const struct source_driver *d = source_registry[i].drv;

		n++;
		complete += d->name && d->desc && d->open && d->read && d->close && d->describe;
		for (j = 0; j < i; j++)
			unique &= strcmp(d->name, source_registry[j].drv->name) != 0;
	}
	ok(n >= 5 && complete == n, "every registered source has name, desc, open, read, close, "
				    "describe (%u sources)", n);
	ok(unique, "source names are unique");
}

static void test_gpio_spec(void)
{
	struct gpio_spec sp;

	is_int(gpio_spec_parse("gpiochip0:35,active_low", "--uv-gpio", &sp), 0, "chip:line,flag");
	ok(!strcmp(sp.chip, "gpiochip0") && !strcmp(sp.line, "35") && sp.active_low,
	   "parsed to chip, line and active_low");
	is_int(gpio_spec_parse("/dev/gpiochip1:PWR_LOW_N", "--uv-gpio", &sp), 0, "path and name");
	ok(!strcmp(sp.chip, "/dev/gpiochip1") && !strcmp(sp.line, "PWR_LOW_N") && !sp.active_low,
	   "a chip path keeps its slashes; no flag: active high");
	is_int(gpio_spec_parse("gpiochip0", "--uv-gpio", &sp), -EINVAL, "no line");
	is_int(gpio_spec_parse("gpiochip0:", "--uv-gpio", &sp), -EINVAL, "empty line");
	is_int(gpio_spec_parse(":4", "--uv-gpio", &sp), -EINVAL, "empty chip");
	is_int(gpio_spec_parse("gpiochip0:4,pullup", "--uv-gpio", &sp), -EINVAL, "unknown flag");
}

static void test_edge_clock(void)
{
	const uint64_t mono = 5000 * NS_PER_SEC, real = 1700000000ull * NS_PER_SEC;

	ok(gpio_edge_mono_ns(mono - 7, mono, real) == mono - 7,
	   "a CLOCK_MONOTONIC stamp (kernel >= 5.7) is kept");
	ok(gpio_edge_mono_ns(real - 3 * NS_PER_MS, mono, real) == mono - 3 * NS_PER_MS,
	   "a CLOCK_REALTIME stamp (older kernels) is moved onto the monotonic clock");
	ok(gpio_edge_mono_ns(0, mono, real) == mono, "no stamp: the time it was read");
	ok(gpio_edge_mono_ns(real + NS_PER_SEC, mono, real) == mono,
	   "a stamp in the future on either clock: the time it was read");
}

/* Sources with no period leave the watcher in poll() with no timeout: stop must wake it. */
static void test_one_thread(const char *pi)
{
	struct sources_config cfg = { .events = test_queue(), .sysfs_root = pi };
	char *fifo = xasprintf("%s/both.fifo", tmp);
	struct sources *fs = NULL;
	struct run_event ev[4];
	struct temps t;
	uint64_t t0;
	size_t n;
	int w;

	drain();
	sources_temps_get(NULL, &t);
	ok(isnan(t.soc_c) && isnan(t.drive_max_c), "no sources: temperatures are NAN");
	ok(mkfifo(fifo, 0600) == 0, "mkfifo");
	cfg.kmsg_path = fifo;
	write_file(pi, "sys/class/hwmon/hwmon0/in0_lcrit_alarm", "0\n");
	is_int(start(&cfg, &fs), 0, "kmsg FIFO and rpi_volt together");
	w = open(fifo, O_WRONLY | O_NONBLOCK);
	if (!fs || w < 0) {
		free(fifo);
		return;
	}
	if (write(w, "3,2,2,-;usb usb2-port1: over-current condition\n", 47) != 47)
		printf("# short write\n");
	write_file(pi, "sys/class/hwmon/hwmon0/in0_lcrit_alarm", "1\n");
	n = wait_events(ev, 2);
	ok(n == 2 && ev[0].kind != ev[1].kind &&
		   (ev[0].kind == EV_USB_OVERCURRENT || ev[1].kind == EV_USB_OVERCURRENT) &&
		   (ev[0].kind == EV_UNDERVOLTAGE || ev[1].kind == EV_UNDERVOLTAGE),
	   "one watcher thread serves both: the kernel log line and the alarm");
	write_file(pi, "sys/class/hwmon/hwmon0/in0_lcrit_alarm", "0\n");
	sources_close(fs);
	n = test_events_pop(ev, ARRAY_SIZE(ev));
	ok(n == 1 && ev[0].kind == EV_UNDERVOLTAGE_END,
	   "a change seen only by the read at stop still counts");

	/* Only the FIFO: nothing periodic, poll() waits without a timeout. */
	cfg.sysfs_root = tmp;
	is_int(start(&cfg, &fs), 0, "kmsg FIFO alone");
	t0 = now_ns();
	sources_close(fs);
	ok(now_ns() - t0 < WAIT_NS, "stop wakes a watcher that has no timeout");
	close(w);
	unlink(fifo);
	free(fifo);
	drain();
}

/* 1 when the first detail line under source NAME's heading in a listing holds want. */
static int detail_has(const char *list, const char *name, const char *want)
{
	char head[64], line[512];
	const char *p, *end;

	snprintf(head, sizeof(head), "\n  %s: ", name);
	p = list ? strstr(list, head) : NULL;
	p = p ? strchr(p + 1, '\n') : NULL;
	if (!p)
		return 0;
	end = strchr(p + 1, '\n');
	snprintf(line, sizeof(line), "%.*s", end ? (int)(end - p - 1) : 0, p + 1);
	return strstr(line, want) != NULL;
}

static char *listing(const char *root)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	/* A leading newline so that the first heading matches like the others. */
	fputc('\n', f);
	sources_describe(source_registry, root, f);
	fclose(f);
	return buf;
}

static void test_list(const char *pi, const char *fw)
{
	char *buf = listing(pi);
	unsigned i, headings = 0;

	for (i = 0; source_registry[i].drv; i++)
		headings += detail_has(buf, source_registry[i].drv->name, "");
	is_int((int)headings, (int)i, "the listing has every source with a detail line");
	ok(detail_has(buf, "rpi_volt", "in0_lcrit_alarm: watched") &&
		   detail_has(buf, "get_throttled", "present, not read") &&
		   detail_has(buf, "temps", "(cpu-thermal)"),
	   "Pi tree: rpi_volt watched, get_throttled not read, the cpu-thermal zone");
	free(buf);
	buf = listing(fw);
	ok(detail_has(buf, "rpi_volt", "not found") &&
		   detail_has(buf, "get_throttled", "get_throttled: watched"),
	   "firmware tree: get_throttled is the source");
	free(buf);
}

int main(void)
{
	char *pi, *fw, cmd[128];

	log_set_level(LOG_ERR);
	snprintf(tmp, sizeof(tmp), "/tmp/iowatt-flags.XXXXXX");
	if (!mkdtemp(tmp) || access(DATA "/sysfs-flags/pi", F_OK)) {
		printf("1..0 # skip run from the repository root\n");
		return 0;
	}
	pi = copy_tree("pi");
	fw = copy_tree("fw");
	test_registry();
	test_gpio_spec();
	test_edge_clock();
	test_classify();
	test_ports(pi);
	test_rpi_volt_and_temps(pi);
	test_get_throttled(fw);
	test_kmsg_replay(pi);
	test_kmsg_live(pi);
	test_one_thread(pi);
	test_list(pi, fw);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd) != 0)
		printf("# cleanup of %s failed\n", tmp);
	free(pi);
	free(fw);
	return done_testing();
}
