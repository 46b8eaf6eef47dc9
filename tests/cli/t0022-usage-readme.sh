#!/bin/sh
# t0022-usage-readme: README's command table says what the binary says. Every
# command of 'profreport --help' has a row whose first cell is its usage line
# exactly as 'profreport CMD --help' prints it (made from the option tables,
# so options are documented where they are parsed), and no row names a
# command or an option the binary does not have.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

readme=$PR_TESTS/../README.md
"$P" --help >cmds.txt || fail "profreport --help failed"
for c in $(sed -n 's/^  \([a-z]*\)  .*/\1/p' cmds.txt); do
	u=$("$P" "$c" --help | sed -n 's/^usage: //p' | head -1)
	# the table escapes '|' inside a cell as '\|'
	cell=$(printf '%s' "$u" | sed 's/|/\\|/g')
	grep -qF -- "| \`$cell\` |" "$readme" || grep -qF -- "| \`$cell\` (" "$readme" ||
		fail "README's command table has no row '| \`$cell\` |' for '$c'"
done
# and the other way round: each row's command exists and its usage is current
grep -o '^| `profreport [a-z]* [^`]*`' "$readme" | sed 's/^| `//; s/`$//; s/\\|/|/g' >rows.txt
while IFS= read -r row; do
	c=$(printf '%s' "$row" | cut -d' ' -f2)
	u=$("$P" "$c" --help 2>/dev/null | sed -n 's/^usage: //p' | head -1)
	[ "$row" = "$u" ] || fail "README row '$row' is not the usage of '$c' ('$u')"
done <rows.txt
[ -s rows.txt ] || fail "no command rows found in README"
finish
