#!/bin/sh
# t0041-time-bound: the writer keeps every format's times within +-(2^62 - 1) ns
# (base/timecheck.h; 2^62 - 1 = 4611686018427387903), not only the Chrome and
# QNN readers: here a speedscope profile (unit nanoseconds) with
#   main  O at 0, C at 6e18          -> kept, its end cut to 4611686018427387903
#   near  O at 10, C at 20           -> kept, 10 ns, inside main
#   far   O at 5e18, C at 5e18 + 512 -> skipped (its begin is beyond the bound),
#                                       and its close with it (main still closes)
# time_out_of_range counts 2: far's begin and main's end.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >far.speedscope.json <<'JSON'
{"$schema": "https://www.speedscope.app/file-format-schema.json",
 "shared": {"frames": [{"name": "main"}, {"name": "far"}, {"name": "near"}]},
 "profiles": [{"type": "evented", "name": "T", "unit": "nanoseconds", "startValue": 0,
  "endValue": 6000000000000000000,
  "events": [
   {"type": "O", "frame": 0, "at": 0},
   {"type": "O", "frame": 2, "at": 10},
   {"type": "C", "frame": 2, "at": 20},
   {"type": "O", "frame": 1, "at": 5000000000000000000},
   {"type": "C", "frame": 1, "at": 5000000000000000512},
   {"type": "C", "frame": 0, "at": 6000000000000000000}]}]}
JSON
run "$P" ingest -q far.speedscope.json -o far.db
expect_rc 0 "ingest of a speedscope profile with far times"
[ "$(query_value far.db "select group_concat(name || ' ' || ts || ' ' || dur || ' ' || depth, ',') from (select * from span_v order by ts)")" = \
	"main 0 4611686018427387903 0,near 10 10 1" ] ||
	fail "far not skipped, or main's end not cut at 2^62 - 1 ns"
[ "$(query_value far.db "select count from diag where code = 'time_out_of_range'")" = 2 ] ||
	fail "time_out_of_range does not count far's begin and main's end"
[ "$(query_value far.db "select message from diag where code = 'time_out_of_range'")" = \
	"a span begins more than 2^62 ns (146 years) from the clock's zero; skipped" ] ||
	fail "time_out_of_range does not say what it skipped"
run "$P" summary far.db
expect_rc 0 "summary of the bounded store"
expect_out_has "time_out_of_range" "summary lists the diagnostic"

finish
