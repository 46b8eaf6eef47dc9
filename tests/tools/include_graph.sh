#!/bin/sh
# include_graph.sh [DIR] - the project's include graph by room: one line
# "from -> to  N" per pair of rooms (a folder with its CMake target: base,
# store, ingest, analyze, analyze/export, analyze/multi, render, cli), N the
# number of #include "room/file.h" lines in DIR/from/*.[ch] naming DIR/to/
# (same-room includes left out), then the system headers that mark a layer
# (sqlite3.h, cairo.h) by room. Run on two checkouts to compare layerings.
dir=${1:-.}
cd "$dir" || exit 2
for f in */*.[ch] analyze/*/*.[ch]; do
	[ -e "$f" ] || continue
	from=${f%/*}
	case $from in base|store|ingest|analyze|analyze/export|analyze/multi|render|cli) ;; *) continue ;; esac
	sed -n 's/^#include "\([a-z_/]*\)\/[^"/]*".*/\1/p; s/^#include <\(sqlite3\|cairo\)[^>]*>.*/<\1>/p' "$f" |
		while read -r to; do [ "$to" != "$from" ] && echo "$from -> $to"; done
done | sort | uniq -c | awk '{ printf "%-14s -> %-14s %4d\n", $2, $4, $1 }'
