#!/usr/bin/env python3
"""Compare eruplan's kubernetes profile with reference.py on seeded random clusters.

compare.py [--bin PATH] [--from S] [--count N] [--features LIST] [--keep DIR] [-v]

For each seed: gen.py writes a cluster; eruplan plan -o json and the
reference place the Deployment's new replicas. Compared: the deploy map
(replicas per node), the first replica's per-plugin normalized scores, and,
when a replica cannot be placed, the `0/N nodes are available: ...` line and
the number placed before it (then the deploy map of those, via --count).
Mismatching inputs are kept under --keep/SEED; shrink.py makes them small.

Kinds reported: deploy, deploy-prefix, placed, feasibility, message (the
filter part of the FitError), message-preemption (DefaultPreemption's
"preemption: ..." part), preempt-line (eruplan's "--preempt would place it
on N by evicting K pods" when preemption could help), preemption-line (eruplan prints
that part after its own "placed K of N" line), score:PLUGIN (a first-replica
normalized score), score-nodes (which nodes "scores" lists).
--no-preemption and --no-score-nodes leave the known classes out.
Speed: about 30 clusters a second on one core (1500 in under a minute).

cases/ holds one minimal input per disagreement class once found, with
reference.json (this model) and eruplan.json/eruplan.stderr (the binary's
answer, recorded again after the fixes: they now agree; the unit test
k8s_reference_cases_test checks them). ctest k8s_reference runs seeds 1..300.
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import reference  # noqa: E402

NO_PREEMPTION = False
NO_SCORE_NODES = False
PLUGINS = ["TaintToleration", "NodeAffinity", "PodTopologySpread", "InterPodAffinity",
           "NodeResourcesFit", "NodeResourcesBalancedAllocation", "ImageLocality"]


def eruplan(binary, d, count=None):
    cmd = [binary, "plan", "-n", os.path.join(d, "nodes.json"), "--pods", os.path.join(d, "pods.json"),
           "-r", os.path.join(d, "deploy.json"), "-o", "json"]
    if os.path.exists(os.path.join(d, "priorityclasses.json")):
        cmd += ["--priority-classes", os.path.join(d, "priorityclasses.json")]
    if count is not None:
        cmd += ["--count", str(count)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    try:
        doc = json.loads(p.stdout) if p.stdout.strip() else {}
    except ValueError:
        doc = {}
    return p.returncode, doc, p.stderr


def deploy_of(placements):
    return dict(collections.Counter(placements))


def compare_one(binary, d):
    """Returns a list of (kind, detail) disagreements."""
    with open(os.path.join(d, "nodes.json")) as f:
        nd = json.load(f)
    with open(os.path.join(d, "pods.json")) as f:
        pd = json.load(f)
    with open(os.path.join(d, "deploy.json")) as f:
        dd = json.load(f)
    pc = os.path.join(d, "priorityclasses.json")
    priority = 0
    if os.path.exists(pc):
        with open(pc) as f:
            priority = json.load(f)["items"][0]["value"]
    ref = reference.run(nd, pd, dd, priority=priority)
    rc, doc, err = eruplan(binary, d)
    out = []
    if ref["new"] == 0:
        if rc != 0:
            out.append(("satisfied", "eruplan rc=%d: %s" % (rc, err.strip()[:300])))
        return out, ref
    if ref["error"] is None:
        if rc != 0:
            out.append(("feasibility", "reference placed all %d; eruplan rc=%d: %s" % (ref["new"], rc, err.strip()[:400])))
            return out, ref
        got = doc.get("deploy") or {}
        want = deploy_of(ref["placements"])
        if got != want:
            diff = {k: (want.get(k, 0), got.get(k, 0)) for k in sorted(set(got) | set(want)) if want.get(k, 0) != got.get(k, 0)}
            out.append(("deploy", "node: (reference, eruplan) %s" % diff))
    else:
        if rc != 4:
            out.append(("feasibility", "reference failed after %d: %s; eruplan rc=%d deploy=%s %s" % (
                len(ref["placements"]), ref["error"], rc, doc.get("deploy"), err.strip()[:300])))
            return out, ref
        msg = ((doc.get("error") or {}).get("message")) or err
        first = msg.strip().split("\n")[0]
        if first.startswith("infeasible: "):
            first = first[len("infeasible: "):]
        rf, _, rp = ref["error"].partition(" preemption: ")
        ef, _, ep = first.partition(" preemption: ")
        if not ep and " preemption: " in msg:
            # eruplan put the PostFilter part after its own "placed K of N" line
            ep = msg.split(" preemption: ", 1)[1].split("\n")[0]
            if not NO_PREEMPTION:
                out.append(("preemption-line", "kube-scheduler writes one line; eruplan: %r" % msg.strip().split("\n")[:2]))
        if rf != ef:
            out.append(("message", "reference: %s\n      eruplan:   %s" % (rf, ef)))
        elif rp != ep and not NO_PREEMPTION:
            out.append(("message-preemption", "reference: preemption: %s\n      eruplan:   preemption: %s" % (rp, ep)))
        rline = ref.get("preempt_line")
        eline = next((x for x in msg.strip().split("\n") if x.startswith("--preempt would")), None)
        if rline != eline and not NO_PREEMPTION:
            out.append(("preempt-line", "reference: %s\n      eruplan:   %s" % (rline, eline)))
        k = len(ref["placements"])
        want_line = "placed %d of %d" % (k, ref["new"])
        if k > 0 and want_line not in msg:
            out.append(("placed", "reference %s; eruplan: %s" % (want_line, msg.strip().split("\n")[1:2])))
        if k > 0:
            rc2, doc2, err2 = eruplan(binary, d, count=k)
            got = doc2.get("deploy") or {}
            want = deploy_of(ref["placements"])
            if rc2 != 0 or got != want:
                diff = {n: (want.get(n, 0), got.get(n, 0)) for n in sorted(set(got) | set(want)) if want.get(n, 0) != got.get(n, 0)}
                out.append(("deploy-prefix", "rc=%d node: (reference, eruplan) %s" % (rc2, diff)))
    # first replica's scores
    rs = ref["scores"]
    es = doc.get("scores")
    if rs and es and rc == 0:
        if set(rs) != set(es) and not NO_SCORE_NODES:
            out.append(("score-nodes", "reference-only %s eruplan-only %s" % (sorted(set(rs) - set(es))[:5], sorted(set(es) - set(rs))[:5])))
        for node in sorted(set(rs) & set(es)):
            pl = es[node].get("plugins") or {}
            for p in PLUGINS:
                if p in pl and pl[p] != rs[node][p]:
                    out.append(("score:" + p, "node %s reference %s eruplan %s" % (node, rs[node][p], pl[p])))
                    break
            else:
                continue
            break
    return out, ref


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.environ.get("ERUPLAN", "/work/k8sref-bin/eruplan"))
    ap.add_argument("--from", dest="start", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--features", default="all")
    ap.add_argument("--keep", default=None)
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--no-preemption", action="store_true", help="do not compare the preemption: part")
    ap.add_argument("--no-score-nodes", action="store_true", help="do not compare which nodes 'scores' lists")
    a = ap.parse_args()
    global NO_PREEMPTION, NO_SCORE_NODES
    NO_PREEMPTION = a.no_preemption
    NO_SCORE_NODES = a.no_score_nodes
    feats = gen.parse_feats(a.features)
    kinds = collections.Counter()
    first = {}
    bad = 0
    tmp = tempfile.mkdtemp(prefix="k8sref-")
    try:
        for seed in range(a.start, a.start + a.count):
            d = os.path.join(tmp, str(seed))
            gen.write(seed, d, feats)
            try:
                diffs, ref = compare_one(a.bin, d)
            except Exception as e:  # noqa: BLE001
                diffs = [("exception", repr(e))]
            if diffs:
                bad += 1
                for kind, det in diffs:
                    kinds[kind] += 1
                    first.setdefault(kind, (seed, det))
                    if a.v:
                        print("seed %d: %s: %s" % (seed, kind, det))
                if a.keep:
                    dst = os.path.join(a.keep, str(seed))
                    shutil.rmtree(dst, ignore_errors=True)
                    shutil.copytree(d, dst)
            shutil.rmtree(d, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d clusters (seeds %d..%d, features %s): %d disagree" % (
        a.count, a.start, a.start + a.count - 1, a.features, bad))
    for kind, n in kinds.most_common():
        seed, det = first[kind]
        print("  %-28s %4d  e.g. seed %d: %s" % (kind, n, seed, det[:500]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
