#!/bin/sh
# schema_models.sh - every analysis model profreport writes validates against
# docs/schema/model.schema.json (tests/tools/schema_check.py, python3-jsonschema):
#   - the golden models (tests/golden/analyze/*/expected.model.json), one of
#     them also corrupted three ways, which the schema must reject;
#   - the model of every bundled sample at once (report samples --json);
#   - the models of the real Kineto traces of ../shared/traces/hta;
#   - the models of the fuzz corpus inputs that load (odd, small, hostile).
# Environment (set by ctest): PROFREPORT, PR_SAMPLES, PR_TESTS, PR_SHARED.
# Exit 77 (skip) without /usr/bin/python3 or python3-jsonschema.
set -u
: "${PROFREPORT:?PROFREPORT must name the profreport binary}"
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || { echo "schema_models: no python3; skipped"; exit 77; }
"$py" -c 'import jsonschema' 2>/dev/null || {
	echo "schema_models: python3-jsonschema is missing (apt-get install python3-jsonschema); skipped"
	exit 77
}
root=$(cd "$PR_TESTS/.." && pwd)
schema=$root/docs/schema/model.schema.json
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pr-schema.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
HOME=$tmp
export HOME

"$PROFREPORT" report "$PR_SAMPLES" --json "$tmp/samples.json" -o "$tmp/site" >/dev/null 2>"$tmp/err" || {
	echo "schema_models: report of the samples failed:"
	cat "$tmp/err"
	exit 1
}
n=0
if [ -d "$PR_SHARED/traces/hta" ]; then
	for f in $(find "$PR_SHARED/traces/hta" -name '*.json' -o -name '*.json.gz' | sort); do
		n=$((n + 1))
		"$PROFREPORT" summary --json "$tmp/real$n.json" "$f" >/dev/null 2>&1 ||
			{ echo "schema_models: summary of $f failed"; exit 1; }
	done
fi
# fuzz corpus inputs: those that load give a model; the others are errors, not models
for f in "$PR_TESTS"/fuzz/corpus/*/*; do
	n=$((n + 1))
	"$PROFREPORT" summary --json "$tmp/fuzz$n.json" "$f" >/dev/null 2>&1 || rm -f "$tmp/fuzz$n.json"
done
exec "$py" "$PR_TESTS/tools/schema_check.py" \
	--negative "$PR_TESTS/golden/analyze/torch-trace/expected.model.json" "$schema" \
	"$PR_TESTS"/golden/analyze/*/expected.model.json "$tmp"/*.json
