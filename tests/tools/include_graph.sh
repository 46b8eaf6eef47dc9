#!/bin/sh
# include_graph.sh [DIR] - the project's include graph by folder: one line
# "from -> to  N" per pair of top-level folders, N the number of #include
# "folder/file.h" lines in DIR/from/*.[ch] naming DIR/to/ (same-folder
# includes left out), then the system headers that mark a layer (sqlite3.h,
# cairo.h) by folder. Run on two checkouts to compare layerings.
dir=${1:-.}
cd "$dir" || exit 2
for f in */*.[ch]; do
	from=${f%%/*}
	case $from in base|store|ingest|analyze|render|cli) ;; *) continue ;; esac
	sed -n 's/^#include "\([a-z]*\)\/[^"]*".*/\1/p; s/^#include <\(sqlite3\|cairo\)[^>]*>.*/<\1>/p' "$f" |
		while read -r to; do [ "$to" != "$from" ] && echo "$from -> $to"; done
done | sort | uniq -c | awk '{ printf "%-8s -> %-10s %4d\n", $2, $4, $1 }'
