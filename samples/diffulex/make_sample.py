#!/usr/bin/env python3
"""make_sample.py - write a synthetic Diffulex profiler export set.

Reproduces what diffulex_profiler (SJTU-DENG-Lab/Diffulex at 0324980, see
../shared/FORMATS.md section 003) writes for profiler.export(BASE) with
export_formats=["json", "csv", "summary"]: PerformanceMetrics.to_dict()
key order, JSONExporter (json.dump indent=2, summary block), CSVExporter
(csv.DictWriter, sorted dynamic header, CRLF) and SummaryExporter (the text
report, lines joined with "\\n", no trailing newline). The numbers are made
up (no GPU, no Diffulex engine here); the shapes are exact.

usage: python3 make_sample.py [BASE]     (default: profile_20250101_120000)
       python3 make_sample.py --pytorch BASE   (pytorch backend, json+summary)
       python3 make_sample.py --truncated BASE (a metadata value json cannot
                                                 serialize: the .json is cut)
"""
import csv
import json
import sys


class Section:
    def __init__(self, name, duration, metadata=None, tokens=0, tps=0.0, gpu=0.0, mem=0.0,
                 custom=None, backend=None):
        self.name = name
        self.duration = duration
        self.metadata = metadata or {}
        self.total_tokens = tokens
        self.throughput_tokens_per_sec = tps
        self.gpu_utilization = gpu
        self.memory_delta_mb = mem
        self.custom_metrics = custom or {}
        self.backend_data = backend if backend is not None else {}

    def to_dict(self):
        return {
            "name": self.name,
            "metadata": self.metadata,
            "duration_sec": self.duration,
            "total_tokens": self.total_tokens,
            "throughput_tokens_per_sec": self.throughput_tokens_per_sec,
            "gpu_utilization": self.gpu_utilization,
            "memory_delta_mb": self.memory_delta_mb,
            "custom_metrics": self.custom_metrics,
            "backend_data": self.backend_data,
        }


def simple(name, d):
    return {"duration_sec": d, "name": name}


def write_json(metrics, base):
    total_duration = sum(m.duration for m in metrics if m.duration)
    total_tokens = sum(m.total_tokens for m in metrics if m.total_tokens)
    data = {
        "metrics": [m.to_dict() for m in metrics],
        "summary": {
            "total_sections": len(metrics),
            "total_duration_sec": total_duration,
            "total_tokens": total_tokens,
            "avg_throughput_tokens_per_sec": (
                total_tokens / total_duration if total_duration > 0 else 0),
        },
    }
    with open(base + ".json", "w") as f:
        try:
            json.dump(data, f, indent=2)
        except TypeError as e:  # what the profiler logs and swallows
            print("Failed to export using JSONExporter: %s" % e, file=sys.stderr)


def write_csv(metrics, base):
    fieldnames = set(["name", "duration_sec", "total_tokens", "throughput_tokens_per_sec"])
    for m in metrics:
        fieldnames.update(m.custom_metrics.keys())
        if m.metadata:
            fieldnames.update("metadata_%s" % k for k in m.metadata.keys())
    fieldnames = sorted(list(fieldnames))
    with open(base + ".csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fieldnames)
        writer.writeheader()
        for m in metrics:
            row = {"name": m.name, "duration_sec": m.duration, "total_tokens": m.total_tokens,
                   "throughput_tokens_per_sec": m.throughput_tokens_per_sec}
            row.update(m.custom_metrics)
            for k, v in m.metadata.items():
                row["metadata_%s" % k] = v
            writer.writerow(row)


def write_summary(metrics, base):
    lines = ["=" * 80, "Diffulex Profiling Summary", "=" * 80, ""]
    total_duration = sum(m.duration for m in metrics if m.duration)
    total_tokens = sum(m.total_tokens for m in metrics if m.total_tokens)
    avg = total_tokens / total_duration if total_duration > 0 and total_tokens > 0 else 0
    lines.append(f"Total Sections: {len(metrics)}")
    lines.append(f"Total Duration: {total_duration:.2f} seconds")
    lines.append(f"Total Tokens: {total_tokens}")
    lines.append(f"Average Throughput: {avg:.2f} tokens/sec")
    lines.append("")
    lines += ["-" * 80, "Section Details:", "-" * 80]
    for m in metrics:
        lines.append(f"\nSection: {m.name}")
        lines.append(f"  Duration: {m.duration:.4f} seconds")
        if m.total_tokens > 0:
            lines.append(f"  Tokens: {m.total_tokens}")
            lines.append(f"  Throughput: {m.throughput_tokens_per_sec:.2f} tokens/sec")
        if m.gpu_utilization != 0:
            lines.append(f"  GPU Utilization: {m.gpu_utilization:.2f}%")
        if m.memory_delta_mb != 0:
            lines.append(f"  Memory Delta: {m.memory_delta_mb:.2f} MB")
        if m.custom_metrics:
            lines.append(f"  Custom Metrics: {m.custom_metrics}")
        if m.metadata:
            lines.append(f"  Metadata: {m.metadata}")
        b = m.backend_data
        if b and b.get("backend") == "viztracer":
            lines.append(f"  VizTracer Output: {b.get('output_file', 'N/A')}")
        if b and b.get("backend") == "pytorch":
            lines.append(f"  PyTorch Trace: {b.get('trace_file', 'N/A')}")
            lines.append(f"  PyTorch Stacks: {b.get('stacks_file', 'N/A')}")
            lines.append(f"  PyTorch Top Table: {b.get('top_table_file', 'N/A')}")
    lines.append("")
    lines.append("=" * 80)
    with open(base + ".txt", "w") as f:
        f.write("\n".join(lines))


def simple_run():
    return [
        # collect_memory_metrics: psutil saw system RAM grow while weights loaded
        Section("model_loading", 0.050258119000034185, mem=512.25,
                backend=simple("model_loading", 0.05026344599998645)),
        # the README pattern: record_throughput() inside profile() records nothing
        Section("decode", 0.10018276400001014, {"num_prompts": 2, "batch_size": 10},
                custom={"num_outputs": 2, "avg_diff_steps": 37.5},
                backend=simple("decode", 0.10018845500002271)),
        # record_throughput(1000, duration=0.5): throughput uses 0.5 s, not the section's
        Section("batch_0", 0.020144275000006928, {"batch_size": 4}, tokens=1000, tps=2000.0,
                gpu=12.0, mem=-3.5, backend=simple("batch_0", 0.02014582800001108)),
        # explicit duration equal to the section's; metadata with a list, a bool, a
        # string with a comma and a non-ASCII character; gpu delta negative
        Section("batch_1", 0.25, {"batch_size": 4, "prompt_lens": [12, 40], "greedy": True,
                                  "model": "dream, v0 \u00e9"},
                tokens=512, tps=2048.0, gpu=-7.0,
                custom={"accept_rate": 0.8125, "stop": None},
                backend=simple("batch_1", 0.2500113)),
    ]


def pytorch_run():
    def pt(name, summary=True):
        d = {"backend": "pytorch", "trace_file": f"log/profiles/pytorch_trace_{name}.json",
             "stacks_file": f"log/profiles/pytorch_stacks_{name}.stacks",
             "top_table_file": None, "name": name}
        if summary:
            d["summary"] = {"total_events": 18234, "cpu_time_total_ms": 812.5,
                            "cuda_time_total_ms": 0.0}
        return d
    return [
        Section("diffulex.generate(profiled)", 1.2345678901234, {"tag": "d2f"},
                backend=pt("diffulex.generate(profiled)")),
        Section("warmup", 0.5, gpu=0, backend=pt("warmup", summary=False)),
    ]


class Opaque:
    pass


def main(argv):
    mode = "simple"
    if argv and argv[0] in ("--pytorch", "--truncated"):
        mode = argv.pop(0)[2:]
    base = argv[0] if argv else "profile_20250101_120000"
    if mode == "pytorch":
        m = pytorch_run()
        write_json(m, base)
        write_summary(m, base)
        return
    m = simple_run()
    if mode == "truncated":
        m[2].metadata["tokenizer"] = Opaque()
        write_json(m, base)
        return
    write_json(m, base)
    write_csv(m, base)
    write_summary(m, base)


if __name__ == "__main__":
    main(sys.argv[1:])
