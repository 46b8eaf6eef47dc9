#!/bin/sh
# t0044-model-cache: report on a store keeps each run's model in the store's
# model cache (README, "The event store") and serves it back only for the
# same run content, analyser version and model options.
#
# How the test sees whether the cache was used: PR_TIMINGS=1 prints
# "profreport: timing: run ID model_cache ..." for a run read from the cache
# and one line per analyzer ("run ID context ...", ...) for a run analysed.
# Where a check needs proof that a row's text is what was served, the row's
# model is changed by hand (label "FROM-THE-CACHE") with sqlite3.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null || { echo "$test_name: sqlite3 not installed; skipped" >&2; exit 77; }

# Runs of several formats (torch trace with GPU work, viztracer, QEff memory,
# nvidia-smi CSV, massif): their models hold integers, reals, nulls, nested
# objects and arrays, so a model read back from its JSON text is checked on
# every kind of value.
"$P" ingest -q "$TORCH" "$VIZ" "$PR_SAMPLES/qeff/qeff_profile.json" \
	"$PR_SAMPLES/nvidia-smi" "$PR_SAMPLES/massif" -o s.db ||
	fail "setup: ingest failed"
nruns=$(query_value s.db "SELECT count(*) FROM run")
[ "$nruns" -ge 5 ] || fail "setup: $nruns runs, expected at least 5"
cp s.db plain.db

# analysed: how many runs of the last command were analysed (a 'context' line),
# cached: how many were read from the cache.
analysed() { grep -c '^profreport: timing: run [0-9]* context ' "$tmp/err" || true; }
cached() { grep -c '^profreport: timing: run [0-9]* model_cache ' "$tmp/err" || true; }
rows() { sqlite3 "$1" "SELECT count(*) FROM model_cache"; }

# -- first report: every run analysed, one cache row each
PR_TIMINGS=1 run "$P" report s.db --json m1.json
expect_rc 0 "first report"
[ "$(analysed)" = "$nruns" ] || { fail "first report: $(analysed) runs analysed, expected $nruns"; show; }
[ "$(cached)" = 0 ] || fail "first report: $(cached) runs from an empty cache"
expect_err_has "profreport: timing: model_cache wrote $nruns run(s)" "first report writes the cache"
[ "$(rows s.db)" = "$nruns" ] || fail "first report: $(rows s.db) cache rows, expected $nruns"
[ "$(sqlite3 s.db "SELECT count(*) FROM model_cache c JOIN run r ON r.id = c.run_id WHERE c.content_hash = r.content_hash")" = "$nruns" ] ||
	fail "cache rows do not carry their run's content hash"

# -- second report: same bytes, nothing analysed
PR_TIMINGS=1 run "$P" report s.db --json m2.json
expect_rc 0 "second report"
[ "$(cached)" = "$nruns" ] || { fail "second report: $(cached) runs from the cache, expected $nruns"; show; }
[ "$(analysed)" = 0 ] || fail "second report: $(analysed) runs analysed again"
cmp -s m1.json m2.json || fail "the model read from the cache differs from the model built"

# -- the same as without any cache (and --no-cache neither reads nor writes it)
"$P" report plain.db --no-cache --json m0.json -q || fail "report --no-cache failed"
cmp -s m0.json m1.json || fail "report with the cache differs from report without it"
[ "$(rows plain.db)" = 0 ] || fail "--no-cache wrote $(rows plain.db) cache rows"
"$P" report s.db --json m3.html.json -o page.html -q || fail "report -o page.html"
"$P" report plain.db --no-cache -o page0.html -q || fail "report --no-cache -o page.html"
cmp -s page.html page0.html || fail "the page from cached models differs from the page without cache"

# -- summary and compare neither read nor write it
"$P" summary s.db >/dev/null || fail "summary failed"
PR_TIMINGS=1 run "$P" summary s.db
[ "$(cached)" = 0 ] || fail "summary read the model cache"

# -- an option that changes the model: analysed again, its own rows
PR_TIMINGS=1 run "$P" report s.db --top 3 --json t3.json
[ "$(analysed)" = "$nruns" ] || { fail "--top 3: $(analysed) runs analysed, expected $nruns"; show; }
"$P" report plain.db --no-cache --top 3 --json t3.plain.json -q
cmp -s t3.json t3.plain.json || fail "--top 3 with the cache differs from without"
cmp -s t3.json m1.json && fail "--top 3 gave the model of --top 15 (the test cannot tell them apart)"
[ "$(rows s.db)" = $((nruns * 2)) ] || fail "--top 3: $(rows s.db) cache rows, expected $((nruns * 2))"
for o in "--timeline-points 10" "--comm-kernels ^gemm"; do
	# shellcheck disable=SC2086
	PR_TIMINGS=1 run "$P" report s.db $o --json o.json
	[ "$(analysed)" = "$nruns" ] || fail "$o: $(analysed) runs analysed, expected $nruns (the option changes the model)"
done

# -- a row is served as it is when run, content hash, analyser and options match:
# proof that the rows are what report reads. def: the key of report's defaults.
def="options = 'top_n=15 max_phases=500 timeline_points=2000 comm_kernels=none'"
[ "$(sqlite3 s.db "SELECT count(*) FROM model_cache WHERE $def")" = "$nruns" ] ||
	fail "the options of report's defaults are not '$def'"
sqlite3 s.db "UPDATE model_cache SET model = json_set(model, '\$.label', 'FROM-THE-CACHE') WHERE run_id = 1 AND $def"
"$P" report s.db --json m4.json -q
grep -q '"label": "FROM-THE-CACHE"' m4.json || fail "a matching cache row was not served"

# -- ... and never for other content: the row tagged with another content hash
sqlite3 s.db "UPDATE model_cache SET content_hash = 'ffffffffffffffffffffffffffffffff' WHERE run_id = 1 AND $def"
PR_TIMINGS=1 run "$P" report s.db --json m5.json
grep -q 'FROM-THE-CACHE' m5.json && fail "a cache row of other content was served"
cmp -s m5.json m1.json || fail "after a content-hash mismatch the model is not the one built"
grep -q '^profreport: timing: run 1 context ' "$tmp/err" || fail "run 1 was not analysed again after a content-hash mismatch"

# -- ... nor by another analyser version (a row written by another profreport build)
sqlite3 s.db "UPDATE model_cache SET model = json_set(model, '\$.label', 'FROM-THE-CACHE'), analyzer = 'profreport 0.0.0 analysis 0000000000000000' WHERE run_id = 2 AND $def"
PR_TIMINGS=1 run "$P" report s.db --json m6.json
grep -q 'FROM-THE-CACHE' m6.json && fail "a cache row of another analyser version was served"
cmp -s m6.json m1.json || fail "after an analyser version mismatch the model is not the one built"
grep -q '^profreport: timing: run 2 context ' "$tmp/err" || fail "run 2 was not analysed again for another analyser version"
[ "$(sqlite3 s.db "SELECT count(DISTINCT analyzer) FROM model_cache")" = 1 ] ||
	fail "the row of the other analyser version was not replaced"

# -- an archive: cold, again (nothing to do), then after one new run
PR_TIMINGS=1 run "$P" report s.db -o site
expect_rc 0 "archive"
expect_err_has "$nruns report(s) written, 0 already there" "archive"
PR_TIMINGS=1 run "$P" report s.db -o site -q
expect_err_has "profreport: timing: " "archive again"
grep -q 'report(s) written' "$tmp/err" && fail "-q did not silence the archive's line"
[ "$(analysed)" = 0 ] || fail "archive again: $(analysed) runs analysed (the pages were there)"
[ "$(cached)" = "$nruns" ] || fail "archive again: $(cached) digests from the cache, expected $nruns"
"$P" ingest -q "$PR_SAMPLES/qnn" -o s.db || fail "setup: ingest of one more run"
"$P" ingest -q "$PR_SAMPLES/qnn" -o plain.db || fail "setup: ingest of one more run (plain)"
PR_TIMINGS=1 run "$P" report s.db -o site
expect_err_has "1 report(s) written, $nruns already there" "archive after a new run"
[ "$(analysed)" = 1 ] || { fail "archive after a new run: $(analysed) runs analysed, expected 1"; show; }
# the index from digests is the index from whole models (archive from scratch, no cache)
"$P" report plain.db --no-cache -o site0 -q || fail "archive without cache"
for f in site0/*.html; do
	cmp -s "$f" "site/$(basename "$f")" || fail "archive: $(basename "$f") differs from the one made without the cache"
done
[ "$(find site -name '*.html' | wc -l)" = "$(find site0 -name '*.html' | wc -l)" ] ||
	fail "archive: not the same pages as without the cache"

# -- a store that cannot be written is read without the cache (the file read-only
# for everyone; as root only a read-only directory stops SQLite's journal, so
# that case is the one that needs a non-root user)
if [ "$(id -u)" != 0 ]; then
	mkdir ro
	cp plain.db ro/r.db
	sqlite3 ro/r.db "DELETE FROM model_cache"
	chmod 444 ro/r.db
	chmod 555 ro
	run "$P" report ro/r.db --json r.json -q
	expect_rc 0 "report of a read-only store"
	expect_err_empty "report of a read-only store"
	chmod 755 ro
	[ "$(rows ro/r.db)" = 0 ] || fail "a read-only store got cache rows"
fi

finish
