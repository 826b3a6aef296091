/* SPDX-License-Identifier: MIT */
/* The HID transport without uhid: VID:PID to /dev/hidrawN under a fake sysfs root, reports over a fake hidraw fd. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/files.h"
#include "meters/fnirsi/fnirsi_protocol.h"
#include "meters/transport/hid.h"
#include "tap.h"

static char root[] = "/var/tmp/iowatt-test-hid.XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void link_at(const char *target, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (symlink(target, path))
		perror(path);
}

/*
 * One HID device as the kernel lays it out: the USB interface's HID device directory
 * with its uevent, its hidraw node below it, /sys/class/hidraw/NODE pointing there and
 * NODE/device back up to the HID device.
 */
static void hid_device(const char *hid_dir, const char *node, const char *uevent, int dev_node)
{
	char path[PATH_MAX], rel[PATH_MAX];

	snprintf(path, sizeof(path), "%s/sys/devices/pci0/usb1/%s/hidraw/%s", root, hid_dir, node);
	mkdir_p(path, 0755);
	snprintf(rel, sizeof(rel), "sys/devices/pci0/usb1/%s/uevent", hid_dir);
	put(rel, uevent);
	snprintf(rel, sizeof(rel), "sys/devices/pci0/usb1/%s/hidraw/%s/device", hid_dir, node);
	link_at("../..", rel);
	snprintf(path, sizeof(path), "../../devices/pci0/usb1/%s/hidraw/%s", hid_dir, node);
	snprintf(rel, sizeof(rel), "sys/class/hidraw/%s", node);
	link_at(path, rel);
	if (dev_node) {
		snprintf(rel, sizeof(rel), "dev/%s", node);
		put(rel, "");
	}
}

static void make_tree(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/sys/class/hidraw", root);
	mkdir_p(path, 0755);
	snprintf(path, sizeof(path), "%s/dev", root);
	mkdir_p(path, 0755);
	hid_device("1-1/1-1:1.0/0003:046D:C31C.0001", "hidraw0",
		   "DRIVER=hid-generic\nHID_ID=0003:0000046D:0000C31C\nHID_NAME=Logitech USB "
		   "Keyboard\n", 0);
	hid_device("1-2/1-2:1.0/0003:2E3C:5558.0003", "hidraw3",
		   "DRIVER=hid-generic\nHID_ID=0003:00002E3C:00005558\nHID_NAME=FNIRSI FNB-58\n"
		   "HID_PHYS=usb-0000:00:14.0-2/input0\n", 1);
}

static void test_lookup(void)
{
	struct hid_node nodes[4];
	const struct fnb_model *m = NULL;
	char link[PATH_MAX];
	uint16_t vid = 0, pid = 0;
	int n, i, fnb = -1;

	make_tree();
	n = hid_list(root, nodes, 4);
	is_int(n, 2, "both hidraw nodes of the fake sysfs root are listed");
	for (i = 0; i < n && i < 4; i++)
		if (fnb_model_by_id(nodes[i].vid, nodes[i].pid)) {
			fnb = i;
			m = fnb_model_by_id(nodes[i].vid, nodes[i].pid);
		}
	ok(fnb >= 0 && !strcmp(nodes[fnb].dev, "/dev/hidraw3") && nodes[fnb].vid == 0x2E3C &&
		   nodes[fnb].pid == 0x5558 && !strcmp(nodes[fnb].name, "FNIRSI FNB-58") && m &&
		   !strcmp(m->meta.name, "FNB58"),
	   "2e3c:5558 is found at /dev/hidraw3 and is an FNB58 (%s)", fnb >= 0 ? nodes[fnb].dev : "-");
	ok(n == 2 && !fnb_model_by_id(nodes[!fnb].vid, nodes[!fnb].pid) &&
		   nodes[!fnb].vid == 0x046D,
	   "the keyboard (046d:c31c) is no FNIRSI tester");
	is_int(hid_node_access(root, "/dev/hidraw3"), 0, "its node under the root can be opened");
	is_int(hid_node_access(root, "/dev/hidraw0"), -ENOENT, "a node without /dev entry: ENOENT");
	ok(!hid_node_id(root, "/dev/hidraw3", &vid, &pid) && vid == 0x2E3C && pid == 0x5558,
	   "hid_node_id(/dev/hidraw3) reads its USB ID from the root's sysfs");
	snprintf(link, sizeof(link), "%s/fnb58", root);
	vid = pid = 0;
	ok(!symlink("/dev/hidraw3", link) && !hid_node_id(root, link, &vid, &pid) &&
		   vid == 0x2E3C && pid == 0x5558,
	   "and through a symlink to the node (a udev alias)");
	is_int(hid_node_id(root, "/dev/ttyACM0", &vid, &pid), -ENOENT, "a tty is no hidraw node");
	is_int(hid_list("/nonexistent-root", nodes, 4), 0, "a root without hidraw: none");
}

/* A data report from the device side: four readings, as an FNB58 sends at 5.1 V. */
static void data_report(uint8_t r[FNB_REPORT_LEN], double amps)
{
	struct fnb_reading in[FNB_SAMPLES_PER_REPORT];
	int i;

	for (i = 0; i < FNB_SAMPLES_PER_REPORT; i++)
		in[i] = (struct fnb_reading){ .v = 5.1, .a = amps + i * 0.001, .dp_v = 0.6,
					      .dn_v = 0.59, .temp_c = 28.5 };
	fnb_encode(in, r);
}

/*
 * SOCK_SEQPACKET keeps each write one message, as hidraw keeps each report: a read takes
 * one whole report, a write is one output report, and EOF says the device went away.
 */
static void test_reports(void)
{
	struct hid_dev *h = NULL;
	struct fnb_reading out[FNB_SAMPLES_PER_REPORT];
	uint8_t r[FNB_REPORT_LEN], got[FNB_REPORT_LEN], cmd[FNB_REPORT_LEN], wire[80], odd[32];
	int sv[2], i, rc;
	ssize_t n;

	if (!ok(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) == 0,
		"a socketpair speaking hidraw's read/write semantics"))
		return;
	is_int(hid_open_fd(sv[0], FNB_REPORT_LEN, 0, "fake hidraw", &h), 0, "opened over the fd");
	is_int(hid_is_stream(h), 0, "reports, not a byte stream");

	/* The host's start-up command: report ID 0 in front, 65 bytes in one write. */
	fnb_command(FNB_CMD_INIT1, cmd);
	is_int(hid_write(h, cmd), 0, "AA 81 written");
	n = recv(sv[1], wire, sizeof(wire), 0);
	ok(n == FNB_REPORT_LEN + 1 && wire[0] == 0 && wire[1] == 0xAA && wire[2] == 0x81 &&
		   wire[64] == 0x8E,
	   "the device gets one 65-byte output report: ID 0, AA 81 ... 8E (%zd bytes)", n);

	/* A data report in; one of another length before it is skipped. */
	memset(odd, 0xAA, sizeof(odd));
	data_report(r, 0.25);
	ok(send(sv[1], odd, sizeof(odd), 0) == (ssize_t)sizeof(odd) &&
		   send(sv[1], r, sizeof(r), 0) == (ssize_t)sizeof(r),
	   "the device sends a 32-byte report, then a data report");
	rc = hid_read(h, got, 1000);
	ok(rc == 1 && !memcmp(got, r, sizeof(r)), "hid_read gives the 64-byte report whole, the "
						    "32-byte one skipped");
	ok(fnb_decode(got, out) == 1 && out[0].v > 5.0999 && out[0].v < 5.1001 &&
		   out[3].a > 0.2529 && out[3].a < 0.2531 && out[0].temp_c > 28.4,
	   "it decodes: 5.1 V, 0.250-0.253 A, 28.5 C");

	/* Stale reports are drained; then nothing waits. */
	for (i = 0; i < 3; i++) {
		data_report(r, 0.1 * i);
		send(sv[1], r, sizeof(r), 0);
	}
	hid_drain(h);
	is_int(hid_read(h, got, 0), 0, "3 stale reports drained, none left");

	/* A report longer than REPORT_MAX is cut by the socket as hidraw cuts it: skipped. */
	{
		uint8_t big[300];

		memset(big, 0x55, sizeof(big));
		send(sv[1], big, sizeof(big), 0);
		data_report(r, 0.5);
		send(sv[1], r, sizeof(r), 0);
		ok(hid_read(h, got, 1000) == 1 && !memcmp(got, r, sizeof(r)),
		   "an oversized report is skipped, the next one read");
	}

	/* The device goes away (unplugged): -ENODEV. */
	close(sv[1]);
	is_int(hid_read(h, got, 1000), -ENODEV, "the far end closed: -ENODEV (unplugged)");
	hid_close(h);
}

int main(void)
{
	char cmd[PATH_MAX + 16];

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	test_lookup();
	test_reports();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		printf("# could not remove %s\n", root);
	return done_testing();
}
