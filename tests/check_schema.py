#!/usr/bin/env python3
"""`eruplan schema KIND` checked by a JSON Schema validator (python3-jsonschema).

Every schema must be a valid draft 2020-12 schema; every eruplan-format input
under fixtures/ (fixture cases, the inventories, requests and templates they
name, the bundled examples) and every input of tests/golden/runs.txt must
validate against the schema of its kind; a few hand-written documents with a
misspelt field or a wrong type must not.

Usage: check_schema.py ERUPLAN_BINARY SOURCE_DIR
Exit 77 (skipped) when python3-jsonschema or python3-yaml is missing.
"""
import datetime
import json
import os
import subprocess
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:  # pragma: no cover
    print(f"{e.name} is not installed: skipped (bash .ci/dev deps python3-jsonschema python3-yaml)")
    sys.exit(77)

BIN, SRC = sys.argv[1], sys.argv[2]
KINDS = ["inventory", "request", "share", "realloc", "case", "template"]


def schema_of(kind):
    out = subprocess.run([BIN, "schema", kind], check=True, capture_output=True, text=True).stdout
    schema = json.loads(out)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


VALIDATORS = {k: schema_of(k) for k in KINDS}


def plain(value):
    """A YAML value as JSON has it: string keys, dates as the text written."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


def load(path):
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    return [plain(d) for d in docs]


def is_kubernetes(doc):
    return isinstance(doc, dict) and ("kind" in doc or "items" in doc or "apiVersion" in doc)


failures = []
checked = {k: 0 for k in KINDS}

# Bundled inputs that are wrong on purpose (the cases expect exit 3), in a way
# the schema sees: each must be refused, and only these.
REFUSED = {
    "fixtures/cases/bad_input_unknown_strategy.yaml": "strategy: spread",
    "tests/golden/inputs/cases__bad_input_unknown_strategy.request.json": "strategy: spread",
    "fixtures/cases/mesos/bad_no_role.yaml": "a framework without a role",
}
refused_seen = set()


def check(kind, doc, where):
    errors = sorted(VALIDATORS[kind].iter_errors(doc), key=lambda e: list(e.absolute_path))
    checked[kind] += 1
    if where in REFUSED:
        refused_seen.add(where)
        if not errors:
            failures.append(f"{where} ({kind}): should be refused ({REFUSED[where]}), but validates")
        return
    for e in errors[:3]:
        failures.append(f"{where} ({kind}): {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")


# --- fixtures/: the cases, then what they name, then the rest by content.
fixtures = os.path.join(SRC, "fixtures")
files = []
for dirpath, dirnames, filenames in os.walk(fixtures):
    dirnames.sort()
    files += [os.path.join(dirpath, f) for f in sorted(filenames)
              if f.endswith((".yaml", ".yml", ".json"))]

kind_of = {}  # path -> kind, from the cases that name it
cases = []
for path in files:
    docs = load(path)
    if len(docs) == 1 and isinstance(docs[0], dict) and "expect" in docs[0]:
        cases.append(path)
        case = docs[0]
        command = case.get("command", "plan")
        for field in ("nodes", "request", "template"):
            value = case.get(field)
            if not isinstance(value, str):
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(path), value))
            kind = {"nodes": "inventory", "template": "template"}.get(field)
            if field == "request":
                kind = {"realloc": "realloc", "share": "share"}.get(command, "request")
            kind_of[target] = kind

for path in files:
    rel = os.path.relpath(path, SRC)
    docs = load(path)
    if path in cases:
        check("case", docs[0], rel)
        continue
    if len(docs) != 1 or is_kubernetes(docs[0]):
        continue  # Kubernetes objects: kubectl's, not eruplan's
    doc = docs[0]
    kind = kind_of.get(path)
    if kind is None:
        if "nodes" in doc:
            kind = "inventory"
        elif "apps" in doc or "frameworks" in doc:
            kind = "share"
        elif "requests" in doc or "resources" in doc or "count" in doc:
            kind = "request"
        else:
            failures.append(f"{rel}: not a case and no case names it; which input is it?")
            continue
    check(kind, doc, rel)

# --- tests/golden: every input of every command line.
golden = 0
with open(os.path.join(SRC, "tests/golden/runs.txt"), encoding="utf-8") as f:
    for line in f:
        words = line.split()
        if not words:
            continue
        command = words[0]
        for flag, value in zip(words, words[1:]):
            kind = None
            if flag == "-n":
                kind = "inventory"
            elif flag == "-r":
                kind = {"realloc": "realloc", "share": "share"}.get(command, "request")
            elif flag == "--template":
                kind = "template"
            if kind is None or not value.startswith("tests/golden/"):
                continue
            docs = load(os.path.join(SRC, value))
            if len(docs) == 1 and not is_kubernetes(docs[0]):
                check(kind, docs[0], value)
                golden += 1

# --- Documents the schema must refuse, as the reader does.
MUST_FAIL = [
    ("inventory", {"nodes": [{"name": "n1", "memroy": "8Gi"}]}, "misspelt memory"),
    ("inventory", {"nodes": [{"name": "n1", "lables": {"pool": "a"}}]}, "misspelt labels"),
    ("inventory", {"nodes": [{"name": "n1", "usage": {"cpu_map": {"0": "all"}}}]},
     "usage.cpu_map pieces not a number"),
    ("inventory", {"nodes": [{"cpu": 4}]}, "a node without a name"),
    ("inventory", {"nodes": [{"name": "n1", "memory": "lots"}]}, "memory not a quantity"),
    # eruplan refuses a unit it does not know (exit 3); the schema passed it.
    ("inventory", {"nodes": [{"name": "n1", "memory": "32GB"}]}, "memory in GB"),
    ("request", {"app": "web", "resources": {"cpu": "500mc"}}, "cpu in an unknown unit"),
    ("request", {"app": "web", "count": "three"}, "count not a number"),
    # eruplan refuses these (exit 3); the schema passed them.
    ("request", {"app": "web", "count": 0}, "count 0"),
    ("request", {"app": "web", "count": 2, "nodes_limit": -1}, "nodes_limit -1"),
    ("request", {"requests": [{"app": "web", "count": -2}]}, "count -2 in a list"),
    ("request", {"app": "web", "resources": {"memroy": "1Gi"}}, "misspelt resources.memory"),
    ("request", {"app": "web", "node_filter": {"lables": {"pool": "a"}}},
     "misspelt node_filter.labels"),
    ("request", {"app": "web", "strategy": "fil"}, "unknown strategy"),
    ("request", {"requests": [{"app": "web", "cnt": 2}]}, "misspelt count in a list"),
    ("realloc", {"workloads": ["w1"], "resources": {"cpu": 1, "memory_limt": "1Gi"}},
     "misspelt memory_limit"),
    ("realloc", {"workloads": ["w1"], "cpu_bind": "maybe"}, "cpu_bind not keep/true/false"),
    ("share", {"apps": [{"app": "a", "wieght": 2}]}, "misspelt weight"),
    ("case", {"nodes": "n.yaml", "expect": {"exitt": 0}}, "misspelt expect.exit"),
    ("case", {"nodes": "n.yaml", "command": "plan", "options": {"max": 3}},
     "a what-if option in a plan case"),
    ("case", {"nodes": "n.yaml", "command": "realloc", "request": {"app": "w", "count": 2}},
     "a plan request in a realloc case"),
    ("case", {"command": "plan", "expect": {}}, "a case without nodes"),
    ("template", {"name": "t", "cpu": 4, "cots": 0.1}, "misspelt cost"),
    ("realloc", {"workloads": ["w1"], "cpu_bind": "true"}, "cpu_bind a quoted true"),
    ("case", {"nodes": "n.yaml", "command": "compare", "options": {"strategies": "auto,fil"}},
     "an unknown strategy among compare's"),
    ("case", {"nodes": "n.yaml", "command": "compare", "options": {"strategies": "autofill"}},
     "two strategies without a comma"),
    ("case", {"nodes": "n.yaml", "options": {"strategy": "fil"}}, "an unknown strategy option"),
    ("case", {"nodes": "n.yaml", "command": "grow", "daemonsets": 3}, "daemonsets a number"),
]
for kind, doc, why in MUST_FAIL:
    if VALIDATORS[kind].is_valid(doc):
        failures.append(f"must fail ({kind}): {why}: the schema accepts {json.dumps(doc)}")

# And the same documents with the typo fixed pass, so the refusals above are
# the typo's doing.
MUST_PASS = [
    ("inventory", {"nodes": [{"name": "n1", "memory": "8Gi", "labels": {"pool": "a"},
                              "usage": {"cpu_map": {"0": 50}}, "cpu": 4}]}),
    ("request", {"app": "web", "count": 3, "strategy": "fill",
                 "resources": {"memory": "1Gi"}, "node_filter": {"labels": {"pool": "a"}}}),
    ("request", {"requests": [{"app": "web", "count": 2}]}),
    ("realloc", {"workloads": ["w1"], "resources": {"cpu": 1, "memory_limit": "1Gi"},
                 "cpu_bind": "keep"}),
    ("share", {"apps": [{"app": "a", "weight": 2}]}),
    ("case", {"nodes": "n.yaml", "command": "grow", "options": {"max": 3}, "expect": {"exit": 0}}),
    ("template", {"name": "t", "cpu": 4, "cost": 0.1}),
    # Every unit the reader takes.
    ("inventory", {"nodes": [{"name": "n1", "cpu": "3920m", "memory": "15136360Ki",
                              "storage": "1500G", "usage": {"memory": "129e6", "cpu": 0.5}}]}),
    ("request", {"app": "web", "resources": {"cpu": "1500m", "memory": "1k", "storage": "1E"}}),
    # Strategy names and aliases in any case, as the reader takes them.
    ("request", {"app": "web", "count": 3, "strategy": "Fill"}),
    ("request", {"app": "web", "count": 3, "strategy": "COMMUNISM"}),
    ("realloc", {"workloads": ["w1"], "cpu_bind": True}),
    ("case", {"nodes": "n.yaml", "command": "compare",
              "options": {"strategies": "auto,,Fill,SCORE"}}),
    ("case", {"nodes": "n.yaml", "command": "compare", "options": {"strategies": ["Each", "drained"]}}),
    ("case", {"nodes": "n.yaml", "options": {"strategy": "Global"}}),
    ("case", {"nodes": "n.yaml", "command": "grow", "daemonsets": "ds.json"}),
]
for kind, doc in MUST_PASS:
    if not VALIDATORS[kind].is_valid(doc):
        failures.append(f"must pass ({kind}): the schema refuses {json.dumps(doc)}")

for where in sorted(set(REFUSED) - refused_seen):
    failures.append(f"{where}: listed as refused but not checked")

for f in failures:
    print("FAIL", f)
print(f"validated: {', '.join(f'{n} {k}' for k, n in checked.items())} "
      f"({golden} golden inputs among them); {len(MUST_FAIL)} refusals and {len(MUST_PASS)} "
      f"acceptances checked; {len(failures)} failures")
sys.exit(1 if failures else 0)
