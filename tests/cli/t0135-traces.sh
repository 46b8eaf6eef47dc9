#!/bin/sh
# t0135-traces: the real traces the tests read are in the repository (tests/data/traces,
# HTA's and TraceLens's test data, MIT) and no GPU test can be skipped while they are:
#  - every file is the one SHA256SUMS pins (and the same bytes as ../shared/traces where
#    that folder exists); each folder has its LICENSE (MIT) and a README naming its
#    origin, commit and license;
#  - no test reads those traces through ../shared any more (only the unlicensed CUDA
#    snapshot torch_snapshot/eor.pickle stays there);
#  - lib.sh's need_trace fails (1) for a missing trace while the folder is there and
#    skips (77) only in a tree without it;
#  - ctest's own list of tests (ctest --show-only=json-v1): the GPU tests (a CLI script
#    calling need_trace, a unit test including tests/unit/traces.h, the render_model
#    layout/check goldens, render/names; found here by grep, not by the build's
#    rule) carry the label `traces` and no SKIP_RETURN_CODE, so a skip of theirs, for
#    any reason, fails the run instead of passing as "skipped".
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

T=$TRACES
[ -d "$T" ] || { fail "$T is missing: the repository holds tests/data/traces"; finish; }

# -- the bytes: SHA256SUMS covers every file and every file matches it
(cd "$T" && sha256sum -c --quiet SHA256SUMS) >sums.txt 2>&1 || { cat sums.txt >&2; fail "SHA256SUMS"; }
(cd "$T" && find . -type f ! -name SHA256SUMS ! -name README.md | sed 's|^\./||' | sort) >have.txt
sed 's/^[0-9a-f]*  //' "$T/SHA256SUMS" | sort >want.txt
diff want.txt have.txt >&2 || fail "the files of $T differ from those SHA256SUMS lists (above)"
[ "$(wc -l <want.txt)" -ge 18 ] || fail "SHA256SUMS lists $(wc -l <want.txt) files, want the 18 of hta and tracelens"
S=${PR_SHARED:-}/traces
if [ -n "${PR_SHARED:-}" ] && [ -d "$S" ]; then
	while read -r f; do
		cmp -s "$T/$f" "$S/$f" || fail "$f differs from $S/$f (the copy must be byte for byte)"
	done <want.txt
else
	echo "t0135-traces: no ../shared/traces here; the copy is checked against SHA256SUMS only"
fi
for d in hta tracelens; do
	grep -q 'MIT License' "$T/$d/LICENSE" || fail "$d/LICENSE is not the MIT license"
	tr '\n' ' ' <"$T/$d/README.md" | grep -Eq 'commit +`[0-9a-f]{40}`' || fail "$d/README.md names no commit"
	grep -q 'MIT' "$T/$d/README.md" || fail "$d/README.md does not state the license"
done
[ ! -e "$T/torch_snapshot" ] || fail "torch_snapshot has no license: it must not be copied into $T"

# -- no test reaches the vendored traces through ../shared
grep -rnE '(PR_SHARED|\.\./shared)[^ ]*traces/(hta|tracelens)' "$PR_TESTS" --exclude-dir=data \
	--exclude="$test_name.sh" >via_shared.txt || true
[ ! -s via_shared.txt ] || { cat via_shared.txt >&2; fail "tests read the traces via ../shared (above)"; }

# -- need_trace: a missing trace fails while the folder is there, skips only without it
mkdir -p fake/hta
run env PR_TRACES="$tmp/fake" sh -c '. "$1"; need_trace "$2"' t "$PR_TESTS/cli/lib.sh" "$tmp/fake/hta/x.json"
expect_rc 1 "need_trace of a missing file with the folder there"
expect_err_has "never a skip" "need_trace says a missing trace is no skip"
run env PR_TRACES="$tmp/none" sh -c '. "$1"; need_trace "$2"' t "$PR_TESTS/cli/lib.sh" "$tmp/none/hta/x.json"
expect_rc 77 "need_trace without the folder"

# -- the GPU tests cannot be skipped (ctest's own list)
if [ -z "${PR_BUILD:-}" ] || [ ! -x "${PR_CTEST:-}" ]; then
	fail "PR_BUILD/PR_CTEST are not set (tests/CMakeLists.txt sets them for this test)"
	finish
fi
"$PR_CTEST" --test-dir "$PR_BUILD" --show-only=json-v1 >tests.json 2>ctest.err ||
	{ cat ctest.err >&2; fail "ctest --show-only"; finish; }
{
	for f in "$PR_TESTS"/cli/t*.sh; do
		! grep -q 'need_trace' "$f" || echo "cli/$(basename "$f" .sh)"
	done
	for f in "$PR_TESTS"/unit/test_*.c; do
		! grep -q '"tests/unit/traces.h"' "$f" || echo "unit/$(basename "$f" .c)"
	done
	for d in "$PR_TESTS"/golden/render_model/*/; do
		echo "golden/render_model/$(basename "$d")/layout"
		echo "golden/render_model/$(basename "$d")/check"
	done
	echo render/names
} | sort >gpu_want.txt
/usr/bin/python3 - tests.json gpu_want.txt >gpu_check.txt 2>&1 <<'EOF' || { cat gpu_check.txt >&2; fail "GPU tests (above)"; }
import json, sys
doc = json.load(open(sys.argv[1]))
want = set(open(sys.argv[2]).read().split())
labelled, bad = set(), []
for t in doc["tests"]:
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    if "traces" in (props.get("LABELS") or []):
        labelled.add(t["name"])
        if "SKIP_RETURN_CODE" in props:
            bad.append("%s: SKIP_RETURN_CODE %s (a skip would pass)" % (t["name"], props["SKIP_RETURN_CODE"]))
for n in sorted(want - labelled):
    bad.append("%s reads the traces but has no label traces" % n)
for n in sorted(labelled - want):
    bad.append("%s has the label traces but reads no trace" % n)
if len(want) < 20:
    bad.append("only %d GPU tests found" % len(want))
print("\n".join(bad) if bad else "%d GPU tests, none can be skipped" % len(labelled))
sys.exit(1 if bad else 0)
EOF
cat gpu_check.txt
finish
