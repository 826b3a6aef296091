/* SPDX-License-Identifier: MIT */
/* i2c-dev transport for register-based power monitors: I2C_RDWR, never SMBus words. */
#include <errno.h>
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/log.h"
#include "meters/transport/i2c.h"

int i2c_open(const char *path, unsigned addr, const char *kdrv)
{
	unsigned long funcs = 0;
	int fd, err;

	if (addr < I2C_ADDR_MIN || addr > I2C_ADDR_MAX) {
		log_err("i2c", "address 0x%02x is not a 7-bit device address", addr);
		return -EINVAL;
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		if (err == ENOENT)
			log_err("i2c", "%s does not exist (is i2c-dev loaded and the bus enabled?)",
				path);
		else if (err == EACCES)
			log_err("i2c", "%s: permission denied (add yourself to group i2c or run as root)",
				path);
		else
			log_err("i2c", "%s: %s", path, strerror(err));
		return -err;
	}
	if (ioctl(fd, I2C_FUNCS, &funcs) < 0 || !(funcs & I2C_FUNC_I2C)) {
		log_err("i2c", "%s: the adapter cannot do combined transfers (I2C_RDWR)", path);
		close(fd);
		return -EOPNOTSUPP;
	}
	/*
	 * I2C_RDWR itself ignores driver bindings; I2C_SLAVE is what reports them, and a
	 * kernel driver polling the same chip would reprogram it behind our back.
	 */
	if (ioctl(fd, I2C_SLAVE, (unsigned long)addr) < 0) {
		err = errno;
		if (err == EBUSY)
			log_err("i2c",
				"0x%02x on %s is claimed by a kernel driver (%s); use --meter hwmon:%s instead",
				addr, path, kdrv, kdrv);
		else
			log_err("i2c", "%s: cannot select address 0x%02x: %s", path, addr,
				strerror(err));
		close(fd);
		return -err;
	}
	return fd;
}

int i2c_read16(int fd, unsigned addr, uint8_t reg, uint16_t *val)
{
	uint8_t buf[2];
	struct i2c_msg msgs[2] = {
		{ .addr = (uint16_t)addr, .flags = 0, .len = 1, .buf = &reg },
		{ .addr = (uint16_t)addr, .flags = I2C_M_RD, .len = 2, .buf = buf },
	};
	struct i2c_rdwr_ioctl_data xfer = { .msgs = msgs, .nmsgs = 2 };

	if (ioctl(fd, I2C_RDWR, &xfer) != 2)
		return errno ? -errno : -EIO;
	*val = (uint16_t)(buf[0] << 8 | buf[1]);
	return 0;
}

int i2c_write16(int fd, unsigned addr, uint8_t reg, uint16_t val)
{
	uint8_t buf[3] = { reg, (uint8_t)(val >> 8), (uint8_t)val };
	struct i2c_msg msg = { .addr = (uint16_t)addr, .flags = 0, .len = 3, .buf = buf };
	struct i2c_rdwr_ioctl_data xfer = { .msgs = &msg, .nmsgs = 1 };

	if (ioctl(fd, I2C_RDWR, &xfer) != 1)
		return errno ? -errno : -EIO;
	return 0;
}

void i2c_close(int fd)
{
	if (fd >= 0)
		close(fd);
}
