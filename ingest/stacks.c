/* stacks.c - sampled call stacks as nested spans, and a line reader (stacks.h). */
#include "ingest/stacks.h"

#include <stdlib.h>
#include <string.h>

#include "base/strmap.h"
#include "base/xalloc.h"

struct stk_open {
	int64_t name, aux;
};

struct stk_track {
	int64_t track, t;
	struct stk_open *open;
	size_t depth, cap;
	int full; /* past PR_STK_MAX_NS */
};

struct pr_stk {
	struct pr_writer *w;
	const char *kind;
	struct stk_track *tracks;
	size_t ntracks, cap;
	struct pr_strmap index; /* track id (8 bytes) -> index in tracks */
};

struct pr_stk *pr_stk_new(struct pr_writer *w, const char *kind)
{
	struct pr_stk *s = pr_xcalloc(1, sizeof(*s));
	s->w = w;
	s->kind = kind;
	return s;
}

static struct stk_track *find(const struct pr_stk *s, int64_t track)
{
	int64_t i;
	if (!pr_strmap_get(&s->index, &track, sizeof(track), &i))
		return NULL;
	return &s->tracks[i];
}

static struct stk_track *get(struct pr_stk *s, int64_t track)
{
	struct stk_track *t = find(s, track);
	if (t)
		return t;
	if (s->ntracks == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 8;
		s->tracks = pr_xreallocarray(s->tracks, s->cap, sizeof(*s->tracks));
	}
	t = &s->tracks[s->ntracks];
	memset(t, 0, sizeof(*t));
	t->track = track;
	pr_strmap_put(&s->index, &track, sizeof(track), (int64_t)s->ntracks);
	s->ntracks++;
	return t;
}

static void close_to(struct pr_stk *s, struct stk_track *t, size_t depth)
{
	while (t->depth > depth) {
		t->depth--;
		pr_writer_span_end(s->w, t->track, t->t, NULL, 0);
	}
}

void pr_stk_sample(struct pr_stk *s, int64_t track, const struct pr_stk_frame *f, size_t n,
		   int64_t dur)
{
	struct stk_track *t = get(s, track);
	size_t common = 0, k;
	if (t->full)
		return;
	if (dur < 0)
		dur = 0;
	if (dur > PR_STK_MAX_NS - t->t) {
		t->full = 1;
		pr_writer_diag(s->w, "time_out_of_range", -1, 0, 0,
			       "a track's samples add up to more than %lld ns; the samples past "
			       "that are dropped",
			       (long long)PR_STK_MAX_NS);
		return;
	}
	while (common < n && common < t->depth && t->open[common].name == f[common].name &&
	       t->open[common].aux == f[common].aux)
		common++;
	close_to(s, t, common);
	for (k = common; k < n; k++) {
		struct pr_span_in in;
		memset(&in, 0, sizeof(in));
		in.track = track;
		in.kind = s->kind;
		in.name = f[k].name;
		in.ts = t->t;
		in.args = f[k].args;
		in.args_len = f[k].args ? strlen(f[k].args) : 0;
		pr_writer_span_begin(s->w, &in);
		if (t->depth == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 32;
			t->open = pr_xreallocarray(t->open, t->cap, sizeof(*t->open));
		}
		t->open[t->depth].name = f[k].name;
		t->open[t->depth].aux = f[k].aux;
		t->depth++;
	}
	t->t += dur;
}

void pr_stk_finish(struct pr_stk *s)
{
	size_t i;
	for (i = 0; i < s->ntracks; i++)
		close_to(s, &s->tracks[i], 0);
}

void pr_stk_free(struct pr_stk *s)
{
	size_t i;
	if (!s)
		return;
	for (i = 0; i < s->ntracks; i++)
		free(s->tracks[i].open);
	free(s->tracks);
	pr_strmap_release(&s->index);
	free(s);
}
