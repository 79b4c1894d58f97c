#!/usr/bin/env python3
"""Refreshes the fuzz seeds that come from the fixture cases.

  python3 fuzz/refresh_corpus.py

fuzz/corpus/fixture/ gets every fixture case of the repository (files under
fixtures/ with an `expect` or `command` at the top), named by their path.
The command targets get one seed per case of their command, its inputs
inlined (files a case names are read next to it): a selector byte, then the
nodes, the request and a third input (pods, a grow template) joined by
"%%" lines (see fuzz/common.h). Seeds past 8000 bytes (the runs' -max_len is
8192) drop their third input, or are skipped. Other seeds in those
directories (written by hand) are kept.
"""
import json
import pathlib
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
LIMIT = 8000

# target -> selector bytes, one seed each (see each target's file).
SELECTORS = {
    "kubernetes": [0x05, 0x01, 0x00],  # plan -o json, plan table, capacity table
    "requests": [0x04, 0x02],  # plan -o json, plan --atomic table
    "share": [0x01, 0x04],  # -o json, table with --save-inventory
    "realloc": [0x02, 0x01],  # -o json, --atomic table
    "compare": [0x40, 0x07],  # all six -o json, auto+fill+each table
    "grow": [0x80 | 0x40, 0x0A],  # default --max, -o yaml; --max 10 table
    "drain": [0x40, 0x47, 0x00],  # --node n1 -o json, --each-node, --node n1 table
}


def text_of(value, case_dir):
    if value is None:
        return ""
    if isinstance(value, str):
        path = case_dir / value
        return path.read_text() if path.is_file() else ""
    return yaml.safe_dump(value, sort_keys=False, default_flow_style=None)


def is_kubernetes(value, case_dir):
    text = text_of(value, case_dir)
    return '"kind"' in text or "kind:" in text or "apiVersion" in text


def target_of(case, case_dir):
    command = case.get("command", "plan")
    if command in ("share", "realloc", "compare", "grow", "drain"):
        return command
    if command in ("plan", "capacity", "apply", "validate"):
        request = case.get("request")
        if is_kubernetes(case.get("nodes"), case_dir) or is_kubernetes(request, case_dir):
            return "kubernetes"
        if isinstance(request, dict) and "requests" in request:
            return "requests"
    return None


def cases():
    for path in sorted((ROOT / "fixtures").rglob("*")):
        if path.suffix not in (".yaml", ".json") or "inputs" in path.parts:
            continue
        try:
            doc = (json.loads if path.suffix == ".json" else yaml.safe_load)(path.read_text())
        except Exception:
            continue
        if isinstance(doc, dict) and ("expect" in doc or "command" in doc):
            yield path, doc


def seed_name(path):
    return "__".join(path.relative_to(ROOT / "fixtures").parts)


def main():
    fixture_dir = CORPUS / "fixture"
    fixture_dir.mkdir(parents=True, exist_ok=True)
    for old in fixture_dir.iterdir():
        old.unlink()
    written = {}
    for path, case in cases():
        (fixture_dir / seed_name(path)).write_bytes(path.read_bytes())
        written["fixture"] = written.get("fixture", 0) + 1
        target = target_of(case, path.parent)
        if target is None:
            continue
        third = case.get("pods") if target != "grow" else case.get("template")
        parts = [text_of(case.get("nodes"), path.parent), text_of(case.get("request"), path.parent)]
        body = "\n%%\n".join(parts + [text_of(third, path.parent)])
        if len(body) > LIMIT:
            body = "\n%%\n".join(parts)
        if len(body) > LIMIT:
            continue
        out = CORPUS / target
        out.mkdir(parents=True, exist_ok=True)
        for selector in SELECTORS[target]:
            name = "case-%02x-%s" % (selector, seed_name(path))
            (out / name).write_bytes(bytes([selector]) + body.encode())
            written[target] = written.get(target, 0) + 1
    for target, n in sorted(written.items()):
        print(f"{target}: {n} seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
