#!/bin/sh
# run_speedscope.sh - exports every sample with 'profreport speedscope' and
# checks each file in speedscope 1.25.0 itself (check_speedscope.js: its JSON
# Schema with ajv, its import rules, then loading it in headless chromium).
# Run by ctest as browser/speedscope (tests/browser.cmake). Environment:
# PROFREPORT (the binary), PR_SAMPLES (samples/), optional PR_CHROMIUM.
# Exit 77 (a ctest SKIP) when chromium, node or tests/browser/node_modules is
# missing; set up with
#   apt-get install -y chromium (and nodejs npm unless npm is there) && (cd tests/browser && npm ci)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
: "${PROFREPORT:?PROFREPORT must name the profreport binary}"
: "${PR_SAMPLES:?PR_SAMPLES must name the samples/ directory}"
chromium=${PR_CHROMIUM:-/usr/bin/chromium}

skip() {
	echo "browser/speedscope: SKIP: $*"
	echo "  set up: apt-get install -y chromium (and nodejs npm unless npm is there) && (cd tests/browser && npm ci)"
	exit 77
}
command -v node >/dev/null 2>&1 || skip "node is not installed"
[ -x "$chromium" ] || skip "no chromium at $chromium"
for m in speedscope puppeteer-core ajv; do
	[ -d "$here/node_modules/$m" ] || skip "tests/browser/node_modules/$m is missing"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/prbrowser.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
HOME=$tmp/home
export HOME
mkdir -p "$HOME" "$tmp/out"

"$PROFREPORT" ingest -q "$PR_SAMPLES" -o "$tmp/samples.db"
files=""
# one file per run that has spans or memory series, and one of everything
for id in $("$PROFREPORT" query "$tmp/samples.db" "SELECT id FROM run r WHERE span_count > 0 OR
	EXISTS (SELECT 1 FROM series s WHERE s.run_id = r.id AND s.unit = 'bytes') ORDER BY id" | sed 1d); do
	label=$("$PROFREPORT" query "$tmp/samples.db" "SELECT label FROM run WHERE id = $id" | sed -n 2p)
	out="$tmp/out/run$id-$(printf '%s' "$label" | tr -c 'A-Za-z0-9._-' _).speedscope.json"
	# a run without spans whose bytes never grow (pidstat's constant RSS) has nothing to
	# export: that error, and only for such a run, is skipped
	if ! "$PROFREPORT" speedscope -q "$tmp/samples.db" --run "$id" -o "$out" 2>"$tmp/err"; then
		if grep -qF 'nothing to export: no spans and no memory series' "$tmp/err" &&
			[ "$("$PROFREPORT" query "$tmp/samples.db" "SELECT span_count FROM run WHERE id = $id" | sed -n 2p)" = 0 ]; then
			continue
		fi
		cat "$tmp/err" >&2
		exit 1
	fi
	files="$files $out"
done
"$PROFREPORT" speedscope -q "$tmp/samples.db" -o "$tmp/out/all-samples.speedscope.json"
files="$files $tmp/out/all-samples.speedscope.json"

# shellcheck disable=SC2086
node "$here/check_speedscope.js" ${PR_SCREENSHOTS:+--screenshot "$PR_SCREENSHOTS"} $files
