/*
 * pickle.h - Python pickles of plain data (protocols 2 to 5) decoded into a
 * jansson tree, without executing anything.
 *
 * USAGE: json_t *doc = pr_pickle_load(buf, n, &err); ... json_decref(doc);
 *
 * Understood: PROTO, FRAME, STOP, MARK, POP, POP_MARK, DUP; dict, list,
 * tuple, set and frozenset (EMPTY_*, DICT, LIST, TUPLE, TUPLE1-3, APPEND(S),
 * SETITEM(S), ADDITEMS, FROZENSET); str (SHORT_BINUNICODE, BINUNICODE(8),
 * SHORT_BINSTRING, BINSTRING), bytes (SHORT_BINBYTES, BINBYTES(8),
 * BYTEARRAY8); ints (BININT, BININT1, BININT2, LONG1, LONG4); floats
 * (BINFLOAT); True, False, None; the memo (MEMOIZE, BINPUT, LONG_BINPUT,
 * BINGET, LONG_BINGET).
 * Mapping: dict -> object (str keys as they are, int keys as their decimal
 * text, True/False/None keys as Python prints them; any other key is an
 * error); list, tuple, set -> array; str -> string; bytes -> string when
 * valid UTF-8, else null; an int past int64 -> a real (addresses are below
 * 2^63 and stay exact); None -> null.
 * Refused, with a one-line error naming the opcode and its byte offset
 * (err->offset is set): every other opcode - GLOBAL, STACK_GLOBAL, REDUCE,
 * BUILD, INST, OBJ, NEWOBJ(_EX), PERSID, BINPERSID, EXT1/2/4, out-of-band
 * buffers and protocol 0/1's text opcodes: a pickle that names a class or a
 * function is never "loaded".
 * Limits: containers nest at most PR_PICKLE_MAX_DEPTH deep; a container
 * is not changed once it is inside another (a pickle that would make a
 * cycle is refused); strings and the stack are bounded by the input.
 * Shared references (the memo) share one jansson value: walkers must
 * bound their work by what they visit, not by the input's size.
 */
#ifndef PR_PICKLE_H
#define PR_PICKLE_H

#include <jansson.h>
#include <stddef.h>

#include "base/error.h"

#define PR_PICKLE_MAX_DEPTH 200

json_t *pr_pickle_load(const unsigned char *buf, size_t n, struct pr_error *err);
/* The opcode's name in pickletools' words ("GLOBAL"), or NULL for an unknown byte. */
const char *pr_pickle_opname(unsigned char op);

#endif
