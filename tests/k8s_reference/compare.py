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

--preempt runs plan --preempt and the model's cycle with DefaultPreemption
acting (victims evicted, the replica bound to the chosen node, the next
replica's cycle on that state). Kinds: preempt-deploy (the deploy map),
preempt-victims (each preemption's instance, node and victims in order),
preempt-feasibility, preempt-message (the failing replica's whole FitError
line), preempt-placed ("placed K of N"), and the -prefix kinds (--count K).
--features ...,stream: deploy.yaml holds two or three Deployments, planned in
priority order, then file order, each against the state the earlier ones
left; kinds stream-rc, stream-status, stream-deploy, stream-victims,
stream-message (a rejected request's reason), with or without --preempt.
Speed: about 30 clusters a second on one core (1500 in under a minute).

cases/ holds one minimal input per disagreement class once found, with
reference.json (this model) and eruplan.json/eruplan.stderr (the binary's
answer, recorded again after the fixes: they now agree; the unit test
k8s_reference_cases_test checks them). ctest k8s_reference runs check.sh.
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


def eruplan(binary, d, count=None, preempt=False, request="deploy.json"):
    cmd = [binary, "plan", "-n", os.path.join(d, "nodes.json"), "--pods", os.path.join(d, "pods.json"),
           "-r", os.path.join(d, request), "-o", "json"]
    if preempt:
        cmd.append("--preempt")
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


def preemptions_of(ref_pre):
    return [{"instance": x["instance"], "node": x["node"], "victims": list(x["victims"])} for x in ref_pre]


def eruplan_preemptions(doc):
    return [{"instance": x.get("instance"), "node": x.get("node"),
             "victims": [v.get("pod") for v in x.get("victims") or []]} for x in doc.get("preemptions") or []]


def diff_map(want, got):
    return {k: (want.get(k, 0), got.get(k, 0)) for k in sorted(set(got) | set(want)) if want.get(k, 0) != got.get(k, 0)}


def diff_preemptions(want, got):
    """The first differing preemption, as text, or None."""
    for a, b in zip(want, got):
        if a != b:
            return "reference %s eruplan %s" % (a, b)
    if len(want) != len(got):
        return "reference %d preemptions, eruplan %d (first extra: %s)" % (
            len(want), len(got), (want[len(got):] or got[len(want):])[0])
    return None


def compare_preempt(binary, d):
    """plan --preempt: every replica's node (the deploy map), every preemption
    (instance, node, victims in order) and, when a replica cannot be placed,
    the message and the placement of the replicas before it (--count K)."""
    nd, pd, dd = (json.load(open(os.path.join(d, f))) for f in ("nodes.json", "pods.json", "deploy.json"))
    priority = 0
    pc = os.path.join(d, "priorityclasses.json")
    if os.path.exists(pc):
        priority = json.load(open(pc))["items"][0]["value"]
    ref = reference.run(nd, pd, dd, priority=priority, preempt=True)
    rc, doc, err = eruplan(binary, d, preempt=True)
    out = []
    if ref["new"] == 0:
        if rc != 0:
            out.append(("satisfied", "eruplan rc=%d: %s" % (rc, err.strip()[:300])))
        return out, ref

    def compare_placement(rc, doc, what):
        got = doc.get("deploy") or {}
        want = deploy_of(ref["placements"])
        if rc != 0 or got != want:
            out.append(("preempt-" + what, "rc=%d node: (reference, eruplan) %s" % (rc, diff_map(want, got))))
        dp = diff_preemptions(preemptions_of(ref["preemptions"]), eruplan_preemptions(doc))
        if dp:
            out.append(("preempt-victims" + ("" if what == "deploy" else "-prefix"), dp))

    if ref["error"] is None:
        if rc != 0:
            out.append(("preempt-feasibility", "reference placed all %d (%d preemptions); eruplan rc=%d: %s" % (
                ref["new"], len(ref["preemptions"]), rc, err.strip()[:400])))
            return out, ref
        compare_placement(rc, doc, "deploy")
        return out, ref
    if rc != 4:
        out.append(("preempt-feasibility", "reference failed after %d: %s; eruplan rc=%d deploy=%s" % (
            len(ref["placements"]), ref["error"], rc, doc.get("deploy"))))
        return out, ref
    msg = ((doc.get("error") or {}).get("message")) or err
    first = msg.strip().split("\n")[0]
    if first.startswith("infeasible: "):
        first = first[len("infeasible: "):]
    if first != ref["error"]:
        out.append(("preempt-message", "reference: %s\n      eruplan:   %s" % (ref["error"], first)))
    k = len(ref["placements"])
    if k > 0:
        want_line = "placed %d of %d" % (k, ref["new"])
        if want_line not in msg:
            out.append(("preempt-placed", "reference %s; eruplan: %s" % (want_line, msg.strip().split("\n")[1:2])))
        rc2, doc2, _ = eruplan(binary, d, count=k, preempt=True)
        compare_placement(rc2, doc2, "deploy-prefix")
    return out, ref


def compare_stream(binary, d, preempt):
    """Two or three Deployments in one stream (deploy.yaml): each request's
    status, new replicas placed, deploy map, preemptions and, when rejected,
    its message."""
    nd, pd = (json.load(open(os.path.join(d, f))) for f in ("nodes.json", "pods.json"))
    with open(os.path.join(d, "deploy.yaml")) as f:
        deploys = [json.loads(x) for x in f.read().split("\n---\n")]
    classes = {}
    pc = os.path.join(d, "priorityclasses.json")
    if os.path.exists(pc):
        classes = {o["metadata"]["name"]: o["value"] for o in json.load(open(pc))["items"]}
    prios = [classes.get(((x["spec"]["template"].get("spec") or {}).get("priorityClassName")), 0) for x in deploys]
    ref = reference.run_stream(nd, pd, deploys, prios, preempt=preempt)
    rc, doc, err = eruplan(binary, d, preempt=preempt, request="deploy.yaml")
    out = []
    got = {r.get("name"): r for r in doc.get("requests") or []}
    want_rc = 4 if any(r["status"] == "rejected" for r in ref["requests"]) else 0
    if rc != want_rc:
        out.append(("stream-rc", "reference %s; eruplan rc=%d %s" % (
            [(r["name"], r["status"]) for r in ref["requests"]], rc, err.strip()[:300])))
    for r in ref["requests"]:
        e = got.get(r["name"])
        if e is None:
            out.append(("stream-missing", "eruplan has no request %s" % r["name"]))
            continue
        if e.get("status") != r["status"]:
            out.append(("stream-status", "%s: reference %s (%d new, %d placed, error %s); eruplan %s placed %s reason %s" % (
                r["name"], r["status"], r["new"], len(r["placements"]), r["error"], e.get("status"), e.get("placed"),
                (e.get("reason") or "")[:300])))
            continue
        if r["status"] == "placed":
            want = deploy_of(r["placements"])
            if (e.get("deploy") or {}) != want or e.get("placed") != len(r["placements"]):
                out.append(("stream-deploy", "%s: node: (reference, eruplan) %s" % (r["name"], diff_map(want, e.get("deploy") or {}))))
            dp = diff_preemptions(preemptions_of(r["preemptions"]), eruplan_preemptions(e))
            if dp:
                out.append(("stream-victims", "%s: %s" % (r["name"], dp)))
        elif r["status"] == "rejected":
            reason = (e.get("reason") or "").strip().split("\n")[0]
            if r["error"] not in reason:
                out.append(("stream-message", "%s: reference: %s\n      eruplan:   %s" % (r["name"], r["error"], reason)))
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
    ap.add_argument("--preempt", action="store_true",
                    help="run plan --preempt: compare every replica's node and every preemption")
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
                if "stream" in feats:
                    diffs, ref = compare_stream(a.bin, d, a.preempt)
                elif a.preempt:
                    diffs, ref = compare_preempt(a.bin, d)
                else:
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
    print("%d clusters (seeds %d..%d, features %s%s): %d disagree" % (
        a.count, a.start, a.start + a.count - 1, a.features, ", --preempt" if a.preempt else "", bad))
    for kind, n in kinds.most_common():
        seed, det = first[kind]
        print("  %-28s %4d  e.g. seed %d: %s" % (kind, n, seed, det[:500]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
