/*
 * xsum.h - exact floating-point sums (Shewchuk's non-overlapping partials,
 * as Python's math.fsum): the correctly rounded value of a sum does not
 * depend on the order in which its terms were added, so sums folded in
 * any order, or merged, agree to the last bit.
 *
 * USAGE
 *   struct pr_xsum s = PR_XSUM_INIT;
 *   pr_xsum_add(&s, x); ...   (non-finite terms are ignored)
 *   double v = pr_xsum_value(&s);
 *   free(s.p);
 *
 * OWNERSHIP: the partials p are the caller's to free (free(s.p)); they
 * grow with pr_xreallocarray (aborts on out of memory).
 */
#ifndef PR_XSUM_H
#define PR_XSUM_H

#include <stddef.h>

struct pr_xsum {
	double *p; /* non-overlapping, increasing magnitude */
	size_t n, alloc;
};
#define PR_XSUM_INIT                                                                               \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

void pr_xsum_add(struct pr_xsum *s, double x);
/* into += from (term by term: exact). */
void pr_xsum_merge(struct pr_xsum *into, const struct pr_xsum *from);
/* The correctly rounded value of the exact sum. */
double pr_xsum_value(const struct pr_xsum *s);

#endif
