/* SPDX-License-Identifier: MIT */
/* A register model of INA219/INA226/INA260 served on /dev/i2c-1 through umockdev (same process). */
#ifndef IOWATT_TEST_INA_EMUL_H
#define IOWATT_TEST_INA_EMUL_H

#include <errno.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <umockdev.h>

#include "meters/ina2xx/ina2xx_protocol.h"

/*
 * The chip converts continuously: conversion k completes at t0 + k * conv_ns, where
 * conv_ns follows the programmed ADC settings. The ready flag (INA219 CNVR in the bus
 * register, INA226/260 CVRF in Mask/Enable) is set when a conversion completed since the
 * flag was last cleared (INA219: power read; INA226/260: Mask/Enable read). Current and
 * power are computed from the shunt/bus inputs and Cal the way the datasheets describe:
 *   INA219 Current = Shunt * Cal / 4096,  Power = Current * (Bus >> 3) / 5000
 *   INA226 Current = Shunt * Cal / 2048,  Power = Current * Bus / 20000
 *   INA260 Current is the input itself,   Power = Current * Bus / 6400 (10 mW LSB)
 */
struct ina_chip {
	pthread_mutex_t lock; /* not GMutex: its futexes are invisible to ThreadSanitizer */
	int model;
	unsigned addr;
	uint16_t reg[256];
	uint8_t ptr;
	int16_t shunt_in;	/* INA219/226: shunt register; INA260: current register */
	uint16_t bus_in;	/* bus register value without flag bits */
	uint64_t t0_ns, conv_ns, consumed_k;
	int armed;		/* a ready flag was seen since the last clear */
	int nack, busy, ovf_once;
	/* what the driver did */
	unsigned flag_reads, data_reads, stale_reads, config_writes, cal_writes, samples_cleared;
	unsigned long xfers;
};

static inline uint64_t emu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline void emu_conv(struct ina_chip *c)
{
	static const unsigned t219[16] = { 84, 148, 276, 532, 532, 532, 532, 532,
					   532, 1060, 2130, 4260, 8510, 17020, 34050, 68100 };
	static const unsigned ct[8] = { 140, 204, 332, 588, 1100, 2116, 4156, 8244 };
	static const unsigned avg[8] = { 1, 4, 16, 64, 128, 256, 512, 1024 };
	uint16_t v = c->reg[INA_REG_CONFIG];

	if (c->model == INA219)
		c->conv_ns = 1000ull * (t219[(v >> 7) & 15] + t219[(v >> 3) & 15]);
	else
		c->conv_ns = 1000ull * avg[(v >> 9) & 7] * (ct[(v >> 6) & 7] + ct[(v >> 3) & 7]);
	c->t0_ns = emu_now();
	c->consumed_k = 0;
	c->armed = 0;
}

/* Power-on / brown-out state: configuration default, calibration 0. */
static inline void emu_reset(struct ina_chip *c)
{
	memset(c->reg, 0, sizeof(c->reg));
	c->reg[INA_REG_CONFIG] = c->model == INA219 ? 0x399F : c->model == INA226 ? 0x4127 : 0x6127;
	if (c->model != INA219) {
		c->reg[INA_REG_MFR_ID] = INA_TI_MFR_ID;
		c->reg[INA_REG_DIE_ID] = c->model == INA226 ? INA226_DIE_ID : 0x2270;
	}
	emu_conv(c);
}

static inline int emu_ready(struct ina_chip *c)
{
	return (emu_now() - c->t0_ns) / c->conv_ns > c->consumed_k;
}

static inline void emu_clear(struct ina_chip *c)
{
	c->consumed_k = (emu_now() - c->t0_ns) / c->conv_ns;
	c->armed = 0;
	c->ovf_once = 0;
}

static inline int32_t emu_current(struct ina_chip *c)
{
	uint16_t cal = c->reg[INA_REG_CAL];

	if (c->model == INA260)
		return c->shunt_in;
	return (int32_t)c->shunt_in * cal / (c->model == INA219 ? 4096 : 2048);
}

static inline uint16_t emu_read(struct ina_chip *c, uint8_t reg)
{
	int32_t cur = emu_current(c);
	uint32_t p, bus = c->bus_in;
	uint16_t v;

	switch (reg) {
	case INA_REG_BUS:
		if (c->model != INA219)
			return (uint16_t)bus;
		c->flag_reads++;
		v = (uint16_t)(bus << 3);
		if (emu_ready(c)) {
			v |= INA219_BUS_CNVR;
			c->armed = 1;
		}
		if (c->ovf_once)
			v |= INA219_BUS_OVF;
		return v;
	case INA_REG_MASK:
		c->flag_reads++;
		v = c->reg[INA_REG_MASK] & 0xFC13;
		if (emu_ready(c)) {
			v |= INA226_MASK_CVRF | (c->ovf_once ? INA226_MASK_OVF : 0);
			emu_clear(c);
			c->armed = 1;
		}
		return v;
	case INA_REG_SHUNT:
	case INA_REG_CURRENT:
	case INA_REG_POWER:
		c->data_reads++;
		if (!c->armed)
			c->stale_reads++;
		if (reg == INA_REG_SHUNT)
			return (uint16_t)c->shunt_in;
		if (reg == INA_REG_CURRENT)
			return (uint16_t)(c->model == INA260 ? 0 : cur);
		if (c->model == INA219)
			p = (uint32_t)abs(cur) * bus / 5000;
		else
			p = (uint32_t)abs(cur) * bus / (c->model == INA226 ? 20000 : 6400);
		if (c->model == INA219)
			emu_clear(c); /* reading power clears CNVR */
		else
			c->armed = 0;
		c->samples_cleared++;
		return (uint16_t)p;
	default:
		return c->reg[reg];
	}
}

static inline void emu_write(struct ina_chip *c, uint8_t reg, uint16_t val)
{
	if (reg == INA_REG_CONFIG) {
		c->config_writes++;
		if (val & 0x8000) {
			emu_reset(c);
			return;
		}
		c->reg[reg] = val;
		emu_conv(c);
	} else if (reg == INA_REG_CAL && c->model != INA260) {
		c->cal_writes++;
		c->reg[reg] = val & (c->model == INA219 ? 0xFFFE : 0x7FFF);
	} else if (reg == INA_REG_MASK && c->model != INA219) {
		c->reg[reg] = val;
	}
}

static inline void emu_done(UMockdevIoctlClient *cl, long res, int err, UMockdevIoctlData **d, int n)
{
	int i;

	umockdev_ioctl_client_complete(cl, res, err);
	for (i = 0; i < n; i++)
		if (d[i])
			g_object_unref(d[i]);
}

static inline gboolean emu_ioctl(UMockdevIoctlBase *base, UMockdevIoctlClient *cl, gpointer user)
{
	struct ina_chip *c = user;
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(cl), *d[8] = { NULL };
	unsigned long req = umockdev_ioctl_client_get_request(cl);
	struct i2c_rdwr_ioctl_data *x;
	struct i2c_msg *m;
	unsigned i, nm;
	int err = 0;

	(void)base;
	pthread_mutex_lock(&c->lock);
	if (req == I2C_FUNCS) {
		d[0] = umockdev_ioctl_data_resolve(arg, 0, sizeof(unsigned long), NULL);
		*(unsigned long *)(void *)d[0]->data = I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
		emu_done(cl, 0, 0, d, 1);
	} else if (req == I2C_SLAVE || req == I2C_SLAVE_FORCE) {
		if (c->busy && req == I2C_SLAVE)
			emu_done(cl, -1, EBUSY, d, 0);
		else
			emu_done(cl, 0, 0, d, 0);
	} else if (req == I2C_RDWR) {
		c->xfers++;
		d[0] = umockdev_ioctl_data_resolve(arg, 0, sizeof(*x), NULL);
		x = (struct i2c_rdwr_ioctl_data *)(void *)d[0]->data;
		nm = x->nmsgs < 4 ? x->nmsgs : 4;
		d[1] = umockdev_ioctl_data_resolve(d[0], offsetof(struct i2c_rdwr_ioctl_data, msgs),
						   nm * sizeof(struct i2c_msg), NULL);
		m = (struct i2c_msg *)(void *)d[1]->data;
		for (i = 0; i < nm; i++)
			d[2 + i] = umockdev_ioctl_data_resolve(d[1], i * sizeof(struct i2c_msg) +
								   offsetof(struct i2c_msg, buf),
							   m[i].len, NULL);
		for (i = 0; i < nm && !err; i++) {
			if (m[i].addr != c->addr)
				err = ENXIO;
			else if (c->nack)
				err = EREMOTEIO;
			else if (!(m[i].flags & I2C_M_RD) && m[i].len >= 1) {
				c->ptr = d[2 + i]->data[0];
				if (m[i].len == 3)
					emu_write(c, c->ptr, (uint16_t)(d[2 + i]->data[1] << 8 |
									d[2 + i]->data[2]));
			} else if (m[i].len == 2) {
				uint16_t v = emu_read(c, c->ptr);

				d[2 + i]->data[0] = (uint8_t)(v >> 8);
				d[2 + i]->data[1] = (uint8_t)v;
			}
		}
		emu_done(cl, err ? -1 : (long)nm, err, d, 2 + (int)nm);
	} else {
		emu_done(cl, -1, ENOTTY, d, 0);
	}
	pthread_mutex_unlock(&c->lock);
	return TRUE;
}

/* Testbed with /dev/i2c-1 answered by `c`. */
static inline UMockdevTestbed *emu_start(struct ina_chip *c, int model)
{
	UMockdevTestbed *tb = umockdev_testbed_new();
	UMockdevIoctlBase *h = umockdev_ioctl_base_new();
	GError *e = NULL;

	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	c->model = model;
	c->addr = 0x40;
	emu_reset(c);
	if (!umockdev_testbed_add_from_string(tb,
					      "P: /devices/platform/i2c-mock.0/i2c-1\n"
					      "E: SUBSYSTEM=i2c\n\n"
					      "P: /devices/platform/i2c-mock.0/i2c-1/i2c-dev/i2c-1\n"
					      "N: i2c-1=00\n"
					      "E: SUBSYSTEM=i2c-dev\n"
					      "E: DEVNAME=/dev/i2c-1\n"
					      "A: dev=89:1\n",
					      &e) ||
	    (g_signal_connect(h, "handle-ioctl", G_CALLBACK(emu_ioctl), c),
	     !umockdev_testbed_attach_ioctl(tb, "/dev/i2c-1", h, &e))) {
		printf("Bail out! umockdev testbed: %s\n", e ? e->message : "?");
		exit(1);
	}
	g_object_unref(h);
	return tb;
}

/* Forget what the driver did so far (after open: its start() clears a stale flag). */
static inline void emu_count_reset(struct ina_chip *c)
{
	pthread_mutex_lock(&c->lock);
	c->flag_reads = c->data_reads = c->stale_reads = c->samples_cleared = 0;
	pthread_mutex_unlock(&c->lock);
}

/* Change the chip under the lock (the handler runs on umockdev's worker thread). */
static inline void emu_set(struct ina_chip *c, int model, int16_t shunt, uint16_t bus)
{
	pthread_mutex_lock(&c->lock);
	if (model != c->model) {
		c->model = model;
		emu_reset(c);
	}
	c->shunt_in = shunt;
	c->bus_in = bus;
	pthread_mutex_unlock(&c->lock);
}

#endif
