#!/bin/sh
# t0089-changes: profreport changes (issue 27, "History") on a store of 44 runs with one known
# step. Each run is the recorded torch CPU trace (samples/compare/torch_cpu) with every time scaled
# by its own factor (1 + 0.02 N(0,1), seed 7) and, from the 25th run in time order on, by 1.25
# more (tests/tools/gen_history.py). The runs are ingested in a shuffled order, so that only their
# --meta time puts run c24 after c23. Expected, from the generator's manifest and Python (not
# profreport): one change of step time, at the run of commit c24 after that of c23, the medians of
# the per-run median step times before and after it, +25 % within noise; no other change point
# in any headline metric; and the archive page (report -o site/) marks it on the step-time trend.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

TOOLS=$PR_TESTS/tools
command -v python3 >/dev/null || { echo "t0089-changes: skipped (no python3)"; exit 77; }

mkdir h
python3 "$TOOLS/gen_history.py" "$PR_SAMPLES/compare/torch_cpu/base.pt.trace.json" h 44 24 1.25 7
tab=$(printf '\t')
# shuffled: the manifest's lines by a fixed permutation (k * 17 mod 44)
python3 - h/manifest.tsv >order.tsv <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
for k in range(len(lines)):
    print(lines[k * 17 % len(lines)])
PY
while IFS="$tab" read -r f t c fk p50; do
	"$P" ingest -q "h/$f" -o hist.db --meta "time=$t" --meta "commit=$c" --meta branch=main
done <order.tsv
"$P" ingest -q "$TORCH" -o hist.db --meta branch=other --meta time=2026-03-01T00:00:00Z

# the expected change, from the manifest: medians of the step-time medians either side of c24
python3 - h/manifest.tsv >want.txt <<'PY'
import statistics, sys
p = [float(l.split("\t")[4]) / 1e9 for l in open(sys.argv[1])]
b, a = statistics.median(p[:24]), statistics.median(p[24:])
print("%r %r %r" % (b, a, (a - b) / b))
PY

run "$P" changes hist.db --where branch=main --to json -o ch.json
expect_rc 0 "changes --to json"
expect_out_empty "changes -o ch.json"
python3 - ch.json want.txt <<'PY' || fail "changes --to json: not the known change (above)"
import json, sys
d = json.load(open(sys.argv[1]))
b, a, rel = (float(x) for x in open(sys.argv[2]).read().split())
runs = {r["id"]: r for r in d["runs"]}
assert d["order"] == "time" and len(d["runs"]) == 44, (d["order"], len(d["runs"]))
commits = [r["meta"]["commit"] for r in d["runs"]]
assert commits == ["c%02d" % k for k in range(44)], commits
m = {x["name"]: x for x in d["metrics"]}
st = m["step_time"]
assert len(st["changes"]) == 1, st["changes"]
c = st["changes"][0]
assert runs[c["run"]]["meta"]["commit"] == "c24", c
assert runs[c["after_run"]]["meta"]["commit"] == "c23", c
assert c["kind"] == "shift" and c["regression"] is True, c
assert abs(c["before"] - b) <= 1e-9 * b and abs(c["after"] - a) <= 1e-9 * a, (c, b, a)
assert abs(c["change"] - rel) <= 1e-9 and 0.20 < rel < 0.30, (c["change"], rel)
assert c["p"] <= 0.01, c
for name, x in m.items():
    if name.startswith("span:") or name in ("steps_per_s", "duration"):
        assert len(x["changes"]) <= 1, (name, x["changes"])
        for y in x["changes"]:
            assert runs[y["run"]]["meta"]["commit"] == "c24", (name, y)
    elif name != "step_time":
        assert not x["changes"], (name, x["changes"])
PY

python3 "$TOOLS/schema_check.py" "$PR_TESTS/../docs/schema/changes.schema.json" ch.json >/dev/null ||
	fail "ch.json does not validate against docs/schema/changes.schema.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["metrics"][0]["changes_more"]=1; json.dump(d,open(sys.argv[2],"w"))' ch.json bad.json
python3 "$TOOLS/schema_check.py" "$PR_TESTS/../docs/schema/changes.schema.json" bad.json >/dev/null &&
	fail "the changes schema accepts an unknown key"

run "$P" changes hist.db --where branch=main --metric step_time
expect_rc 0 "changes text"
expect_out_has "44 runs, ordered by their time metadata" "text: the order"
expect_out_has "step_time (s, lower is better): 1 change" "text: one step-time change"
expect_out_has "(run_24.json, commit c24), after run" "text: the run of the change"
expect_out_has "(+25." "text: the change in %"
run "$P" changes hist.db --where branch=main --metric step_time --to md
expect_rc 0 "changes md"
expect_out_has "| \`step_time\` | 44 | run " "md: the row of the change"

# without --where the other branch's run (a different workload, no time order problem) joins
run "$P" changes hist.db --metric steps_per_s
expect_rc 0 "changes of both branches"
expect_out_has "45 runs" "both branches: 45 runs"

# the archive page: the step-time trend in time order, the change marked between the two runs and
# listed with links to both pages
run "$P" report hist.db -o site/ -q
expect_rc 0 "report hist.db -o site/"
python3 - site/index.html <<'PY' || fail "index.html: the step-time change point (above)"
import re, sys
s = open(sys.argv[1]).read()
i = s.index('aria-label="Step time p50 | chrome / chrome-trace | 44 runs"')
fig = s[i:s.index("</figure>", i)]
assert '"vlines":[[24.5,' in fig, "no dashed line between #24 and #25"
lst = s[s.index("</figure>", i):]
lst = lst[:lst.index("</ul>")]
items = re.findall(r"<li>.*?</li>", lst)
assert len(items) == 1, items
assert re.search(r'between <a href="run_23\.json-[0-9a-f]+\.html">#24 run_23\.json</a> and '
                 r'<a href="run_24\.json-[0-9a-f]+\.html">#25 run_24\.json</a>: median ', items[0]), items
assert "(+25." in items[0], items
PY
for page in site/run_23.json-*.html site/run_24.json-*.html; do
	[ -f "$page" ] || fail "the linked page $page is not in the archive"
done
grep -q 'run-meta">branch <code>main</code> &middot; commit <code>c24</code>' site/run_24.json-*.html ||
	fail "run_24's page does not show its metadata"

# errors: one line, exit 2
run "$P" changes hist.db --where nokey=1
expect_error "profreport: changes: --where: no run of the store has the metadata key 'nokey'" "unknown --where key"
run "$P" changes hist.db --where branch=nope
expect_error "profreport: changes: --where branch=nope: no run matches" "no matching run"
run "$P" changes hist.db --where branch=main --metric tokens_per_s
expect_error "profreport: changes: --metric 'tokens_per_s': absent from the history" "metric absent"
run "$P" changes hist.db --metric 'span:no such op'
expect_error "profreport: changes: --metric 'span:no such op': absent from the history" "span absent"
run "$P" changes hist.db --metric bogus
expect_error "profreport: changes: --metric 'bogus': not a headline metric" "unknown metric"
run "$P" changes "$TORCH"
expect_error "profreport: changes: " "a trace, not a store"
expect_err_has "changes reads the history of a store" "a trace, not a store: says why"
run "$P" changes hist.db --to xml
expect_error "profreport: changes: unknown --to 'xml'" "--to xml"
run "$P" changes hist.db --alpha 2
expect_error "profreport: changes: --alpha '2'" "--alpha out of range"

finish
