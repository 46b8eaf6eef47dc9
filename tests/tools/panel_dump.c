/*
 * panel_dump.c - the panels that `profreport report` draws for a model, as
 * layout dumps, SVG and PNG, for the model-driven render goldens
 * (tests/render.cmake, tests/golden/render_model/).
 *
 *   panel_dump MODEL.json OUTDIR PREFIX
 *       for every panel of the model's first run (pr_panels_build) whose
 *       name starts with PREFIX: OUTDIR/NAME.layout.txt, NAME.svg, NAME.png;
 *       prints the names written, one a line
 */
#include <stdio.h>
#include <string.h>

#include "analyze/model.h"
#include "render/panels.h"
#include "base/error.h"
#include "base/output.h"
#include "base/strbuf.h"

/* fontconfig keeps its caches for the life of the process (see render/gfx.h). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

static int write_one(const struct pr_panelset *ps, size_t i, const char *dir, struct pr_error *err)
{
	struct pr_strbuf path = PR_STRBUF_INIT, dump = PR_STRBUF_INIT;
	struct pr_output out;
	int rc = -1, k;
	if (pr_panelset_layout(ps, i, &dump, err))
		goto done;
	pr_strbuf_addf(&path, "%s/%s.layout.txt", dir, pr_panelset_name(ps, i));
	if (pr_output_open_file(&out, path.buf, err))
		goto done;
	if (pr_output_write(&out, dump.buf, dump.len) || pr_output_close(&out, err)) {
		pr_output_release(&out);
		goto done;
	}
	pr_output_release(&out);
	for (k = 0; k < 2; k++) {
		pr_strbuf_reset(&path);
		pr_strbuf_addf(&path, "%s/%s.%s", dir, pr_panelset_name(ps, i), k ? "png" : "svg");
		if (pr_output_open_file(&out, path.buf, err))
			goto done;
		if (pr_panelset_render(ps, i, k ? PR_GFX_PNG : PR_GFX_SVG, &out, err) ||
		    pr_output_close(&out, err)) {
			pr_output_release(&out);
			goto done;
		}
		pr_output_release(&out);
	}
	rc = 0;
done:
	pr_strbuf_release(&path);
	pr_strbuf_release(&dump);
	return rc;
}

int main(int argc, char **argv)
{
	struct pr_error err = PR_ERROR_INIT;
	struct pr_panelset *ps;
	json_t *model;
	size_t i;
	int rc = 0;
	if (argc != 4) {
		fprintf(stderr, "usage: panel_dump MODEL.json OUTDIR PREFIX\n");
		return 2;
	}
	model = pr_model_load(argv[1], &err);
	if (!model || !json_array_size(json_object_get(model, "runs"))) {
		char buf[1200];
		pr_error_format(&err, buf, sizeof(buf));
		fprintf(stderr, "panel_dump: %s\n", model ? "the model has no run" : buf);
		json_decref(model);
		return 1;
	}
	ps = pr_panels_build(json_array_get(json_object_get(model, "runs"), 0));
	for (i = 0; i < pr_panelset_count(ps) && !rc; i++) {
		if (strncmp(pr_panelset_name(ps, i), argv[3], strlen(argv[3])))
			continue;
		if (write_one(ps, i, argv[2], &err)) {
			char buf[1200];
			pr_error_format(&err, buf, sizeof(buf));
			fprintf(stderr, "panel_dump: %s\n", buf);
			rc = 1;
		} else {
			printf("%s\n", pr_panelset_name(ps, i));
		}
	}
	pr_panelset_free(ps);
	json_decref(model);
	return rc;
}
