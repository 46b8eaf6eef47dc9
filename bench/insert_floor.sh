#!/bin/sh
# insert_floor.sh STORE [N] - what SQLite alone spends to write STORE's rows
# (issue 32's single-file ingest: the bound its SQLite thread cannot go
# under). Every row of every table of STORE is copied by SQLite itself into
# a fresh store of the same schema, page size and pragmas as ingest's
# (16 KiB pages, a 32 MiB cache, synchronous OFF, journal in memory, the
# step/phase partial indexes made first, as ingest's writer does), by
# `INSERT INTO t SELECT * FROM src.t WHERE 1`: the WHERE keeps SQLite from
# copying records whole (its transfer optimization), so each row is decoded,
# built and inserted into the B-trees as ingest's inserts do, but with no
# JSON parsing, no binding and no hand-off between threads. It also reads
# and decodes the source rows, which ingest does not. Prints the copy's CPU
# seconds (user + sys, best of N, default 3).
# Needs the sqlite3 command-line shell (Debian package sqlite3) and
# /usr/bin/time.
set -eu
src=$1
n=${2:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/insert_floor.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
tables=$(sqlite3 "$src" "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
sqlite3 "$src" .schema | grep "^CREATE INDEX.* WHERE " >"$work/partial.sql" || true
{
	echo "PRAGMA cache_size=-32768; PRAGMA temp_store=FILE; PRAGMA synchronous=OFF;"
	echo "PRAGMA journal_mode=MEMORY; ATTACH '$src' AS src; BEGIN;"
	cat "$work/partial.sql"
	for t in $tables; do
		echo "INSERT INTO main.$t SELECT * FROM src.$t WHERE 1;"
	done
	echo "COMMIT;"
} >"$work/copy.sql"
# best: least user+sys CPU of n copies into a new store
best() {
	: >"$work/best"
	i=0
	while [ "$i" -lt "$n" ]; do
		rm -f "$work/new.db"
		{
			echo "PRAGMA page_size=16384;"
			sqlite3 "$src" .schema | grep -v "^CREATE INDEX"
		} | sqlite3 "$work/new.db"
		/usr/bin/time -f '%U %S' -o "$work/t" sqlite3 "$work/new.db" <"$work/copy.sql" >/dev/null
		awk '{ printf "%.3f\n", $1 + $2 }' "$work/t" >>"$work/best"
		i=$((i + 1))
	done
	sort -n "$work/best" | head -n 1
}
best
