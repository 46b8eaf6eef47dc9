/*
 * dict.h - each fuzz target prints its own libFuzzer dictionary: run with
 * PR_FUZZ_DICT=1 it writes the dictionary on stdout and exits (called from
 * LLVMFuzzerInitialize). tests/tools/fuzz_smoke.sh passes it as -dict=. An
 * ingest target's dictionary is its format's tokens (struct pr_format,
 * ingest/format.h), after JSON's own tokens for a JSON format; so the
 * dictionaries come from the registry, nothing to keep in step by hand.
 */
#ifndef PR_FUZZ_DICT_H
#define PR_FUZZ_DICT_H

#include <stdio.h>
#include <stdlib.h>

/* JSON's syntax and the values that stress a JSON reader. */
static const char *const pr_fuzz_json_tokens[] = {
	"{",
	"}",
	"[",
	"]",
	",",
	":",
	"\"",
	"\\",
	"\\u",
	"\\uD83D\\uDE00",
	"\\u0000",
	"true",
	"false",
	"null",
	"-0",
	"0.5",
	"1e400",
	"-1e-400",
	"1669329643132548.123",
	"\xef\xbb\xbf",
	"\xff",
	"\xc3\xa9",
	"\xed\xa0\x80",
	"\x01",
	NULL,
};

/* One dictionary entry: "..." with \\, \" and \xNN for other bytes. */
static inline void pr_fuzz_dict_entry(const char *t)
{
	putchar('"');
	for (; *t; t++) {
		unsigned char c = (unsigned char)*t;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	fputs("\"\n", stdout);
}

/* With PR_FUZZ_DICT set: print the lists' entries (either may be NULL) and exit. */
static inline void pr_fuzz_dict_maybe_print(const char *const *a, const char *const *b)
{
	if (!getenv("PR_FUZZ_DICT"))
		return;
	for (; a && *a; a++)
		pr_fuzz_dict_entry(*a);
	for (; b && *b; b++)
		pr_fuzz_dict_entry(*b);
	exit(fflush(stdout) ? 1 : 0);
}

#endif
