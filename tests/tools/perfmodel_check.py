#!/usr/bin/env python3
"""FLOPs and bytes of a Kineto trace's convolutions (forward, transposed, backward) and
_foreach_* ops by the perf model's rules (docs/analysis.md, perf_model), computed from the
trace's JSON alone (not profreport's code or store): for t0156-perf-model-conv-foreach.sh,
which compares the model's `perf_model.groups` with it. An op counts when a runtime call inside
it (the innermost op holding the call on its thread) launched a device activity, as the model's
scope. Prints [{"name", "input_dims", "input_type", "calls", "flops", "bytes"}] by name, dims."""
import gzip
import json
import math
import sys

path = sys.argv[1]
d = json.load(gzip.open(path) if path.endswith(".gz") else open(path))
ev = [e for e in d["traceEvents"] if e.get("ph") == "X"]
SIZES = {"float": 4, "double": 8, "c10::Half": 2, "c10::BFloat16": 2, "long int": 8, "int": 4,
         "bool": 1}


def es_of(t):
    if t in SIZES:
        return SIZES[t]
    return 2 if ("BFloat16" in (t or "") or "Half" in (t or "")) else 0


def tensor(dims, types, i):  # (elements, element size, dims) or None
    if i >= len(dims) or i >= len(types) or not isinstance(dims[i], list):
        return None
    if not es_of(types[i]) or any(not isinstance(x, int) for x in dims[i]):
        return None
    return (math.prod(dims[i]), es_of(types[i]), dims[i])


def ints(conc, i, n, default):
    s = conc[i] if i < len(conc) else ""
    v = [int(x) for x in s.strip("[]").split(",") if x.strip()] if s.startswith("[") else []
    if len(v) == 1:
        v = v * n
    return (v + [default] * n)[:n]


def conv(name, dims, types, conc):
    if name == "aten::convolution_backward":
        go, x, w = (tensor(dims, types, i) for i in range(3))
        if not (go and x and w) or not len(go[2]) == len(x[2]) == len(w[2]) >= 3:
            return None
        mask = [True, True, False]
        if len(conc) > 10 and conc[10].startswith("["):
            mask = [p.strip() == "True" for p in conc[10].strip("[]").split(",")][:3]
        base = x[0] if (len(conc) > 7 and conc[7] == "True") else go[0]
        f = 2 * base * w[2][1] * math.prod(w[2][2:])
        flops = f * (mask[0] + mask[1]) + (go[0] if mask[2] else 0)
        nbytes = (go[0] + x[0] + w[0]) * go[1] + (x[0] * x[1] if mask[0] else 0) + \
            (w[0] * w[1] if mask[1] else 0) + (go[2][1] * go[1] if mask[2] else 0)
        return flops, nbytes
    x, w = tensor(dims, types, 0), tensor(dims, types, 1)
    if not (x and w) or len(x[2]) < 3 or len(w[2]) != len(x[2]):
        return None
    sp = len(x[2]) - 2
    tr, groups = False, 1
    if name == "aten::cudnn_convolution_transpose":
        tr, pad, opad, st, dil = True, ints(conc, 2, sp, 0), ints(conc, 3, sp, 0), \
            ints(conc, 4, sp, 1), ints(conc, 5, sp, 1)
    elif name.startswith("aten::conv_transpose"):
        tr, st, pad, opad, dil = True, ints(conc, 3, sp, 1), ints(conc, 4, sp, 0), \
            ints(conc, 5, sp, 0), ints(conc, 7, sp, 1)
        groups = int(conc[6]) if len(conc) > 6 and conc[6].isdigit() else 1
    elif name in ("aten::convolution", "aten::_convolution"):
        st, pad, dil = ints(conc, 3, sp, 1), ints(conc, 4, sp, 0), ints(conc, 5, sp, 1)
        if len(conc) > 6 and conc[6] == "True":
            tr, opad = True, ints(conc, 7, sp, 0)
            groups = int(conc[8]) if len(conc) > 8 and conc[8].isdigit() else 1
    else:
        return None  # the forward convolutions t0120 checks
    k = w[2][2:]
    if tr:
        out = [max(0, (x[2][2 + i] - 1) * st[i] - 2 * pad[i] + dil[i] * (k[i] - 1) + opad[i] + 1)
               for i in range(sp)]
        cout = w[2][1] * max(groups, 1)
    else:
        out = [max(0, (x[2][2 + i] + 2 * pad[i] - dil[i] * (k[i] - 1) - 1) // st[i] + 1)
               for i in range(sp)]
        cout = w[2][0]
    nout = x[2][0] * cout * math.prod(out)
    b = tensor(dims, types, 2) if "cudnn" not in name else None
    b = b if b and len(b[2]) == 1 else None
    mac = x[0] * w[2][1] if tr else nout * w[2][1]
    flops = 2 * mac * math.prod(k) + (nout if b else 0)
    return flops, (x[0] + w[0] + (b[0] if b else 0) + nout) * x[1]


def foreach(name, dims, types):
    es = next((tensor(dims, types, i)[1] for i in range(len(dims))
               if tensor(dims, types, i)), 4)
    rd, first = 0, None
    for i, t in enumerate(types):
        if tensor(dims, types, i):
            rd += tensor(dims, types, i)[0] * es_of(t)
        elif t == "TensorList" and isinstance(dims[i], list):
            n = sum(math.prod(s) for s in dims[i] if isinstance(s, list))
            rd += n * es
            first = n if first is None else first
    if first is None:
        return None
    if "norm" in name:
        return rd // es, rd
    return first, rd if name.endswith("_") else rd + first * es


acts = {e["args"]["correlation"] for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")
        and isinstance((e.get("args") or {}).get("correlation"), int)}
ops = [e for e in ev if e.get("cat") == "cpu_op"]
linked = {}
for c in ev:
    if c.get("cat") != "cuda_runtime" or (c.get("args") or {}).get("correlation") not in acts:
        continue
    holders = [o for o in ops if (o["pid"], o["tid"]) == (c["pid"], c["tid"]) and
               o["ts"] <= c["ts"] and c["ts"] + c.get("dur", 0) <= o["ts"] + o.get("dur", 0)]
    if holders:
        o = max(holders, key=lambda o: (o["ts"], -o.get("dur", 0)))
        linked[id(o)] = o
groups = {}
for o in linked.values():
    a = o.get("args") or {}
    dims, types, conc = a.get("Input Dims") or [], a.get("Input type") or [], \
        a.get("Concrete Inputs") or []
    n = o["name"]
    w = foreach(n, dims, types) if n.startswith("aten::_foreach_") else \
        conv(n, dims, types, conc) if ("conv" in n and n.startswith("aten::")) else None
    if w is None:
        continue
    key = (n, json.dumps(dims, separators=(",", ":")), json.dumps(types, separators=(",", ":")))
    g = groups.setdefault(key, [0, 0, 0])
    g[0] += 1
    g[1] += w[0]
    g[2] += w[1]
print(json.dumps([{"name": k[0], "input_dims": k[1], "input_type": k[2], "calls": v[0],
                   "flops": v[1], "bytes": v[2]} for k, v in sorted(groups.items())], indent=1))
