/* jdoc.c - jansson documents from a pr_source, NaN/Infinity tolerated. */
/* memmem (glibc, musl and the BSDs have it; POSIX does not name it) */
#define _GNU_SOURCE
#include "ingest/jdoc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/env.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* ---- the document-size limit ---- */

int pr_env_limit(const char *env, size_t deflt, unsigned long long max_mib, size_t *max,
		 struct pr_error *err)
{
	return pr_env_number(env, deflt, 1, max_mib, 20, max, err);
}

int pr_jdoc_limit(size_t *max, struct pr_error *err)
{
	return pr_env_limit(PR_JDOC_MAX_ENV, PR_JDOC_MAX_DEFAULT, PR_JDOC_MAX_MB_MAX, max, err);
}

size_t pr_jdoc_max(void)
{
	struct pr_error err = PR_ERROR_INIT;
	size_t max;
	pr_jdoc_limit(&max, &err);
	return max;
}

static int too_big(struct pr_error *err, size_t max)
{
	return pr_error_set(err, PR_E_LIMIT,
			    "JSON document larger than %zu MiB (after gunzip): not loaded, "
			    "documents are held whole in memory; set %s=N (MiB) to raise "
			    "the limit",
			    max >> 20, PR_JDOC_MAX_ENV);
}

/* ---- NaN / Infinity / -Infinity outside strings -> null, a chunk at a time ---- */

struct nf_scan {
	int in_str, esc;
	char carry[16]; /* a possible word cut by the end of the previous chunk */
	size_t ncarry;
	long count;
};

/* Appends p[0, n) to out with the words replaced. Unless final, a prefix of a
 * word at the very end is held back in s->carry for the next chunk. */
static void nf_feed(struct nf_scan *s, const char *p, size_t n, int final, struct pr_strbuf *out)
{
	static const char *const words[] = { "-Infinity", "Infinity", "NaN" };
	size_t i, run = 0;
	for (i = 0; i < n; i++) {
		char c = p[i];
		size_t k;
		if (s->in_str) {
			if (s->esc)
				s->esc = 0;
			else if (c == '\\')
				s->esc = 1;
			else if (c == '"')
				s->in_str = 0;
			continue;
		}
		if (c == '"') {
			s->in_str = 1;
			continue;
		}
		if (c != 'N' && c != 'I' && c != '-')
			continue;
		for (k = 0; k < PR_ARRAY_SIZE(words); k++) {
			size_t l = strlen(words[k]), avail = n - i;
			if (avail >= l && !memcmp(p + i, words[k], l)) {
				pr_strbuf_add(out, p + run, i - run);
				pr_strbuf_add(out, "null", 4);
				i += l - 1;
				run = i + 1;
				s->count++;
				break;
			}
			if (avail < l && !final && !memcmp(p + i, words[k], avail)) {
				pr_strbuf_add(out, p + run, i - run);
				memcpy(s->carry, p + i, avail);
				s->ncarry = avail;
				return;
			}
		}
	}
	pr_strbuf_add(out, p + run, n - run);
	s->ncarry = 0;
}

/* Reads the next chunk of the source into out, replaced; 1 data, 0 EOF (the
 * carry flushed into out), -1 a read error or the document over max. */
static int nf_read(struct pr_source *src, struct nf_scan *s, struct pr_strbuf *out, int64_t *total,
		   size_t max, struct pr_error *err)
{
	char buf[16 + 65536];
	long n;
	size_t have = s->ncarry;
	memcpy(buf, s->carry, have);
	n = pr_source_read(src, buf + have, sizeof(buf) - have, err);
	if (n < 0)
		return -1;
	*total += n;
	if ((uint64_t)*total > (uint64_t)max)
		return too_big(err, max);
	nf_feed(s, buf, have + (size_t)n, n == 0, out);
	return n > 0;
}

int pr_jdoc_read_text(struct pr_source *src, struct pr_strbuf *out, long *nonfinite,
		      struct pr_error *err)
{
	struct nf_scan s;
	int64_t total = 0;
	size_t max;
	int rc;
	if (pr_jdoc_limit(&max, err))
		return -1;
	memset(&s, 0, sizeof(s));
	while ((rc = nf_read(src, &s, out, &total, max, err)) > 0)
		;
	*nonfinite += s.count;
	return rc;
}

/* ---- whole documents ---- */

int pr_jdoc_error(const json_error_t *jerr, size_t len, struct pr_error *err)
{
	/* jansson leaves the text empty when one of its allocations fails (the
	 * tree of a big document in the memory left; issue 12: the error was
	 * "'FILE':1:1: " and nothing else): say so. */
	if (!jerr->text[0] || json_error_code(jerr) == json_error_out_of_memory)
		return pr_error_set(err, PR_E_LIMIT,
				    "out of memory loading a JSON document of %zu MiB "
				    "(documents are held whole in memory)",
				    len >> 20);
	/* jansson says column 0 at the start of a line (e.g. an empty file). */
	return pr_error_at(err, PR_E_PARSE, -1, jerr->line > 0 ? jerr->line : 1,
			   jerr->column > 0 ? jerr->column : 1, "%s", jerr->text);
}

json_t *pr_jdoc_loadb(const char *buf, size_t len, size_t flags, json_error_t *jerr)
{
	int was = pr_json_tolerant(1);
	json_t *doc = json_loadb(buf, len, flags, jerr);
	pr_json_tolerant(was);
	return doc;
}

json_t *pr_jdoc_load(struct pr_source *src, long *nonfinite, struct pr_error *err)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_error_t jerr;
	json_t *doc;
	long nf = 0;
	size_t len;
	/* Read whole first: a document over the limit is refused having cost
	 * only its text, not jansson's tree (4 to 7 times bigger). */
	if (pr_jdoc_read_text(src, &sb, &nf, err)) {
		pr_strbuf_release(&sb);
		return NULL;
	}
	len = sb.len;
	doc = pr_jdoc_loadb(sb.buf, sb.len, JSON_ALLOW_NUL, &jerr);
	pr_strbuf_release(&sb);
	if (!doc) {
		pr_jdoc_error(&jerr, len, err);
		return NULL;
	}
	if (nonfinite)
		*nonfinite = nf;
	return doc;
}

int pr_jdoc_head_has(const unsigned char *head, size_t n, const char *const *keys)
{
	size_t i = 0, k;
	if (n >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i >= n || head[i] != '{')
		return 0;
	/* Every format's sniffer asks for several keys in the same 64 KiB head, for
	 * every file: one memmem per key for "key" (quotes included), or sniffing
	 * is the largest cost of ingesting many small files. */
	for (k = 0; keys[k]; k++) {
		char pat[256];
		size_t kl = strlen(keys[k]);
		if (kl + 2 > sizeof(pat))
			return 0; /* no sniffer asks for such a key */
		pat[0] = '"';
		memcpy(pat + 1, keys[k], kl);
		pat[kl + 1] = '"';
		if (!memmem(head + i, n - i, pat, kl + 2))
			return 0;
	}
	return 1;
}

int pr_jget_num(const json_t *obj, const char *key, double *out)
{
	json_t *v = json_object_get(obj, key);
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return isfinite(*out) ? 0 : -1;
}

int pr_jget_int(const json_t *obj, const char *key, int64_t *out)
{
	json_t *v = json_object_get(obj, key);
	double d;
	if (json_is_integer(v)) {
		*out = (int64_t)json_integer_value(v);
		return 0;
	}
	if (!json_is_real(v))
		return -1;
	d = json_real_value(v);
	if (!isfinite(d) || d != floor(d) || fabs(d) > 9e15)
		return -1;
	*out = (int64_t)d;
	return 0;
}

const char *pr_jget_str(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}
