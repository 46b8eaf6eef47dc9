#!/bin/sh
# hostile.sh - feed profreport inputs built to hurt: deep nesting, huge
# strings, out-of-range numbers, broken UTF-8 and control characters,
# empty/binary/prose files, directories, truncated gzip.
#
# Every case must end with the expected exit status (0, or 2 with exactly
# one "profreport: " line on stderr), never with a signal or a sanitizer
# report, and a failed ingest into an existing store must leave it as it
# was (same runs, integrity_check ok). Inputs are generated here, in a
# temporary folder; nothing big is committed.
#
# Environment (set by ctest): PROFREPORT, the binary.
set -u

: "${PROFREPORT:?PROFREPORT must name the profreport binary}"
LC_ALL=C
TZ=UTC
export LC_ALL TZ
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pr-hostile.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
HOME=$tmp
export HOME

if command -v timeout >/dev/null 2>&1; then
	run_limited() { timeout 120 "$@"; }
else
	run_limited() { "$@"; }
fi

cases=0
failures=0

fail() {
	failures=$((failures + 1))
	echo "FAIL: $label: $*"
	if [ -s "$tmp/err" ]; then
		echo "  stderr:"
		head -c 2000 "$tmp/err" | sed 's/^/  | /'
		echo
	fi
}

# check WANT LABEL CMD...: runs CMD; exit WANT (0, 2, or "0|2"); a failure
# prints exactly one "profreport: " line; success prints nothing on stderr.
check() {
	want=$1
	label=$2
	shift 2
	cases=$((cases + 1))
	run_limited "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ge 124 ]; then
		fail "crashed or hung (exit $rc)"
		return 1
	fi
	if grep -q -e 'Sanitizer' -e 'runtime error:' "$tmp/err"; then
		fail "sanitizer report (exit $rc)"
		return 1
	fi
	case "|$want|" in
	*"|$rc|"*) ;;
	*)
		fail "exit $rc, want $want"
		return 1
		;;
	esac
	if [ "$rc" -eq 0 ]; then
		# note=TEXT: the one line of stderr a success may print (summary's note on the
		# files of a directory it skipped)
		if [ -n "${note:-}" ] && [ "$(awk 'END { print NR }' "$tmp/err")" -eq 1 ] &&
			grep -qF "$note" "$tmp/err"; then
			: >"$tmp/err"
		fi
		if [ -s "$tmp/err" ]; then
			fail "success, but something on stderr"
			return 1
		fi
		return 0
	fi
	lines=$(awk 'END { print NR }' "$tmp/err")
	if [ "$lines" -ne 1 ]; then
		fail "want one line on stderr, got $lines"
		return 1
	fi
	case $(cat "$tmp/err") in
	"profreport: "*) ;;
	*)
		fail "stderr does not start with 'profreport: '"
		return 1
		;;
	esac
	return 0
}

# The value a one-value query prints (the line after the header).
q() {
	"$PROFREPORT" query "$1" "$2" 2>&1 | sed -n 2p
}

expect_eq() {
	if [ "$2" != "$3" ]; then
		failures=$((failures + 1))
		echo "FAIL: $1: got '$2', want '$3'"
	fi
}

base=$tmp/base.db

# A failed ingest must not touch the existing store.
base_unchanged() {
	expect_eq "$label: runs in the store" "$(q "$base" "select count(*) from run")" 1
	expect_eq "$label: store integrity" "$(q "$base" "pragma integrity_check")" ok
}

# ingest_fail LABEL FILE [ARGS...]: exit 2 into the base store, which stays as it was.
ingest_fail() {
	label=$1
	file=$2
	shift 2
	check 2 "$label" "$PROFREPORT" ingest "$file" -o "$base" -q "$@"
	base_unchanged
}

# ingest_ok LABEL FILE [ARGS...]: exit 0 into a fresh store $tmp/LABEL.db.
ingest_ok() {
	label=$1
	file=$2
	shift 2
	check 0 "$label" "$PROFREPORT" ingest "$file" -o "$tmp/$label.db" -q "$@"
}

diag_count() {
	q "$tmp/$1.db" "select ifnull(sum(count), 0) from diag where code = '$2'"
}

# One ordinary event, to surround hostile parts with something valid.
ev='{"ph":"X","name":"ok","pid":1,"tid":1,"ts":1,"dur":1}'

printf '[%s]\n' "$ev" >"$tmp/good.json"
label=base
check 0 base "$PROFREPORT" ingest "$tmp/good.json" -o "$base" -q
expect_eq "base store" "$(q "$base" "select count(*) from run")" 1

# ---- nesting ----
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; }' >"$tmp/deep-open.json"
ingest_fail deep-open "$tmp/deep-open.json"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; }' \
	>"$tmp/deep-balanced.json"
ingest_fail deep-balanced "$tmp/deep-balanced.json"
awk -v ev="$ev" 'BEGIN { printf "[%s,{\"ph\":\"X\",\"args\":{\"a\":", ev;
	for (i = 0; i < 100000; i++) printf "[";
	for (i = 0; i < 100000; i++) printf "]"; printf "}}]\n" }' >"$tmp/deep-args.json"
ingest_fail deep-args "$tmp/deep-args.json"
awk -v ev="$ev" 'BEGIN { printf "{\"traceEvents\":[%s],\"meta\":", ev;
	for (i = 0; i < 100000; i++) printf "{\"k\":";
	printf "1"; for (i = 0; i < 100000; i++) printf "}"; printf "}\n" }' >"$tmp/deep-meta.json"
ingest_fail deep-meta "$tmp/deep-meta.json"
# 1000 levels is the documented limit and still loads.
awk -v ev="$ev" 'BEGIN { printf "[%s,{\"ph\":\"X\",\"name\":\"d\",\"pid\":1,\"tid\":1,", ev;
	printf "\"ts\":2,\"dur\":1,\"args\":{\"a\":";
	for (i = 0; i < 998; i++) printf "[";
	for (i = 0; i < 998; i++) printf "]"; printf "}}]\n" }' >"$tmp/deep-limit.json"
ingest_ok deep-limit "$tmp/deep-limit.json" &&
	expect_eq "deep-limit spans" "$(q "$tmp/deep-limit.db" "select count(*) from span")" 2

# ---- huge strings ----
awk -v ev="$ev" 'BEGIN { s = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	printf "[%s,{\"ph\":\"X\",\"name\":\"", ev;
	for (i = 0; i < 16384; i++) printf "%s", s;
	printf "\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1}]\n" }' >"$tmp/name-1mb.json"
ingest_ok name-1mb "$tmp/name-1mb.json" &&
	expect_eq "1 MiB name" \
		"$(q "$tmp/name-1mb.db" "select max(length(name)) from span_v")" 1048576
# Bigger than the parser's first 4 MiB window: the window must grow.
awk -v ev="$ev" 'BEGIN { s = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	printf "[%s,{\"ph\":\"X\",\"name\":\"blob\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1,", ev;
	printf "\"args\":{\"blob\":\"";
	for (i = 0; i < 98304; i++) printf "%s", s;
	printf "\"}}]\n" }' >"$tmp/args-6mb.json"
ingest_ok args-6mb "$tmp/args-6mb.json" &&
	expect_eq "6 MiB args string" "$(q "$tmp/args-6mb.db" \
		"select length(json_extract(args, '\$.blob')) from span_v where name = 'blob'")" \
		6291456

# ---- numbers out of range, or not JSON numbers at all ----
for v in NaN nan Infinity -Infinity +1 0x10 .5; do
	printf '[%s,{"ph":"X","name":"n","pid":1,"tid":1,"ts":%s,"dur":1}]\n' "$ev" "$v" \
		>"$tmp/ts-bad.json"
	ingest_fail "ts $v" "$tmp/ts-bad.json"
	printf '[%s,{"ph":"X","name":"n","pid":1,"tid":1,"ts":2,"args":{"v":%s}}]\n' "$ev" "$v" \
		>"$tmp/arg-bad.json"
	ingest_fail "args $v" "$tmp/arg-bad.json"
done
for v in 1e400 -1e400 1e-400; do
	safe=$(printf '%s' "$v" | tr -c 'a-z0-9' '_')
	printf '[%s,{"ph":"X","name":"n","pid":1,"tid":1,"ts":%s,"dur":1}]\n' "$ev" "$v" \
		>"$tmp/ts-$safe.json"
	ingest_ok "ts$safe" "$tmp/ts-$safe.json"
	printf '[%s,{"ph":"X","name":"n","pid":1,"tid":1,"ts":2,"dur":%s,"args":{"v":%s,"w":[%s]}},' \
		"$ev" "$v" "$v" "$v" >"$tmp/arg-$safe.json"
	printf '{"ph":"C","name":"c","pid":1,"ts":3,"args":{"v":%s}}]\n' "$v" >>"$tmp/arg-$safe.json"
	ingest_ok "args$safe" "$tmp/arg-$safe.json"
done
expect_eq "ts 1e400 skipped" "$(diag_count ts1e400 bad_timestamp)" 1
expect_eq "ts -1e400 skipped" "$(diag_count ts_1e400 bad_timestamp)" 1
expect_eq "ts 1e-400 is 0" "$(q "$tmp/ts1e_400.db" "select ts from span_v where name = 'n'")" 0
expect_eq "dur 1e400" "$(diag_count args1e400 bad_duration)" 1
expect_eq "dur -1e400" "$(diag_count args_1e400 bad_duration)" 1
expect_eq "counter 1e400" "$(diag_count args1e400 counter_not_numeric)" 1
expect_eq "args 1e400 kept" "$(q "$tmp/args1e400.db" \
	"select count(*) from span_v where name = 'n' and args like '%1e400%'")" 1
awk -v ev="$ev" 'BEGIN {
	printf "[%s,{\"ph\":\"X\",\"name\":\"big\",\"pid\":1,\"tid\":1,\"ts\":", ev;
	for (i = 0; i < 100000; i++) printf "9";
	printf ",\"dur\":1,\"args\":{\"v\":0."; for (i = 0; i < 100000; i++) printf "1";
	printf "}}]\n" }' >"$tmp/digits.json"
ingest_ok digits "$tmp/digits.json" &&
	expect_eq "100 000-digit ts" "$(diag_count digits bad_timestamp)" 1

# ---- broken strings ----
printf '[%s,{"ph":"X","name":"a\001b\377c\300\257","pid":1,"tid":1,"ts":2,"dur":1,' "$ev" \
	>"$tmp/strings.json"
printf '"args":{"k\002":"\011\000\376"}}]\n' >>"$tmp/strings.json"
ingest_ok strings "$tmp/strings.json" && {
	expect_eq "control_character" "$(diag_count strings control_character)" 1
	expect_eq "invalid_utf8" "$(diag_count strings invalid_utf8)" 1
	expect_eq "repaired name" "$(q "$tmp/strings.db" \
		"select hex(name) from span_v where ts = 2000")" 610162EFBFBD63EFBFBDEFBFBD
	expect_eq "repaired args are JSON" "$(q "$tmp/strings.db" \
		"select json_valid(args) from span_v where ts = 2000")" 1
}
# Outside an event object nothing is repaired: that is a syntax error.
printf '{"traceEvents":[%s],"meta\001":1}\n' "$ev" >"$tmp/ctl-meta.json"
ingest_fail ctl-meta "$tmp/ctl-meta.json"
printf '[%s,{"ph":"X"\000}]\n' "$ev" >"$tmp/nul.json"
ingest_fail nul-byte "$tmp/nul.json"
printf '[1,"x",null,[],%s]\n' "$ev" >"$tmp/non-objects.json"
ingest_ok non-objects "$tmp/non-objects.json" &&
	expect_eq "non_object_event" "$(diag_count non-objects non_object_event)" 4

# ---- empty, binary and prose files ----
: >"$tmp/empty.json"
ingest_fail empty "$tmp/empty.json"
ingest_fail empty-forced "$tmp/empty.json" --format chrome
printf '\357\273\277' >"$tmp/bom.json"
ingest_fail bom-only "$tmp/bom.json" --format chrome
printf ' \n\t \r\n' >"$tmp/blank.json"
ingest_fail whitespace-only "$tmp/blank.json" --format chrome
# 4096 pseudo-random bytes from a fixed-seed LCG (the same bytes every run).
awk 'BEGIN { x = 20240501; for (i = 0; i < 4096; i++) {
	x = (x * 69069 + 1) % 4294967296; printf "%c", int(x / 16777216) } }' >"$tmp/binary.bin"
ingest_fail binary "$tmp/binary.bin"
ingest_fail binary-as-chrome "$tmp/binary.bin" --format chrome
for fmt in $("$PROFREPORT" formats | awk '{ print $1 }'); do
	label="binary as $fmt"
	check "0|2" "$label" "$PROFREPORT" ingest "$tmp/binary.bin" -o "$tmp/any.db" -q \
		--format "$fmt"
done
cat >"$tmp/prose.txt" <<'EOF'
It was the best of times and it was the worst of times.
The profiler wrote nothing useful today; the kernel simply ran.
Nobody knows why the memory went up at step forty two.
EOF
ingest_fail prose "$tmp/prose.txt"
ingest_fail prose-as-chrome "$tmp/prose.txt" --format chrome
expect_eq "prose error position" \
	"$(grep -c "prose.txt':1:1: " "$tmp/err")" 1
check 2 "missing file" "$PROFREPORT" ingest "$tmp/no-such-file.json" -o "$base" -q
base_unchanged

# ---- directories ----
mkdir "$tmp/empty-dir" "$tmp/mixed-dir"
# An empty directory is an error (issue 11), and leaves no store behind.
label=empty-dir
check 2 "$label" "$PROFREPORT" ingest "$tmp/empty-dir" -o "$tmp/empty-dir.db" -q &&
	expect_eq "empty dir: no store" "$([ -e "$tmp/empty-dir.db" ] && echo yes || echo no)" no
cp "$tmp/good.json" "$tmp/prose.txt" "$tmp/binary.bin" "$tmp/mixed-dir/"
check 0 mixed-dir "$PROFREPORT" ingest "$tmp/mixed-dir" -o "$tmp/mixed-dir.db" -q &&
	expect_eq "mixed dir: runs" "$(q "$tmp/mixed-dir.db" "select count(*) from run")" 1
note="mixed-dir': 2 file(s) skipped, not a recognized format: " \
	check 0 summary-dir "$PROFREPORT" summary "$tmp/mixed-dir"
note=
check 2 summary-empty-dir "$PROFREPORT" summary "$tmp/empty-dir"
check 2 dir-as-store "$PROFREPORT" ingest "$tmp/good.json" -o "$tmp/empty-dir" -q
check 2 query-dir "$PROFREPORT" query "$tmp/empty-dir" "select 1"
check 2 summary-missing "$PROFREPORT" summary "$tmp/no-such-dir"
check 2 summary-binary "$PROFREPORT" summary "$tmp/binary.bin"

# ---- gzip ----
if command -v gzip >/dev/null 2>&1; then
	awk 'BEGIN { printf "[";
		for (i = 0; i < 5000; i++)
			printf "%s{\"ph\":\"X\",\"name\":\"op%d\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":1}",
				(i ? ",\n" : ""), i % 50, i * 2;
		printf "]\n" }' >"$tmp/gz-src.json"
	gzip -n -9 -c "$tmp/gz-src.json" >"$tmp/whole.json.gz"
	ingest_ok gzip-whole "$tmp/whole.json.gz" &&
		expect_eq "gzip spans" "$(q "$tmp/gzip-whole.db" "select count(*) from span")" 5000
	size=$(wc -c <"$tmp/whole.json.gz")
	for cut in 10 20 $((size / 2)) $((size - 9)) $((size - 1)); do
		head -c "$cut" "$tmp/whole.json.gz" >"$tmp/cut.json.gz"
		ingest_fail "gzip cut at $cut of $size" "$tmp/cut.json.gz"
	done
	# A flipped byte in the compressed data: a CRC or data error, not a crash.
	dd if="$tmp/whole.json.gz" of="$tmp/bad.json.gz" bs=1 count="$((size / 2))" 2>/dev/null
	printf '\377\377\377\377' >>"$tmp/bad.json.gz"
	dd if="$tmp/whole.json.gz" bs=1 skip="$((size / 2 + 4))" 2>/dev/null >>"$tmp/bad.json.gz"
	ingest_fail gzip-corrupt "$tmp/bad.json.gz"
else
	echo "hostile: no gzip here; gzip cases skipped"
fi

# ---- times near the int64 limits (issue 12) ----
# Under AddressSanitizer the fontconfig caches (suppressed in cli/main.c) are
# listed on stderr at exit unless told not to; the PNG panels below load them.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}print_suppressions=0
export ASAN_OPTIONS
# Ingest keeps times within +-(2^62 - 1) ns = +-4611686018427387.903 us; the
# events below are at INT64_MAX / 1000 us (beyond: skipped) or end beyond the
# limit (cut there), all counted as time_out_of_range. Every command then runs
# without a sanitizer report (check) and summary prints no negative duration.
big=9223372036854775
lim=4611686018427387
{
	printf '{"traceEvents":[\n'
	printf '{"ph":"X","name":"ProfilerStep#1","cat":"user_annotation","pid":1,"tid":1,"ts":%s,"dur":5},\n' "$((big - 10))"
	printf '{"ph":"X","name":"op","cat":"cpu_op","pid":1,"tid":1,"ts":-%s,"dur":%s},\n' "$big" "$big"
	printf '{"ph":"C","name":"c","pid":1,"ts":%s,"args":{"v":1}},\n' "$big"
	printf '{"ph":"X","name":"ProfilerStep#2","cat":"user_annotation","pid":1,"tid":1,"ts":-%s,"dur":%s},\n' "$lim" "$((2 * lim))"
	printf '{"ph":"X","name":"fwd","cat":"user_annotation","pid":1,"tid":3,"ts":-%s,"dur":%s},\n' "$((lim - 1))" "$big"
	printf '{"ph":"X","name":"k","cat":"kernel","pid":1,"tid":2,"ts":%s,"dur":%s},\n' "$((lim - 1))" "$big"
	printf '{"ph":"i","name":"[memory]","pid":1,"tid":1,"ts":%s,"s":"t","args":{"Device Type":1,"Device Id":0,"Total Allocated":100,"Total Reserved":200,"Bytes":100,"Addr":1}},\n' "$lim"
	printf '{"ph":"i","name":"[memory]","pid":1,"tid":1,"ts":-%s,"s":"t","args":{"Device Type":1,"Device Id":0,"Total Allocated":50,"Total Reserved":200,"Bytes":100,"Addr":1}}\n' "$lim"
	printf '],"baseTimeNanoseconds":9223372036854775807}\n'
} >"$tmp/int64.json"
# skipped: the events at +-INT64_MAX/1000 us (3); cut: fwd and k end beyond (2)
ingest_ok int64 "$tmp/int64.json" && {
	expect_eq "int64: time_out_of_range" "$(diag_count int64 time_out_of_range)" 5
	expect_eq "int64: spans kept" "$(q "$tmp/int64.db" "select count(*) from span")" 3
	expect_eq "int64: extent" "$(q "$tmp/int64.db" "select ts_min || ' ' || ts_max from run")" \
		"-4611686018427387000 4611686018427387903"
}
label=int64
check 0 "int64 summary" "$PROFREPORT" summary "$tmp/int64.json" &&
	expect_eq "int64: duration" "$(grep -c 'duration -' "$tmp/out")" 0
check 0 "int64 report" "$PROFREPORT" report -q "$tmp/int64.json" -o "$tmp/int64.html" \
	--json "$tmp/int64.model.json" --png "$tmp/int64-png"
check 0 "int64 speedscope" "$PROFREPORT" speedscope "$tmp/int64.json" -o "$tmp/int64.ss.json"
check 0 "int64 aggregate" "$PROFREPORT" aggregate "$tmp/int64.json" --ranks 0 \
	-o "$tmp/int64.agg.json" --html "$tmp/int64.agg.html" --trace "$tmp/int64.trace.json"
# compare refuses a side whose times were cut (one line, exit 2), without overflowing
check 2 "int64 compare" "$PROFREPORT" compare "$tmp/int64.json" "$tmp/int64.json" &&
	expect_eq "int64 compare names the code" "$(grep -c 'time_out_of_range x5' "$tmp/err")" 1
# Ten annotations of 1e15 us = 1e18 ns: each fits, their sum 1e19 does not fit
# in an int64 (SQLite's SUM failed with "integer overflow"). The run lasts
# 1e18 ns + 9 us = 1000000000.000 s (3 decimals).
awk 'BEGIN { printf "["; for (i = 0; i < 10; i++)
	printf "%s{\"ph\":\"X\",\"name\":\"ann\",\"cat\":\"user_annotation\",\"pid\":1,\"tid\":%d,\"ts\":%d,\"dur\":1e15}",
		(i ? ",\n" : ""), i + 1, i;
	printf "]\n" }' >"$tmp/ann1e15.json"
label=ann1e15
check 0 "ann1e15 summary" "$PROFREPORT" summary "$tmp/ann1e15.json" &&
	expect_eq "ann1e15 duration" "$(grep -c '^duration 1000000000.000 s' "$tmp/out")" 1
check 0 "ann1e15 report" "$PROFREPORT" report -q "$tmp/ann1e15.json" -o "$tmp/ann1e15.html" \
	--json "$tmp/ann1e15.model.json"
check 0 "ann1e15 compare" "$PROFREPORT" compare "$tmp/ann1e15.json" "$tmp/ann1e15.json"
check 0 "ann1e15 compare models" "$PROFREPORT" compare "$tmp/ann1e15.model.json" \
	"$tmp/ann1e15.model.json" --to md
check 0 "ann1e15 speedscope" "$PROFREPORT" speedscope "$tmp/ann1e15.json" -o "$tmp/ann1e15.ss.json"
# X events without "dur": missing_duration, counted, first position kept
printf '[%s,\n{"ph":"X","name":"a","pid":1,"tid":1,"ts":2},\n{"ph":"X","name":"b","pid":1,"tid":1,"ts":3}]\n' \
	"$ev" >"$tmp/nodur.json"
ingest_ok nodur "$tmp/nodur.json" && {
	expect_eq "missing_duration count" "$(diag_count nodur missing_duration)" 2
	expect_eq "missing_duration line" \
		"$(q "$tmp/nodur.db" "select line from diag where code = 'missing_duration'")" 2
}
# QNN: device timestamps at INT64_MAX ns and a row 2^62 ns after the first
qnn_head=timestamp,total_memory_kb,free_memory_kb,available_memory_kb,buffers_kb,cached_kb,swap_total_kb,swap_free_kb,proc_rss_kb,proc_vss_kb
printf '%s\n%s\n%s\n%s\n%s\n' "$qnn_head" \
	'9223372036.854,100,50,60,1,2,0,0,10,20' '-9223372036.854,100,50,60,1,2,0,0,10,20' \
	'-4611686018.000,100,50,60,1,2,0,0,10,20' '4611686018.000,100,50,60,1,2,0,0,10,20' \
	>"$tmp/qnn-int64.csv"
ingest_ok qnn-int64 "$tmp/qnn-int64.csv" &&
	expect_eq "qnn time_out_of_range" "$(diag_count qnn-int64 time_out_of_range)" 3
label=qnn-int64
check 0 "qnn-int64 summary" "$PROFREPORT" summary "$tmp/qnn-int64.csv"
check 0 "qnn-int64 report" "$PROFREPORT" report -q "$tmp/qnn-int64.csv" -o "$tmp/qnn-int64.html"
# A store another program wrote, with any int64 time (sqlite3 needed): every
# reader clamps, nothing overflows.
if command -v sqlite3 >/dev/null 2>&1; then
	cp "$tmp/int64.db" "$tmp/wild.db"
	sqlite3 "$tmp/wild.db" "UPDATE span SET ts = -9223372036854775808 + id,
		dur = 9223372036854775807, self = 9223372036854775807;
		UPDATE sample SET ts = 9223372036854775807 - seq;
		UPDATE instant SET ts = -9223372036854775808;
		UPDATE series SET ts_min = -9223372036854775808, ts_max = 9223372036854775807;
		UPDATE run SET ts_min = -9223372036854775808, ts_max = 9223372036854775807;
		DELETE FROM diag;"
	label=wild
	check 0 "wild summary" "$PROFREPORT" summary "$tmp/wild.db" &&
		expect_eq "wild: duration" "$(grep -c '^duration 9223372036.855 s' "$tmp/out")" 1
	check 0 "wild report" "$PROFREPORT" report -q "$tmp/wild.db" -o "$tmp/wild.html" \
		--json "$tmp/wild.model.json" --png "$tmp/wild-png"
	check 0 "wild speedscope" "$PROFREPORT" speedscope "$tmp/wild.db" -o "$tmp/wild.ss.json"
	check 0 "wild aggregate" "$PROFREPORT" aggregate "$tmp/wild.db" --ranks 0 \
		-o "$tmp/wild.agg.json" --html "$tmp/wild.agg.html" --trace "$tmp/wild.trace.json"
	check "0|1" "wild compare" "$PROFREPORT" compare "$tmp/wild.model.json" "$tmp/wild.model.json"
else
	echo "hostile: no sqlite3 here; the int64-store cases skipped"
fi

# ---- names and inputs that are not files (issue 12) ----
# Temporary files of this block in a folder of its own, to count what is left.
TMPDIR=$tmp/tmpdir
export TMPDIR
mkdir -p "$TMPDIR"
# Control characters in a file name are escaped: the error is one line (check).
nl='
'
check 2 "newline in a missing file's name" "$PROFREPORT" summary "$tmp/a${nl}b.json" &&
	expect_eq "newline escaped" "$(grep -c "a\\\\nb.json" "$tmp/err")" 1
printf 'prose, not a trace\n' >"$tmp/t$(printf '\033')]0;x$(printf '\007\r')y.json"
check 2 "ESC, BEL and CR in a file's name" "$PROFREPORT" summary \
	"$tmp/t$(printf '\033')]0;x$(printf '\007\r')y.json" &&
	expect_eq "ESC escaped" "$(grep -c 't\\x1b]0;x\\x07\\ry.json' "$tmp/err")" 1
# A symbolic link loop inside an input directory: a note per loop, the rest read.
mkdir -p "$tmp/loop-dir/sub"
cp "$tmp/good.json" "$tmp/loop-dir/"
ln -s self "$tmp/loop-dir/self"
ln -s .. "$tmp/loop-dir/sub/up"
label=loop-dir
cases=$((cases + 1))
run_limited "$PROFREPORT" ingest "$tmp/loop-dir" -o "$tmp/loop-dir.db" -q >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 0 ] || grep -q -e 'Sanitizer' -e 'runtime error:' "$tmp/err"; then
	fail "exit $rc or a sanitizer report"
else
	expect_eq "loop notes" "$(grep -c "^profreport: ingest: '.*': note: skipped: a symbolic link loop" "$tmp/err")" 2
	expect_eq "loop-dir: lines on stderr" "$(awk 'END { print NR }' "$tmp/err")" 2
	expect_eq "loop-dir: runs" "$(q "$tmp/loop-dir.db" "select count(*) from run")" 1
fi
# '-' and a FIFO are read once, into a temporary copy that is removed after.
check 0 "summary -" sh -c '"$1" summary - <"$2"' sh "$PROFREPORT" "$tmp/int64.json"
check 0 "ingest - (gzip)" sh -c 'gzip -c "$2" | "$1" ingest - -o "$3" -q' sh "$PROFREPORT" \
	"$tmp/good.json" "$tmp/dash.db" &&
	expect_eq "ingest -: source" "$(q "$tmp/dash.db" "select source from run")" "-"
check 2 "summary - of prose" sh -c '"$1" summary - <"$2"' sh "$PROFREPORT" "$tmp/prose.txt"
check 2 "a store is never -" "$PROFREPORT" ingest "$tmp/good.json" -o -
if command -v mkfifo >/dev/null 2>&1 && mkfifo "$tmp/fifo" 2>/dev/null; then
	# the writer waits for a reader: bounded, so a reader that never comes cannot hang us
	run_limited sh -c 'cat "$1" >"$2"' sh "$tmp/ann1e15.json" "$tmp/fifo" &
	check 0 "summary FIFO" "$PROFREPORT" summary "$tmp/fifo"
	wait
	# nothing written to the FIFO but its end: an empty file, not a hang
	run_limited sh -c ': >"$1"' sh "$tmp/fifo" &
	check 2 "an empty FIFO" "$PROFREPORT" summary "$tmp/fifo"
	wait
fi
expect_eq "temporary copies left" "$(find "$TMPDIR" -name 'profreport-input-*' | wc -l | tr -d ' ')" 0

# ---- bounded resources (issue 12) ----
# Under an address-space limit where the build allows one (a sanitizer build
# reserves terabytes of shadow memory and cannot run under ulimit -v): an
# input that made profreport grow without bound then aborts (exit 134), and
# check reports it.
limit_kb=1048576
(ulimit -v "$limit_kb" && "$PROFREPORT" formats) >/dev/null 2>&1 || limit_kb=unlimited
# bounded CMD...: CMD under that limit (a command, so that check can time it out).
bounded="ulimit -v $limit_kb && exec \"\$@\""
# massif was read whole: /dev/urandom grew to 7 GB, then SIGABRT and an empty store.
if [ -r /dev/urandom ]; then
	label=massif-urandom
	check 2 "$label" sh -c "$bounded" sh "$PROFREPORT" ingest --format massif /dev/urandom \
		-o "$tmp/urandom.db" -q &&
		expect_eq "massif-urandom: no store" \
			"$([ -e "$tmp/urandom.db" ] && echo yes || echo no)" no
fi

# query: a statement that never ends is stopped (--timeout), fts3_tokenizer()
# (a pointer into the process) refused; the store is untouched.
label=query-endless
check 2 "$label" "$PROFREPORT" query --timeout 1 "$base" \
	"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c" &&
	base_unchanged
label=query-fts3-tokenizer
check 2 "$label" "$PROFREPORT" query "$base" "SELECT fts3_tokenizer('simple')" &&
	base_unchanged

if command -v gzip >/dev/null 2>&1; then
	# JSON document formats hold the document whole: over the limit (here 1 MiB,
	# PROFREPORT_JSON_MAX_MB) one clear line, no store. A 2 MiB QEff document that
	# gzips to a few KiB (issue 12: 600 MB unpacked took 4.7 GB and failed with an
	# empty message).
	awk 'BEGIN { printf "{\"timestamps\": ["; for (i = 0; i < 200000; i++)
		printf "%s%d.5", (i ? ", " : ""), i; printf "], \"rss_memory\": [1]}\n" }' \
		| gzip -n -c >"$tmp/qeff-big.json.gz"
	label=qeff-limit
	check 2 "$label" env PROFREPORT_JSON_MAX_MB=1 "$PROFREPORT" ingest "$tmp/qeff-big.json.gz" \
		-o "$tmp/qeff-big.db" -q && {
		expect_eq "qeff-limit: the message" "$(grep -c \
			"qeff-big.json.gz': JSON document larger than 1 MiB (after gunzip): not loaded, .*set PROFREPORT_JSON_MAX_MB=N (MiB) to raise the limit" \
			"$tmp/err")" 1
		expect_eq "qeff-limit: no store" "$([ -e "$tmp/qeff-big.db" ] && echo yes || echo no)" no
	}
	check 0 qeff-limit-raised env PROFREPORT_JSON_MAX_MB=3 "$PROFREPORT" ingest \
		"$tmp/qeff-big.json.gz" -o "$tmp/qeff-big.db" -q
	check 2 qeff-limit-bad env PROFREPORT_JSON_MAX_MB=lots "$PROFREPORT" ingest \
		"$tmp/qeff-big.json.gz" -o "$tmp/qeff-bad.db" -q
fi

echo "hostile: $cases cases; $failures failure(s)"
[ "$failures" -eq 0 ]
