"""A second, independent model of kube-scheduler v1.35's default profile.

Written from Kubernetes' own code (kubernetes/kubernetes, pkg/scheduler),
not from eruplan's sources nor from tests/k8s_reference. It takes the same
objects eruplan reads (kubectl-shaped nodes, running pods, namespaces and one
Deployment) and places the Deployment's replicas one at a time as the
scheduler's queue would, with ties broken by node name.

Where each rule comes from:
  - PodRequests with init containers and sidecars, non-zero defaults:
    k8s.io/component-helpers resource/helpers.go (PodRequests,
    AggregateContainerRequests, applyNonMissing); pkg/scheduler/util
    (DefaultMilliCPURequest 100m, DefaultMemoryRequest 200Mi);
    framework/types.go calculateResource (NonZeroRequested).
  - Filters in the default profile's order: nodeunschedulable, nodename,
    tainttoleration, nodeaffinity, nodeports, noderesources/fit.go
    (fitsRequest, Unresolvable), podtopologyspread/filtering.go,
    interpodaffinity/filtering.go.
  - Scores: tainttoleration (DefaultNormalizeScore reversed), nodeaffinity
    (DefaultNormalizeScore), podtopologyspread/scoring.go,
    interpodaffinity/scoring.go, noderesources least_allocated.go,
    balanced_allocation.go, resource_allocation.go.
  - schedule_one.go (prioritizeNodes, selectHost), framework/types.go
    (FitError.Error: the histogram "N reason" sorted as strings), and
    preemption.go / default_preemption.go (SelectVictimsOnNode) for the
    "preemption: ..." sentence.
"""

from fractions import Fraction
import math

HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
MAX_SCORE = 100
DEFAULT_MILLI_CPU = 100
DEFAULT_MEMORY = 200 * 1024 * 1024

# ---------------------------------------------------------------- quantities

_SUFFIX = {
    "": Fraction(1), "n": Fraction(1, 10**9), "u": Fraction(1, 10**6), "m": Fraction(1, 1000), "k": Fraction(10**3), "M": Fraction(10**6),
    "G": Fraction(10**9), "T": Fraction(10**12), "P": Fraction(10**15), "E": Fraction(10**18),
    "Ki": Fraction(2**10), "Mi": Fraction(2**20), "Gi": Fraction(2**30), "Ti": Fraction(2**40),
    "Pi": Fraction(2**50), "Ei": Fraction(2**60),
}


def quantity(text):
    """An exact Fraction for a Kubernetes quantity string (or number)."""
    if isinstance(text, (int, float)):
        return Fraction(str(text))
    s = str(text).strip()
    for suf in ("Ki", "Mi", "Gi", "Ti", "Pi", "Ei"):
        if s.endswith(suf):
            return Fraction(s[: -len(suf)]) * _SUFFIX[suf]
    low = s.lower()
    if "e" in low and not low.endswith("e"):
        mant, exp = low.split("e", 1)
        return Fraction(mant) * Fraction(10) ** int(exp)
    if s and s[-1] in "numkMGTPE":
        return Fraction(s[:-1]) * _SUFFIX[s[-1]]
    return Fraction(s)


def ceil_frac(f):
    return -((-f.numerator) // f.denominator)


def milli(f):
    return ceil_frac(f * 1000)


# ---------------------------------------------------------------- pod requests


def _container_requests(c):
    res = c.get("resources") or {}
    req = {k: quantity(v) for k, v in (res.get("requests") or {}).items()}
    for k, v in (res.get("limits") or {}).items():
        # API defaulting: a limit without a request requests the limit.
        if k not in req:
            req[k] = quantity(v)
    return req


def _add(into, other):
    for k, v in other.items():
        into[k] = into.get(k, Fraction(0)) + v


def _max(into, other):
    for k, v in other.items():
        if k not in into or v > into[k]:
            into[k] = v


def pod_requests(spec, non_missing=None):
    """component-helpers PodRequests: exact sums, per resource name."""
    reqs = {}

    def apply(r):
        if not non_missing:
            return r
        r = dict(r)
        for k, v in non_missing.items():
            if k not in r:
                r[k] = v
        return r

    for c in spec.get("containers") or []:
        _add(reqs, apply(_container_requests(c)))
    restartable = {}
    init_max = {}
    for c in spec.get("initContainers") or []:
        r = apply(_container_requests(c))
        if c.get("restartPolicy") == "Always":
            _add(reqs, r)
            _add(restartable, r)
            r = dict(restartable)
        else:
            tmp = {}
            _add(tmp, r)
            _add(tmp, restartable)
            r = tmp
        _max(init_max, r)
    _max(reqs, init_max)
    if spec.get("overhead"):
        _add(reqs, {k: quantity(v) for k, v in spec["overhead"].items()})
    return reqs


NON_MISSING = {"cpu": Fraction(DEFAULT_MILLI_CPU, 1000), "memory": Fraction(DEFAULT_MEMORY)}


class Res:
    """framework.Resource: milli CPU, bytes, scalars."""

    def __init__(self, reqs):
        self.cpu = milli(reqs.get("cpu", Fraction(0)))
        self.mem = ceil_frac(reqs.get("memory", Fraction(0)))
        self.eph = ceil_frac(reqs.get("ephemeral-storage", Fraction(0)))
        self.scalar = {}
        for k, v in reqs.items():
            if k in ("cpu", "memory", "ephemeral-storage", "pods"):
                continue
            if k.startswith("hugepages-") or "/" in k:
                self.scalar[k] = ceil_frac(v)

    def empty(self):
        return self.cpu == 0 and self.mem == 0 and self.eph == 0 and not self.scalar


# ---------------------------------------------------------------- selectors


def label_selector_matches(sel, labels):
    """metav1.LabelSelectorAsSelector: nil matches nothing, {} everything."""
    if sel is None:
        return False
    for k, v in (sel.get("matchLabels") or {}).items():
        if labels.get(k) != v:
            return False
    for e in sel.get("matchExpressions") or []:
        if not _expr(e, labels):
            return False
    return True


def _expr(e, labels):
    k, op, vals = e["key"], e["operator"], e.get("values") or []
    has = k in labels
    if op == "In":
        return has and labels[k] in vals
    if op == "NotIn":
        return not has or labels[k] not in vals
    if op == "Exists":
        return has
    if op == "DoesNotExist":
        return not has
    if op in ("Gt", "Lt"):
        if not has:
            return False
        try:
            nv = int(labels[k])
            rv = int(vals[0])
        except (ValueError, IndexError):
            return False
        return nv > rv if op == "Gt" else nv < rv
    return False


def node_selector_term_matches(term, node):
    exprs = term.get("matchExpressions") or []
    fields = term.get("matchFields") or []
    if not exprs and not fields:
        return False
    for e in exprs:
        if not _expr(e, node["labels"]):
            return False
    for f in fields:
        if f["key"] != "metadata.name":
            return False
        if not _expr(f, {"metadata.name": node["name"]}):
            return False
    return True


def required_node_affinity_matches(pod, node):
    """nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)."""
    for k, v in (pod["nodeSelector"] or {}).items():
        if node["labels"].get(k) != v:
            return False
    req = (((pod["affinity"] or {}).get("nodeAffinity") or {})
           .get("requiredDuringSchedulingIgnoredDuringExecution"))
    if req is not None:
        terms = req.get("nodeSelectorTerms") or []
        if not any(node_selector_term_matches(t, node) for t in terms):
            return False
    return True


# ---------------------------------------------------------------- taints


def tolerates(tol, taint):
    if tol.get("effect") and tol["effect"] != taint.get("effect"):
        return False
    if tol.get("key") and tol["key"] != taint.get("key"):
        return False
    op = tol.get("operator") or "Equal"
    if op == "Equal":
        return (tol.get("value") or "") == (taint.get("value") or "")
    return op == "Exists"


def untolerated_noschedule(node, tolerations):
    for t in node["taints"]:
        if t.get("effect") not in ("NoSchedule", "NoExecute"):
            continue
        if not any(tolerates(x, t) for x in tolerations):
            return True
    return False


# ---------------------------------------------------------------- objects


def pod_view(meta, spec, node=None):
    """The fields the scheduler reads from a pod."""
    ports = []
    for c in spec.get("initContainers") or []:
        if c.get("restartPolicy") == "Always":
            ports += [p for p in c.get("ports") or [] if p.get("hostPort", 0) > 0]
    for c in spec.get("containers") or []:
        ports += [p for p in c.get("ports") or [] if p.get("hostPort", 0) > 0]
    return {
        "name": meta.get("name", ""),
        "namespace": meta.get("namespace") or "default",
        "labels": dict(meta.get("labels") or {}),
        "node": node,
        "nodeSelector": spec.get("nodeSelector"),
        "affinity": spec.get("affinity"),
        "tolerations": spec.get("tolerations") or [],
        "tsc": spec.get("topologySpreadConstraints") or [],
        "ports": [(p.get("hostIP") or "0.0.0.0", p.get("protocol") or "TCP", p["hostPort"]) for p in ports],
        "req": Res(pod_requests(spec)),
        "nonzero": Res(pod_requests(spec, NON_MISSING)),
        "priority": spec.get("priority") or 0,
        "preemptNever": spec.get("preemptionPolicy") == "Never",
        "terminating": meta.get("deletionTimestamp") is not None,
        "images": [c.get("image", "") for c in (spec.get("initContainers") or []) + (spec.get("containers") or [])],
    }


def node_view(obj):
    st = (obj.get("status") or {}).get("allocatable") or {}
    spec = obj.get("spec") or {}
    alloc = {k: quantity(v) for k, v in st.items()}
    pods = alloc.pop("pods", Fraction(0))
    r = Res(alloc)
    for k, v in alloc.items():
        if k not in ("cpu", "memory", "ephemeral-storage") and not k.startswith("hugepages-"):
            r.scalar[k] = ceil_frac(v)
    return {
        "name": obj["metadata"]["name"],
        "labels": dict(obj["metadata"].get("labels") or {}),
        "unschedulable": bool(spec.get("unschedulable")),
        "taints": spec.get("taints") or [],
        "alloc": r,
        "max_pods": int(pods),
        "pods": [],
        "images": {name: im.get("sizeBytes", 0) for im in (obj.get("status") or {}).get("images") or []
                   for name in im.get("names") or []},
    }


# ---------------------------------------------------------------- affinity terms


def term_namespaces(owner, term):
    if not term.get("namespaces") and term.get("namespaceSelector") is None:
        return {owner["namespace"]}, None
    return set(term.get("namespaces") or []), term.get("namespaceSelector")


def term_matches(owner, term, pod, ns_labels):
    names, nssel = term_namespaces(owner, term)
    if pod["namespace"] not in names:
        if nssel is None or not label_selector_matches(nssel, ns_labels.get(pod["namespace"], {})):
            return False
    return label_selector_matches(term.get("labelSelector"), pod["labels"])


def _terms(pod, kind, mode):
    a = ((pod["affinity"] or {}).get(kind) or {})
    return a.get(mode) or []


def req_aff(pod):
    return _terms(pod, "podAffinity", "requiredDuringSchedulingIgnoredDuringExecution")


def req_anti(pod):
    return _terms(pod, "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution")


def pref_aff(pod):
    return _terms(pod, "podAffinity", "preferredDuringSchedulingIgnoredDuringExecution")


def pref_anti(pod):
    return _terms(pod, "podAntiAffinity", "preferredDuringSchedulingIgnoredDuringExecution")


def has_pod_affinity(pod):
    a = pod["affinity"] or {}
    return bool(a.get("podAffinity") or a.get("podAntiAffinity"))


# ---------------------------------------------------------------- the cluster


class Cluster:
    def __init__(self, nodes, pods, ns_labels, workload_selector):
        self.nodes = sorted(nodes, key=lambda n: n["name"])
        self.by_name = {n["name"]: n for n in self.nodes}
        for p in pods:
            self.by_name[p["node"]]["pods"].append(p)
        self.ns_labels = ns_labels
        self.selector = workload_selector
        self.image_locality = False
        # The scheduler cache's ImageStateSummary: the size first seen (node
        # name order here; the generator keeps one size per name) and the
        # number of nodes holding the name.
        self.image_states = {}
        for n in self.nodes:
            for name, size in n["images"].items():
                if name in self.image_states:
                    self.image_states[name][1] += 1
                else:
                    self.image_states[name] = [size, 1]

    # ------------------------------------------------ node accounting
    @staticmethod
    def requested(node):
        cpu = mem = eph = 0
        scal = {}
        for p in node["pods"]:
            cpu += p["req"].cpu
            mem += p["req"].mem
            eph += p["req"].eph
            for k, v in p["req"].scalar.items():
                scal[k] = scal.get(k, 0) + v
        return cpu, mem, eph, scal

    @staticmethod
    def nonzero_requested(node):
        return (sum(p["nonzero"].cpu for p in node["pods"]),
                sum(p["nonzero"].mem for p in node["pods"]))

    # ------------------------------------------------ PreFilter state
    def spread_constraints(self, pod, action):
        out = []
        for c in pod["tsc"]:
            if c.get("whenUnsatisfiable", "DoNotSchedule") != action:
                continue
            sel = c.get("labelSelector")
            keys = {}
            for k in c.get("matchLabelKeys") or []:
                if k in pod["labels"]:
                    keys[k] = pod["labels"][k]
            if keys:
                if sel is None:
                    sel = {"matchLabels": keys}
                else:
                    sel = {"matchLabels": {**(sel.get("matchLabels") or {}), **keys},
                           "matchExpressions": sel.get("matchExpressions") or []}
            out.append({
                "maxSkew": c["maxSkew"], "key": c["topologyKey"], "sel": sel,
                "minDomains": c.get("minDomains") or 1,
                "affPolicy": c.get("nodeAffinityPolicy") or "Honor",
                "taintPolicy": c.get("nodeTaintsPolicy") or "Ignore",
            })
        return out

    def inclusion(self, c, pod, node):
        if c["affPolicy"] == "Honor" and not required_node_affinity_matches(pod, node):
            return False
        if c["taintPolicy"] == "Honor" and untolerated_noschedule(node, pod["tolerations"]):
            return False
        return True

    def count_matching(self, node, sel, ns):
        # podtopologyspread/common.go countPodsMatchSelector: an empty
        # selector ({}: labels.Everything) counts no pod at all.
        if sel is not None and not sel.get("matchLabels") and not sel.get("matchExpressions"):
            return 0
        # It bypasses terminating pods (deletionTimestamp set).
        return sum(1 for p in node["pods"] if p["namespace"] == ns and not p["terminating"]
                   and label_selector_matches(sel, p["labels"]))

    def spread_prefilter(self, pod):
        cons = self.spread_constraints(pod, "DoNotSchedule")
        counts = [dict() for _ in cons]
        for node in self.nodes:
            if not all(c["key"] in node["labels"] for c in cons):
                continue
            for i, c in enumerate(cons):
                if not self.inclusion(c, pod, node):
                    continue
                v = node["labels"][c["key"]]
                counts[i][v] = counts[i].get(v, 0) + self.count_matching(node, c["sel"], pod["namespace"])
        return cons, counts

    def remove_from_spread(self, spread, pod, node, victims):
        """PodTopologySpread.RemovePod (updateWithPod, delta -1) for each
        victim: the selector's Matches, not countPodsMatchSelector, so an
        empty selector does count here."""
        cons, counts = spread
        counts = [dict(m) for m in counts]
        if not all(c["key"] in node["labels"] for c in cons):
            return cons, counts
        for v in victims:
            if v["namespace"] != pod["namespace"]:
                continue
            for i, c in enumerate(cons):
                if not label_selector_matches(c["sel"], v["labels"]):
                    continue
                if not self.inclusion(c, pod, node):
                    continue
                val = node["labels"][c["key"]]
                counts[i][val] = counts[i].get(val, 0) - 1
        return cons, counts

    def ipa_prefilter(self, pod):
        nsl = self.ns_labels
        existing_anti = {}
        aff_counts = {}
        anti_counts = {}
        raff = req_aff(pod)
        ranti = req_anti(pod)
        for node in self.nodes:
            for ep in node["pods"]:
                for t in req_anti(ep):
                    if term_matches(ep, t, pod, nsl) and t["topologyKey"] in node["labels"]:
                        k = (t["topologyKey"], node["labels"][t["topologyKey"]])
                        existing_anti[k] = existing_anti.get(k, 0) + 1
                if raff and all(term_matches(pod, t, ep, nsl) for t in raff):
                    for t in raff:
                        if t["topologyKey"] in node["labels"]:
                            k = (t["topologyKey"], node["labels"][t["topologyKey"]])
                            aff_counts[k] = aff_counts.get(k, 0) + 1
                for t in ranti:
                    if term_matches(pod, t, ep, nsl) and t["topologyKey"] in node["labels"]:
                        k = (t["topologyKey"], node["labels"][t["topologyKey"]])
                        anti_counts[k] = anti_counts.get(k, 0) + 1
        return existing_anti, aff_counts, anti_counts

    # ------------------------------------------------ Filter
    def filter_node(self, pod, node, pre):
        """(code, [reasons]) of the first failing filter, or None."""
        # NodeUnschedulable
        if node["unschedulable"]:
            t = {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}
            if not any(tolerates(x, t) for x in pod["tolerations"]):
                return ("UU", ["node(s) were unschedulable"])
        # TaintToleration
        if untolerated_noschedule(node, pod["tolerations"]):
            return ("UU", ["node(s) had untolerated taint(s)"])
        # NodeAffinity
        if not required_node_affinity_matches(pod, node):
            return ("UU", ["node(s) didn't match Pod's node affinity/selector"])
        # NodePorts
        if pod["ports"]:
            used = [pt for p in node["pods"] for pt in p["ports"]]
            for ip, proto, port in pod["ports"]:
                for uip, uproto, uport in used:
                    if uproto == proto and uport == port and (ip == "0.0.0.0" or uip == "0.0.0.0" or uip == ip):
                        return ("U", ["node(s) didn't have free ports for the requested pod ports"])
        # NodeResourcesFit
        reasons = []
        unresolvable = False
        if len(node["pods"]) + 1 > node["max_pods"]:
            reasons.append("Too many pods")
        r = pod["req"]
        if not r.empty():
            cpu, mem, eph, scal = self.requested(node)
            a = node["alloc"]
            if r.cpu > 0 and r.cpu > a.cpu - cpu:
                reasons.append("Insufficient cpu")
                unresolvable |= r.cpu > a.cpu
            if r.mem > 0 and r.mem > a.mem - mem:
                reasons.append("Insufficient memory")
                unresolvable |= r.mem > a.mem
            if r.eph > 0 and r.eph > a.eph - eph:
                reasons.append("Insufficient ephemeral-storage")
                unresolvable |= r.eph > a.eph
            for k in sorted(r.scalar):
                q = r.scalar[k]
                if q == 0:
                    continue
                if q > a.scalar.get(k, 0) - scal.get(k, 0):
                    reasons.append("Insufficient " + k)
                    unresolvable |= q > a.scalar.get(k, 0)
        if reasons:
            return ("UU" if unresolvable else "U", reasons)
        # PodTopologySpread
        cons, counts = pre["spread"]
        for i, c in enumerate(cons):
            if c["key"] not in node["labels"]:
                return ("UU", ["node(s) didn't match pod topology spread constraints (missing required label)"])
            m = counts[i]
            mn = min(m.values()) if m else 2**31 - 1
            if len(m) < c["minDomains"]:
                mn = 0
            self_match = 1 if label_selector_matches(c["sel"], pod["labels"]) else 0
            if m.get(node["labels"][c["key"]], 0) + self_match - mn > c["maxSkew"]:
                return ("U", ["node(s) didn't match pod topology spread constraints"])
        # InterPodAffinity
        existing_anti, aff_counts, anti_counts = pre["ipa"]
        raff = req_aff(pod)
        if raff:
            exist = True
            for t in raff:
                if t["topologyKey"] not in node["labels"]:
                    return ("UU", ["node(s) didn't match pod affinity rules"])
                if aff_counts.get((t["topologyKey"], node["labels"][t["topologyKey"]]), 0) <= 0:
                    exist = False
            if not exist:
                if not (len(aff_counts) == 0 and all(term_matches(pod, t, pod, self.ns_labels) for t in raff)):
                    return ("UU", ["node(s) didn't match pod affinity rules"])
        for t in req_anti(pod):
            k = t["topologyKey"]
            if k in node["labels"] and anti_counts.get((k, node["labels"][k]), 0) > 0:
                return ("U", ["node(s) didn't match pod anti-affinity rules"])
        for k, v in node["labels"].items():
            if existing_anti.get((k, v), 0) > 0:
                return ("U", ["node(s) didn't satisfy existing pods anti-affinity rules"])
        return None

    # ------------------------------------------------ Score
    def score(self, pod, feasible):
        names = [n["name"] for n in feasible]
        plugins = {}
        # TaintToleration x3
        tols = [t for t in pod["tolerations"] if not t.get("effect") or t["effect"] == "PreferNoSchedule"]
        raw = [sum(1 for t in n["taints"] if t.get("effect") == "PreferNoSchedule"
                   and not any(tolerates(x, t) for x in tols)) for n in feasible]
        plugins["TaintToleration"] = normalize_default(raw, reverse=True)
        # NodeAffinity x2
        prefs = [(t.get("weight", 0), t.get("preference") or {}) for t in
                 (((pod["affinity"] or {}).get("nodeAffinity") or {})
                  .get("preferredDuringSchedulingIgnoredDuringExecution") or [])]
        prefs = [(w, t) for w, t in prefs if w != 0 and (t.get("matchExpressions") or t.get("matchFields"))]
        if prefs:
            raw = [sum(w for w, t in prefs if node_selector_term_matches(t, n)) for n in feasible]
            plugins["NodeAffinity"] = normalize_default(raw, reverse=False)
        else:
            plugins["NodeAffinity"] = [0] * len(feasible)
        plugins["PodTopologySpread"] = self.spread_score(pod, feasible)
        plugins["InterPodAffinity"] = self.ipa_score(pod, feasible)
        # NodeResourcesFit (least allocated, non-zero requests) and balanced
        fit, bal = [], []
        skip_bal = pod["req"].cpu == 0 and pod["req"].mem == 0
        for n in feasible:
            a = n["alloc"]
            nzc, nzm = self.nonzero_requested(n)
            s = w = 0
            for alloc, req in ((a.cpu, nzc + pod["nonzero"].cpu), (a.mem, nzm + pod["nonzero"].mem)):
                if alloc == 0:
                    continue
                s += 0 if req > alloc else (alloc - req) * MAX_SCORE // alloc
                w += 1
            fit.append(s // w if w else 0)
            if skip_bal:
                bal.append(0)
                continue
            cpu, mem, _, _ = self.requested(n)
            fr = []
            for alloc, req in ((a.cpu, cpu + pod["req"].cpu), (a.mem, mem + pod["req"].mem)):
                if alloc == 0:
                    continue
                fr.append(min(float(req) / float(alloc), 1.0))
            std = abs((fr[0] - fr[1]) / 2) if len(fr) == 2 else 0.0
            bal.append(int((1 - std) * MAX_SCORE))
        plugins["NodeResourcesFit"] = fit
        plugins["NodeResourcesBalancedAllocation"] = bal
        plugins["ImageLocality"] = [self.image_score(pod, n) for n in feasible]
        weights = {"TaintToleration": 3, "NodeAffinity": 2, "PodTopologySpread": 2, "InterPodAffinity": 2,
                   "NodeResourcesFit": 1, "NodeResourcesBalancedAllocation": 1, "ImageLocality": 1}
        out = {}
        for i, name in enumerate(names):
            per = {k: v[i] for k, v in plugins.items()}
            out[name] = (sum(weights[k] * per[k] for k in per), per)
        return out

    def image_score(self, pod, node):
        """imagelocality/image_locality.go (only with image_locality on):
        each of the pod's images on the node scores its size times the share
        of nodes holding it; the sum is clamped to [23Mi, 1000Mi x
        containers] and scaled to 0..100."""
        if not self.image_locality:
            return 0
        mb = 1024 * 1024
        total = 0
        for img in pod["images"]:
            name = img if img.rfind(":") > img.rfind("/") else img + ":latest"
            if name in node["images"]:
                size, holders = self.image_states[name]
                total += int(float(size) * (float(holders) / float(len(self.nodes))))
        hi = 1000 * mb * len(pod["images"])
        lo = 23 * mb
        total = min(max(total, lo), hi)
        return MAX_SCORE * (total - lo) // (hi - lo)

    def spread_score(self, pod, feasible):
        if pod["tsc"]:
            cons = self.spread_constraints(pod, "ScheduleAnyway")
            require_all = True
        else:
            cons = []
            if self.selector is not None and (self.selector.get("matchLabels") or self.selector.get("matchExpressions")):
                for key, skew in ((HOSTNAME, 3), (ZONE, 5)):
                    cons.append({"maxSkew": skew, "key": key, "sel": self.selector, "minDomains": 1,
                                 "affPolicy": "Honor", "taintPolicy": "Ignore"})
            require_all = False
        if not cons:
            return [0] * len(feasible)
        ignored = set()
        counts = [dict() for _ in cons]
        for n in feasible:
            if require_all and not all(c["key"] in n["labels"] for c in cons):
                ignored.add(n["name"])
                continue
            for i, c in enumerate(cons):
                if c["key"] == HOSTNAME:
                    continue
                counts[i].setdefault(n["labels"].get(c["key"], ""), 0)
        weights = []
        for i, c in enumerate(cons):
            size = len(counts[i]) if c["key"] != HOSTNAME else len(feasible) - len(ignored)
            weights.append(math.log(size + 2))
        for n in self.nodes:
            if require_all and not all(c["key"] in n["labels"] for c in cons):
                continue
            for i, c in enumerate(cons):
                if not self.inclusion(c, pod, n):
                    continue
                v = n["labels"].get(c["key"], "")
                if c["key"] == HOSTNAME or v not in counts[i]:
                    continue
                counts[i][v] += self.count_matching(n, c["sel"], pod["namespace"])
        raw = []
        for n in feasible:
            if n["name"] in ignored:
                raw.append(None)
                continue
            s = 0.0
            for i, c in enumerate(cons):
                if c["key"] not in n["labels"]:
                    continue
                if c["key"] == HOSTNAME:
                    cnt = self.count_matching(n, c["sel"], pod["namespace"])
                else:
                    cnt = counts[i][n["labels"][c["key"]]]
                s += float(cnt) * weights[i] + float(c["maxSkew"] - 1)
            raw.append(int(round_half_away(s)))
        vals = [r for r in raw if r is not None]
        mn = min(vals) if vals else 2**63 - 1
        mx = max(vals) if vals else 0
        mx = max(mx, 0)
        out = []
        for r in raw:
            if r is None:
                out.append(0)
            elif mx == 0:
                out.append(MAX_SCORE)
            else:
                out.append(MAX_SCORE * (mx + mn - r) // mx)
        return out

    def ipa_score(self, pod, feasible):
        nsl = self.ns_labels
        pa, pn = pref_aff(pod), pref_anti(pod)
        has = bool(pa or pn)
        topo = {}
        touched = False

        def process(owner, term, weight, target, node, mult):
            nonlocal touched
            if term_matches(owner, term, target, nsl) and term["topologyKey"] in node["labels"]:
                k = (term["topologyKey"], node["labels"][term["topologyKey"]])
                topo[k] = topo.get(k, 0) + weight * mult
                touched = True

        for node in self.nodes:
            if not node["labels"]:
                continue
            for ep in node["pods"]:
                if not has and not has_pod_affinity(ep):
                    continue
                for t in pa:
                    process(pod, t["podAffinityTerm"], t["weight"], ep, node, 1)
                for t in pn:
                    process(pod, t["podAffinityTerm"], t["weight"], ep, node, -1)
                for t in req_aff(ep):
                    process(ep, t, 1, pod, node, 1)
                for t in pref_aff(ep):
                    process(ep, t["podAffinityTerm"], t["weight"], pod, node, 1)
                for t in pref_anti(ep):
                    process(ep, t["podAffinityTerm"], t["weight"], pod, node, -1)
        if not touched:
            return [0] * len(feasible)
        raw = []
        for n in feasible:
            raw.append(sum(v for (k, val), v in topo.items() if n["labels"].get(k) == val and k in n["labels"]))
        mn, mx = min(raw), max(raw)
        d = mx - mn
        return [int(float(MAX_SCORE) * (float(r - mn) / float(d))) if d > 0 else 0 for r in raw]

    # ------------------------------------------------ one cycle
    def prefilter(self, pod):
        return {"spread": self.spread_prefilter(pod), "ipa": self.ipa_prefilter(pod)}

    def schedule_one(self, pod):
        """(node name, scores) or (None, message)."""
        # NodeAffinity PreFilter: matchFields metadata.name In narrows the nodes.
        allowed = None
        req = (((pod["affinity"] or {}).get("nodeAffinity") or {})
               .get("requiredDuringSchedulingIgnoredDuringExecution"))
        if req is not None and req.get("nodeSelectorTerms"):
            names = set()
            for t in req["nodeSelectorTerms"]:
                tn = None
                for f in t.get("matchFields") or []:
                    if f["key"] == "metadata.name" and f["operator"] == "In":
                        s = set(f.get("values") or [])
                        tn = s if tn is None else tn & s
                if tn is None:
                    names = None
                    break
                names |= tn
            if names is not None:
                if not names:
                    return None, self.message({}, prefilter_msg="pod affinity terms conflict", pod=pod, pre=None)
                allowed = names
        pre = self.prefilter(pod)
        statuses = {}
        feasible = []
        for n in self.nodes:
            if allowed is not None and n["name"] not in allowed:
                statuses[n["name"]] = ("UU", ["node(s) didn't satisfy plugin(s) [NodeAffinity]"])
                continue
            st = self.filter_node(pod, n, pre)
            if st is None:
                feasible.append(n)
            else:
                statuses[n["name"]] = st
        if not feasible:
            return None, self.message(statuses, pod=pod, pre=pre)
        scores = self.score(pod, feasible)
        best = None
        for n in feasible:  # name order: the first maximum wins
            if best is None or scores[n["name"]][0] > scores[best][0]:
                best = n["name"]
        return best, scores

    def message(self, statuses, prefilter_msg=None, pod=None, pre=None):
        n = len(self.nodes)
        msg = "0/%d nodes are available:" % n
        if prefilter_msg:
            msg += " %s." % prefilter_msg
            if pod["preemptNever"]:
                return msg + " no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never."
            post = {"Preemption is not helpful for scheduling": n}
        else:
            hist = {}
            for code, reasons in statuses.values():
                for r in reasons:
                    hist[r] = hist.get(r, 0) + 1
            msg += " %s." % ", ".join(sorted("%d %s" % (v, k) for k, v in hist.items()))
            if pod["preemptNever"]:
                # DefaultPreemption.PodEligibleToPreemptOthers
                return msg + " no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never."
            post = self.preemption(statuses, pod, pre)
        if post is None:
            return msg + " <preemption could help>"
        # DynamicResources' PostFilter runs before DefaultPreemption's (v1.35's
        # default plugin order); a pod without claims gets its "no new claims
        # to deallocate", the framework joins the reasons by ", ".
        return msg + " no new claims to deallocate, preemption: 0/%d nodes are available: %s." % (
            n, ", ".join(sorted("%d %s" % (v, k) for k, v in post.items())))

    def preemption(self, statuses, pod, pre):
        hist = {}
        for node in self.nodes:
            code, _ = statuses[node["name"]]
            if code == "UU":
                r = "Preemption is not helpful for scheduling"
            else:
                victims = [p for p in node["pods"] if p["priority"] < pod["priority"]]
                if not victims:
                    r = "No preemption victims found for incoming pod"
                else:
                    # SelectVictimsOnNode: remove every lower-priority pod
                    # (PreFilter state updated as RemovePod does), filter again.
                    kept = [p for p in node["pods"] if p["priority"] >= pod["priority"]]
                    saved = node["pods"]
                    node["pods"] = kept
                    try:
                        pre2 = self.prefilter(pod)
                        pre2["spread"] = self.remove_from_spread(pre["spread"], pod, node, victims)
                        st = self.filter_node(pod, node, pre2)
                    finally:
                        node["pods"] = saved
                    if st is None:
                        return None  # a candidate: preemption would place it
                    for reason in st[1]:
                        hist[reason] = hist.get(reason, 0) + 1
                    continue
            hist[r] = hist.get(r, 0) + 1
        return hist


def round_half_away(x):
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def normalize_default(raw, reverse):
    mx = max(raw) if raw else 0
    mx = max(mx, 0)
    if mx == 0:
        return [MAX_SCORE if reverse else 0 for _ in raw]
    out = []
    for s in raw:
        v = MAX_SCORE * s // mx
        out.append(MAX_SCORE - v if reverse else v)
    return out


def ordinal(k):
    if 10 <= k % 100 <= 20:
        suf = "th"
    else:
        suf = {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return "%d%s" % (k, suf)


def plan(nodes_doc, pods_doc, ns_doc, manifest, image_locality=False):
    """Place one Deployment: {'deploy', 'first_scores', 'message', 'placed'}."""
    return plan_many(nodes_doc, pods_doc, ns_doc, [manifest], image_locality)[0]


def plan_many(nodes_doc, pods_doc, ns_doc, manifests, image_locality=False):
    """Place Deployments one after the other (equal priorities: file order),
    each replica against the state all earlier ones left; stops after the
    first that cannot be placed in full."""
    nodes = [node_view(o) for o in nodes_doc["items"]]
    names = {n["name"] for n in nodes}
    ns_labels = {}
    for o in (ns_doc or {}).get("items") or []:
        ns_labels[o["metadata"]["name"]] = dict(o["metadata"].get("labels") or {})
    pods = []
    for o in pods_doc["items"]:
        spec = o.get("spec") or {}
        if spec.get("nodeName") not in names:
            continue
        if (o.get("status") or {}).get("phase") in ("Succeeded", "Failed"):
            continue
        pods.append(pod_view(o["metadata"], spec, spec["nodeName"]))
    cluster = Cluster(nodes, pods, ns_labels, None)
    cluster.image_locality = image_locality
    results = []
    for manifest in manifests:
        tmpl = manifest["spec"]["template"]
        meta = dict(tmpl.get("metadata") or {})
        meta["namespace"] = manifest["metadata"].get("namespace") or "default"
        meta["name"] = manifest["metadata"]["name"]
        cluster.selector = manifest["spec"].get("selector")
        # eruplan reads replicas as the desired total: the Deployment's
        # running pods (its selector, its namespace, bound, not
        # Succeeded/Failed, not terminating: the ReplicaSet controller's
        # active pods leave those out and replace them) are not placed again.
        running = 0
        for o in pods_doc["items"]:
            spec = o.get("spec") or {}
            if not spec.get("nodeName") or (o.get("status") or {}).get("phase") in ("Succeeded", "Failed"):
                continue
            if o["metadata"].get("deletionTimestamp") is not None:
                continue
            if (o["metadata"].get("namespace") or "default") != meta["namespace"]:
                continue
            if label_selector_matches(manifest["spec"]["selector"], o["metadata"].get("labels") or {}):
                running += 1
        count = max(0, manifest["spec"].get("replicas", 1) - running)
        res = {"deploy": {}, "first_scores": None, "message": None, "placed": count}
        for k in range(count):
            pod = pod_view(meta, tmpl["spec"])
            pod["name"] = "%s-%d" % (meta["name"], k)
            host, info = cluster.schedule_one(pod)
            if host is None:
                res["message"], res["placed"] = info, k
                break
            if k == 0:
                res["first_scores"] = info
            pod["node"] = host
            cluster.by_name[host]["pods"].append(pod)
            res["deploy"][host] = res["deploy"].get(host, 0) + 1
        results.append(res)
        if res["message"]:
            break
    return results
