#!/usr/bin/env python3
"""opkern_check.py TRACE MODEL [--tracelens OPS_SUMMARY.csv] - the model's op_view and
kernel_view (run 0) against the same numbers computed here from the Kineto trace alone,
without profreport: X events nested per (pid, tid) by start and end (the parent of an
event is the innermost event around it), an op = cat "cpu_op", host self = duration
minus the direct children's, a device activity linked to the runtime or driver call with
the same args "correlation", the call's op ancestors charged (the nearest one: device self and
the kernel's launching op; all of them: device total). An op that is the only child (runtime
and driver calls aside) of an op of the same name that holds it whole is merged into it, as
TensorBoard's op tree does (tb_plugin profiler/op_tree.py, remove_dup_nodes): no call of its
own, its self time the parent's row's, its activities launched by the parent. Optionally TraceLens's
ops_summary.csv (total_direct_kernel_time_sum, us, per op name) against device self.
Prints each mismatch; exit 1 when there is one."""
import collections
import csv
import decimal
import gzip
import json
import sys

TC_KERNELS = ['h884', 's884', 'h1688', 's1688', 'hmma', 'i8816', '16816', 'dgrad_1x1_stride_2x2',
              'first_layer_wgrad_kernel', 'conv1x1', 'conv2d_c1_k1', 'direct_group', 'xmma_implicit_gemm',
              'xmma_sparse_conv', 'xmma_warp_specialized_implicit_gemm', 'xmma_gemm', 'xmma_sparse_gemm', 'c1688']


def ns(v):
    # exact: an epoch timestamp in us times 1000 is past a double's 2**53 (float(v) * 1000
    # rounds it to 256 ns, enough to make a child end after its parent)
    if isinstance(v, int):
        return v * 1000
    return int((decimal.Decimal(repr(float(v))) * 1000).to_integral_value(decimal.ROUND_HALF_EVEN))


def load(path):
    op = gzip.open if path.endswith('.gz') else open
    with op(path, 'rt') as f:
        d = json.load(f)
    return d['traceEvents'] if isinstance(d, dict) else d


def main():
    args = sys.argv[1:]
    tl = None
    if '--tracelens' in args:
        i = args.index('--tracelens')
        tl = args[i + 1]
        del args[i:i + 2]
    ev = [e for e in load(args[0]) if e.get('ph') == 'X']
    model = json.load(open(args[1]))['runs'][0]
    bad = []

    def check(what, got, want, tol=0):
        if got is None or want is None or abs(got - want) > tol:
            bad.append('%s: model %r, trace %r' % (what, got, want))

    # nesting per thread
    parent = {}
    by_tid = collections.defaultdict(list)
    for i, e in enumerate(ev):
        if e.get('cat') in ('kernel', 'gpu_memcpy', 'gpu_memset', 'gpu_user_annotation'):
            continue
        by_tid[(e.get('pid'), e.get('tid'))].append(i)
    children_dur = collections.Counter()
    for ids in by_tid.values():
        ids.sort(key=lambda i: (ns(ev[i]['ts']), -ns(ev[i].get('dur', 0)), i))
        stack = []
        for i in ids:
            t = ns(ev[i]['ts'])
            while stack and ns(ev[stack[-1]]['ts']) + ns(ev[stack[-1]].get('dur', 0)) <= t and \
                    not (ns(ev[i].get('dur', 0)) == 0 and ns(ev[stack[-1]]['ts']) + ns(ev[stack[-1]].get('dur', 0)) == t and False):
                stack.pop()
            parent[i] = stack[-1] if stack else None
            if stack:
                children_dur[stack[-1]] += ns(ev[i].get('dur', 0))
            stack.append(i)

    # TensorBoard's merge of an op into its same-name parent (op_tree.py remove_dup_nodes)
    def end(i):
        return ns(ev[i]['ts']) + ns(ev[i].get('dur', 0))
    kids = collections.defaultdict(list)
    for i, p in parent.items():
        if p is not None and ev[i].get('cat') not in ('cuda_runtime', 'cuda_driver'):
            kids[p].append(i)
    absorbed = set()
    for p, ks in kids.items():
        if len(ks) != 1:
            continue
        i = ks[0]
        if ev[i].get('cat') == 'cpu_op' and ev[p].get('cat') == 'cpu_op' and \
                ev[i]['name'] == ev[p]['name'] and end(i) <= end(p):
            absorbed.add(i)

    def top(i):
        while i in absorbed:
            i = parent[i]
        return i

    def key(e):
        a = e.get('args', {})
        dims = a.get('Input Dims')
        typ = a.get('Input type')
        f = lambda v: None if v is None else json.dumps(v, separators=(',', ':'))[:512]
        return (e['name'], f(dims), f(typ))

    # host side per (name, dims, types)
    host = collections.defaultdict(lambda: [0, 0, 0, 0, 0])  # calls, total, self, dev self, dev total
    for i, e in enumerate(ev):
        if e.get('cat') != 'cpu_op':
            continue
        if i in absorbed:  # its self time is its top's row's; no call, no duration of its own
            host[key(ev[top(i)])][2] += ns(e.get('dur', 0)) - children_dur[i]
            continue
        h = host[key(e)]
        h[0] += 1
        h[1] += ns(e.get('dur', 0))
        h[2] += ns(e.get('dur', 0)) - children_dur[i]
    # device side
    calls = {}
    for i, e in enumerate(ev):
        if e.get('cat') in ('cuda_runtime', 'cuda_driver') and 'correlation' in e.get('args', {}):
            calls.setdefault(e['args']['correlation'], i)
    krows = collections.defaultdict(lambda: {'calls': 0, 'total': 0, 'min': None, 'max': 0,
                                             'bw': 0.0, 'bd': 0.0, 'ow': 0.0, 'od': 0.0, 'sw': 0.0})
    nkern = 0
    knames = set()
    for e in ev:
        cat = e.get('cat')
        if cat not in ('kernel', 'gpu_memcpy', 'gpu_memset'):
            continue
        d = ns(e.get('dur', 0))
        c = calls.get(e.get('args', {}).get('correlation'))
        ops = []
        if c is not None:
            p = parent.get(c)
            while p is not None:
                if ev[p].get('cat') == 'cpu_op' and p not in absorbed:
                    ops.append(p)
                p = parent.get(p)
        for k, o in enumerate(ops):
            h = host[key(ev[o])]
            if k == 0:
                h[3] += d
            h[4] += d
        if cat != 'kernel':
            continue
        nkern += 1
        knames.add(e['name'])
        a = e.get('args', {})
        g = tuple(a['grid']) if isinstance(a.get('grid'), list) else None
        b = tuple(a['block']) if isinstance(a.get('block'), list) else None
        kk = (e['name'], ev[ops[0]]['name'] if ops else None, g, b, a.get('registers per thread'),
              a.get('shared memory'))
        r = krows[kk]
        r['calls'] += 1
        r['total'] += d
        r['min'] = d if r['min'] is None else min(r['min'], d)
        r['max'] = max(r['max'], d)
        bps, occ = a.get('blocks per SM'), a.get('est. achieved occupancy %')
        if isinstance(bps, (int, float)) and bps > 0:
            r['bw'] += bps * d
            r['sw'] += min(bps, 1) * d
            r['bd'] += d
        if isinstance(occ, (int, float)) and occ >= 0:
            r['ow'] += occ * d
            r['od'] += d

    ov = model.get('op_view')
    if not ov:
        bad.append('no op_view in the model')
    else:
        rows = {(r['name'], r['input_dims'], r['input_type']): r for r in ov['rows']}
        check('op_view rows', len(ov['rows']), len(host))
        check('op_view calls', ov['calls'], sum(h[0] for h in host.values()))
        for k, h in host.items():
            r = rows.get(k)
            if not r:
                bad.append('op_view: no row %r' % (k,))
                continue
            check('%r calls' % (k,), r['calls'], h[0])
            check('%r host total' % (k,), r['host_total_ns'], h[1])
            check('%r host self' % (k,), r['host_self_ns'], h[2])
            if ov['has_device']:
                check('%r device self' % (k,), r['device_self_ns'], h[3])
                check('%r device total' % (k,), r['device_total_ns'], h[4])
            elif 'device_self_ns' in r:
                bad.append('%r: device columns on a run without device activities' % (k,))
    # the rows summed by name give the gpu section's per-name numbers (its top N names)
    if ov and ov['has_device']:
        by = collections.defaultdict(lambda: [0, 0, 0])
        for r in ov['rows']:
            by[r['name']][0] += r['device_self_ns']
            by[r['name']][1] += r['device_total_ns']
            by[r['name']][2] += r['calls']
        for it in model.get('gpu', {}).get('ops', {}).get('items', []):
            b = by.get(it['name'], [None] * 3)
            check('gpu.ops %s device self' % it['name'], b[0], it['device_self_ns'])
            check('gpu.ops %s device total' % it['name'], b[1], it['device_total_ns'])
            if it['calls'] is not None:
                check('gpu.ops %s calls' % it['name'], b[2], it['calls'])
    kv = model.get('kernel_view')
    if nkern:
        if not kv:
            bad.append('no kernel_view in the model')
        else:
            check('kernel_view kernels', kv['kernels'], nkern)
            check('kernel_view distinct names', len({r['name'] for r in kv['rows']}), len(knames))
            check('kernel_view rows', len(kv['rows']), len(krows))
            tc = sum(r['total'] for k, r in krows.items() if any(p in k[0] for p in TC_KERNELS))
            alln = sum(r['total'] for r in krows.values())
            check('tensor core kernel share', kv['tensor_cores']['kernel_share'], tc / alln if alln else None, 1e-9)
            for r in kv['rows']:
                k = (r['name'], r['op'], tuple(r['grid']) if r['grid'] else None,
                     tuple(r['block']) if r['block'] else None, r['registers'], r['shared_memory'])
                w = krows.get(k)
                if not w:
                    bad.append('kernel_view: no such row in the trace %r' % (k,))
                    continue
                check('%s calls' % (k,), r['calls'], w['calls'])
                check('%s total' % (k,), r['total_ns'], w['total'])
                check('%s min' % (k,), r['min_ns'], w['min'])
                check('%s max' % (k,), r['max_ns'], w['max'])
                if w['bd']:
                    check('%s blocks/SM' % (k,), r['mean_blocks_per_sm'], w['bw'] / w['bd'], 1e-5 * max(1, w['bw'] / w['bd']))
                    check('%s SM efficiency' % (k,), r['sm_efficiency'], w['sw'] / w['bd'], 1e-6)
                if w['od']:
                    check('%s occupancy' % (k,), r['mean_occupancy_pct'], w['ow'] / w['od'], 1e-5 * max(1, w['ow'] / w['od']))
    if tl and ov:
        by, acts = collections.Counter(), collections.Counter()
        for r in ov['rows']:
            by[r['name']] += r.get('device_self_ns', 0)
            acts[r['name']] += r.get('activities', 0)
        with open(tl, encoding='utf-8-sig') as f:
            for row in csv.DictReader(f):
                want = float(row['total_direct_kernel_time_sum']) * 1000
                check('TraceLens %s device self' % row['name'], by.get(row['name']), want,
                      1 + acts[row['name']])  # TraceLens sums us floats, the store rounded ns
    for b in bad[:40]:
        print('opkern_check: FAIL: ' + b)
    if len(bad) > 40:
        print('opkern_check: ... %d more' % (len(bad) - 40))
    print('opkern_check: %s: %d op rows, %d kernels in %d rows, %d mismatches' % (
        args[0].split('/')[-1], len(host), nkern, len(krows), len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
