/* SPDX-License-Identifier: MIT */
/* HID transport for testers: /dev/hidrawN found through sysfs, fixed-size reports. */
#ifndef IOWATT_HID_H
#define IOWATT_HID_H

#include <stddef.h>
#include <stdint.h>

struct hid_dev;

/* A hidraw node sysfs knows, with its USB identity. */
struct hid_node {
	char dev[32];	 /* "/dev/hidraw3" */
	char name[64];	 /* HID_NAME, "" if absent */
	uint16_t vid, pid;
};

/*
 * Every /sys/class/hidraw node (under root, "" for the real /sys): fills at most max,
 * returns how many there are.
 */
int hid_list(const char *root, struct hid_node *out, int max);
/* Whether this user may open a node ("/dev/hidraw3", under root like sysfs): 0, -EACCES
 * (the udev rule is missing) or -ENOENT. */
int hid_node_access(const char *root, const char *dev);
/* The USB identity of a node ("/dev/hidraw3", after symlinks): 0, or -ENOENT. */
int hid_node_id(const char *root, const char *path, uint16_t *vid, uint16_t *pid);

/*
 * Opens path for reports of report_len bytes without report IDs. A hidraw node gives one
 * report per read; a pty (iowatt's emulator, a bridge) carries the same bytes as a stream
 * and reports are cut from it at report_len. Failures logged at log_level; -EACCES says
 * the udev rule is missing. Exclusive: a second reader gets -EBUSY.
 */
int hid_open(const char *path, size_t report_len, int log_level, struct hid_dev **out);
/*
 * The same over an fd already open (taken: hid_close() closes it): a test's
 * SOCK_SEQPACKET socketpair speaks hidraw's semantics (one report per read and per
 * write, EOF when the far end goes); stream 1 cuts reports from a byte stream instead.
 */
int hid_open_fd(int fd, size_t report_len, int stream, const char *name, struct hid_dev **out);
/* Sends one output report (report ID 0 goes in front, as hidraw wants): 0 or -errno. */
int hid_write(struct hid_dev *h, const uint8_t *report);
/* One input report within timeout_ms: 1, 0 on timeout, -ENODEV/-EIO when the device
 * went away. */
int hid_read(struct hid_dev *h, uint8_t *report, int timeout_ms);
/* Input reports waiting right now are dropped (stale ones from before a start). */
void hid_drain(struct hid_dev *h);
void hid_close(struct hid_dev *h);
/* 1 when reports are cut from a byte stream (pty). */
int hid_is_stream(const struct hid_dev *h);

#endif
