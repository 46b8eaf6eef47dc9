#!/bin/sh
# t0100-report-jobs: report -j N of an archive (docs/report.md, "Archives"):
# after the ingest, the runs' pages are analysed and written by N worker
# processes, each on a store connection of its own, and the index by the
# parent. For any N: the site is byte-identical to -j 1's, and so are the
# model cache's rows (the parent is their one writer); a failing page gives
# -j 1's error and exit status and no index; a signal mid-run leaves no
# temporary file, no index and no worker behind.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_gen
py=/usr/bin/python3
[ -x "$py" ] || py=python3

mkdir runs
i=1
while [ "$i" -le 12 ]; do
	"$gen" 0.05 "$i" -o "runs/r$i.json" 2>/dev/null || fail "setup: gen_trace $i"
	i=$((i + 1))
done

# the model cache's rows, in the order written
cache_rows() {
	"$py" - "$1" <<'EOF'
import sqlite3, sys, hashlib
db = sqlite3.connect(sys.argv[1])
h = hashlib.sha256()
n = 0
for row in db.execute("SELECT run_id, options, content_hash, analyzer, digest, model "
                      "FROM model_cache ORDER BY rowid"):
    h.update(repr(row).encode())
    n += 1
print(n, h.hexdigest())
EOF
}

# -- report DIR -o site/: -j 1, 2, 4 the same site
for j in 1 2 4; do
	run "$P" report -j "$j" runs -o "site$j/"
	expect_rc 0 "report -j $j runs -o site$j/"
	expect_err_has "12 report(s) written, 0 already there" "-j $j writes 12 pages"
done
for j in 2 4; do
	diff -r -x .profreport.db site1 "site$j" >/dev/null || fail "site of -j $j differs from -j 1"
	[ "$(cache_rows "site$j/.profreport.db")" = "$(cache_rows site1/.profreport.db)" ] ||
		fail "the model cache of -j $j differs from -j 1's"
done
[ "$(cache_rows site1/.profreport.db | cut -d' ' -f1)" = 12 ] || fail "-j 1 cached not 12 runs"
pages=$(find site4 -name '*.html' ! -name index.html | wc -l)
[ "$pages" = 12 ] || fail "-j 4: $pages pages, expected 12 (one per generated file)"
# a second call: every page already there, from the cache
run "$P" report -j 4 runs -o site4/
expect_err_has "0 report(s) written, 12 already there" "-j 4 again: nothing to write"
diff -r -x .profreport.db site1 site4 >/dev/null || fail "site of -j 4 changed by a second call"

# -- report STORE -o site/: two copies of one store, -j 1 and -j 3
"$P" ingest -q runs -o a.db || fail "setup: ingest"
cp a.db b.db
run "$P" report -q -j 1 a.db -o st1/
expect_rc 0 "report -j 1 a.db"
run "$P" report -q -j 3 b.db -o st3/
expect_rc 0 "report -j 3 b.db"
diff -r st1 st3 >/dev/null || fail "report STORE: the site of -j 3 differs from -j 1"
[ "$(cache_rows a.db)" = "$(cache_rows b.db)" ] || fail "report STORE: the caches differ"

# -- a page that cannot be written (a directory in its place): -j 1's error
name=$(cd site1 && ls r5.json-*.html)
for j in 1 4; do
	mkdir -p "bad$j/$name"
	run "$P" report -q -j "$j" runs -o "bad$j/"
	expect_error "profreport: report: 'bad$j/$name': cannot write: Is a directory" \
		"-j $j, a page's name taken"
	[ ! -e "bad$j/index.html" ] || fail "-j $j: an index written despite the error"
	left=$(find "bad$j" -name '*.tmp.*')
	[ -z "$left" ] || fail "-j $j: temporary files left: $left"
done

# -- signals mid-run: 80 runs, killed once pages are being written
i=13
while [ "$i" -le 80 ]; do
	"$gen" 0.05 "$i" -o "runs/r$i.json" 2>/dev/null || fail "setup: gen_trace $i"
	i=$((i + 1))
done
"$P" ingest -q runs -o many.db || fail "setup: ingest of 80"
sigs=$(fatal_signals TERM INT)
# page_written DIR: a page of the archive is in DIR
page_written() {
	[ -n "$(ls "$1" 2>/dev/null | grep html || true)" ]
}

for sig in $sigs; do
	want=$(signal_status "$sig")
	cp many.db "m$sig.db"
	env --default-signal=INT "$P" report -q -j 2 "m$sig.db" -o "sig$sig/" 2>"err.$sig" &
	pid=$!
	signal_when "$pid" "$sig" page_written "sig$sig"
	if [ "$caught" = 0 ]; then
		fail "SIG$sig: never saw a page written"
		continue
	fi
	[ "$st" = "$want" ] || fail "SIG$sig: exit status $st, expected $want"
	[ ! -e "sig$sig/index.html" ] || fail "SIG$sig: an index was written"
	left=$(find "sig$sig" -name '*.tmp.*')
	[ -z "$left" ] || fail "SIG$sig: temporary files left: $left"
	[ -z "$(ls "$TMPDIR")" ] || fail "SIG$sig: left in TMPDIR: $(ls "$TMPDIR")"
	for k in $kids; do
		if kill -0 "$k" 2>/dev/null; then
			fail "SIG$sig: worker $k outlived the command"
		fi
	done
	# what was written is whole: every page ends with its closing tag
	for f in "sig$sig"/*.html; do
		[ -e "$f" ] || continue
		tail -c 20 "$f" | grep -q '</html>' || fail "SIG$sig: $f is cut short"
	done
done

finish
