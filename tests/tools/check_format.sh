#!/bin/sh
# Every C source and header is as clang-format 14 writes it with the
# repository's .clang-format (issue 31, "Habits"). clang-format's output
# differs between major versions, so the check pins Debian 12's 14 (.ci/run
# installs clang-format-14); without it the test is skipped (exit 77), which
# PR_REQUIRE_ALL=1 turns into a failure.
#
# To fix a failure: clang-format-14 -i FILE... (or the whole tree:
#   git ls-files '*.c' '*.h' | xargs clang-format-14 -i)
# A table that reads better aligned by hand goes between
# /* clang-format off */ and /* clang-format on */.
set -u
top=${PR_TESTS:?}/..
cd "$top" || exit 2
cf=
for c in clang-format-14 clang-format; do
	if command -v "$c" >/dev/null 2>&1 &&
	    "$c" --version 2>/dev/null | grep -q 'version 14\.'; then
		cf=$c
		break
	fi
done
if [ -z "$cf" ]; then
	echo "check_format: clang-format 14 not found; skipped" >&2
	exit 77
fi
# The files (the programs in samples/ that made a recorded sample keep
# their lines): git's list in a checkout, else every .c and .h under the
# source folders (a tarball of the tree).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files=$(git ls-files -- base store ingest analyze render cli bench tests \
	    | grep -E '\.[ch]$')
else
	files=$(find base store ingest analyze render cli bench tests \
	    -name '*.c' -o -name '*.h' | sort)
fi
n=0 bad=0
for f in $files; do
	n=$((n + 1))
	if ! "$cf" --dry-run --Werror "$f" >/dev/null 2>&1; then
		bad=$((bad + 1))
		echo "check_format: $f is not as $cf writes it; first differences:"
		"$cf" "$f" | diff -u "$f" - | sed -n '3,14p'
	fi
done
echo "check_format: $n files, $bad not formatted ($cf)"
[ "$bad" -eq 0 ]
