#!/bin/sh
# Source rules the compiler does not enforce (STYLE.md rules 1 and 13):
# - layering, by room (a folder and its CMake target): base <- store <-
#   ingest, analyze, analyze/export <- analyze/multi, render <- cli. The
#   build enforces it too (each target sees only the headers of what it
#   links, ctest check_includes); this grep names the rule broken. base/
#   includes nothing of the project's other folders, nor SQLite or cairo;
#   nothing below render/ includes cairo.h; render/ never includes sqlite3.h
#   nor store/, ingest/, analyze/multi/ or analyze/export/ headers (it sees
#   the model API and base); analyze/ (the run framework and the analyzers)
#   never includes its rooms above or beside it (analyze/multi/,
#   analyze/export/); analyze/export/ (store readers) sees the store and base
#   only; analyze/multi/ (the consumers of many models) never includes
#   render/; nothing below cli/ includes cli/ headers; store/ includes nothing
#   from ingest/analyze/render; ingest/ nothing from analyze/;
# - a file split along its seams shares a private NAME_impl.h among its
#   pieces only: analyze/multi/agg_impl.h (aggregate.c, agg_*.c),
#   store/writer_impl.h (writer*.c), render/layout_impl.h (layout*.c);
# - banned functions: strcpy, strcat, sprintf, vsprintf, strtok, atoi, atof,
#   gmtime, localtime, ctime (use snprintf/strbuf, strtoll/strtod, *_r);
# - no SQL formatted at run time: a statement is literal text with bound
#   parameters (fixed lists pasted by macros at compile time). The one
#   exception is ingest/fmt_nsys.c, which assembles its queries from fixed
#   fragments chosen by the tables and columns an export has (identifiers
#   cannot be bound); no value from the input enters its SQL text. A list of
#   ids is bound too, as a JSON array read by `IN (SELECT value FROM
#   json_each(?N))` (analyze/actx.c pr_actx_prep_ids): no SQL text is built in
#   a strbuf and no statement is prepared from one, except the writer's
#   multi-row inserts (store/writer_session.c multi_sql, prepared from
#   `multi_text.buf` by pr_wr_multi_stmt): the literal insert_sql text
#   repeated with its parameter numbers shifted per row; no value enters it.
set -u
top=${PR_TESTS:?}/..
cd "$top" || exit 2
fail=0
check() { # pattern dirs... ; message
	msg=$1; pat=$2; shift 2
	hits=$(grep -nE "$pat" "$@" 2>/dev/null)
	if [ -n "$hits" ]; then
		echo "check_source: $msg:"
		echo "$hits"
		fail=1
	fi
}
R_ALL="base/*.[ch] store/*.[ch] ingest/*.[ch] analyze/*.[ch] analyze/export/*.[ch] \
	analyze/multi/*.[ch] render/*.[ch] cli/*.[ch]"
check "project include from base/" '#include "(store|ingest|analyze|render|cli)/' base/*.[ch]
check "SQLite or cairo in base/" '#include <(sqlite3|cairo)' base/*.[ch]
check "store/ or ingest/ include from render/" '#include "(store|ingest)/' render/*.[ch]
check "analyze/multi/ or analyze/export/ include from render/" '#include "analyze/(multi|export)/' \
	render/*.[ch]
check "cairo below render/" '#include <cairo' base/*.[ch] store/*.[ch] ingest/*.[ch] analyze/*.[ch] \
	analyze/export/*.[ch] analyze/multi/*.[ch]
check "sqlite3.h in render/" '#include <sqlite3' render/*.[ch]
check "upward include from store/" '#include "(ingest|analyze|render|cli)/' store/*.[ch]
check "upward include from ingest/, analyze/ or analyze/export/" '#include "(render|cli)/' \
	ingest/*.[ch] analyze/*.[ch] analyze/export/*.[ch]
check "analyze/ include from ingest/" '#include "analyze/' ingest/*.[ch]
check "analyze/multi/ or analyze/export/ include from analyze/" '#include "analyze/(multi|export)/' \
	analyze/*.[ch]
check "analyze/ or analyze/multi/ include from analyze/export/" \
	'#include "(ingest|analyze/[a-z_0-9]+\.h|analyze/multi/)' analyze/export/*.[ch]
check "render/ or cli/ include from analyze/multi/" '#include "(render|cli)/' analyze/multi/*.[ch]
check "cli/ include from render/" '#include "cli/' render/*.[ch]
all_src=$(ls $R_ALL tests/unit/*.[ch] bench/*.c)
check "analyze/multi/agg_impl.h outside analyze/multi/aggregate.c, agg_*.c" '#include "analyze/multi/agg_impl.h"' \
	$(echo "$all_src" | grep -v '^analyze/multi/aggregate\.c$' | grep -v '^analyze/multi/agg_')
check "store/writer_impl.h outside store/writer*.c" '#include "store/writer_impl.h"' \
	$(echo "$all_src" | grep -v '^store/writer')
check "render/layout_impl.h outside render/layout*.c" '#include "render/layout_impl.h"' \
	$(echo "$all_src" | grep -v '^render/layout')
check "SQL formatted at run time" '"[^"]*(SELECT|INSERT|UPDATE|DELETE|PRAGMA|WHERE)[^"]*%[-0-9.l]*[sdi]' \
	$(ls $R_ALL | grep -v '^ingest/fmt_nsys.c$')
check "SQL built in a strbuf" \
	'pr_strbuf_add(str|f)?\([^,]*, *"[^"]*(SELECT|INSERT|UPDATE|DELETE|WHERE| IN \()' \
	$(ls $R_ALL | grep -v '^ingest/fmt_nsys.c$')
prep_buf='(prep[a-z_]*|sqlite3_prepare_v[23]|sqlite3_exec)\([^;]*\.buf'
check "a statement prepared from a strbuf" "$prep_buf" \
	$(ls $R_ALL | grep -v '^ingest/fmt_nsys.c$' | grep -v '^store/writer_session.c$')
# store/writer_session.c: only multi_sql's statements (see above)
hits=$(grep -nE "$prep_buf" store/writer_session.c | grep -v 'multi_text\.buf')
if [ -n "$hits" ]; then
	echo "check_source: a statement prepared from a strbuf:"
	echo "$hits" | sed 's|^|store/writer_session.c:|'
	fail=1
fi
check "banned function" \
	'(^|[^_a-zA-Z0-9.>])(strcpy|strcat|sprintf|vsprintf|strtok|atoi|atof|gmtime|localtime|ctime)[[:space:]]*\(' \
	$R_ALL
[ "$fail" = 0 ] && echo "check_source: layering and banned functions ok"
exit "$fail"
