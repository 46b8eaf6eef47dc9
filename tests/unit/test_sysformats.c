/* test_sysformats.c - detection of the sysstat (sadf, sadf-json, pidstat)
 * and Valgrind DHAT readers: each wins on its own heads and scores 0 on the
 * others' and on look-alikes (sar's text report, a CSV with semicolons, a
 * Chrome trace), so none steals another format's files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/format.h"

extern const struct pr_format pr_format_sadf, pr_format_sadf_json, pr_format_pidstat,
	pr_format_dhat;

#define H(s) (const unsigned char *)(s), sizeof(s) - 1
#define S(s) (s), sizeof(s) - 1

static const char sadf_d[] =
	"# hostname;interval;timestamp;CPU;%user;%nice;%system;%iowait;%steal;%idle\n"
	"vm;1;2026-11-24 11:08:45 UTC;-1;18.59;0.00;13.57;18.59;0.00;49.25\n";
static const char sadf_j[] = "{\"sysstat\": {\n\t\"hosts\": [\n\t\t{\n\t\t\t\"nodename\": \"vm\",";
static const char pidstat[] =
	"Linux 6.1.0 (vm) \t11/24/26 \t_x86_64_\t(2 CPU)\n\n"
	"11:14:56      UID       PID    %usr %system  %guest   %wait    %CPU   CPU  Command\n"
	"11:14:57        0     32301   10.00    8.00    0.00   60.00   18.00     1  python3\n";
static const char pidstat_t[] = "Linux 6.1.0 (vm) \t2026-11-24 \t_x86_64_\t(2 CPU)\r\n\r\n"
				"11:59:58 PM   UID      TGID       TID    %usr  Command\r\n";
static const char sar_text[] = "Linux 6.1.0 (vm) \t11/24/26 \t_x86_64_\t(2 CPU)\n\n"
			       "11:08:45 AM     CPU     %user     %nice   %system\n"
			       "11:08:46 AM     all      1.00      0.00      0.50\n";
static const char dhat[] = "{\"dhatFileVersion\":2\n,\"mode\":\"heap\",\"verb\":\"Allocated\"\n";
static const char chrome[] = "{\"traceEvents\": [{\"name\": \"x\", \"ph\": \"X\", \"ts\": 1}]}";
static const char semicolon_csv[] = "time;cpu;mem\n1;2;3\n2;3;4\n";

static void test_each_wins_its_own(void **state)
{
	struct {
		const char *head;
		size_t n;
		const char *format;
	} cases[] = {
		{ S(sadf_d), "sadf" },	     { S(sadf_j), "sadf-json" }, { S(pidstat), "pidstat" },
		{ S(pidstat_t), "pidstat" }, { S(dhat), "dhat" },
	};
	size_t i;
	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int conf = 0;
		const struct pr_format *f = pr_format_sniff((const unsigned char *)cases[i].head,
							    cases[i].n, NULL, &conf);
		assert_non_null(f);
		assert_string_equal(f->name, cases[i].format);
		assert_true(conf >= PR_SNIFF_DIR);
	}
}

static void test_no_stealing(void **state)
{
	const struct pr_format *mine[] = { &pr_format_sadf, &pr_format_sadf_json,
					   &pr_format_pidstat, &pr_format_dhat };
	struct {
		const char *head;
		size_t n;
		const struct pr_format *owner; /* the one of mine that may claim it */
	} heads[] = {
		{ S(sadf_d), &pr_format_sadf },
		{ S(sadf_j), &pr_format_sadf_json },
		{ S(pidstat), &pr_format_pidstat },
		{ S(dhat), &pr_format_dhat },
		{ S(sar_text), NULL },
		{ S(chrome), NULL },
		{ S(semicolon_csv), NULL },
	};
	size_t i, k;
	(void)state;
	for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		for (k = 0; k < sizeof(mine) / sizeof(mine[0]); k++)
			if (mine[k] != heads[i].owner)
				assert_int_equal(mine[k]->sniff((const unsigned char *)heads[i]
									.head,
								heads[i].n, NULL),
						 0);
	/* sar's text report has pidstat's banner but no PID/Command table */
	assert_null(pr_format_sniff(H(sar_text), NULL, NULL));
	/* a Chrome trace is still chrome */
	assert_string_equal(pr_format_sniff(H(chrome), NULL, NULL)->name, "chrome");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_wins_its_own),
		cmocka_unit_test(test_no_stealing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
