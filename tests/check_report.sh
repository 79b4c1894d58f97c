#!/bin/sh
# The HTML report (--report) in a real browser: headless Chromium loads the
# page eruplan wrote, and the DOM it builds must hold one node row per node
# and section (plan, compare, share, an infeasible plan, a rejected gang, a
# grow), the outcome stated above the rows in the words expected, the nodes
# node_filter leaves out marked, and no script error in the console; a
# screenshot (of the infeasible plan) must come out. Without chromium:
# skipped (77).
# Usage: check_report.sh ERUPLAN_BINARY SOURCE_DIR [SCREENSHOT.png]
#   SCREENSHOT.png: where to keep the screenshot (the README's docs/report.png)
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
# The outcome at the top: an infeasible plan, a rejected gang, a grow (exit 4,
# 4 and 0 are expected; the page is written either way).
"$bin" plan -n "$nodes" -r "$src/tests/data/report_infeasible.yaml" \
  --report "$dir/infeasible.html" >/dev/null 2>&1 || true
"$bin" plan -n "$nodes" -r "$src/tests/data/report_gang.yaml" \
  --report "$dir/gang.html" >/dev/null 2>&1 || true
"$bin" grow -n "$nodes" -r "$request" --count 30 \
  --template "$src/tests/data/report_template.yaml" --report "$dir/grow.html" >/dev/null
# Priced templates: the outcome says what the growth costs.
"$bin" grow -n "$nodes" -r "$request" --count 30 --cost big=0.5 \
  --template "$src/tests/data/report_template.yaml" --report "$dir/grow-priced.html" >/dev/null
# A Kubernetes grow: each added node runs the DaemonSets it passes first.
g="$src/fixtures/kubernetes/grow"
"$bin" grow -n "$g/nodes.yaml" --pods "$g/pods.json" -r "$g/web.yaml" \
  --template "$g/template.yaml" --daemonsets "$g/daemonsets.json" \
  --report "$dir/grow-daemonsets.html" >/dev/null

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
check_rows "$dir/infeasible.html" 6
check_rows "$dir/gang.html" 6
check_rows "$dir/grow.html" 7   # 6 nodes and the one copy added
check_rows "$dir/grow-daemonsets.html" 4   # worker-1 and 3 copies

# The DOM the browser built holds the outcome, before the first node row.
check_text() {  # check_text PAGE TEXT
  dom=$(browse --dump-dom "$1")
  at=$(printf '%s' "$dom" | grep -bo -F "$2" | head -1 | cut -d: -f1)
  first_row=$(printf '%s' "$dom" | grep -bo 'data-node="' | head -1 | cut -d: -f1)
  if [ -z "$at" ]; then
    echo "FAIL $(basename "$1"): the DOM lacks: $2"
    fail=1
  elif [ -n "$first_row" ] && [ "$at" -gt "$first_row" ] && [ "${3:-}" != anywhere ]; then
    echo "FAIL $(basename "$1"): '$2' comes after the first node row"
    fail=1
  else
    echo "ok $(basename "$1"): $2"
  fi
}
check_text "$dir/plan.html" 'data-outcome="ok"><strong>placed 6 of 6 new instances of web</strong>'
check_text "$dir/infeasible.html" 'data-outcome="failed"><strong>infeasible: '
check_text "$dir/infeasible.html" '<li>need 30 new instances, the nodes can take 22: 1 node not available, 1 node limited by memory, 1 left out by node_filter</li>'
check_text "$dir/infeasible.html" 'class="node filtered" data-node="gpu-1"' anywhere
check_text "$dir/infeasible.html" 'left out by node_filter</div>' anywhere
# The room each node had, which the headline adds up (the rows said nothing).
check_text "$dir/infeasible.html" 'data-node="node-c"' anywhere
check_text "$dir/infeasible.html" '<span class="note">room for 15</span></div>' anywhere
check_text "$dir/gang.html" '<strong>3 requests: 1 placed, 0 partial, 2 rejected, 0 satisfied</strong>'
check_text "$dir/gang.html" '<li>worker: rejected, placed 0 ('
check_text "$dir/gang.html" '<li>web: placed, placed 2</li>'
check_text "$dir/gang.html" '<span class="note">ps: room for 2; worker: room for 1</span></div>' anywhere
check_text "$dir/grow.html" 'data-outcome="ok"><strong>add 1 node (big 1)</strong>'
check_text "$dir/grow.html" 'data-node="big-1"' anywhere
check_text "$dir/grow-priced.html" 'data-outcome="ok"><strong>add 1 node (big 1), cost 0.5</strong>'
# An added node is marked as added, in the note's colour, not as a node
# that failed (it used to be a red reason on a red row).
check_text "$dir/grow.html" 'class="node used grown" data-node="big-1"' anywhere
check_text "$dir/grow.html" '<span class="note">added by grow, like big</span></div>' anywhere
check_text "$dir/grow-daemonsets.html" 'data-outcome="ok"><strong>add 3 nodes (general 3)</strong>'
check_text "$dir/grow-daemonsets.html" '<span class="note">added by grow, like general; runs kube-system/log-shipper</span>' anywhere
check_text "$dir/compare.html" 'of 3 strategies place web (count 6)'

# No script errors: the pages have no scripts, so the console stays silent.
if grep -Eiq 'Uncaught|:CONSOLE' "$dir/chromium.log"; then
  echo "FAIL: script errors in the console:"
  grep -Ei 'Uncaught|:CONSOLE' "$dir/chromium.log" | head -5
  fail=1
else
  echo "ok: no script errors in the console"
fi

# Self-contained: no scripts, no external resources.
if grep -Eq '<script|<link|src=|href=|url\(' "$dir"/*.html; then
  echo "FAIL: the report refers to something outside the page"
  fail=1
fi

browse --screenshot="$dir/plan.png" "$dir/infeasible.html" >/dev/null
if [ "$(head -c 4 "$dir/plan.png" 2>/dev/null | od -An -c | tr -d ' \n')" != "211PNG" ]; then
  echo "FAIL: no PNG screenshot"
  fail=1
else
  echo "ok plan.png: $(wc -c <"$dir/plan.png") bytes"
  [ -z "${3:-}" ] || cp "$dir/plan.png" "$3"
fi
[ "$fail" -eq 0 ] || { cat "$dir/chromium.log" | tail -5; exit 1; }
