/* panelset.c - named chart panels with a memory pool. */
#include "render/panelset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/xalloc.h"

struct panel {
	char *name;
	struct pr_chart c;
};

struct skipped {
	const char *name, *reason;
};

struct pr_panelset {
	struct panel *p;
	size_t n;
	struct skipped *skip;
	size_t nskip;
	void **pool;
	size_t npool;
};

struct pr_panelset *pr_panelset_new(void)
{
	return pr_xcalloc(1, sizeof(struct pr_panelset));
}

void pr_panelset_free(struct pr_panelset *ps)
{
	size_t i;
	if (!ps)
		return;
	for (i = 0; i < ps->npool; i++)
		free(ps->pool[i]);
	free(ps->pool);
	free(ps->p);
	free(ps->skip);
	free(ps);
}

void *pr_panelset_alloc(struct pr_panelset *ps, size_t n, size_t size)
{
	void *p = pr_xcalloc(n ? n : 1, size);
	ps->pool = pr_xreallocarray(ps->pool, ps->npool + 1, sizeof(*ps->pool));
	ps->pool[ps->npool++] = p;
	return p;
}

char *pr_panelset_strdup(struct pr_panelset *ps, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = pr_panelset_alloc(ps, n, 1);
	memcpy(d, s, n);
	return d;
}

struct pr_chart *pr_panelset_add(struct pr_panelset *ps, const char *name, const char *title)
{
	struct panel *p;
	char unique[200];
	size_t i, k = 1;
	snprintf(unique, sizeof(unique), "%s", name);
	for (i = 0; i < ps->n; i++)
		if (!strcmp(ps->p[i].name, unique)) {
			snprintf(unique, sizeof(unique), "%s-%zu", name, ++k);
			i = (size_t)-1; /* check again from the start */
		}
	ps->p = pr_xreallocarray(ps->p, ps->n + 1, sizeof(*ps->p));
	p = &ps->p[ps->n++];
	memset(p, 0, sizeof(*p));
	p->name = pr_panelset_strdup(ps, unique);
	p->c.title = pr_panelset_strdup(ps, title);
	return &p->c;
}

void pr_panelset_remove(struct pr_panelset *ps, size_t i, const char *reason)
{
	ps->skip = pr_xreallocarray(ps->skip, ps->nskip + 1, sizeof(*ps->skip));
	ps->skip[ps->nskip].name = ps->p[i].name;
	ps->skip[ps->nskip].reason = pr_panelset_strdup(ps, reason);
	ps->nskip++;
	memmove(&ps->p[i], &ps->p[i + 1], (ps->n - i - 1) * sizeof(*ps->p));
	ps->n--;
}

size_t pr_panelset_skipped_count(const struct pr_panelset *ps)
{
	return ps ? ps->nskip : 0;
}

const char *pr_panelset_skipped_name(const struct pr_panelset *ps, size_t i)
{
	return ps->skip[i].name;
}

const char *pr_panelset_skipped_reason(const struct pr_panelset *ps, size_t i)
{
	return ps->skip[i].reason;
}

size_t pr_panelset_count(const struct pr_panelset *ps)
{
	return ps ? ps->n : 0;
}

const char *pr_panelset_name(const struct pr_panelset *ps, size_t i)
{
	return ps->p[i].name;
}

const char *pr_panelset_title(const struct pr_panelset *ps, size_t i)
{
	return ps->p[i].c.title;
}

const struct pr_chart *pr_panelset_chart(const struct pr_panelset *ps, size_t i)
{
	return &ps->p[i].c;
}

int pr_panelset_render(const struct pr_panelset *ps, size_t i, enum pr_gfx_format format,
		       struct pr_output *out, struct pr_error *err)
{
	return pr_chart_render(&ps->p[i].c, format, out, err);
}

int pr_panelset_layout(const struct pr_panelset *ps, size_t i, struct pr_strbuf *dump,
		       struct pr_error *err)
{
	return pr_chart_layout(&ps->p[i].c, dump, err);
}

int pr_panelset_write_files(const struct pr_panelset *ps, const char *dir, const char *prefix,
			    enum pr_gfx_format format, struct pr_error *err)
{
	size_t i;
	if (mkdir(dir, 0777) && errno != EEXIST)
		return pr_error_set(err, PR_E_IO, "cannot create the directory '%s': %s", dir,
				    strerror(errno));
	for (i = 0; i < pr_panelset_count(ps); i++) {
		struct pr_output out;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s%s.%s", dir, prefix, ps->p[i].name,
			 format == PR_GFX_PNG ? "png" : "svg");
		if (pr_output_open_file(&out, path, err) ||
		    pr_chart_render(&ps->p[i].c, format, &out, err) || pr_output_close(&out, err)) {
			pr_output_release(&out);
			return -1;
		}
		pr_output_release(&out);
	}
	return 0;
}
