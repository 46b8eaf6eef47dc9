#!/usr/bin/env python3
"""Writes the MemoryTracer samples (FORMATS.md section 002) without a GPU.

The tracer itself needs CUDA, so this script replays its bookkeeping on a
synthetic event list: MemoryEvent dicts in dataclass field order, the
LayerMemoryStats / summary formulas of memory_tracer.py (6176cc5) and its
two exporters, with json.dump(indent=2) exactly as the tool calls it.

  memory_timeline.json     export_timeline(): events, layer_stats, summary
  memory_flame_graph.json  export_flame_graph(): speedscope, unit "megabytes"

Fragmentation is the current version's inactive_split / reserved, so it
differs from (reserved - allocated) / reserved (the README formula).
Usage: python3 make_sample.py  (writes next to this file)
"""
import json
import os

MIB = 1048576
HERE = os.path.dirname(os.path.abspath(__file__))

# (timestamp s, event_type, layer, allocated MiB, reserved MiB, inactive_split MiB)
# A small CNN (features.0 Conv2d, features.1 ReLU, features.2 MaxPool2d,
# classifier Linear), two forward passes.
RAW = [
    (0.0, "snapshot", "__start__", 10, 20, 2),
    (0.000412, "layer_enter", "features.0", 10, 20, 2),
    (0.00187, "layer_exit", "features.0", 18, 22, 2),
    (0.001904, "layer_enter", "features.1", 18, 22, 2),
    (0.002311, "layer_exit", "features.1", 26, 30, 4),
    (0.002345, "layer_enter", "features.2", 26, 30, 4),
    (0.00281, "layer_exit", "features.2", 22, 30, 6),
    (0.002851, "layer_enter", "classifier", 22, 30, 6),
    (0.003502, "layer_exit", "classifier", 23, 30, 6),
    (0.0051, "layer_enter", "features.0", 15, 30, 6),
    (0.0064, "layer_exit", "features.0", 23, 30, 4),
    (0.006431, "layer_enter", "features.1", 23, 30, 4),
    (0.0068, "layer_exit", "features.1", 31, 32, 1),
    (0.00683, "layer_enter", "features.2", 31, 32, 1),
    (0.0072, "layer_exit", "features.2", 27, 32, 4),
    (0.00723, "layer_enter", "classifier", 27, 32, 4),
    (0.0079, "layer_exit", "classifier", 28, 32, 4),
    (0.0081, "snapshot", "__end__", 12, 32, 8),
]


def events():
    out = []
    for ts, et, layer, a, r, inactive in RAW:
        alloc, res = a * MIB, r * MIB
        frag = (inactive * MIB) / res if res > 0 else 0.0
        out.append({"timestamp": ts, "event_type": et, "size_bytes": 0,
                    "layer_name": layer, "allocated_bytes": alloc,
                    "reserved_bytes": res, "fragmentation_ratio": frag})
    return out


def layer_stats(evs):
    by = {}
    for e in evs:
        if e["layer_name"] and not e["layer_name"].startswith("__"):
            by.setdefault(e["layer_name"], []).append(e)
    stats = {}
    for name, le in by.items():
        enters = [e for e in le if e["event_type"] == "layer_enter"]
        exits = [e for e in le if e["event_type"] == "layer_exit"]
        if enters and exits:
            dur = (max(e["timestamp"] for e in exits) - min(e["timestamp"] for e in enters)) * 1000
        else:
            dur = 0.0
        stats[name] = {
            "layer_name": name,
            "peak_allocated": max(e["allocated_bytes"] for e in le),
            "peak_reserved": max(e["reserved_bytes"] for e in le),
            "total_allocations": len(enters),
            "total_deallocations": len(exits),
            "avg_fragmentation": sum(e["fragmentation_ratio"] for e in le) / len(le),
            "duration_ms": dur,
        }
    return stats


def main():
    evs = events()
    stats = layer_stats(evs)
    summary = {
        "total_events": len(evs),
        "total_layers": len(stats),
        "peak_allocated_mb": max(e["allocated_bytes"] for e in evs) / (1024 ** 2) if evs else 0,
        "peak_reserved_mb": max(e["reserved_bytes"] for e in evs) / (1024 ** 2) if evs else 0,
        "avg_fragmentation": sum(e["fragmentation_ratio"] for e in evs) / len(evs) if evs else 0.0,
    }
    with open(os.path.join(HERE, "memory_timeline.json"), "w") as f:
        json.dump({"events": evs, "layer_stats": stats, "summary": summary}, f, indent=2)

    # export_flame_graph: frames from a set (its order is hash-randomized; this
    # is one such order, deliberately not sorted and not first-seen order).
    names = ["features.2", "__end__", "classifier", "__start__", "features.0", "features.1"]
    index = {n: i for i, n in enumerate(names)}
    flame = {
        "$schema": "https://www.speedscope.app/file-format-schema.json",
        "version": "0.0.1",
        "shared": {"frames": [{"name": n, "file": "memory_trace", "line": 0, "col": 0}
                              for n in names]},
        "profiles": [{
            "type": "sampled",
            "name": "Memory Usage",
            "unit": "megabytes",
            "startValue": 0,
            "endValue": len(evs),
            "samples": [[index[e["layer_name"]]] for e in evs],
            "weights": [e["allocated_bytes"] / (1024 * 1024) for e in evs],
        }],
        "name": "PyTorch Memory Trace",
        "activeProfileIndex": 0,
        "exporter": "gpu_optimizer.memory_tracer",
    }
    with open(os.path.join(HERE, "memory_flame_graph.json"), "w") as f:
        json.dump(flame, f, indent=2)


if __name__ == "__main__":
    main()
