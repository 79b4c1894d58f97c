#!/usr/bin/env bash
# The guard of a refactor of the input side: replays every fixture case as a
# command line (runs.txt: the case's command, inputs and options, -o json),
# runs `eruplan test -o json fixtures/` and `--print-expect` of every case,
# and compares stdout, stderr and exit codes byte for byte with golden.txt,
# made by the binary from before the change.
#   check.sh BINARY SOURCE_DIR           compare
#   check.sh BINARY SOURCE_DIR --update  rewrite golden.txt
set -uo pipefail
bin=$1
cd "$2" || exit 2
here=tests/golden
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err" "$out.all"' EXIT
{
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    echo "== $line"
    # shellcheck disable=SC2086  # the line is the argument list
    "$bin" $line >"$out" 2>"$err"
    rc=$?
    cat "$out"
    echo "-- stderr"
    cat "$err"
    echo "-- exit $rc"
  done <"$here/runs.txt"
  echo "== test -o json fixtures"
  "$bin" test -o json fixtures
  echo "-- exit $?"
  echo "== test fixtures"
  "$bin" test fixtures
  echo "-- exit $?"
  find fixtures -path '*/cases/*' -name '*.yaml' ! -path '*/inputs/*' | LC_ALL=C sort |
    while IFS= read -r f; do
      echo "== test --print-expect $f"
      "$bin" test --print-expect "$f" 2>&1
      echo "-- exit $?"
    done
} >"$out.all" 2>&1
if [ "${3:-}" = "--update" ]; then
  cp "$out.all" "$here/golden.txt"
  exit 0
fi
if ! cmp -s "$out.all" "$here/golden.txt"; then
  diff -u "$here/golden.txt" "$out.all" | head -80
  echo "golden: output differs from tests/golden/golden.txt"
  exit 1
fi
echo "golden: $(grep -c '^== ' "$here/golden.txt") runs match"
