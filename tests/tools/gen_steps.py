#!/usr/bin/python3
"""gen_steps.py N OUT.json - a CPU trace of N ProfilerStep#i steps of (1000 + (i % 7) * 100) us,
step 900 5000 us longer (a straggler), each with one aten::mm inside. Deterministic."""
import json,sys
n=int(sys.argv[1]); ev=[]; t=0
for i in range(n):
    d=1000 + (i%7)*100 + (5000 if i==900 else 0)   # us; step 900 is slow
    ev.append({"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d"%i,"pid":1,"tid":1,"ts":t,"dur":d})
    ev.append({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":t+10,"dur":d-20})
    t+=d
json.dump({"traceEvents":ev},open(sys.argv[2],'w'))
