#!/bin/sh
# The HTML report (--report) in a real browser: headless Chromium loads the
# page eruplan wrote, and the DOM it builds must hold one node row per node
# and section (plan, compare, share), with no script error in the console;
# a screenshot must come out. Without chromium: skipped (77).
# Usage: check_report.sh ERUPLAN_BINARY SOURCE_DIR
set -eu
bin=$1
src=$2
if ! command -v chromium >/dev/null 2>&1; then
  echo "chromium is not installed: skipped (bash .ci/dev deps chromium)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
nodes="$src/tests/data/report_nodes.yaml"
request="$src/tests/data/report_request.yaml"
"$bin" plan -n "$nodes" -r "$request" --report "$dir/plan.html" >/dev/null
"$bin" compare -n "$nodes" -r "$request" --strategies auto,global,drained \
  --report "$dir/compare.html" >/dev/null
"$bin" share -n "$nodes" -r "$src/tests/data/report_apps.yaml" --report "$dir/share.html" >/dev/null

browse() {  # browse OUTPUT-FLAG PAGE
  HOME="$dir" timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
    --no-first-run --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d "$dir/profile.XXXXXX")" --window-size=1400,1100 \
    --enable-logging=stderr --v=0 "$1" "file://$2" 2>>"$dir/chromium.log"
}

fail=0
check_rows() {  # check_rows PAGE EXPECTED
  rows=$(browse --dump-dom "$1" | grep -o 'data-node="[^"]*"' | wc -l)
  if [ "$rows" -ne "$2" ]; then
    echo "FAIL $(basename "$1"): $rows node rows in the DOM, expected $2"
    fail=1
  else
    echo "ok $(basename "$1"): $rows node rows in the DOM"
  fi
}
check_rows "$dir/plan.html" 6
check_rows "$dir/compare.html" 18   # auto, global, drained x 6 nodes
check_rows "$dir/share.html" 6

# No script errors: the pages have no scripts, so the console stays silent.
if grep -Eiq 'Uncaught|:CONSOLE' "$dir/chromium.log"; then
  echo "FAIL: script errors in the console:"
  grep -Ei 'Uncaught|:CONSOLE' "$dir/chromium.log" | head -5
  fail=1
else
  echo "ok: no script errors in the console"
fi

# Self-contained: no scripts, no external resources.
if grep -Eq '<script|<link|src=|href=|url\(' "$dir/plan.html" "$dir/compare.html" \
  "$dir/share.html"; then
  echo "FAIL: the report refers to something outside the page"
  fail=1
fi

browse --screenshot="$dir/plan.png" "$dir/plan.html" >/dev/null
if [ "$(head -c 4 "$dir/plan.png" 2>/dev/null | od -An -c | tr -d ' \n')" != "211PNG" ]; then
  echo "FAIL: no PNG screenshot"
  fail=1
else
  echo "ok plan.png: $(wc -c <"$dir/plan.png") bytes"
fi
[ "$fail" -eq 0 ] || { cat "$dir/chromium.log" | tail -5; exit 1; }
