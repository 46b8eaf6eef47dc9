/* time_axis.c - the title of a run's time axes, one convention for every panel. */
#include "render/time_axis.h"

#include <stdio.h>
#include <string.h>

#include "analyze/model.h"
#include "render/panelset.h"
#include "render/units.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/*
 * time_axis.h. One time axis convention per page: every time axis counts
 * from the run's start (a UTC clock on some panels and seconds on others
 * read as two different times); the start's UTC date is in the title.
 */
const char *pr_time_axis_label(struct pr_panelset *ps, const json_t *run)
{
	const json_t *clock = json_object_get(run, PRK_CLOCK);
	json_t *e = json_object_get(clock, PRK_CLOCK_EPOCH_START_NS);
	char utc[64], buf[100];
	if (!json_is_number(e) || json_is_true(json_object_get(clock, PRK_CLOCK_SYNTHETIC)))
		return "Time since the start";
	pr_fmt_utc(json_number_value(e), utc, sizeof(utc));
	if (!strcmp(utc, "-"))
		return "Time since the start";
	snprintf(buf, sizeof(buf), "Time since the start, %s", utc);
	return pr_panelset_strdup(ps, buf);
}
