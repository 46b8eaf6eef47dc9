#!/usr/bin/python3
"""Writes one small training run twice: as an Nsight Systems SQLite export
(nsys export --type sqlite, export schema 3.x: the tables and columns as
NVIDIA documents them, only those profreport reads plus StringIds, the
export metadata and TARGET_INFO_*) and as the Kineto JSON trace that
torch.profiler would write for the same events (same times, same names,
same correlation ids).

NOT a real export: no GPU and no nsys were at hand. It is generated to the
documented schema so that the nsys reader can be tested against the Kineto
reader (tests/cli/t0103-nsys.sh).

usage: make_nsys_sample.py OUT.sqlite OUT.json [--events] [--steps N] [--schema-version V]
  --events prints the event list (JSON) instead, for tests deriving numbers;
  --steps N writes N steps (default 3); --schema-version V writes V as
  EXPORT_SCHEMA_VERSION (default 3.15.1), for error tests.
"""
import json
import os
import sqlite3
import sys

ORIGIN_NS = 1700000000000000000  # TARGET_INFO_SESSION_START_TIME.utcEpochNs
PID, TID = 4242, 4242
# NVIDIA's serialized GlobalId: pid in bits 24..47, tid in bits 0..23; the
# bits above (here 1 << 48) are a hardware/VM id the decoding masks away.
GLOBAL_PID = (1 << 48) | (PID << 24)
GLOBAL_TID = GLOBAL_PID | TID
DEVICE, CONTEXT = 0, 1
S_COMPUTE, S_COMM = 7, 13
STEPS = 3
STEP_PERIOD = 4_000_000  # ns; a step lasts 3 ms, then 1 ms of nothing

# CUPTI enums (cupti_activity.h): CUpti_ActivityMemcpyKind, CUpti_ActivityMemoryKind
HTOD, DTOH = 1, 2
PAGEABLE, PINNED, DEVICE_MEM = 1, 2, 3
MEMKIND = {1: "Pageable", 2: "Pinned", 3: "Device"}
COPYKIND = {1: "HtoD", 2: "DtoH"}

GEMM = "void gemm_kernel<float, 128>(float const*, float const*, float*, int)"
RELU = "void relu_kernel(float*, int)"
NCCL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
SGD = "void sgd_update(float*, float const*, float, int)"


def events(steps=STEPS):
    """The run: a list of dicts, times in ns from the session start."""
    ev = []
    corr = 100
    for k in range(steps):
        b = 1_000_000 + k * STEP_PERIOD
        ev.append(dict(t="nvtx", name="ProfilerStep#%d" % (k + 1), start=b, end=b + 3_000_000))
        ev.append(dict(t="nvtx", name="forward", start=b + 10_000, end=b + 1_500_000))
        ev.append(dict(t="nvtx", name="optimizer", start=b + 1_600_000, end=b + 2_380_000))

        def launch(api, start, dur, act):
            nonlocal corr
            corr += 1
            ev.append(dict(t="runtime", api=api, start=start, end=start + dur, corr=corr))
            if act:
                act["corr"] = corr
                ev.append(act)

        launch("cudaMemcpyAsync_v3020", b + 20_000, 15_000,
               dict(t="memcpy", kind=HTOD, src=PINNED, dst=DEVICE_MEM, bytes=8_000_000,
                    stream=S_COMPUTE, start=b + 40_000, end=b + 240_000))
        launch("cudaLaunchKernel_v7000", b + 100_000, 8_000,
               dict(t="kernel", name=GEMM, stream=S_COMPUTE, start=b + 260_000,
                    end=b + 1_160_000, grid=(64, 32, 1), block=(128, 1, 1), regs=96,
                    smem=(16384, 0)))
        launch("cudaLaunchKernel_v7000", b + 200_000, 6_000,
               dict(t="kernel", name=RELU, stream=S_COMPUTE, start=b + 1_170_000,
                    end=b + 1_270_000, grid=(256, 1, 1), block=(256, 1, 1), regs=16,
                    smem=(0, 0)))
        launch("cudaMemsetAsync_v3020", b + 1_620_000, 5_000,
               dict(t="memset", mem=DEVICE_MEM, bytes=1_048_576, stream=S_COMM,
                    start=b + 1_650_000, end=b + 1_670_000))
        launch("cudaLaunchKernel_v7000", b + 1_630_000, 7_000,
               dict(t="kernel", name=NCCL, stream=S_COMM, start=b + 1_700_000,
                    end=b + 2_300_000, grid=(2, 1, 1), block=(640, 1, 1), regs=94,
                    smem=(0, 8960)))
        launch("cudaLaunchKernel_v7000", b + 1_650_000, 6_000,
               dict(t="kernel", name=SGD, stream=S_COMPUTE, start=b + 1_900_000,
                    end=b + 2_200_000, grid=(128, 1, 1), block=(256, 1, 1), regs=32,
                    smem=(0, 0)))
        launch("cudaMemcpyAsync_v3020", b + 2_400_000, 10_000,
               dict(t="memcpy", kind=DTOH, src=DEVICE_MEM, dst=PAGEABLE, bytes=4_000,
                    stream=S_COMPUTE, start=b + 2_450_000, end=b + 2_500_000))
        launch("cudaStreamSynchronize_v3020", b + 2_420_000, 100_000, None)
        ev.append(dict(t="osrt", name="ioctl", start=b + 2_430_000, end=b + 2_450_000))
        if k == steps - 1:
            ev.append(dict(t="mark", name="checkpoint", start=b + 2_900_000))
    return ev


METRICS = [(0, "SM Active [Throughput %]"), (1, "GR Active [Throughput %]")]
METRIC_TYPE = 0x10000


def metric_samples(steps=STEPS):
    """GPU_METRICS rows: (timestamp, typeId, metricId, value), every 1 ms from
    the first event to the last (so the run's extent is that of the events)."""
    rows = []
    for i in range(steps * 4):
        ts = 1_000_000 + i * 1_000_000
        rows.append((ts, METRIC_TYPE, 0, (i * 37) % 100))
        rows.append((ts, METRIC_TYPE, 1, (i * 53) % 100))
    return rows


# ---- the SQLite export ----

SCHEMA = """
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER NOT NULL, sourceId INTEGER NOT NULL,
  typeName TEXT NOT NULL, metricId INTEGER NOT NULL, metricName TEXT NOT NULL);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE ThreadNames (nameId INTEGER NOT NULL REFERENCES StringIds(id), priority INTEGER,
  globalTid INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER,
  streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER NOT NULL REFERENCES StringIds(id),
  shortName INTEGER NOT NULL REFERENCES StringIds(id), mangledName INTEGER REFERENCES StringIds(id),
  launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL,
  gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
  blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
  staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
  localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL,
  gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER, graphNodeId INTEGER,
  sharedMemoryLimitConfig INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER,
  streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER,
  srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER,
  dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER,
  virtualAddress INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER,
  streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER, memKind INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,
  eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER,
  nameId INTEGER NOT NULL REFERENCES StringIds(id), returnValue INTEGER NOT NULL,
  callchainId INTEGER);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,
  rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER,
  endGlobalTid INTEGER, textId INTEGER REFERENCES StringIds(id), domainId INTEGER,
  uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,
  int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData TEXT);
CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL REFERENCES StringIds(id),
  returnValue INTEGER NOT NULL, nestingLevel INTEGER, callchainId INTEGER);
CREATE TABLE GPU_METRICS (timestamp INTEGER NOT NULL, typeId INTEGER NOT NULL,
  metricId INTEGER NOT NULL, value INTEGER NOT NULL);
"""


def write_sqlite(path, ev, schema_version="3.15.1", steps=STEPS):
    if os.path.exists(path):
        os.unlink(path)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    strings = {}

    def sid(s):
        if s not in strings:
            strings[s] = len(strings) + 1
            db.execute("INSERT INTO StringIds VALUES (?, ?)", (strings[s], s))
        return strings[s]

    db.executemany("INSERT INTO META_DATA_EXPORT VALUES (?, ?)",
                   [("EXPORT_SCHEMA_VERSION", schema_version),
                    ("EXPORT_PRODUCT_VERSION", "2024.4.1.61")])
    db.execute("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (?, ?, ?)",
               (ORIGIN_NS, "2023-11-14T22:13:20.000Z", "2023-11-14T22:13:20.000"))
    for mid, mname in METRICS:
        db.execute("INSERT INTO TARGET_INFO_GPU_METRICS VALUES (?, ?, ?, ?, ?)",
                   (METRIC_TYPE, 0, "GA100 (0)", mid, mname))
    db.execute("INSERT INTO PROCESSES VALUES (?, ?, ?)", (GLOBAL_PID, PID, "python3"))
    db.execute("INSERT INTO ThreadNames VALUES (?, ?, ?)", (sid("python"), 0, GLOBAL_TID))
    # NVTX rows with their text inline (text) and registered (textId), both documented
    nvtx_registered = {"forward"}
    for e in ev:
        t = e["t"]
        if t == "kernel":
            n = sid(e["name"])
            db.execute(
                "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?,?,?,?,NULL,?,?,?,?,?,NULL,0,0,"
                "?,?,?,?,?,?,?,?,?,0,0,0,NULL,NULL,NULL)",
                (e["start"], e["end"], DEVICE, CONTEXT, e["stream"], e["corr"], GLOBAL_PID, n,
                 sid(e["name"].split("(")[0].split()[-1].split("<")[0]), e["regs"],
                 *e["grid"], *e["block"], *e["smem"]))
        elif t == "memcpy":
            db.execute(
                "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?,?,?,?,NULL,?,?,?,?,?,NULL,?,?,"
                "NULL,NULL,NULL,NULL,0,NULL,NULL)",
                (e["start"], e["end"], DEVICE, CONTEXT, e["stream"], e["corr"], GLOBAL_PID,
                 e["bytes"], e["kind"], e["src"], e["dst"]))
        elif t == "memset":
            db.execute(
                "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (?,?,?,?,NULL,?,?,?,0,?,NULL,?)",
                (e["start"], e["end"], DEVICE, CONTEXT, e["stream"], e["corr"], GLOBAL_PID,
                 e["bytes"], e["mem"]))
        elif t == "runtime":
            db.execute(
                "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,1,?,?,?,0,NULL)",
                (e["start"], e["end"], GLOBAL_TID, e["corr"], sid(e["api"])))
        elif t == "nvtx":
            if e["name"] in nvtx_registered:
                text, tid = None, sid(e["name"])
            else:
                text, tid = e["name"], None
            db.execute(
                "INSERT INTO NVTX_EVENTS (start, end, eventType, rangeId, text, globalTid, "
                "endGlobalTid, textId, domainId) VALUES (?,?,59,0,?,?,NULL,?,0)",
                (e["start"], e["end"], text, GLOBAL_TID, tid))
        elif t == "mark":
            db.execute(
                "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) "
                "VALUES (?,NULL,34,?,?,0)", (e["start"], e["name"], GLOBAL_TID))
        elif t == "osrt":
            db.execute("INSERT INTO OSRT_API VALUES (?,?,27,?,0,?,0,0,NULL)",
                       (e["start"], e["end"], GLOBAL_TID, sid(e["name"])))
    db.executemany("INSERT INTO GPU_METRICS VALUES (?,?,?,?)", metric_samples(steps))
    db.commit()
    db.execute("VACUUM")
    db.close()


# ---- the same run as a Kineto trace ----

def us(ns):
    """Kineto's microseconds; exact (every time of the run is a whole us)."""
    assert ns % 1000 == 0
    return ns // 1000


def api_name(api):
    return api.rsplit("_v", 1)[0]


def write_kineto(path, ev):
    out = []
    for e in ev:
        t = e["t"]
        base = {"ph": "X", "ts": us(e["start"])}
        if t in ("kernel", "memcpy", "memset"):
            args = {"device": DEVICE, "context": CONTEXT, "stream": e["stream"],
                    "correlation": e["corr"]}
            dur = e["end"] - e["start"]
            if t == "kernel":
                name, cat = e["name"], "kernel"
                args.update({"registers per thread": e["regs"], "shared memory": sum(e["smem"]),
                             "grid": list(e["grid"]), "block": list(e["block"])})
            else:
                if t == "memcpy":
                    name = "Memcpy %s (%s -> %s)" % (COPYKIND[e["kind"]], MEMKIND[e["src"]],
                                                     MEMKIND[e["dst"]])
                    cat = "gpu_memcpy"
                else:
                    name, cat = "Memset (%s)" % MEMKIND[e["mem"]], "gpu_memset"
                args["bytes"] = e["bytes"]
                bw = e["bytes"] / dur
                args["memory bandwidth (GB/s)"] = int(bw) if bw == int(bw) else bw
            out.append(dict(base, name=name, cat=cat, pid=DEVICE, tid=e["stream"],
                            dur=us(dur), args=args))
        elif t == "runtime":
            api = api_name(e["api"])
            out.append(dict(base, name=api, cat="cuda_runtime", pid=PID, tid=TID,
                            dur=us(e["end"] - e["start"]), args={"correlation": e["corr"]}))
        elif t == "nvtx":
            out.append(dict(base, name=e["name"], cat="user_annotation", pid=PID, tid=TID,
                            dur=us(e["end"] - e["start"])))
        elif t == "osrt":
            out.append(dict(base, name=e["name"], cat="os_runtime", pid=PID, tid=TID,
                            dur=us(e["end"] - e["start"])))
        elif t == "mark":
            out.append({"ph": "i", "s": "t", "name": e["name"], "cat": "user_annotation",
                        "pid": PID, "tid": TID, "ts": us(e["start"])})
    meta = [{"ph": "M", "name": "process_name", "pid": DEVICE, "tid": 0, "args": {"name": "GPU 0"}},
            {"ph": "M", "name": "process_name", "pid": PID, "tid": 0,
             "args": {"name": "python3"}},
            {"ph": "M", "name": "thread_name", "pid": PID, "tid": TID,
             "args": {"name": "python"}}]
    for s in (S_COMPUTE, S_COMM):
        meta.append({"ph": "M", "name": "thread_name", "pid": DEVICE, "tid": s,
                     "args": {"name": "stream %d" % s}})
    doc = {"schemaVersion": 1, "traceEvents": meta + out, "baseTimeNanoseconds": ORIGIN_NS}
    with open(path, "w") as f:
        json.dump(doc, f, indent=0)
        f.write("\n")


def main():
    args = sys.argv[1:]
    steps, version = STEPS, "3.15.1"
    if "--steps" in args:
        steps = int(args[args.index("--steps") + 1])
    if "--schema-version" in args:
        version = args[args.index("--schema-version") + 1]
    ev = events(steps)
    if "--events" in args:
        json.dump(ev, sys.stdout)
        return
    write_sqlite(args[0], ev, version, steps)
    write_kineto(args[1], ev)


if __name__ == "__main__":
    main()
