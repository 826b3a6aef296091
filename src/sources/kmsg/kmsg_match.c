/* SPDX-License-Identifier: MIT */
/* Kernel log lines that are events: undervoltage, USB over-current, the target's disconnect. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/events.h"
#include "core/mem.h"
#include "core/sysfs.h"
#include "sources/kmsg/kmsg_match.h"

#define USB_PREFIX "usb "
#define USB_DISCONNECT ": USB disconnect"
#define DEV_PREFIX "/dev/"

const char *kmsg_text(const char *line)
{
	const char *p = line, *semi = strchr(line, ';');

	/* /dev/kmsg: "pri,seq,ts_us,flags[,more];message" */
	if (semi && isdigit((unsigned char)*line)) {
		while (p < semi && (isalnum((unsigned char)*p) || *p == ',' || *p == '-' ||
				    *p == '+' || *p == '='))
			p++;
		if (p == semi)
			return semi + 1;
	}
	/* dmesg: "[   12.345678] message" */
	if (*line == '[') {
		p = strchr(line, ']');
		if (p) {
			p++;
			while (*p == ' ')
				p++;
			return p;
		}
	}
	return line;
}

/* "usb 2-1.3: USB disconnect, device number 5": 1 and the device name in dev. */
static int disconnect_dev(const char *msg, char *dev, size_t len)
{
	const char *name = msg + strlen(USB_PREFIX), *colon;
	size_t n;

	if (strncmp(msg, USB_PREFIX, strlen(USB_PREFIX)))
		return 0;
	colon = strchr(name, ':');
	if (!colon || strncmp(colon, USB_DISCONNECT, strlen(USB_DISCONNECT)))
		return 0;
	n = (size_t)(colon - name);
	if (n == 0 || n >= len)
		return 0;
	memcpy(dev, name, n);
	dev[n] = '\0';
	return 1;
}

int kmsg_classify(const char *msg, const char (*ports)[KMSG_PORT_LEN], unsigned nports)
{
	char dev[KMSG_PORT_LEN];
	unsigned i;

	/* Upstream says "Undervoltage", the Raspberry Pi kernel "Under-voltage". */
	if (strstr(msg, "Undervoltage detected!") || strstr(msg, "Under-voltage detected!"))
		return EV_UNDERVOLTAGE;
	if (strstr(msg, "Voltage normalised"))
		return EV_UNDERVOLTAGE_END;
	if (strstr(msg, "over-current"))
		return EV_USB_OVERCURRENT;
	if (disconnect_dev(msg, dev, sizeof(dev)))
		for (i = 0; i < nports; i++)
			if (!strcmp(dev, ports[i]))
				return EV_USB_DISCONNECT;
	return -1;
}

/* "2-1.3": bus-port[.port...], the kernel's name for a USB device (not an interface). */
static int is_usb_dev_name(const char *s)
{
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '-' || !isdigit((unsigned char)*p))
		return 0;
	while (*p) {
		if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
			return 0;
		p++;
	}
	return 1;
}

/*
 * The block device's sysfs path runs through every USB device above it
 * (.../usb2/2-1/2-1.3/2-1.3:1.0/host0/.../block/sda): a disconnect of the device or of
 * any hub on that path takes the target away.
 */
int kmsg_usb_ports(const char *root, const char *blockdev, char (*ports)[KMSG_PORT_LEN],
		   unsigned max)
{
	char rel[PATH_MAX], path[PATH_MAX], *real, *real_root = NULL, *tok, *save = NULL;
	char found[KMSG_MAX_PORTS * 2][KMSG_PORT_LEN];
	unsigned n = 0, k = 0;
	size_t skip = 0;

	if (!blockdev || !*blockdev)
		return 0;
	if (!strncmp(blockdev, DEV_PREFIX, strlen(DEV_PREFIX)))
		blockdev += strlen(DEV_PREFIX);
	snprintf(rel, sizeof(rel), "/sys/class/block/%s", blockdev);
	if (sysfs_path(root, rel, path, sizeof(path)))
		return 0;
	real = realpath(path, NULL);
	if (!real)
		return 0;
	/* Only the part below the root counts: a test tree's own path is not sysfs. */
	if (root && *root)
		real_root = realpath(root, NULL);
	if (real_root && !strncmp(real, real_root, strlen(real_root)))
		skip = strlen(real_root);
	free(real_root);
	for (tok = strtok_r(real + skip, "/", &save); tok; tok = strtok_r(NULL, "/", &save))
		if (is_usb_dev_name(tok) && strlen(tok) < KMSG_PORT_LEN && n < ARRAY_SIZE(found))
			snprintf(found[n++], KMSG_PORT_LEN, "%s", tok);
	free(real);
	while (n > 0 && k < max) {
		n--;
		memcpy(ports[k++], found[n], KMSG_PORT_LEN);
	}
	return (int)k;
}
