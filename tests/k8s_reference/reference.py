#!/usr/bin/env python3
"""Reference model of kube-scheduler v1.35's default profile, one replica at a time.

Written from Kubernetes' own code (pkg/scheduler/schedule_one.go, the default
plugins under pkg/scheduler/framework/plugins, k8s.io/component-helpers
resource.PodRequests), independently of eruplan's C++ sources. Standard
library only.

Usage: reference.py NODES.json PODS.json DEPLOY.json  -> JSON on stdout:
  {"new": K, "placements": [node, ...], "error": msg-or-null, "scores": {...}}
"placements" lists the node of each new replica in order; "error" is the
FitError message (without the PostFilter/preemption part) of the first
replica that could not be placed; "scores" is every plugin's normalized score
of each feasible node for the first replica.
"""
import json
import math
import re
import sys
from fractions import Fraction

# ---------------------------------------------------------------- quantities
_BIN = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DEC = {"n": Fraction(1, 10**9), "u": Fraction(1, 10**6), "m": Fraction(1, 1000), "": Fraction(1),
        "k": Fraction(10**3), "M": Fraction(10**6), "G": Fraction(10**9), "T": Fraction(10**12),
        "P": Fraction(10**15), "E": Fraction(10**18)}
_QRE = re.compile(r"^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:([eE][+-]?[0-9]+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$")


def qty(v):
    if isinstance(v, bool):
        raise ValueError(v)
    if isinstance(v, (int, float)):
        return Fraction(str(v))
    m = _QRE.match(v.strip())
    if not m:
        raise ValueError("bad quantity %r" % v)
    sign, num, exp, suf = m.groups()
    x = Fraction(num)
    if exp:
        e = int(exp[1:])
        x = x * (Fraction(10) ** e)
    elif suf:
        x = x * (_BIN[suf] if suf in _BIN else _DEC[suf])
    return -x if sign == "-" else x


def ceil(x):
    return math.ceil(x)


# ---------------------------------------------------------------- selectors
class Selector:
    """labels.Selector: None reqs = Nothing; [] = Everything."""

    def __init__(self, reqs):
        self.reqs = reqs

    def matches(self, labels):
        if self.reqs is None:
            return False
        for key, op, vals in self.reqs:
            has = key in labels
            if op == "In":
                if not has or labels[key] not in vals:
                    return False
            elif op == "NotIn":
                if has and labels[key] in vals:
                    return False
            elif op == "Exists":
                if not has:
                    return False
            elif op == "DoesNotExist":
                if has:
                    return False
            else:
                return False
        return True


def label_selector(ls):
    """metav1.LabelSelectorAsSelector: nil -> Nothing, {} -> Everything."""
    if ls is None:
        return Selector(None)
    reqs = []
    for k, v in (ls.get("matchLabels") or {}).items():
        reqs.append((k, "In", {v}))
    for e in ls.get("matchExpressions") or []:
        reqs.append((e["key"], e["operator"], set(e.get("values") or [])))
    return Selector(reqs)


def set_selector(d):
    return Selector([(k, "In", {v}) for k, v in d.items()])


# ------------------------------------------------------------ node affinity
def _node_req_match(req, labels):
    key, op, vals = req["key"], req["operator"], req.get("values") or []
    has = key in labels
    if op == "In":
        return has and labels[key] in vals
    if op == "NotIn":
        return not has or labels[key] not in vals
    if op == "Exists":
        return has
    if op == "DoesNotExist":
        return not has
    if op in ("Gt", "Lt"):
        if not has or len(vals) != 1:
            return False
        try:
            lv = int(labels[key])
            rv = int(vals[0])
        except ValueError:
            return False
        return lv > rv if op == "Gt" else lv < rv
    return False


def node_selector_term_empty(t):
    return not (t.get("matchExpressions") or t.get("matchFields"))


def node_selector_term_match(t, node):
    if node_selector_term_empty(t):
        return False
    for r in t.get("matchExpressions") or []:
        if not _node_req_match(r, node.labels):
            return False
    for r in t.get("matchFields") or []:
        if r["key"] != "metadata.name":
            return False
        if not _node_req_match(r, {"metadata.name": node.name}):
            return False
    return True


def required_node_affinity_match(pod, node):
    """nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)."""
    ns = pod.spec.get("nodeSelector") or {}
    for k, v in ns.items():
        if node.labels.get(k) != v:
            return False
    req = (((pod.spec.get("affinity") or {}).get("nodeAffinity") or {})
           .get("requiredDuringSchedulingIgnoredDuringExecution"))
    if req is None:
        return True
    for t in req.get("nodeSelectorTerms") or []:
        if node_selector_term_match(t, node):
            return True
    return False


# --------------------------------------------------------- taints / tolerations
def tolerates(tol, taint):
    if tol.get("effect") and tol["effect"] != taint.get("effect"):
        return False
    if tol.get("key") and tol["key"] != taint.get("key"):
        return False
    op = tol.get("operator") or "Equal"
    if op == "Exists":
        return True
    if op == "Equal":
        return (tol.get("value") or "") == (taint.get("value") or "")
    return False


def tolerations_tolerate(tols, taint):
    return any(tolerates(t, taint) for t in tols)


def find_untolerated(taints, tols, effects):
    for t in taints:
        if t.get("effect") not in effects:
            continue
        if not tolerations_tolerate(tols, t):
            return t
    return None


# ------------------------------------------------------------- pod requests
DEFAULT_CPU = Fraction(1, 10)          # 100m
DEFAULT_MEM = Fraction(200 * 1024 * 1024)  # 200Mi


def _creqs(c, nonmissing):
    res = c.get("resources") or {}
    r = {k: qty(v) for k, v in (res.get("requests") or {}).items()}
    for k, v in (res.get("limits") or {}).items():   # apiserver defaulting
        if k not in r:
            r[k] = qty(v)
    if nonmissing:
        for k, v in nonmissing.items():
            if k not in r:
                r[k] = v
    return r


def _add(a, b):
    for k, v in b.items():
        a[k] = a.get(k, 0) + v


def _max(a, b):
    for k, v in b.items():
        if k not in a or v > a[k]:
            a[k] = v


def pod_requests(spec, nonmissing=None):
    """component-helpers resource.PodRequests (AggregateContainerRequests + overhead)."""
    reqs = {}
    for c in spec.get("containers") or []:
        _add(reqs, _creqs(c, nonmissing))
    restartable = {}
    init = {}
    for c in spec.get("initContainers") or []:
        cr = _creqs(c, nonmissing)
        if c.get("restartPolicy") == "Always":
            _add(reqs, cr)
            _add(restartable, cr)
            cr = dict(restartable)
        else:
            tmp = {}
            _add(tmp, cr)
            _add(tmp, restartable)
            cr = tmp
        _max(init, cr)
    _max(reqs, init)
    for k, v in (spec.get("overhead") or {}).items():
        reqs[k] = reqs.get(k, 0) + qty(v)
    return reqs


def host_ports(spec):
    out = []
    cs = [c for c in spec.get("initContainers") or [] if c.get("restartPolicy") == "Always"]
    cs += spec.get("containers") or []
    for c in cs:
        for p in c.get("ports") or []:
            hp = p.get("hostPort") or 0
            if hp <= 0:
                continue
            ip = p.get("hostIP") or "0.0.0.0"
            proto = p.get("protocol") or "TCP"
            out.append((ip, proto, hp))
    return out


def ports_conflict(want, used):
    for ip, proto, port in want:
        for uip, uproto, uport in used:
            if uport != port or uproto != proto:
                continue
            if ip == "0.0.0.0" or uip == "0.0.0.0" or ip == uip:
                return True
    return False


# ------------------------------------------------------------- objects
class AffinityTerm:
    def __init__(self, term, pod_ns, weight=0):
        self.weight = weight
        self.topology_key = term.get("topologyKey", "")
        self.selector = label_selector(term.get("labelSelector"))
        nss = list(term.get("namespaces") or [])
        nsel = term.get("namespaceSelector")
        if not nss and nsel is None:
            nss = [pod_ns]
        self.namespaces = set(nss)
        self.ns_selector = label_selector(nsel)  # nil -> Nothing

    def matches(self, pod):
        nslabels = {"kubernetes.io/metadata.name": pod.ns}
        if pod.ns in self.namespaces or self.ns_selector.matches(nslabels):
            return self.selector.matches(pod.labels)
        return False


class Pod:
    def __init__(self, obj, ns=None):
        md = obj.get("metadata") or {}
        self.name = md.get("name") or md.get("generateName") or ""
        self.ns = ns or md.get("namespace") or "default"
        self.labels = dict(md.get("labels") or {})
        # Terminating (deletionTimestamp set): PodTopologySpread's
        # countPodsMatchSelector bypasses it.
        self.terminating = md.get("deletionTimestamp") is not None
        self.spec = obj.get("spec") or {}
        self.node_name = self.spec.get("nodeName")
        self.phase = (obj.get("status") or {}).get("phase")
        r = pod_requests(self.spec)
        self.cpu = ceil(r.get("cpu", 0) * 1000)
        self.mem = ceil(r.get("memory", 0))
        self.eph = ceil(r.get("ephemeral-storage", 0))
        self.scalars = {k: ceil(v) for k, v in r.items()
                        if k not in ("cpu", "memory", "ephemeral-storage", "pods") and ceil(v) != 0}
        nz = pod_requests(self.spec, {"cpu": DEFAULT_CPU, "memory": DEFAULT_MEM})
        self.nz_cpu = ceil(nz.get("cpu", 0) * 1000)
        self.nz_mem = ceil(nz.get("memory", 0))
        self.ports = host_ports(self.spec)
        aff = self.spec.get("affinity") or {}
        pa = aff.get("podAffinity") or {}
        paa = aff.get("podAntiAffinity") or {}
        self.req_aff = [AffinityTerm(t, self.ns) for t in pa.get("requiredDuringSchedulingIgnoredDuringExecution") or []]
        self.req_anti = [AffinityTerm(t, self.ns) for t in paa.get("requiredDuringSchedulingIgnoredDuringExecution") or []]
        self.pref_aff = [AffinityTerm(t["podAffinityTerm"], self.ns, t.get("weight", 0))
                         for t in pa.get("preferredDuringSchedulingIgnoredDuringExecution") or []]
        self.pref_anti = [AffinityTerm(t["podAffinityTerm"], self.ns, t.get("weight", 0))
                          for t in paa.get("preferredDuringSchedulingIgnoredDuringExecution") or []]
        self.tols = self.spec.get("tolerations") or []
        self.priority = self.spec.get("priority") or 0
        self.start = (obj.get("status") or {}).get("startTime") or ""  # "": now


class Node:
    def __init__(self, obj):
        md = obj.get("metadata") or {}
        self.name = md["name"]
        self.labels = dict(md.get("labels") or {})
        sp = obj.get("spec") or {}
        self.unschedulable = bool(sp.get("unschedulable"))
        self.taints = sp.get("taints") or []
        al = (obj.get("status") or {}).get("allocatable") or {}
        self.a_cpu = ceil(qty(al["cpu"]) * 1000) if "cpu" in al else 0
        self.a_mem = ceil(qty(al["memory"])) if "memory" in al else 0
        self.a_eph = ceil(qty(al["ephemeral-storage"])) if "ephemeral-storage" in al else 0
        self.a_pods = ceil(qty(al["pods"])) if "pods" in al else 0
        self.a_scalars = {k: ceil(qty(v)) for k, v in al.items()
                          if k not in ("cpu", "memory", "ephemeral-storage", "pods") and not k.startswith("hugepages-")}
        self.pods = []
        self.r_cpu = self.r_mem = self.r_eph = 0
        self.r_scalars = {}
        self.nz_cpu = self.nz_mem = 0
        self.used_ports = []

    def add(self, p):
        self.pods.append(p)
        self.r_cpu += p.cpu
        self.r_mem += p.mem
        self.r_eph += p.eph
        for k, v in p.scalars.items():
            self.r_scalars[k] = self.r_scalars.get(k, 0) + v
        self.nz_cpu += p.nz_cpu
        self.nz_mem += p.nz_mem
        self.used_ports += p.ports

    def remove(self, p):
        self.pods.remove(p)
        self.r_cpu -= p.cpu
        self.r_mem -= p.mem
        self.r_eph -= p.eph
        for k, v in p.scalars.items():
            self.r_scalars[k] -= v
        self.nz_cpu -= p.nz_cpu
        self.nz_mem -= p.nz_mem
        for hp in p.ports:
            self.used_ports.remove(hp)


# ------------------------------------------------------------ messages
R_UNSCHED = "node(s) were unschedulable"
R_TAINT = "node(s) had untolerated taint(s)"
R_AFFINITY = "node(s) didn't match Pod's node affinity/selector"
R_PORTS = "node(s) didn't have free ports for the requested pod ports"
R_SPREAD = "node(s) didn't match pod topology spread constraints"
R_SPREAD_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)"
R_POD_AFF = "node(s) didn't match pod affinity rules"
R_POD_ANTI = "node(s) didn't match pod anti-affinity rules"
R_EXIST_ANTI = "node(s) didn't satisfy existing pods anti-affinity rules"
R_PREFILTER_NA = "node(s) didn't satisfy plugin(s) [NodeAffinity]"
R_CONFLICT = "pod affinity terms conflict"
# v1.35's default profile runs DynamicResources' PostFilter before
# DefaultPreemption's; for a pod without resource claims it answers "no new
# claims to deallocate", and the framework joins the PostFilter reasons by ", ".
POSTFILTER_DRA = "no new claims to deallocate, "
P_NOT_HELPFUL = "Preemption is not helpful for scheduling"
P_NO_VICTIMS = "No preemption victims found for incoming pod"

HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"


# ----------------------------------------------------- topology spread helpers
class TSC:
    def __init__(self, c, pod_labels, default_selector=None):
        self.max_skew = c.get("maxSkew", 1)
        self.key = c["topologyKey"]
        self.selector = default_selector if default_selector is not None else label_selector(c.get("labelSelector"))
        if default_selector is None and c.get("matchLabelKeys"):
            extra = [(k, "In", {pod_labels[k]}) for k in c["matchLabelKeys"] if k in pod_labels]
            if extra and self.selector.reqs is not None:
                self.selector = Selector(extra + self.selector.reqs)
            elif extra:
                self.selector = Selector(extra)
        self.min_domains = c.get("minDomains") or 1
        self.aff_policy = c.get("nodeAffinityPolicy") or "Honor"
        self.taint_policy = c.get("nodeTaintsPolicy") or "Ignore"

    def include(self, pod, node):
        if self.aff_policy == "Honor" and not required_node_affinity_match(pod, node):
            return False
        if self.taint_policy == "Honor" and find_untolerated(node.taints, pod.tols, ("NoSchedule", "NoExecute")):
            return False
        return True


def count_match(node, sel, ns):
    return sum(1 for p in node.pods
               if p.ns == ns and not getattr(p, "terminating", False) and sel.matches(p.labels))


def labels_have_keys(node, cs):
    return all(c.key in node.labels for c in cs)


# ------------------------------------------------------------ scheduler
class Scheduler:
    def __init__(self, nodes, default_spread_selector):
        self.nodes = nodes
        self.by_name = {n.name: n for n in nodes}
        self.default_spread_selector = default_spread_selector

    # -- PodTopologySpread
    def spread_constraints(self, pod, action):
        cs = pod.spec.get("topologySpreadConstraints") or []
        if cs:
            return [TSC(c, pod.labels) for c in cs if c.get("whenUnsatisfiable") == action]
        if action != "ScheduleAnyway":
            return []
        sel = self.default_spread_selector
        if sel is None or not sel.reqs:
            return []
        return [TSC({"maxSkew": 3, "topologyKey": HOSTNAME}, pod.labels, sel),
                TSC({"maxSkew": 5, "topologyKey": ZONE}, pod.labels, sel)]

    def spread_prefilter(self, pod):
        cs = self.spread_constraints(pod, "DoNotSchedule")
        counts = [dict() for _ in cs]
        for n in self.nodes:
            if not labels_have_keys(n, cs):
                continue
            for i, c in enumerate(cs):
                if not c.include(pod, n):
                    continue
                v = n.labels[c.key]
                counts[i][v] = counts[i].get(v, 0) + count_match(n, c.selector, pod.ns)
        return cs, counts

    def spread_filter(self, pod, node, st):
        cs, counts = st
        for i, c in enumerate(cs):
            if c.key not in node.labels:
                return [R_SPREAD_LABEL]
            if len(counts[i]) < c.min_domains:
                mn = 0
            elif counts[i]:
                mn = min(counts[i].values())
            else:
                mn = 2**31 - 1
            self_match = 1 if c.selector.matches(pod.labels) else 0
            skew = counts[i].get(node.labels[c.key], 0) + self_match - mn
            if skew > c.max_skew:
                return [R_SPREAD]
        return None

    # -- InterPodAffinity
    def ipa_prefilter(self, pod):
        existing_anti = {}
        aff = {}
        anti = {}
        for n in self.nodes:
            for p in n.pods:
                for t in p.req_anti:
                    if t.matches(pod) and t.topology_key in n.labels:
                        k = (t.topology_key, n.labels[t.topology_key])
                        existing_anti[k] = existing_anti.get(k, 0) + 1
                if pod.req_aff and all(t.matches(p) for t in pod.req_aff):
                    for t in pod.req_aff:
                        if t.topology_key in n.labels:
                            k = (t.topology_key, n.labels[t.topology_key])
                            aff[k] = aff.get(k, 0) + 1
                for t in pod.req_anti:
                    if t.matches(p) and t.topology_key in n.labels:
                        k = (t.topology_key, n.labels[t.topology_key])
                        anti[k] = anti.get(k, 0) + 1
        return existing_anti, aff, anti

    def ipa_filter(self, pod, node, st):
        existing_anti, aff, anti = st
        # satisfyPodAffinity
        pods_exist = True
        ok = True
        for t in pod.req_aff:
            if t.topology_key in node.labels:
                if aff.get((t.topology_key, node.labels[t.topology_key]), 0) <= 0:
                    pods_exist = False
            else:
                ok = False
                break
        if ok and not pods_exist:
            ok = len(aff) == 0 and all(t.matches(pod) for t in pod.req_aff) and len(pod.req_aff) > 0
        if not ok:
            return [R_POD_AFF]
        if anti:
            for t in pod.req_anti:
                if t.topology_key in node.labels and anti.get((t.topology_key, node.labels[t.topology_key]), 0) > 0:
                    return [R_POD_ANTI]
        if existing_anti:
            for k, v in node.labels.items():
                if existing_anti.get((k, v), 0) > 0:
                    return [R_EXIST_ANTI]
        return None

    # -- NodeAffinity PreFilter
    def na_prefilter(self, pod):
        req = (((pod.spec.get("affinity") or {}).get("nodeAffinity") or {})
               .get("requiredDuringSchedulingIgnoredDuringExecution"))
        if req is None:
            return None
        terms = req.get("nodeSelectorTerms") or []
        if not terms:
            return None
        names = None
        for t in terms:
            tn = None
            for r in t.get("matchFields") or []:
                if r["key"] == "metadata.name" and r["operator"] == "In":
                    s = set(r.get("values") or [])
                    tn = s if tn is None else (tn & s)
            if tn is None:
                return None
            names = tn if names is None else (names | tn)
        return names

    # -- Fit
    def fit_filter(self, pod, n):
        out = []
        if len(n.pods) + 1 > n.a_pods:
            out.append("Too many pods")
        if pod.cpu == 0 and pod.mem == 0 and pod.eph == 0 and not pod.scalars:
            return out
        if pod.cpu > 0 and pod.cpu > n.a_cpu - n.r_cpu:
            out.append("Insufficient cpu")
        if pod.mem > 0 and pod.mem > n.a_mem - n.r_mem:
            out.append("Insufficient memory")
        if pod.eph > 0 and pod.eph > n.a_eph - n.r_eph:
            out.append("Insufficient ephemeral-storage")
        for k in sorted(pod.scalars):
            v = pod.scalars[k]
            if v > n.a_scalars.get(k, 0) - n.r_scalars.get(k, 0):
                out.append("Insufficient " + k)
        return out

    def filter_node(self, pod, n, sp, ipa):
        """Reasons of the first failing filter and whether its status is UnschedulableAndUnresolvable."""
        if n.unschedulable and not tolerations_tolerate(pod.tols, {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}):
            return [R_UNSCHED], True
        if find_untolerated(n.taints, pod.tols, ("NoSchedule", "NoExecute")):
            return [R_TAINT], True
        if not required_node_affinity_match(pod, n):
            return [R_AFFINITY], True
        if pod.ports and ports_conflict(pod.ports, n.used_ports):
            return [R_PORTS], False
        r = self.fit_filter(pod, n)
        if r:
            unres = (pod.cpu > n.a_cpu or pod.mem > n.a_mem or pod.eph > n.a_eph
                     or any(v > n.a_scalars.get(k, 0) for k, v in pod.scalars.items()))
            return r, unres
        r = self.spread_filter(pod, n, sp)
        if r:
            return r, r[0] == R_SPREAD_LABEL
        r = self.ipa_filter(pod, n, ipa)
        if r:
            return r, r[0] == R_POD_AFF
        return None, False

    # -- scores
    def score(self, pod, feasible):
        res = {n.name: {} for n in feasible}
        # TaintToleration
        tols = [t for t in pod.tols if not t.get("effect") or t.get("effect") == "PreferNoSchedule"]
        raw = {n.name: sum(1 for t in n.taints if t.get("effect") == "PreferNoSchedule" and not tolerations_tolerate(tols, t))
               for n in feasible}
        norm_default(raw, True)
        for k, v in raw.items():
            res[k]["TaintToleration"] = v
        # NodeAffinity
        pref = (((pod.spec.get("affinity") or {}).get("nodeAffinity") or {})
                .get("preferredDuringSchedulingIgnoredDuringExecution")) or []
        raw = {}
        for n in feasible:
            s = 0
            for t in pref:
                w = t.get("weight", 0)
                if w == 0 or node_selector_term_empty(t.get("preference") or {}):
                    continue
                if node_selector_term_match(t["preference"], n):
                    s += w
            raw[n.name] = s
        norm_default(raw, False)
        for k, v in raw.items():
            res[k]["NodeAffinity"] = v
        # NodeResourcesFit (least allocated, non-zero requests)
        for n in feasible:
            res[n.name]["NodeResourcesFit"] = least_allocated(
                [(n.nz_cpu + pod.nz_cpu, n.a_cpu), (n.nz_mem + pod.nz_mem, n.a_mem)])
        # BalancedAllocation (requested, skipped for best effort)
        if pod.cpu == 0 and pod.mem == 0:
            for n in feasible:
                res[n.name]["NodeResourcesBalancedAllocation"] = 0
        else:
            for n in feasible:
                res[n.name]["NodeResourcesBalancedAllocation"] = balanced(
                    [(n.r_cpu + pod.cpu, n.a_cpu), (n.r_mem + pod.mem, n.a_mem)])
        # PodTopologySpread
        for k, v in self.spread_score(pod, feasible).items():
            res[k]["PodTopologySpread"] = v
        # InterPodAffinity
        for k, v in self.ipa_score(pod, feasible).items():
            res[k]["InterPodAffinity"] = v
        for n in feasible:
            res[n.name]["ImageLocality"] = 0
        W = {"TaintToleration": 3, "NodeAffinity": 2, "NodeResourcesFit": 1, "PodTopologySpread": 2,
             "InterPodAffinity": 2, "NodeResourcesBalancedAllocation": 1, "ImageLocality": 1}
        for k in res:
            res[k]["total"] = sum(W[p] * res[k][p] for p in W)
        return res

    def spread_score(self, pod, feasible):
        cs = self.spread_constraints(pod, "ScheduleAnyway")
        if not cs:
            return {n.name: 0 for n in feasible}
        require_all = bool(pod.spec.get("topologySpreadConstraints"))
        ignored = set()
        counts = [dict() for _ in cs]
        topo_size = [0] * len(cs)
        for n in feasible:
            if require_all and not labels_have_keys(n, cs):
                ignored.add(n.name)
                continue
            for i, c in enumerate(cs):
                if c.key == HOSTNAME:
                    continue
                v = n.labels.get(c.key, "")
                if v not in counts[i]:
                    counts[i][v] = 0
                    topo_size[i] += 1
        weights = []
        for i, c in enumerate(cs):
            sz = topo_size[i]
            if c.key == HOSTNAME:
                sz = len(feasible) - len(ignored)
            weights.append(math.log(sz + 2))
        for n in self.nodes:
            if require_all and not labels_have_keys(n, cs):
                continue
            for i, c in enumerate(cs):
                if not c.include(pod, n):
                    continue
                v = n.labels.get(c.key, "")
                if v not in counts[i]:
                    continue
                counts[i][v] += count_match(n, c.selector, pod.ns)
        raw = {}
        for n in feasible:
            if n.name in ignored:
                raw[n.name] = 0
                continue
            s = 0.0
            for i, c in enumerate(cs):
                if c.key in n.labels:
                    if c.key == HOSTNAME:
                        cnt = count_match(n, c.selector, pod.ns)
                    else:
                        cnt = counts[i][n.labels[c.key]]
                    s += cnt * weights[i] + float(c.max_skew - 1)
            raw[n.name] = go_round(s)
        mn = None
        mx = 0
        for n in feasible:
            if n.name in ignored:
                continue
            s = raw[n.name]
            mn = s if mn is None or s < mn else mn
            mx = s if s > mx else mx
        out = {}
        for n in feasible:
            if n.name in ignored:
                out[n.name] = 0
            elif mx == 0:
                out[n.name] = 100
            else:
                out[n.name] = go_div(100 * (mx + mn - raw[n.name]), mx)
        return out

    def ipa_score(self, pod, feasible):
        has_pref = bool(pod.pref_aff or pod.pref_anti)
        topo = {}

        def add(term, weight, target, node, mult):
            if term.matches(target) and term.topology_key in node.labels:
                k = (term.topology_key, node.labels[term.topology_key])
                topo[k] = topo.get(k, 0) + weight * mult

        for n in self.nodes:
            if not n.labels:
                continue
            for p in n.pods:
                if not has_pref and not (p.req_aff or p.req_anti or p.pref_aff or p.pref_anti):
                    continue
                for t in pod.pref_aff:
                    add(t, t.weight, p, n, 1)
                for t in pod.pref_anti:
                    add(t, t.weight, p, n, -1)
                for t in p.req_aff:
                    add(t, 1, pod, n, 1)
                for t in p.pref_aff:
                    add(t, t.weight, pod, n, 1)
                for t in p.pref_anti:
                    add(t, t.weight, pod, n, -1)
        raw = {}
        for n in feasible:
            s = 0
            for (k, v), w in topo.items():
                if n.labels.get(k) == v and k in n.labels:
                    s += w
            raw[n.name] = s
        if not topo:
            return {n.name: 0 for n in feasible}
        mn = min(raw.values())
        mx = max(raw.values())
        diff = mx - mn
        out = {}
        for k, s in raw.items():
            f = 0.0
            if diff > 0:
                f = 100.0 * (float(s - mn) / float(diff))
            out[k] = int(f)
        return out

    # -- DefaultPreemption's dry run (SelectVictimsOnNode), no budgets
    def filters(self, pod, n):
        return self.filter_node(pod, n, self.spread_prefilter(pod), self.ipa_prefilter(pod))

    def preempt(self, pod, nodes):
        """(node, victims) picked as pickOneNodeForPreemption does, or None; and the failed nodes' reasons."""
        def key(p):  # MoreImportantPod, then the name
            return (-p.priority, p.start == "", p.start, p.ns + "/" + p.name)
        hist = {}
        cands = []
        for n in nodes:
            potential = sorted((p for p in n.pods if p.priority < pod.priority), key=key)
            if not potential:
                hist[P_NO_VICTIMS] = hist.get(P_NO_VICTIMS, 0) + 1
                continue
            for p in potential:
                n.remove(p)
            r, _ = self.filters(pod, n)
            if r:
                for p in potential:
                    n.add(p)
                for x in r:
                    hist[x] = hist.get(x, 0) + 1
                continue
            victims = []
            for p in potential:
                n.add(p)
                if self.filters(pod, n)[0]:
                    n.remove(p)
                    victims.append(p)
            for p in victims:
                n.add(p)
            if victims:
                cands.append((n, victims))
        if not cands:
            return None, hist

        def keep(f):
            best = min(f(c) for c in cands)
            cands[:] = [c for c in cands if f(c) == best]
        keep(lambda c: c[1][0].priority)
        keep(lambda c: sum(v.priority + (1 << 31) for v in c[1]))
        keep(lambda c: len(c[1]))

        def earliest(c):  # the latest wins: negate as a sortable pair
            top = c[1][0].priority
            starts = [v.start for v in c[1] if v.priority == top]
            known = sorted(x for x in starts if x)
            e = known[0] if known else ""
            return (0, "") if e == "" else (1, "".join(chr(0x10FFFF - ord(ch)) for ch in e))
        keep(earliest)
        keep(lambda c: c[0].name.encode())
        return cands[0], hist

    # -- one cycle
    def schedule_one(self, pod):
        N = len(self.nodes)
        pre = self.na_prefilter(pod)
        if pre is not None and len(pre) == 0:
            return None, ("0/%d nodes are available: %s. " + POSTFILTER_DRA + "preemption: 0/%d nodes are available: %d %s.") % (
                N, R_CONFLICT, N, N, P_NOT_HELPFUL), None
        cands = self.nodes if pre is None else [n for n in self.nodes if n.name in pre]
        sp = self.spread_prefilter(pod)
        ipa = self.ipa_prefilter(pod)
        statuses = {}
        feasible = []
        unres = {}
        for n in cands:
            r, u = self.filter_node(pod, n, sp, ipa)
            if r:
                statuses[n.name] = r
                unres[n.name] = u
            else:
                feasible.append(n)
        if not feasible:
            hist = {}
            for r in statuses.values():
                for x in r:
                    hist[x] = hist.get(x, 0) + 1
            if len(statuses) < N:
                hist[R_PREFILTER_NA] = hist.get(R_PREFILTER_NA, 0) + N - len(statuses)
            parts = sorted("%d %s" % (v, k) for k, v in hist.items())
            msg = "0/%d nodes are available:" % N
            if parts:
                msg += " %s." % ", ".join(parts)
            # DefaultPreemption (PostFilter): nodes whose status is UnschedulableAndUnresolvable
            # (or that no filter saw) are "not helpful"; the others are dry-run.
            chosen, hist = self.preempt(pod, [n for n in self.nodes if n.name in statuses and not unres[n.name]])
            if chosen is not None:
                n, victims = chosen
                if getattr(self, "act", False):
                    # plan --preempt: kube-scheduler deletes the victims and
                    # nominates the node; the pod's next cycle finds the
                    # nominated node feasible and binds it there
                    # (schedule_one.go findNodesThatFitPod evaluates the
                    # nominated node first). A dry run places it at once.
                    for v in victims:
                        n.remove(v)
                    self.last_preemption = (n, victims)
                    return n, None, None
                self.preempt_line = "--preempt would place it on %s by evicting %d pod%s" % (
                    n.name, len(victims), "" if len(victims) == 1 else "s")
                return None, msg, None
            dry = sum(1 for k in statuses if not unres[k])
            if N - dry:
                hist[P_NOT_HELPFUL] = hist.get(P_NOT_HELPFUL, 0) + N - dry
            pp = sorted("%d %s" % (v, k) for k, v in hist.items())
            msg += (" " + POSTFILTER_DRA + "preemption: 0/%d nodes are available: %s.") % (N, ", ".join(pp))
            return None, msg, None
        scores = self.score(pod, feasible)
        best = max(scores[n.name]["total"] for n in feasible)
        chosen = min(n.name for n in feasible if scores[n.name]["total"] == best)
        return self.by_name[chosen], None, scores


def go_round(x):
    """math.Round: half away from zero."""
    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


def go_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def norm_default(raw, reverse):
    mx = max(raw.values()) if raw else 0
    if mx == 0:
        if reverse:
            for k in raw:
                raw[k] = 100
        return
    for k, s in raw.items():
        v = 100 * s // mx
        raw[k] = 100 - v if reverse else v


def least_allocated(pairs):
    score = 0
    wsum = 0
    for req, cap in pairs:
        if cap == 0:
            continue
        s = 0 if req > cap else (cap - req) * 100 // cap
        score += s
        wsum += 1
    return score // wsum if wsum else 0


def balanced(pairs):
    fr = []
    for req, cap in pairs:
        if cap == 0:
            continue
        f = float(req) / float(cap)
        fr.append(min(f, 1.0))
    std = 0.0
    if len(fr) == 2:
        std = abs((fr[0] - fr[1]) / 2)
    elif len(fr) > 2:
        mean = sum(fr) / len(fr)
        std = math.sqrt(sum((f - mean) ** 2 for f in fr) / len(fr))
    return int((1 - std) * 100)


# ------------------------------------------------------------ driver
def items(doc):
    if doc.get("kind", "").endswith("List") or "items" in doc:
        return doc.get("items") or []
    return [doc]


def run(nodes_doc, pods_doc, deploy, replicas=None, count=None, priority=0, preempt=False):
    """One Deployment: its replicas' nodes, the failing replica's message, the
    first replica's scores; with preempt (plan --preempt) each replica that
    fits nowhere preempts as DefaultPreemption picks and is placed there."""
    r = run_stream(nodes_doc, pods_doc, [deploy], [priority], preempt=preempt, replicas=replicas, count=count)
    out = r["requests"][0]
    out["scores"] = r["first_scores"]
    out["preempt_line"] = r["preempt_line"]
    return out


def run_stream(nodes_doc, pods_doc, deploys, priorities, preempt=False, replicas=None, count=None):
    """Several Deployments applied together (eruplan plan -r STREAM).

    Kubernetes' scheduling queue pops the highest priority first, and pods of
    equal priority by their queue time (queuesort PrioritySort); a stream's
    requests are created in file order. Each replica is one scheduling cycle
    against the cluster as the earlier cycles left it: replicas bound by
    earlier requests are pods every filter and score sees, victims evicted by
    earlier preemptions are gone. Replicas to place: spec.replicas minus the
    running pods of --pods the Deployment's selector matches, terminating ones
    aside (counted before any planning). eruplan plans a request all or nothing: when one replica
    cannot be placed, the request is rejected and its replicas and evictions
    are undone before the next request.
    Returns {"requests": [per Deployment, file order], "first_scores", "preempt_line"}.
    """
    nodes = [Node(o) for o in items(nodes_doc)]
    nodes.sort(key=lambda n: n.name.encode())
    by = {n.name: n for n in nodes}
    reqs = []
    for d in deploys:
        ns = (d.get("metadata") or {}).get("namespace") or "default"
        spec = d.get("spec") or {}
        tmpl = spec.get("template") or {}
        tlabels = ((tmpl.get("metadata") or {}).get("labels")) or {}
        sel = label_selector(spec["selector"]) if spec.get("selector") else set_selector(tlabels)
        reqs.append({"name": (d.get("metadata") or {}).get("name"), "ns": ns, "tmpl": tmpl,
                     "tlabels": tlabels, "sel": sel, "running": 0})
    seen = set()
    for o in items(pods_doc):
        p = Pod(o)
        if (p.ns, p.name) in seen:
            continue
        seen.add((p.ns, p.name))
        if not p.node_name or p.phase in ("Succeeded", "Failed"):
            continue
        for r in reqs:
            # A terminating pod is not one of the replicas: the ReplicaSet
            # controller's active pods leave it out and it is replaced.
            if p.ns == r["ns"] and r["sel"].matches(p.labels) and not p.terminating:
                r["running"] += 1
        if p.node_name in by:
            by[p.node_name].add(p)
    sched = Scheduler(nodes, None)
    sched.act = preempt
    first_scores = None
    results = [None] * len(deploys)
    order = sorted(range(len(deploys)), key=lambda i: (-priorities[i], i))
    for i in order:
        r = reqs[i]
        spec = deploys[i].get("spec") or {}
        want = spec.get("replicas", 1) if replicas is None else replicas
        new = want - r["running"] if count is None else count
        new = max(new, 0)
        res = {"name": r["name"], "new": new, "placements": [], "preemptions": [], "error": None,
               "status": "satisfied" if new == 0 else "placed"}
        results[i] = res
        sched.default_spread_selector = r["sel"]
        added = []
        evicted = []
        for k in range(new):
            pod = Pod({"metadata": {"name": "%s-new-%d" % (r["name"], k), "namespace": r["ns"],
                                    "labels": r["tlabels"]}, "spec": r["tmpl"].get("spec") or {}}, r["ns"])
            pod.priority = priorities[i]
            sched.last_preemption = None
            node, msg, scores = sched.schedule_one(pod)
            if k == 0 and first_scores is None and i == order[0]:
                first_scores = scores
            if node is None:
                res["error"] = msg
                break
            if sched.last_preemption is not None:
                n, victims = sched.last_preemption
                evicted += [(n, v) for v in victims]
                res["preemptions"].append({"instance": k + 1, "node": n.name,
                                           "victims": ["%s/%s" % (v.ns, v.name) for v in victims]})
            res["placements"].append(node.name)
            pod.node_name = node.name
            node.add(pod)
            added.append((node, pod))
        if res["error"] is not None:
            res["status"] = "rejected"
            for n, p in added:
                n.remove(p)
            for n, p in evicted:
                n.add(p)
    return {"requests": results, "first_scores": first_scores,
            "preempt_line": getattr(sched, "preempt_line", None)}


def main():
    a = sys.argv[1:]
    count = None
    if len(a) == 4:
        count = int(a[3])
    with open(a[0]) as f:
        nd = json.load(f)
    with open(a[1]) as f:
        pd = json.load(f)
    with open(a[2]) as f:
        dd = json.load(f)
    json.dump(run(nd, pd, dd, count=count), sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
