/*
 * fmt_folded.c - folded (collapsed) stacks: one `frame;frame;...;leaf COUNT`
 * line per stack, root first, as written by torch.profiler's
 * `prof.export_stacks(path, metric)` (Diffulex's `pytorch_stacks_*.stacks`),
 * Brendan Gregg's stackcollapse-* scripts, `py-spy record --format raw` and
 * heaptrack/flamegraph tools.
 *
 * Stored as a sampled profile, like speedscope's (stacks.h): one track
 * (kind "thread", pid "folded", tid "0"), each line one sample laid end to
 * end in file order, lasting its weight, with its frames as nested "frame"
 * spans (adjacent lines share their common prefix). A frame's total is
 * SUM(dur) of its spans, its self weight SUM(self).
 *
 * The weight's unit is not in the file. torch.profiler's export (frames such
 * as `t.py(6):_<module>` and `nn.Module:_Linear_0`: file(line) with the
 * spaces turned into '_') writes the event's self time in whole
 * microseconds (int() of the metric): stored as ns (x 1000), real durations
 * laid end to end. Everything else counts samples: stored as synthetic time,
 * 1 sample = 1 ns (run.time_synthetic). meta.weight_unit says which ("us" or
 * "samples"), meta.weight_stored how it is stored.
 *
 * Diagnostics: folded_bad_line (a line with no COUNT, or one that is not a
 * number >= 0: skipped), folded_empty_frame (`a;;b`: named "(empty)"),
 * folded_fractional_count (a sample count with a fraction, rounded to ns),
 * folded_invalid_text (bytes that are not UTF-8 text, replaced by '?'),
 * folded_deep_stack (frames past PR_FOLDED_MAX_DEPTH dropped). The first
 * non-empty line must be a folded line: otherwise the file is not folded
 * stacks (an error with its position).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/csv.h"
#include "ingest/format.h"
#include "ingest/stacks.h"
#include "base/decimal.h"
#include "base/pr_common.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define FOLDED_MAX_LINE (1u << 20)
#define PR_FOLDED_MAX_DEPTH 4096

/* The count at the end of s[0..n): its offset, or -1 when the line is not
 * "FRAMES COUNT". *frames_end gets the end of the frames (blanks dropped). */
static long split_count(const char *s, size_t n, size_t *frames_end)
{
	size_t e = n, c, i;
	int dot = 0;
	while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t'))
		e--;
	c = e;
	while (c > 0 && s[c - 1] != ' ' && s[c - 1] != '\t')
		c--;
	if (c == 0 || c == e)
		return -1;
	for (i = c; i < e; i++) {
		if (s[i] == '.' && !dot && i > c && i + 1 < e)
			dot = 1;
		else if (!isdigit((unsigned char)s[i]))
			return -1;
	}
	*frames_end = c;
	while (*frames_end > 0 && (s[*frames_end - 1] == ' ' || s[*frames_end - 1] == '\t'))
		(*frames_end)--;
	if (*frames_end == 0 || s[0] == ' ' || s[0] == '\t')
		return -1;
	return (long)c;
}

/* torch.profiler's frames: "file.py(12):_func" or "nn.Module:_Name". */
static int torch_frames(const unsigned char *h, size_t n)
{
	size_t i;
	for (i = 0; i + 3 <= n; i++) {
		if (h[i] == ')' && h[i + 1] == ':' && h[i + 2] == '_') {
			size_t k = i;
			while (k > 0 && isdigit(h[k - 1]))
				k--;
			if (k < i && k > 0 && h[k - 1] == '(')
				return 1;
		}
		if (h[i] == 'n' && n - i >= 11 && !memcmp(h + i, "nn.Module:_", 11))
			return 1;
	}
	return 0;
}

static int folded_sniff(const unsigned char *head, size_t n, const char *path)
{
	size_t i = 0, lines = 0, semi = 0, bad = 0, bad_first = 0;
	if (n >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3))
		i = 3;
	if (memchr(head, 0, n))
		return 0;
	while (i < n) {
		const unsigned char *nl = memchr(head + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (head + i)) : n - i, fe;
		if (!nl && n >= PR_SOURCE_HEAD)
			break; /* a line cut by the head's end */
		while (len > 0 && head[i + len - 1] == '\r')
			len--;
		if (len > 0) {
			if (split_count((const char *)head + i, len, &fe) < 0) {
				bad_first += !lines;
				bad++;
			} else {
				lines++;
				semi += memchr(head + i, ';', fe) != NULL;
			}
		}
		i += len;
		while (i < n && (head[i] == '\r' || head[i] == '\n'))
			i++;
	}
	/* A stray line is a diagnostic. Lines of stacks ('a;b;c 5') are distinctive:
	 * up to one bad line in three (a header, a cut or mangled line, the first
	 * one included) is still folded stacks; without a ';' the first line must
	 * be a folded one and more than one bad line in five is another format. */
	if (!lines || (semi ? bad * 2 > lines : bad_first || bad * 4 > lines))
		return 0;
	if (semi)
		return 85;
	/* single-frame lines only: "name 5" could be anything */
	if (path) {
		size_t pl = strlen(path);
		static const char *const ext[] = { ".folded", ".collapsed", ".stacks" };
		size_t k;
		for (k = 0; k < PR_ARRAY_SIZE(ext); k++)
			if (pl >= strlen(ext[k]) && !strcmp(path + pl - strlen(ext[k]), ext[k]))
				return 60;
	}
	return 25;
}

struct fd {
	struct pr_writer *w;
	struct pr_stk *stk;
	int64_t track, empty_name;
	int us;
	struct pr_stk_frame *f;
	size_t cap;
	struct pr_strbuf clean;
};

static const char *collector_of(const unsigned char *h, size_t n, int us)
{
	const unsigned char *nl;
	size_t len, k;
	if (us)
		return "torch.profiler";
	nl = memchr(h, '\n', n);
	len = nl ? (size_t)(nl - h) : n;
	/* py-spy raw: "func (file.py:12)" frames */
	for (k = 0; k + 2 < len; k++)
		if (h[k] == ' ' && h[k + 1] == '(') {
			size_t j = k + 2;
			while (j < len && h[j] != ')' && h[j] != ';')
				j++;
			if (j < len && h[j] == ')' && j > k + 2 && isdigit(h[j - 1]) &&
			    memchr(h + k + 2, ':', j - k - 2))
				return "py-spy";
		}
	/* stackcollapse-perf's annotations, anywhere in the head: kernel _[k],
	 * JIT _[j], inlined _[i] */
	for (k = 0; k + 4 <= n; k++)
		if (h[k] == '_' && h[k + 1] == '[' && strchr("kji", h[k + 2]) && h[k + 3] == ']')
			return "stackcollapse";
	return "folded";
}

static void line(struct fd *d, char *s, size_t n, long lineno, long cpos, size_t fe)
{
	int64_t dur;
	size_t nf = 0, i = 0, cn = strspn(s + cpos, "0123456789.");
	/* exact: whole us -> ns, a fraction rounded half away from zero */
	if (pr_decimal_scaled(s + cpos, cn, d->us ? 3 : 0, &dur) != PR_DEC_OK ||
	    dur > PR_STK_MAX_NS) {
		pr_writer_diag(d->w, "folded_bad_line", -1, lineno, cpos + 1,
			       "the count is too large; line skipped");
		return;
	}
	if (!d->us && memchr(s + cpos, '.', cn) && strtod(s + cpos, NULL) != (double)dur)
		pr_writer_diag(d->w, "folded_fractional_count", -1, lineno, cpos + 1,
			       "a sample count with a fraction (%.*s): stored rounded to whole "
			       "samples",
			       (int)cn, s + cpos);
	s[fe] = '\0';
	if (!pr_csv_text_ok(s, fe)) {
		pr_strbuf_reset(&d->clean);
		pr_csv_text_clean(&d->clean, s, fe);
		pr_writer_diag(d->w, "folded_invalid_text", -1, lineno, 1,
			       "frame names with bytes that are not UTF-8 text: replaced by '?'");
		s = d->clean.buf;
		fe = d->clean.len;
	}
	PR_UNUSED(n);
	while (i <= fe) {
		size_t j = i;
		while (j < fe && s[j] != ';')
			j++;
		if (nf == PR_FOLDED_MAX_DEPTH) {
			pr_writer_diag(
				d->w, "folded_deep_stack", -1, lineno, (long)i + 1,
				"a stack deeper than %d frames: the frames below are dropped",
				PR_FOLDED_MAX_DEPTH);
			break;
		}
		if (nf == d->cap) {
			d->cap = d->cap ? d->cap * 2 : 64;
			d->f = pr_xreallocarray(d->f, d->cap, sizeof(*d->f));
		}
		if (j == i) {
			pr_writer_diag(d->w, "folded_empty_frame", -1, lineno, (long)i + 1,
				       "an empty frame name; named \"(empty)\"");
			if (!d->empty_name)
				d->empty_name = pr_writer_intern(d->w, "(empty)", 7);
			d->f[nf].name = d->empty_name;
		} else {
			d->f[nf].name = pr_writer_intern(d->w, s + i, j - i);
		}
		d->f[nf].aux = 0;
		d->f[nf].args = NULL;
		nf++;
		i = j + 1;
	}
	pr_stk_sample(d->stk, d->track, d->f, nf, dur);
}

static int folded_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct pr_lines rd;
	struct fd d;
	const unsigned char *h;
	size_t hn, n, fe;
	char *s;
	long lineno = 0, cpos, bad_line = 0;
	int got, good = 0, rc = 0;

	if (pr_source_head(src, &h, &hn, err))
		return -1;
	memset(&d, 0, sizeof(d));
	d.w = w;
	pr_strbuf_init(&d.clean);
	d.us = torch_frames(h, hn);
	pr_writer_set_collector(w, collector_of(h, hn, d.us));
	if (d.us) {
		pr_writer_meta_set(w, "weight_unit", json_string("us"));
		pr_writer_meta_set(
			w, "weight_stored",
			json_string(
				"ns: torch.profiler export_stacks writes each event's self time in "
				"whole microseconds (int() of the metric), x 1000; samples laid end "
				"to end"));
	} else {
		pr_writer_set_time_synthetic(w, 1);
		pr_writer_meta_set(w, "weight_unit", json_string("samples"));
		pr_writer_meta_set(w, "weight_stored",
				   json_string("synthetic time: 1 sample = 1 ns, samples laid end "
					       "to end"));
	}
	d.stk = pr_stk_new(w, "frame");
	d.track = pr_writer_track(w, "thread", "folded", "0");
	pr_writer_track_set_name(w, d.track, "stacks");
	pr_lines_init(&rd, src, FOLDED_MAX_LINE, "folded stacks");
	while ((got = pr_lines_next(&rd, &s, err)) > 0) {
		n = rd.n;
		lineno++;
		if (lineno == 1 && n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {
			s += 3;
			n -= 3;
		}
		if (n == 0 || strspn(s, " \t") == n)
			continue;
		cpos = split_count(s, n, &fe);
		if (cpos < 0) {
			if (!bad_line)
				bad_line = lineno;
			pr_writer_diag(w, "folded_bad_line", -1, lineno, 1,
				       "not 'frame;frame;... COUNT' (a count >= 0 after the last "
				       "blank); skipped");
			continue;
		}
		pr_writer_at(w, rd.off);
		good = 1;
		line(&d, s, n, lineno, cpos, fe);
	}
	if (got < 0)
		rc = -1;
	/* no line of stacks at all: the first line that is not one is the error */
	if (rc == 0 && !good && bad_line)
		rc = pr_error_at(err, PR_E_PARSE, -1, bad_line, 1,
				 "not folded stacks: expected 'frame;frame;... COUNT'");
	else if (rc == 0 && !good)
		rc = pr_error_at(err, PR_E_PARSE, -1, 0, 0,
				 "no stack lines: expected 'frame;frame;... COUNT' lines");
	if (rc == 0)
		pr_stk_finish(d.stk);
	pr_lines_release(&rd);
	pr_stk_free(d.stk);
	free(d.f);
	pr_strbuf_release(&d.clean);
	return rc;
}

static const char *const folded_tokens[] = { ";", " ", "-", "[unknown]", NULL };

const struct pr_format pr_format_folded = {
	.name = "folded",
	.summary = "folded stacks (torch.profiler export_stacks, stackcollapse-*, py-spy raw)",
	.sniff = folded_sniff,
	.parse = folded_parse,
	.tokens = folded_tokens,
};
