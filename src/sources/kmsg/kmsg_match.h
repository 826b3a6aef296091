/* SPDX-License-Identifier: MIT */
/* Matching kernel log lines to events, and the USB devices a run's target hangs from. */
#ifndef IOWATT_SOURCES_KMSG_MATCH_H
#define IOWATT_SOURCES_KMSG_MATCH_H

/* The target's USB device and the hubs above it, nearest first. */
#define KMSG_MAX_PORTS 8
/* "2-1.3.4.2": bus, then up to the USB spec's 5 hub tiers and a port each */
#define KMSG_PORT_LEN 32

/*
 * Classify one kernel message (the text after "pri,seq,ts,flags;" or a dmesg line):
 * returns an event kind, or -1 when the line is not ours. ports: the target's USB
 * device and its hubs ("2-1.3", "2-1"); a disconnect elsewhere is ignored.
 */
int kmsg_classify(const char *msg, const char (*ports)[KMSG_PORT_LEN], unsigned nports);
/* The message part of a kmsg record or a dmesg line (skips "6,12,345,-;" or "[ 1.2] "). */
const char *kmsg_text(const char *line);
/* The USB device names on the path of SYSFS_ROOT/sys/class/block/NAME, nearest first. */
int kmsg_usb_ports(const char *root, const char *blockdev, char (*ports)[KMSG_PORT_LEN],
		   unsigned max);

#endif
