/* SPDX-License-Identifier: MIT */
/* Untrusted text: cleaning (controls, broken UTF-8), fitting, CSV and markdown escaping. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/input.h"
#include "core/mem.h"
#include "core/text.h"
#include "core/units.h"
#include "result/result_json.h"
#include "tap.h"

static char *clean(const char *s)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s", s);
	return text_clean(buf);
}

static char *csv(const char *s)
{
	static char buf[256];
	FILE *fp = fmemopen(buf, sizeof(buf), "w");

	text_csv_field(fp, s);
	fclose(fp);
	return buf;
}

static void test_clean(void)
{
	char buf[64];

	is_str(clean("plain ASCII"), "plain ASCII", "ASCII stays");
	is_str(clean("Ünï ✓ 日本 🚀"), "Ünï ✓ 日本 🚀", "valid UTF-8 stays");
	is_str(clean("a\nb\rc\td\x1b[31m"), "a b c d [31m", "C0 controls become spaces");
	is_str(clean("x\x7fy"), "x y", "DEL becomes a space");
	is_str(clean("c1:\xc2\x9b."), "c1:  .", "a C1 control (CSI) becomes spaces, byte for byte");
	is_str(clean("rtl \xe2\x80\xaegnp"), "rtl    gnp", "a bidi override becomes spaces");
	is_str(clean("bad \xff\xfe end"), "bad ?? end", "invalid bytes become '?'");
	is_str(clean("cut \xe6\x97"), "cut ??", "a cut sequence becomes '?'");
	is_str(clean("over \xc0\xaf"), "over ??", "an overlong encoding is invalid");
	is_str(clean("sur \xed\xa0\x80"), "sur ???", "a surrogate is invalid");
	ok(text_is_clean("Ünï ✓") && !text_is_clean("a\nb") && !text_is_clean("\xff"),
	   "text_is_clean tells them apart");
	is_str(text_fit("abcdefgh", 5, buf, sizeof(buf)), "abcde...", "text_fit cuts with ...");
	is_str(text_fit("abc", 5, buf, sizeof(buf)), "abc", "text_fit leaves short text");
	is_str(text_fit("ab日本", 4, buf, sizeof(buf)), "ab...", "text_fit cuts at a character");
	is_str(text_fit(NULL, 4, buf, sizeof(buf)), "", "text_fit of NULL is empty");
}

static void test_csv_md(void)
{
	char buf[128];

	is_str(csv("plain"), "plain", "a plain field is bare");
	is_str(csv("a,b"), "\"a,b\"", "a comma quotes the field");
	is_str(csv("say \"hi\""), "\"say \"\"hi\"\"\"", "quotes are doubled");
	is_str(csv("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"", "= starts no formula");
	is_str(csv("+1"), "\"'+1\"", "+ starts no formula");
	is_str(csv("-2"), "\"'-2\"", "- starts no formula (a text field)");
	is_str(csv("@SUM(A1)"), "\"'@SUM(A1)\"", "@ starts no formula");
	is_str(csv("a\nb"), "a b", "a line break in a field is a space");
	is_str(text_md_escape("a|b", buf, sizeof(buf)), "a\\|b", "markdown: | escaped");
	is_str(text_md_escape("x\\", buf, sizeof(buf)), "x\\\\", "markdown: \\ escaped");
	is_str(text_md_escape("*b* _i_ `c` <s> [l]", buf, sizeof(buf)),
	       "\\*b\\* \\_i\\_ \\`c\\` \\<s\\> \\[l\\]", "markdown: emphasis, code, html, links");
	is_str(text_md_escape("l1\nl2", buf, sizeof(buf)), "l1 l2", "markdown: no line break");
	is_str(text_md_escape("||||", buf, 6), "\\|\\|", "markdown: cut whole escapes");
}

static void test_input(void)
{
	char dir[] = "/tmp/iowatt-text.XXXXXX", *path, *buf;
	size_t len;
	FILE *fp;

	ok(mkdtemp(dir) != NULL, "temp dir");
	is_int(input_open(dir, 0, 0), -EISDIR, "a directory: -EISDIR");
	is_str(input_strerror(-EISDIR), "is a directory", "... said in words");
	is_int(input_open("/dev/zero", 0, 0), -ESPIPE, "a device: not a regular file");
	path = xasprintf("%s/f", dir);
	fp = fopen(path, "w");
	fputs("0123456789", fp);
	fclose(fp);
	ok(!input_read(path, 0, 10, &buf, &len) && len == 10 && !strcmp(buf, "0123456789"),
	   "a file of exactly the limit is read");
	free(buf);
	is_int(input_read(path, 0, 9, &buf, &len), -EFBIG, "one byte over the limit: -EFBIG");
	ok(buf == NULL, "... and nothing returned");
	free(path);
	path = xasprintf("%s/l", dir);
	ok(!symlink("f", path), "symlink");
	is_int(input_open(path, INPUT_NOFOLLOW, 0), -ELOOP, "INPUT_NOFOLLOW refuses a symlink");
	unlink(path);
	free(path);
	path = xasprintf("%s/p", dir);
	ok(!mkfifo(path, 0600), "fifo");
	is_int(input_open(path, 0, 0), -ESPIPE, "a FIFO is refused without blocking");
	unlink(path);
	free(path);
	path = xasprintf("%s/f", dir);
	unlink(path);
	free(path);
	rmdir(dir);
}

/*
 * A kernel log line that is not UTF-8 (latin-1 "Spannung \xfcber", a stray \xff) is kept
 * in the result, its bad bytes escaped, valid UTF-8 around them untouched.
 */
static void test_invalid_utf8(void)
{
	struct run_result r;
	struct result_event *ev;
	json_t *doc, *evs, *text;
	char *s;

	s = text_escape_invalid("Spannung \xfc" "ber \xff \xc3\xa9t\xc3\xa9");
	is_str(s, "Spannung \\xfcber \\xff \xc3\xa9t\xc3\xa9",
	       "bad bytes escaped as \\xNN, UTF-8 kept");
	free(s);
	memset(&r, 0, sizeof(r));
	r.events = xcalloc(2, sizeof(*r.events));
	r.nevents = 1;
	ev = &r.events[0];
	ev->kind = 0;
	ev->source = xstrdup("kmsg");
	ev->text = xstrdup("Under-voltage \xff\xfe detected");
	doc = result_to_json(&r);
	evs = doc ? json_object_get(doc, "events") : NULL;
	text = evs ? json_object_get(json_array_get(evs, 0), "text") : NULL;
	ok(text && !strcmp(json_string_value(text), "Under-voltage \\xff\\xfe detected"),
	   "the result keeps the kernel line, escaped: %s",
	   text ? json_string_value(text) : "(lost)");
	json_decref(doc);
	result_free(&r);
}

/* Chart labels: SI prefixes, never an exponent. */
static void test_fmt_si(void)
{
	char b[32];

	is_str(fmt_si_label(1430, b, sizeof(b)), "1.43 k", "1430 -> 1.43 k, not 1.43e+03");
	is_str(fmt_si_label(999.6, b, sizeof(b)), "1 k", "999.6 rounds to 1 k, not 1e+03");
	is_str(fmt_si_label(999.4, b, sizeof(b)), "999", "999.4 -> 999");
	is_str(fmt_si_label(2.5e6, b, sizeof(b)), "2.5 M", "2.5e6 -> 2.5 M");
	is_str(fmt_si_label(-26610, b, sizeof(b)), "-26.6 k", "a negative figure keeps its sign");
	is_str(fmt_si_label(0.209, b, sizeof(b)), "0.209", "a ratio under 1 as it is");
	is_str(fmt_si_label(0.00021, b, sizeof(b)), "210 \u00b5", "0.00021 -> 210 u, not 0.00021 or 2.1e-04");
	is_str(fmt_si_label(0, b, sizeof(b)), "0", "zero");
	is_str(fmt_si_label(NAN, b, sizeof(b)), "", "NAN: nothing to draw");
	is_str(fmt_si_label(INFINITY, b, sizeof(b)), "", "inf: nothing to draw");
}

int main(void)
{
	test_fmt_si();
	test_invalid_utf8();
	test_clean();
	test_csv_md();
	test_input();
	return done_testing();
}
