# lib.sh - what every tests/browser/run_*.sh does first (sourced after `set -eu`):
# `browser_setup NAME` needs PROFREPORT and PR_SAMPLES, skips (exit 77) without node,
# chromium or tests/browser/node_modules, and sets here (this folder), chromium and tmp (a
# scratch folder removed at exit, with HOME inside it for chromium).
# shellcheck shell=sh
browser_setup() {
	: "${PROFREPORT:?}" "${PR_SAMPLES:?}"
	chromium=${PR_CHROMIUM:-/usr/bin/chromium}
	command -v node >/dev/null 2>&1 || browser_skip "$1" "node is not installed"
	[ -x "$chromium" ] || browser_skip "$1" "no chromium at $chromium"
	[ -d "$here/node_modules/puppeteer-core" ] || browser_skip "$1" "tests/browser/node_modules is missing"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/pr$1.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 1' HUP INT TERM
	HOME=$tmp/home
	export HOME
	mkdir -p "$HOME"
}

browser_skip() {
	echo "browser/$1: SKIP: $2"
	echo "  set up: apt-get install -y chromium (and nodejs npm unless npm is there) && (cd tests/browser && npm ci)"
	exit 77
}
