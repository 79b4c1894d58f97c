#!/bin/sh
# `eruplan test -o junit` prints JUnit XML that a real XML parser reads, with
# one testcase per case and the counts in the testsuite's attributes.
set -eu
eruplan=$1
fixtures=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$eruplan" test -o junit "$fixtures" >"$out"
python3 - "$out" <<'PY'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
assert root.tag in ("testsuites", "testsuite"), root.tag
cases = [c for s in suites for c in s.findall("testcase")]
assert len(cases) > 10, len(cases)
failed = sum(1 for c in cases if c.find("failure") is not None)
total = sum(int(s.get("tests")) for s in suites)
assert total == len(cases), (total, len(cases))
assert sum(int(s.get("failures")) for s in suites) == failed
assert all(c.get("name") and c.get("classname") for c in cases)
print("junit: %d testcases, %d failures, parsed" % (len(cases), failed))
PY
