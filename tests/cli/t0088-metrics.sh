#!/bin/sh
# t0088-metrics: profreport metrics (issue 27, "Metrics for the dashboards"): one value per run
# and headline metric in the formats existing tools read, each validated by
# tests/tools/metrics_check.py against its spec (Otava's CSV importer's rules, Bencher's BMF
# JSON schema and example, the OpenMetrics text format and, where python3-prometheus-client is
# installed, its OpenMetrics parser), and every value against numbers derived here with Python
# from the traces themselves (not from profreport). Also the run metadata the rows carry: --meta
# and --meta-from-env (GitHub, GitLab, Jenkins variables) stored, in the model and the summary, and
# bad keys and values refused in one line.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

TOOLS=$PR_TESTS/tools
command -v python3 >/dev/null || { echo "t0088-metrics: skipped (no python3)"; exit 77; }
python3 -c 'import jsonschema' 2>/dev/null || { echo "t0088-metrics: skipped (no jsonschema)"; exit 77; }

# three runs of the recorded torch CPU trace, each time scaled by its own factor (2 % noise)
mkdir h
python3 "$TOOLS/gen_history.py" "$PR_SAMPLES/compare/torch_cpu/base.pt.trace.json" h 3 -1 1 5
tab=$(printf '\t')
while IFS="$tab" read -r f t c fk p50; do
	"$P" ingest -q "h/$f" -o runs.db --meta "time=$t" --meta "commit=$c" --meta branch=main \
		--meta build.id=7 --meta 'note=a "b" \c'
done <h/manifest.tsv

# the expected values: step_time = median of the ProfilerStep# durations, steps_per_s = 1 / their
# mean, duration = last end - first start, all from the written traces (microseconds)
python3 - h >want.txt <<'PY'
import json, statistics, sys
d = sys.argv[1]
for k, line in enumerate(open(d + "/manifest.tsv")):
    f = line.split("\t")[0]
    ev = json.load(open("%s/%s" % (d, f)))
    st = [e["dur"] for e in ev if e["name"].startswith("ProfilerStep#")]
    dur = max(e["ts"] + e["dur"] for e in ev) - min(e["ts"] for e in ev)
    print("%d step_time %r" % (k + 1, statistics.median(st) / 1e6))
    print("%d steps_per_s %r" % (k + 1, 1e6 / statistics.mean(st)))
    print("%d duration %r" % (k + 1, dur / 1e6))
PY

# compare "RUN METRIC VALUE" lines (relative tolerance 1e-9)
same() { # GOT WANT DESC
	python3 - "$1" "$2" <<'PY' || fail "$3: values differ from the Python derivation"
import sys
got = {tuple(l.split()[:2]): float(l.split()[2]) for l in open(sys.argv[1]) if l.strip()}
want = {tuple(l.split()[:2]): float(l.split()[2]) for l in open(sys.argv[2]) if l.strip()}
bad = [k for k in want if k not in got or abs(got[k] - want[k]) > 1e-9 * abs(want[k])]
for k in bad:
    print("  %s: got %s, want %s" % (" ".join(k), got.get(k), want[k]))
sys.exit(1 if bad else 0)
PY
}

# -- CSV, as Otava reads it
run "$P" metrics runs.db -o m.csv
expect_rc 0 "metrics --to csv (default)"
expect_out_empty "metrics -o m.csv"
head -n 1 m.csv >head.txt
[ "$(cat head.txt)" = "time,run,label,branch,build.id,commit,note,step_time,steps_per_s,duration" ] ||
	fail "csv header: $(cat head.txt)"
python3 "$TOOLS/metrics_check.py" csv m.csv >got.txt || fail "csv: $(cat got.txt)"
same got.txt want.txt "csv"
grep -q '^2026-01-01 01:00:00 +0000,2,run_01.json,main,7,c01,"a ""b"" \\c",' m.csv ||
	fail "csv: run 2's row (time, metadata, the quoted note)"

# -- Bencher Metric Format
run "$P" metrics runs.db --to bmf -o m.bmf
expect_rc 0 "metrics --to bmf"
python3 "$TOOLS/metrics_check.py" bmf m.bmf >got.txt || fail "bmf: $(cat got.txt)"
sed 's/^run_0\([0-9]\)\.json /\1 /' got.txt | awk '{ print $1 + 1, $2, $3 }' >got2.txt
same got2.txt want.txt "bmf"
python3 -c 'import json,sys; d=json.load(open("m.bmf"))["run_00.json"]["step_time"]; sys.exit(0 if d["lower_value"] <= d["value"] <= d["upper_value"] else 1)' ||
	fail "bmf: step_time's lower/upper do not enclose its value"

# -- OpenMetrics
run "$P" metrics runs.db --to openmetrics
expect_rc 0 "metrics --to openmetrics"
cp "$tmp/out" m.om
python3 "$TOOLS/metrics_check.py" openmetrics m.om >got.txt || fail "openmetrics: $(cat got.txt)"
sed -n 's/^profreport_step_time_seconds{run="\([0-9]*\)".* \(.*\)$/\1 step_time \2/p; s/^profreport_steps_per_second{run="\([0-9]*\)".* \(.*\)$/\1 steps_per_s \2/p; s/^profreport_duration_seconds{run="\([0-9]*\)".* \(.*\)$/\1 duration \2/p' got.txt >got2.txt
same got2.txt want.txt "openmetrics"
grep -qF 'build_id="7",commit="c00",note="a \"b\" \\c",time="2026-01-01T00:00:00Z"} ' m.om ||
	fail "openmetrics: metadata labels (build.id as build_id, the note escaped)"
grep -qF '# UNIT profreport_step_time_seconds seconds' m.om || fail "openmetrics: # UNIT"
[ "$(tail -n 1 m.om)" = "# EOF" ] || fail "openmetrics: not ended by # EOF"
# the checker's negative controls: a bad escape and a missing # EOF are refused
sed 's/label="run_00.json"/label="run\\x"/' m.om >bad.om
python3 "$TOOLS/metrics_check.py" openmetrics bad.om >/dev/null && fail "checker accepted a bad escape"
head -n -1 m.om >bad.om
python3 "$TOOLS/metrics_check.py" openmetrics bad.om >/dev/null && fail "checker accepted no # EOF"

# -- JSON rows: one per run and metric; a run without steps has none of the step metrics
run "$P" metrics "$PR_SAMPLES/massif/massif.out.12345" h/run_00.json --to json
expect_rc 0 "metrics --to json of trace files"
python3 - "$tmp/out" <<'PY' || fail "json rows"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "profreport-metrics" and d["order"] == "run", d
rows = d["rows"]
by = {}
for r in rows:
    by.setdefault(r["label"], set()).add(r["metric"])
assert by["run_00.json"] >= {"step_time", "steps_per_s", "duration"}, by
assert "step_time" not in by["massif.out.12345"] and "peak_memory" in by["massif.out.12345"], by
PY
cp "$tmp/out" rows.json
python3 "$TOOLS/schema_check.py" "$PR_TESTS/../docs/schema/metrics.schema.json" rows.json >/dev/null ||
	fail "metrics --to json does not validate against docs/schema/metrics.schema.json"
sed 's/"metric": "duration"/"metric": "durations"/' rows.json >bad.json
python3 "$TOOLS/schema_check.py" "$PR_TESTS/../docs/schema/metrics.schema.json" bad.json >/dev/null &&
	fail "the metrics schema accepts an unknown metric"
run "$P" metrics "$PR_SAMPLES/massif/massif.out.12345" h/run_00.json
expect_rc 0 "metrics csv of a run without steps"
expect_out_has "time,run,label,duration" "csv keeps only the metrics every run has"
grep -q "step_time\|peak_memory" "$tmp/out" && fail "csv: a column of a metric one run lacks"

# -- errors: one line, exit 2
run "$P" metrics runs.db --to xml
expect_error "profreport: metrics: unknown --to 'xml'" "--to xml"
run "$P" metrics runs.db --format json
expect_error "profreport: metrics: --format names the input format" "--format json"
run "$P" metrics nothing.json
expect_rc 2 "a missing input"
expect_one_err_line "a missing input"

# -- run metadata (--meta, --meta-from-env; docs/store.md): stored, in the model, on summary
GITHUB_SHA=abc123 GITHUB_REF_NAME=feat GITHUB_RUN_ID=99 CI_COMMIT_SHA=gitlab GIT_COMMIT=jenkins \
	"$P" ingest -q "$TORCH" -o env.db --meta-from-env --meta build=override
[ "$(query_value env.db "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM run_meta ORDER BY key)")" = "branch=feat build=override commit=abc123" ] ||
	fail "--meta-from-env: GitHub's variables first, --meta overriding"
env -u GITHUB_SHA -u GITHUB_REF_NAME -u GITHUB_RUN_ID CI_COMMIT_SHA=gl1 CI_COMMIT_REF_NAME=dev \
	CI_PIPELINE_ID=5 "$P" ingest -q "$TORCH" -o gl.db --meta-from-env
[ "$(query_value gl.db "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM run_meta ORDER BY key)")" = "branch=dev build=5 commit=gl1" ] ||
	fail "--meta-from-env: GitLab's variables"
env -u GITHUB_SHA -u GITHUB_REF_NAME -u GITHUB_RUN_ID -u CI_COMMIT_SHA -u CI_COMMIT_REF_NAME \
	-u CI_PIPELINE_ID GIT_COMMIT=j1 GIT_BRANCH=origin/main BUILD_NUMBER=12 \
	"$P" ingest -q "$TORCH" -o jk.db --meta-from-env
[ "$(query_value jk.db "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM run_meta ORDER BY key)")" = "branch=origin/main build=12 commit=j1" ] ||
	fail "--meta-from-env: Jenkins' variables"
run "$P" report env.db --json -
expect_rc 0 "report --json of a labelled run"
python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["runs"][0]["meta"]; sys.exit(0 if m == {"branch": "feat", "build": "override", "commit": "abc123"} else 1)' "$tmp/out" ||
	fail "the model's runs[0].meta"
run "$P" summary env.db
expect_out_has "meta branch=feat, build=override, commit=abc123" "summary shows the metadata"
run "$P" report "$TORCH" --json - --meta commit=x1
python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["runs"][0]["meta"] == {"commit": "x1"} else 1)' "$tmp/out" ||
	fail "report TRACE --meta: the model's meta"
# bad keys and values: one line, exit 2, nothing stored
for m in "a b=1" "=1" "noequals" "$(printf 'k=a\tb')" "time=yesterday" \
	"k=$(python3 -c 'print("v" * 257)')" "$(python3 -c 'print("k" * 65)')=1"; do
	run "$P" ingest "$TORCH" -o bad.db --meta "$m"
	expect_error "profreport: ingest: --meta" "--meta '$m'"
	[ ! -e bad.db ] || fail "--meta '$m': a store was made"
done
run "$P" report env.db --json - --meta commit=x
expect_error "profreport: report: --meta labels the runs this command ingests" "report STORE --meta"

finish
