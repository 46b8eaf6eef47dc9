/* layout_dump.c - a struct pr_layout as stable text for golden tests. */
#include "render/layout.h"

#include "base/strbuf.h"

static void dump_str(struct pr_strbuf *sb, const char *s)
{
	pr_strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			pr_strbuf_addch(sb, '\\');
		pr_strbuf_addch(sb, *s);
	}
	pr_strbuf_addch(sb, '"');
}

static void dump_rect(struct pr_strbuf *sb, const struct pr_rect *r)
{
	pr_strbuf_addf(sb, "%.2f %.2f %.2f %.2f", r->x, r->y, r->w, r->h);
}

static void dump_axis(struct pr_strbuf *sb, const char *name, const struct pr_axis *a)
{
	static const char *const kinds[] = { "plain", "bytes", "time", "percent" };
	size_t i;
	pr_strbuf_addf(sb, "%s range %.9g %.9g", name, a->lo, a->hi);
	if (a->categorical) {
		pr_strbuf_addstr(sb, " categorical\n");
	} else {
		pr_strbuf_addf(sb, " unit %s ", kinds[a->unit.kind]);
		dump_str(sb, a->unit.name);
		pr_strbuf_addf(sb, " scale %.9g suffix ", a->unit.scale);
		dump_str(sb, a->unit.suffix);
		pr_strbuf_addf(sb, " decimals %d", a->decimals);
		if (a->log)
			pr_strbuf_addstr(sb, " log");
		if (a->date)
			pr_strbuf_addf(sb, " date epoch %.3f", a->epoch);
		pr_strbuf_addch(sb, '\n');
	}
	for (i = 0; i < a->nticks; i++)
		pr_strbuf_addf(sb, "%s tick %.9g at %.2f%s\n", name, a->ticks[i].value,
			       a->ticks[i].pos, a->ticks[i].grid ? " grid" : "");
}

/*
 * A stack group: its lines and grid size, then (for at most DUMP_STACK_POINTS
 * grid points) each x with the tops of its lines, bottom first.
 */
#define DUMP_STACK_POINTS 64
static void dump_stack(struct pr_strbuf *sb, size_t k, const struct pr_stack *s)
{
	size_t i, j;
	pr_strbuf_addf(sb, "stack %zu group %d n %zu lines", k, s->group, s->n);
	for (i = 0; i < s->nlines; i++)
		pr_strbuf_addf(sb, " %zu", s->lines[i]);
	pr_strbuf_addch(sb, '\n');
	for (j = 0; j < s->n && j < DUMP_STACK_POINTS; j++) {
		pr_strbuf_addf(sb, "stack %zu at %.9g tops", k, s->x[j]);
		for (i = 0; i < s->nlines; i++)
			pr_strbuf_addf(sb, " %.9g", s->top[i * s->n + j]);
		pr_strbuf_addch(sb, '\n');
	}
}

void pr_layout_dump(struct pr_strbuf *sb, const struct pr_layout *lo)
{
	static const char *const aligns[] = { "left", "center", "right" };
	size_t i;
	pr_strbuf_addf(sb, "layout %dx%d%s%s%s\n", lo->width, lo->height,
		       lo->bar_chart ? " bars" : " lines", lo->horizontal ? " horizontal" : "",
		       lo->empty ? " empty" : "");
	pr_strbuf_addstr(sb, "plot ");
	dump_rect(sb, &lo->plot);
	pr_strbuf_addch(sb, '\n');
	dump_axis(sb, "x", &lo->x);
	dump_axis(sb, "y", &lo->y);
	for (i = 0; i < lo->nlines; i++) {
		pr_strbuf_addf(sb, "line %zu n %zu finite %zu%s%s", i, lo->lines[i].n,
			       lo->lines[i].finite, lo->lines[i].reduce ? " reduce" : "",
			       lo->lines[i].step ? " step" : "");
		if (lo->lines[i].stack)
			pr_strbuf_addf(sb, " stack %zu", lo->lines[i].stack - 1);
		pr_strbuf_addch(sb, '\n');
	}
	for (i = 0; i < lo->nstacks; i++)
		dump_stack(sb, i, &lo->stacks[i]);
	if (lo->legend.shown) {
		pr_strbuf_addstr(sb, "legend ");
		dump_rect(sb, &lo->legend.box);
		pr_strbuf_addf(sb, " hidden %zu\n", lo->legend.hidden);
		for (i = 0; i < lo->legend.nentries; i++) {
			const struct pr_legend_entry *e = &lo->legend.entries[i];
			pr_strbuf_addf(sb, "legend entry %s #%06x alpha %.2f width %.2f%s swatch ",
				       e->kind == PR_SWATCH_LINE ? "line" : "patch",
				       (unsigned)e->rgb, e->alpha, e->line_width,
				       e->dashed ? " dashed" : "");
			dump_rect(sb, &e->swatch);
			pr_strbuf_addch(sb, '\n');
		}
	}
	if (lo->has_note) {
		pr_strbuf_addstr(sb, "note ");
		dump_rect(sb, &lo->note);
		pr_strbuf_addch(sb, '\n');
	}
	for (i = 0; i < lo->nmarks; i++) {
		const struct pr_mark_box *b = &lo->marks[i];
		if (!b->visible) {
			pr_strbuf_addf(sb, "mark %zu hidden\n", i);
			continue;
		}
		pr_strbuf_addf(sb, "mark %zu point %.2f %.2f box ", i, b->px, b->py);
		dump_rect(sb, &b->box);
		pr_strbuf_addf(sb, " connector %.2f %.2f\n", b->cx, b->cy);
	}
	for (i = 0; i < lo->nbars; i++) {
		const struct pr_bar *b = &lo->bars[i];
		pr_strbuf_addf(sb, "bar %zu %zu #%06x value %.9g rect ", b->category, b->group,
			       (unsigned)b->rgb, b->value);
		dump_rect(sb, &b->r);
		pr_strbuf_addch(sb, '\n');
	}
	for (i = 0; i < lo->ntexts; i++) {
		const struct pr_text *t = &lo->texts[i];
		pr_strbuf_addf(sb, "text %s %.2f %.2f size %.1f%s %s%s #%06x ", t->role, t->x, t->y,
			       t->size, t->bold ? " bold" : "", aligns[t->align],
			       t->vertical ? " vertical" : "", (unsigned)t->rgb);
		dump_str(sb, t->text);
		pr_strbuf_addch(sb, '\n');
	}
}
