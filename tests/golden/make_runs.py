#!/usr/bin/env python3
"""Writes tests/golden/runs.txt and tests/golden/inputs/: one command line per
fixture case (its command, its inputs, its options as flags, -o json), inline
inputs saved as JSON files. Run once from the repository root, with the
binary from before a change; check.sh replays the lines with any binary."""
import json, os, sys, yaml

root = "fixtures"
out_dir = "tests/golden/inputs"
os.makedirs(out_dir, exist_ok=True)
lines = []
flag = {"nodes_limit": "--nodes-limit", "cpu_bind": "--cpu-bind", "each_node": "--each-node",
        "volumes": "--volume", "nodes": "--node", "exclude": "--exclude", "labels": "--label"}
for dirpath, _, files in sorted(os.walk(root)):
    for f in sorted(files):
        path = os.path.join(dirpath, f)
        if "/cases/" not in path or "/inputs/" in path or not f.endswith((".yaml", ".json")):
            continue
        with open(path) as fh:
            try:
                case = yaml.safe_load(fh)
            except yaml.YAMLError:
                continue
        if not isinstance(case, dict) or "expect" not in case:
            continue
        cmd = case.get("command", "plan")
        stem = path[len(root) + 1:].replace("/", "__").rsplit(".", 1)[0]
        args = [cmd]
        for key, opt in (("nodes", "-n"), ("request", "-r"), ("pods", "--pods"),
                         ("template", "--template")):
            if key not in case:
                continue
            v = case[key]
            if isinstance(v, str):
                args += [opt, os.path.join(dirpath, v)]
            else:
                p = os.path.join(out_dir, stem + "." + key + ".json")
                with open(p, "w") as o:
                    json.dump(v, o, indent=1, default=str)
                    o.write("\n")
                args += [opt, p]
        for k, v in (case.get("options") or {}).items():
            name = flag.get(k, "--" + k.replace("_", "-"))
            if isinstance(v, bool):
                if v:
                    args.append(name)
            elif isinstance(v, list):
                if k == "strategies":
                    args += [name, ",".join(map(str, v))]
                else:
                    for x in v:
                        args += [name, str(x)]
            elif isinstance(v, dict):
                for a, b in v.items():
                    args += [name, f"{a}={b}"]
            else:
                args += [name, str(v)]
        if cmd in ("plan", "capacity", "validate"):
            args.append("--strict")
        args += ["-o", "json"]
        lines.append(" ".join(args))
with open("tests/golden/runs.txt", "w") as o:
    o.write("\n".join(lines) + "\n")
print(len(lines), "runs")
