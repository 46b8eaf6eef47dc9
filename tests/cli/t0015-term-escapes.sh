#!/bin/sh
# t0015-term-escapes: trace names are attacker-controlled text; the console
# outputs (summary, aggregate's table, compare's text and markdown) write
# their control characters as visible escapes, so an OSC sequence cannot
# retitle the terminal, CSI cannot clear it and CR cannot overwrite a line.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# ESC ] 0 ; pwned BEL (OSC: set title), ESC [ 2 J (CSI: clear), CR, U+0085 (C1 NEL)
evil='evil\u001b]0;pwned\u0007\u001b[2J\r\u0085x'
mk() { # FILE DUR
	printf '{"traceEvents":[{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},{"ph":"X","cat":"user_annotation","name":"%s","pid":1,"tid":1,"ts":1,"dur":%s}]}' "$evil" "$2" >"$1"
}
# no raw control byte other than newline and tab, and no C2 80..9F pair
clean() {
	if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$1"; then
		fail "$2: a raw control character reached the terminal"
		od -c "$1" | head -5 >&2
	fi
	if LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$1"; then
		fail "$2: a raw C1 control reached the terminal"
	fi
}
mkdir ranks
mk ranks/rank0.json 50
mk ranks/rank1.json 51
mk ranks/rank2.json 90

run "$P" summary ranks/rank0.json
expect_rc 0 "summary"
clean "$tmp/out" "summary"
expect_out_has 'evil\x1b]0;pwned\x07\x1b[2J\x0d\u0085x' "summary shows the escapes"

run "$P" aggregate ranks
expect_rc 0 "aggregate"
clean "$tmp/out" "aggregate"
expect_out_has 'evil\x1b]0;pwned' "aggregate shows the escapes"

for f in text md; do
	run "$P" compare ranks/rank0.json ranks/rank2.json --to "$f"
	clean "$tmp/out" "compare --to $f"
	expect_out_has 'evil\x1b' "compare --to $f shows the escapes"
done
# the JSON outputs keep the exact name (escaped as JSON)
run "$P" report ranks/rank0.json --json m.json
# (jansson writes \u001B in upper case and U+0085 as its UTF-8 bytes)
grep -qi "evil\\\\u001b]0;pwned\\\\u0007\\\\u001b\\[2J\\\\r$(printf '\302\205')x" m.json ||
	fail "the model does not keep the exact name"

finish
