#!/bin/sh
# t0092-pickle-refused: a pickle that names a class or a function is never loaded: the
# torch-snapshot reader's decoder stops at the first such opcode (GLOBAL, STACK_GLOBAL, REDUCE,
# BUILD, NEWOBJ, PERSID...) with one error line naming it and its byte offset, exit 2, no run
# stored, and nothing executed. The pickles are written here with printf, byte by byte.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# {"segments": <os.system("touch pwned")>}: PROTO 2, EMPTY_DICT, "segments", GLOBAL 'os system',
# "touch pwned", TUPLE1, REDUCE, SETITEM, STOP
printf '\200\002}X\010\000\000\000segmentscos\nsystem\nX\013\000\000\000touch pwned\205Rs.' >evil.pickle
run "$P" ingest evil.pickle -o e.db
expect_error "profreport: ingest: 'evil.pickle':1:" "a GLOBAL is refused"
expect_err_has "pickle byte 16: opcode GLOBAL is not plain data" "the opcode and its offset"
[ ! -e pwned ] || fail "the pickle's function ran"
[ "$("$P" query e.db "SELECT count(*) FROM run" 2>/dev/null | sed -n 2p)" != 1 ] ||
	fail "a refused pickle left a run"

# protocol 4: STACK_GLOBAL (the names pushed as strings first), then REDUCE
printf '\200\004}\214\010segments\214\002os\214\006system\223\214\001x\205Rs.' >evil4.pickle
run "$P" summary evil4.pickle
expect_error "profreport: summary: 'evil4.pickle':1:" "a STACK_GLOBAL is refused"
expect_err_has "pickle byte 25: opcode STACK_GLOBAL is not plain data" "the opcode and its offset"

# REDUCE, BUILD and PERSID alone (no GLOBAL before them)
for op in 'R:REDUCE' 'b:BUILD' 'Q:BINPERSID'; do
	printf '\200\004}\214\010segments]N%ss.' "${op%%:*}" >op.pickle
	run "$P" ingest op.pickle -o o.db
	expect_error "profreport: ingest: 'op.pickle':1:" "${op#*:} is refused"
	expect_err_has "pickle byte 15: opcode ${op#*:} is not plain data" "${op#*:} named at its offset"
done

# a truncated snapshot: one line, its offset
head -c 100 "$PR_SAMPLES/torch_snapshot/snapshot.pickle" >cut.pickle
run "$P" ingest cut.pickle -o c.db
expect_error "profreport: ingest: 'cut.pickle':" "a truncated pickle"
expect_err_has "pickle byte " "the offset of the cut"

# a plain-data pickle that is no snapshot: named .pickle, it is read and refused with the reason
printf '\200\004}\214\001a\224K\001s.' >other.pickle
run "$P" ingest other.pickle -o x.db
expect_error "profreport: ingest: 'other.pickle'" "a pickle without segments"
expect_err_has "not a torch CUDA memory snapshot" "says what it expected"
# forced on a file that is no pickle at all
run "$P" ingest --format torch-snapshot "$PR_SAMPLES/massif/massif.out.12345" -o m.db
expect_error "profreport: ingest: '$PR_SAMPLES/massif/massif.out.12345':1:1: not a pickle" "text forced as a snapshot"
finish
