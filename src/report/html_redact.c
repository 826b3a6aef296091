/* SPDX-License-Identifier: MIT */
/* A page to publish (report --redact): the paths in a text cut to their last parts, host names out. */
#include <ctype.h>
#include <string.h>

#include "core/mem.h"
#include "report/html.h"

/* Ends a path: what separates words in a command line or a spec. */
#define PATH_END " ,;\"'()[]{}"

/* The "host" of "rfc2217://host:port" and "tcp://host:port": a lab's name, not a path. */
static const char *skip_host(const char *p, char **o)
{
	static const char *const schemes[] = { "rfc2217://", "tcp://", "ssh://" };
	size_t k, len;

	for (k = 0; k < ARRAY_SIZE(schemes); k++) {
		len = strlen(schemes[k]);
		if (strncmp(p, schemes[k], len))
			continue;
		memcpy(*o, schemes[k], len);
		*o += len;
		memcpy(*o, "HOST", 4);
		*o += 4;
		p += len;
		return p + strcspn(p, ":/" PATH_END);
	}
	return NULL;
}

/* "/home/...", "/tmp/...": a path, even glued to a flag ("-o/home/a/x"). */
static int root_dir(const char *p)
{
	static const char *const roots[] = { "home/", "root/", "tmp/", "var/", "mnt/", "media/",
					     "srv/", "run/", "dev/", "opt/", "usr/", "etc/" };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(roots); k++)
		if (!strncmp(p + 1, roots[k], strlen(roots[k])))
			return 1;
	return 0;
}

/* A '/' that starts a path: after a separator, or before a root folder's name ("1/min"
 * and "MB/s" are not paths). */
static int path_start(const char *s, const char *p)
{
	return *p == '/' && (p == s || root_dir(p) ||
			     (!isalnum((unsigned char)p[-1]) && p[-1] != '/' && p[-1] != '.'));
}

char *html_redact_paths(const char *s)
{
	char *out, *o;
	const char *p, *end, *last, *h;

	if (!s)
		return NULL;
	/* "HOST" may be longer than a one-letter host it stands for */
	out = o = xmalloc(4 * strlen(s) + 1);
	for (p = s; *p;) {
		if ((h = skip_host(p, &o))) {
			p = h;
			continue;
		}
		/* a path runs to the next separator */
		if (path_start(s, p)) {
			end = p + strcspn(p, PATH_END);
			while (end > p + 1 && end[-1] == '/')
				end--;
			for (last = end; last > p && last[-1] != '/'; last--)
				;
			if (last == end) { /* "/" itself */
				*o++ = '/';
			} else {
				memcpy(o, last, (size_t)(end - last));
				o += end - last;
			}
			for (p = end; *p == '/';)
				p++;
			continue;
		}
		*o++ = *p++;
	}
	*o = '\0';
	return out;
}
