#!/bin/sh
# t0001-help: help, usage errors and --version (STYLE.md rule 22).
# Every command listed by 'profreport --help' handles -h and --help (usage on
# stdout, exit 0); misuse prints one error line plus the usage on stderr and
# exits 2; --version names the linked library versions.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# -- the command table, as printed
run "$P" --help
expect_rc 0 "--help"
expect_err_empty "--help"
expect_out_has "usage: profreport <command>" "--help"
cmds=$(sed -n '/^commands:/,/^$/p' "$tmp/out" | awk '/^  [a-z]/ { print $1 }')
[ -n "$cmds" ] || fail "no commands listed under 'commands:' in --help"
for want in ingest summary query dump formats; do
	# shellcheck disable=SC2086 # split the list into words on purpose
	case " $(printf '%s ' $cmds)" in
	*" $want "*) ;;
	*) fail "--help does not list the '$want' command" ;;
	esac
done
cp "$tmp/out" "$tmp/help.txt"

run "$P" -h
expect_rc 0 "-h"
if ! cmp -s "$tmp/out" "$tmp/help.txt"; then
	fail "'profreport -h' and 'profreport --help' differ"
fi
run "$P" help
expect_rc 0 "help"
expect_out_has "usage: profreport <command>" "help"

# -- every command handles -h and --help, and 'help CMD'
for c in $cmds; do
	for h in -h --help; do
		run "$P" "$c" "$h"
		expect_rc 0 "$c $h"
		expect_err_empty "$c $h"
		if ! sed -n 1p "$tmp/out" | grep -Eq "^usage: profreport $c( |\$)"; then
			fail "$c $h: the first line is not 'usage: profreport $c ...'"
			show
		fi
		summary=$(awk -v c="$c" '$1 == c { $1 = ""; sub(/^ +/, ""); print; exit }' "$tmp/help.txt")
		expect_out_has "$summary" "$c $h repeats the summary from --help"
	done
	cp "$tmp/out" "$tmp/cmdhelp.txt"
	run "$P" help "$c"
	expect_rc 0 "help $c"
	if ! cmp -s "$tmp/out" "$tmp/cmdhelp.txt"; then
		fail "'profreport help $c' differs from 'profreport $c --help'"
	fi
	# -h wins wherever it appears among the arguments
	run "$P" "$c" some-arg -h
	expect_rc 0 "$c some-arg -h"
	expect_out_has "usage: profreport $c" "$c some-arg -h"
	# an unknown option is a usage error
	run "$P" "$c" --no-such-option
	expect_rc 2 "$c --no-such-option"
	expect_out_empty "$c --no-such-option"
	expect_err_has "profreport: $c: unknown option '--no-such-option'" "$c --no-such-option"
	expect_err_has "usage: profreport $c" "$c --no-such-option shows the usage"
	run "$P" "$c" -Z
	expect_rc 2 "$c -Z"
	expect_err_has "unknown option '-Z'" "$c -Z"
done

# -- missing and extra arguments
for c in ingest summary query dump; do
	run "$P" "$c"
	expect_rc 2 "$c without arguments"
	expect_out_empty "$c without arguments"
	expect_err_has "profreport: $c: missing arguments" "$c without arguments"
	expect_err_has "usage: profreport $c" "$c without arguments shows the usage"
done
run "$P" query store.db
expect_rc 2 "query with one argument"
expect_err_has "missing arguments" "query with one argument"
run "$P" query a.db "SELECT 1" extra
expect_rc 2 "query with three arguments"
expect_err_has "profreport: query: too many arguments" "query with three arguments"
run "$P" formats extra
expect_rc 2 "formats with an argument"
expect_err_has "profreport: formats: too many arguments" "formats with an argument"
run "$P" ingest "$TORCH"
expect_rc 2 "ingest without -o"
expect_one_err_line "ingest without -o"
expect_err_has "-o STORE" "ingest without -o"
[ ! -e store.db ] || fail "ingest without -o created a file"
run "$P" ingest "$TORCH" -o
expect_rc 2 "ingest -o without a value"
expect_err_has "option '-o' needs a value" "ingest -o without a value"
run "$P" ingest -q=1 "$TORCH" -o x.db
expect_rc 2 "a flag given a value"
run "$P" summary --top many "$TORCH"
expect_rc 2 "summary --top many"
expect_one_err_line "summary --top many"

# -- no command, unknown command (never matched by prefix)
run "$P"
expect_rc 2 "no command"
expect_out_empty "no command"
expect_err_has "usage: profreport <command>" "no command"
for bad in nosuch ing INGEST; do
	run "$P" "$bad"
	expect_rc 2 "unknown command '$bad'"
	expect_out_empty "unknown command '$bad'"
	expect_one_err_line "unknown command '$bad'"
	expect_err_has "'$bad' is not a command" "unknown command '$bad'"
done

# -- formats lists at least the Chrome trace reader
run "$P" formats
expect_rc 0 "formats"
expect_out_has "chrome" "formats"

# -- --version: one line naming profreport and every library it links
run "$P" --version
expect_rc 0 "--version"
expect_err_empty "--version"
if [ "$(wc -l <"$tmp/out")" -ne 1 ] ||
	! grep -Eq '^profreport [0-9]+\.[0-9]+\.[0-9]+ \(sqlite [0-9][0-9.]*, jansson [0-9][0-9.]*, cairo [0-9][0-9.]*, zlib [0-9][0-9.]*[a-z.-]*\)$' "$tmp/out"; then
	fail "--version is not 'profreport X.Y.Z (sqlite V, jansson V, cairo V, zlib V)'"
	show
fi

finish
