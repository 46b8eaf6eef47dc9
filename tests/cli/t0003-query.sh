#!/bin/sh
# t0003-query: 'profreport query STORE SQL' runs exactly one read-only
# statement and prints a tab-separated header and rows; write statements,
# several statements and bad SQL are refused with one error line, exit 2,
# and the store is left as it was. A statement that runs past --timeout
# (default 60 s) is stopped; fts3_tokenizer() is refused.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

tab=$(printf '\t')
"$P" ingest -q "$TORCH" -o st.db || fail "setup: ingest of the torch sample failed"
"$P" dump events st.db >dump.before

# -- a query: header line, then tab-separated rows
run "$P" query st.db "SELECT kind, count(*) AS n FROM span GROUP BY kind ORDER BY kind"
expect_rc 0 "query"
expect_err_empty "query"
[ "$(sed -n 1p "$tmp/out")" = "kind${tab}n" ] || {
	fail "query: the first line is not the header 'kind<TAB>n'"
	show
}
expect_out_has "step${tab}1" "query: the sample has one ProfilerStep"
expect_out_has "kernel${tab}" "query: kernels are stored"
# the row count agrees with the run's own count
total=$(awk -F "$tab" 'NR > 1 { s += $2 } END { print s }' "$tmp/out")
[ "$total" = "$(query_value st.db "SELECT span_count FROM run")" ] ||
	fail "query: span rows ($total) differ from run.span_count"

# -- NULL, reals and text; a trailing ';' and whitespace are fine
run "$P" query st.db "SELECT NULL AS a, 1.5 AS b, 'x y' AS c, 7 AS d;  "
expect_rc 0 "query of literals"
printf 'a\tb\tc\td\nNULL\t1.5\tx y\t7\n' >want
cmp -s want "$tmp/out" || {
	fail "query of literals: output is not 'a b c d / NULL 1.5 x y 7' (tab-separated)"
	show
}
# the documented views work
run "$P" query st.db "SELECT count(*) AS steps FROM span_v WHERE kind = 'step'"
expect_rc 0 "query of span_v"
[ "$(sed -n 2p "$tmp/out")" = 1 ] || fail "query of span_v: expected 1 step"
run "$P" query st.db "WITH k AS (SELECT DISTINCT name FROM series) SELECT count(*) FROM k"
expect_rc 0 "query with a CTE"
# an empty result still prints the header
run "$P" query st.db "SELECT id FROM run WHERE id < 0"
expect_rc 0 "query with no rows"
[ "$(cat "$tmp/out")" = id ] || {
	fail "query with no rows: expected only the header line"
	show
}

# -- write statements are refused
for sql in "DELETE FROM span" \
	"INSERT INTO string(value) VALUES('x')" \
	"UPDATE run SET label = 'x'" \
	"DROP TABLE span" \
	"CREATE TABLE t(x)" \
	"CREATE INDEX i ON span(name_id)" \
	"PRAGMA user_version = 9" \
	"REPLACE INTO string(id, value) VALUES(1, 'x')"; do
	run "$P" query st.db "$sql"
	expect_rc 2 "write statement '$sql'"
	expect_out_empty "write statement '$sql'"
	expect_one_err_line "write statement '$sql'"
	expect_err_has "read-only" "write statement '$sql'"
done

# -- more than one statement is refused, even if the first is harmless
for sql in "SELECT 1; SELECT 2" "SELECT 1; DELETE FROM span" "SELECT 1;;DROP TABLE run"; do
	run "$P" query st.db "$sql"
	expect_rc 2 "several statements '$sql'"
	expect_out_empty "several statements '$sql'"
	expect_one_err_line "several statements '$sql'"
	expect_err_has "one statement" "several statements '$sql'"
done

# -- bad SQL: one line, exit 2
run "$P" query st.db "SELEC 1"
expect_rc 2 "bad SQL"
expect_out_empty "bad SQL"
expect_one_err_line "bad SQL"
expect_err_has "syntax error" "bad SQL"
run "$P" query st.db "SELECT * FROM no_such_table"
expect_rc 2 "unknown table"
expect_one_err_line "unknown table"
expect_err_has "no such table: no_such_table" "unknown table"
run "$P" query st.db ""
expect_rc 2 "empty SQL"
expect_one_err_line "empty SQL"
run "$P" query st.db "   "
expect_rc 2 "blank SQL"
expect_one_err_line "blank SQL"

# -- a statement that never ends is stopped by --timeout (default 60 s): a
# recursive CTE without a bound. One error line, exit 2, within seconds.
cte="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
run timeout 30 "$P" query --timeout 1 st.db "$cte"
expect_rc 2 "a recursive CTE with --timeout 1"
expect_one_err_line "a recursive CTE with --timeout 1"
expect_err_has "the statement ran longer than 1 s and was stopped (--timeout SECONDS; 0 = no limit)" \
	"a recursive CTE with --timeout 1"
run "$P" query --timeout 0 st.db "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) SELECT count(*) FROM c"
expect_rc 0 "--timeout 0 (no limit) on a bounded CTE"
[ "$(sed -n 2p "$tmp/out")" = 1000 ] || fail "--timeout 0: the bounded CTE does not count 1000"
run "$P" query --timeout 0.5 st.db "$cte"
expect_rc 2 "a recursive CTE with --timeout 0.5"
expect_err_has "the statement ran longer than 0.5 s and was stopped" "--timeout 0.5"
for v in -1 x 86400.5 1e9 ""; do
	run "$P" query --timeout "$v" st.db "SELECT 1"
	expect_rc 2 "--timeout '$v'"
	expect_one_err_line "--timeout '$v'"
	expect_err_has "--timeout needs a number of seconds from 0 to 86400 (0 = no limit)" "--timeout '$v'"
done

# -- issue 30 R6: a statement's memory is bounded too (--max-memory, default
# 512 MiB of SQLite heap; a group_concat of millions of rows used 1.8 GB).
big="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000000) SELECT length(group_concat(x)) FROM c"
run "$P" query --max-memory 4 st.db "$big"
expect_rc 2 "group_concat past --max-memory 4"
expect_one_err_line "group_concat past --max-memory 4"
expect_err_has "the statement needed more than 4 MiB of memory and was stopped (--max-memory MIB; 0 = no limit)" \
	"group_concat past --max-memory 4"
run "$P" query --max-memory 0 st.db "$big"
expect_rc 0 "--max-memory 0 (no limit)"
[ "$(sed -n 2p "$tmp/out")" = 6888895 ] || fail "--max-memory 0: length $(sed -n 2p "$tmp/out"), want 6888895 (digits of 1..1e6 plus 999999 commas)"
for v in -1 x 1.5 2000000; do
	run "$P" query --max-memory "$v" st.db "SELECT 1"
	expect_rc 2 "--max-memory '$v'"
	expect_err_has "--max-memory needs a whole number of MiB" "--max-memory '$v'"
done

# -- fts3_tokenizer() returns a pointer into the process: refused, however called
for sql in "SELECT fts3_tokenizer('simple')" "SELECT hex(FTS3_TOKENIZER('porter'))" \
	"SELECT * FROM (SELECT Fts3_Tokenizer('simple') AS p)"; do
	run "$P" query st.db "$sql"
	expect_rc 2 "'$sql'"
	expect_out_empty "'$sql'"
	expect_one_err_line "'$sql'"
	expect_err_has "fts3_tokenizer() is not allowed (it returns a memory address)" "'$sql'"
done

# -- none of that changed the store
"$P" dump events st.db >dump.after
cmp -s dump.before dump.after || fail "a refused query changed the store"
[ "$(query_value st.db "PRAGMA user_version")" = 5 ] || fail "the store's user_version changed"

finish
