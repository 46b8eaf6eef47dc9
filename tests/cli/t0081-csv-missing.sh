#!/bin/sh
# t0081-csv-missing: issue 30 G1. Missing cells (nan, empty, '-') of a numeric
# CSV column were dropped silently, and a NEW file with 59 of 60 RSS cells
# 'nan' passed the gate ("PASS: 2 improvements"). Now each missing cell is a
# counted csv_missing_value note, and a column that lost more cells than it
# kept is csv_series_mostly_missing: lost data, which compare refuses (exit 2).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

python3 - <<'PY'
def write(path, cell):
    rows = ["timestamp,rss_mb,cpu_percent"]
    for i in range(60):
        rows.append("%d.0,%s,%d" % (1718000000 + i, cell(i), 10 + i % 5))
    open(path, "w").write("\n".join(rows) + "\n")
write("base.csv", lambda i: str(800 + i))
write("new.csv", lambda i: "nan" if i else "700")          # 59 of 60 missing
write("one.csv", lambda i: "" if i == 7 else str(800 + i))  # 1 of 60 missing (line 9, column 14: after '1718000007.0,')
write("dash.csv", lambda i: "-" if i % 3 == 0 else str(800 + i))  # 20 of 60
PY

run "$P" compare base.csv new.csv
expect_rc 2 "59 of 60 RSS cells nan: lost data, no verdict"
expect_one_err_line "59 of 60 RSS cells nan"
expect_err_has "csv_series_mostly_missing x1" "59 of 60 RSS cells nan"
expect_err_has "a value in 1 of its 60 rows" "59 of 60 RSS cells nan"

# one missing cell: a counted note at its line and column, the gate still judges
"$P" ingest -q one.csv -o one.db
got=$("$P" query one.db "SELECT code || ' ' || count || ' ' || line || ' ' || col FROM diag" | tail -n +2)
[ "$got" = "csv_missing_value 1 9 14" ] || fail "one missing cell: diagnostic row '$got', want 'csv_missing_value 1 9 14'"
got=$("$P" query one.db "SELECT count FROM series WHERE name = 'mem.rss'" | tail -n 1)
[ "$got" = 59 ] || fail "one missing cell: $got mem.rss samples, want 59"
run "$P" compare base.csv one.csv
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "one missing cell: compare exit $rc, want a verdict (0 or 1)"

# a third missing: counted, not lost
"$P" ingest -q dash.csv -o dash.db
got=$("$P" query dash.db "SELECT code || ' ' || count FROM diag ORDER BY code" | tail -n +2)
[ "$got" = "csv_missing_value 20" ] || fail "20 dashes of 60: diagnostics '$got', want 'csv_missing_value 20'"

finish
