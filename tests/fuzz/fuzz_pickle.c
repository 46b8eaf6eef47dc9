/*
 * fuzz_pickle.c - libFuzzer harness for ingest/pickle (the torch-snapshot
 * reader's decoder; the reader as a whole is fuzz_torch_snapshot).
 *
 * Properties checked on every input (abort() = a finding):
 *  - a decode either gives a value and leaves err untouched, or gives NULL
 *    with a one-line message that names the byte ("pickle byte N: ") and an
 *    offset inside the input;
 *  - decoding the same bytes again gives the same answer (no hidden state);
 *  - an accepted input cut before its first byte's opcode is refused.
 * Memory and cycles: the sanitizers (ASan's leak check) catch a leak, which
 * is what a reference cycle in the tree would be.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/dict.h"
#include "ingest/pickle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static const char *const pickle_tokens[] = {
	"\x80\x04\x95",
	"\x8c\x08segments",
	"\x8c\x0d"
	"device_traces",
	"}\x94(",
	"]\x94(",
	"u",
	"e",
	"s",
	"a",
	"h\x00",
	"j\x00\x00\x00\x00",
	"\x94",
	"q\x00",
	"r\x00\x00\x00\x00",
	"\x8a\x08",
	"\x8a\x09",
	"\x8b\x00\x00\x00\x00",
	"G",
	"J",
	"K",
	"M",
	"\x85",
	"\x86",
	"\x87",
	"N",
	"\x88",
	"\x89",
	".",
	"(",
	"0",
	"1",
	"2",
	"\x8f",
	"\x90",
	"\x91",
	"C",
	"B",
	"\x8e",
	"X",
	"\x8d",
	"c",
	"\x93",
	"R",
	"b",
	NULL,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	pr_fuzz_dict_maybe_print(pickle_tokens, NULL);
	return 0;
}

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "fuzz_pickle: %s:%d: check failed: %s\n", __FILE__,        \
				__LINE__, #cond);                                                  \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pr_error e1 = PR_ERROR_INIT, e2 = PR_ERROR_INIT;
	json_t *a = pr_pickle_load(data, size, &e1), *b = pr_pickle_load(data, size, &e2);
	CHECK(!a == !b);
	if (a) {
		struct pr_error e3 = PR_ERROR_INIT;
		json_t *c = pr_pickle_load(data, 0, &e3);
		CHECK(e1.code == PR_OK && e2.code == PR_OK);
		CHECK(!c && e3.code != PR_OK);
	} else {
		CHECK(e1.code != PR_OK && !strcmp(e1.text, e2.text) && e1.offset == e2.offset);
		CHECK(!strchr(e1.text, '\n'));
		CHECK(!strncmp(e1.text, "pickle byte ", 12));
		CHECK(e1.offset >= 0 && (size_t)e1.offset <= size);
	}
	json_decref(a);
	json_decref(b);
	return 0;
}
