/* SPDX-License-Identifier: MIT */
/* GPIO line specs ("CHIP:LINE[,active_low]") and kernel edge stamps, for every adapter. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "sources/gpio_line.h"

#define MOD "gpio"
#define ACTIVE_LOW "active_low"

int gpio_spec_parse(const char *spec, const char *opt, struct gpio_spec *out)
{
	char buf[sizeof(out->text)], *colon, *comma;

	memset(out, 0, sizeof(*out));
	out->opt = opt;
	snprintf(out->text, sizeof(out->text), "%s", spec);
	if (strlen(spec) >= sizeof(buf)) {
		log_err(MOD, "%s %s: too long", opt, spec);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	/* The last colon: a chip path may hold none, a line name may not hold one. */
	colon = strrchr(buf, ':');
	comma = strchr(colon ? colon : buf, ',');
	if (comma) {
		*comma = '\0';
		if (strcmp(comma + 1, ACTIVE_LOW)) {
			log_err(MOD, "%s %s: unknown flag '%s' (only " ACTIVE_LOW ")", opt, spec,
				comma + 1);
			return -EINVAL;
		}
		out->active_low = 1;
	}
	if (!colon || colon == buf || !colon[1]) {
		log_err(MOD, "%s %s: use CHIP:LINE, e.g. gpiochip0:17", opt, spec);
		return -EINVAL;
	}
	*colon = '\0';
	if (strlen(buf) >= sizeof(out->chip) || strlen(colon + 1) >= sizeof(out->line)) {
		log_err(MOD, "%s %s: chip or line name too long", opt, spec);
		return -EINVAL;
	}
	snprintf(out->chip, sizeof(out->chip), "%s", buf);
	snprintf(out->line, sizeof(out->line), "%s", colon + 1);
	return 0;
}

uint64_t gpio_edge_mono_ns(uint64_t stamp_ns, uint64_t mono_now, uint64_t real_now)
{
	uint64_t offset;

	if (stamp_ns && stamp_ns <= mono_now)
		return stamp_ns;
	offset = real_now > mono_now ? real_now - mono_now : 0;
	if (stamp_ns > offset && stamp_ns - offset <= mono_now)
		return stamp_ns - offset;
	return mono_now;
}
