/* SPDX-License-Identifier: MIT */
/* i2c-dev transport: open a bus for one 7-bit address, 16-bit big-endian register access. */
#ifndef IOWATT_I2C_H
#define IOWATT_I2C_H

#include <stdint.h>

/* 7-bit device addresses; the rest are reserved by the I2C specification. */
#define I2C_ADDR_MIN 0x03
#define I2C_ADDR_MAX 0x77

/*
 * Open `path` (/dev/i2c-N) and bind `addr`. Logs and returns -errno; EBUSY (a kernel driver
 * owns the address) gets a message pointing to `--meter hwmon:<kdrv>`.
 */
int i2c_open(const char *path, unsigned addr, const char *kdrv);
/*
 * One combined transaction (I2C_RDWR, repeated start): write the register pointer, read
 * two bytes MSB first. Not SMBus word reads, which return the bytes swapped for these
 * chips. Silent: the caller decides whether an error is a lost link.
 */
int i2c_read16(int fd, unsigned addr, uint8_t reg, uint16_t *val);
int i2c_write16(int fd, unsigned addr, uint8_t reg, uint16_t val);
void i2c_close(int fd);

#endif
