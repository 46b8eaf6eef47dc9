#!/bin/sh
# readme_examples.sh - the documentation's shell examples run as tests (jq's
# habit), so they cannot drift from the program. Every ```sh block of
# README.md and docs/*.md runs,
# unless the line before it is an HTML comment "<!-- not run: REASON -->"
# (installing packages, the test suite itself, a cluster scheduler).
#
# Each block runs with `sh -e` in a fresh directory that holds what the
# examples name: samples/ (the bundled samples), build/cli/profreport (the
# binary under test) and `profreport` on the PATH, trace.json (a Kineto
# trace), base.pt.trace.json / new.pt.trace.json (an identical pair),
# runs/ (traces of several formats) and ranks/node0..1 (the 4 ranks of
# samples/ranks, two per node). A block fails the test when it exits
# non-zero (sh -e: any command of it).
# Environment (set by ctest): PROFREPORT, PR_SAMPLES, PR_TESTS.
set -u
: "${PROFREPORT:?PROFREPORT must name the profreport binary}"
top=$(cd "$PR_TESTS/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pr-readme.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
HOME=$tmp
export HOME

# the blocks, one file each (tmp/block.N), and the FILE:LINE each starts on
n0=0
for doc in "$top/README.md" "$top"/docs/*.md; do
	awk -v dir="$tmp" -v n="$n0" -v file="${doc#"$top"/}" '
		/^<!-- not run:/ { skip = 1; next }
		/^```sh[ \t]*$/ { n++; if (skip) { skip = 0; off = 1; next } f = dir "/block." n; print file ":" NR > (dir "/line." n); inb = 1; next }
		/^```/ { if (inb) close(f); inb = 0; off = 0; next }
		inb { print > f; next }
		!off && NF { skip = 0 }
		END { print n > (dir "/count") }
	' "$doc"
	n0=$(cat "$tmp/count")
done

fixture() { # a fresh directory with what the examples name
	d=$1
	mkdir -p "$d/build/cli" "$d/bin" "$d/runs" "$d/ranks/node0" "$d/ranks/node1" "$d/parts"
	ln -s "$PROFREPORT" "$d/build/cli/profreport"
	ln -s "$PROFREPORT" "$d/bin/profreport"
	cp -R "$PR_SAMPLES" "$d/samples"
	cp "$PR_SAMPLES/torch/trace_rank0.pt.trace.json" "$d/trace.json"
	cp "$PR_SAMPLES/compare/identical/base.pt.trace.json" "$d/base.pt.trace.json"
	cp "$PR_SAMPLES/compare/identical/new.pt.trace.json" "$d/new.pt.trace.json"
	cp "$PR_SAMPLES/qeff/qeff_profile.json" "$PR_SAMPLES/torch/trace_rank0.pt.trace.json" \
		"$PR_SAMPLES/massif/massif.out.12345" "$d/runs/"
	i=0
	for r in "$PR_SAMPLES"/ranks/*.json; do
		cp "$r" "$d/ranks/node$((i / 2))/"
		i=$((i + 1))
	done
}

fails=0 ran=0
for b in "$tmp"/block.*; do
	[ -f "$b" ] || continue
	n=${b##*.}
	line=$(cat "$tmp/line.$n")
	w=$tmp/run.$n
	fixture "$w"
	(cd "$w" && PATH=$w/bin:$PATH sh -e "$b") >"$w.out" 2>"$w.err"
	rc=$?
	ran=$((ran + 1))
	if [ $rc -ne 0 ]; then
		echo "$line: the example exited $rc:"
		sed 's/^/    | /' "$b"
		sed 's/^/    stderr: /' "$w.err" | head -20
		fails=$((fails + 1))
	fi
done
[ "$ran" -gt 0 ] || { echo "readme_examples: no example found in README.md and docs/"; exit 1; }
echo "readme_examples: $ran example block(s), $fails failed"
[ $fails -eq 0 ]
