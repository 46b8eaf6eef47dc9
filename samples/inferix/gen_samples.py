#!/usr/bin/env python3
"""gen_samples.py - synthetic Inferix profiler output (FORMATS.md section 001).

Writes, next to this script:
  profiling_report_t2v_generation_20231114_221332.json   (ProfilingReporter JSON report)
  raw_profiling_data_t2v_generation_20231114_221332.json (save_raw_data=True)
  multirank/rank_<R>/profiling_report_t2v_generation_<ts>.json for R = 0, 1, 2
    (the self_forcing example's multi-rank layout; tags.rank deliberately
    left out of rank 2 so the directory name is the only rank source)

The numbers are made up (no GPU here), but every section is computed with the
reporter's own rules (reporter.py, as documented in FORMATS.md), including its
bugs (energy * N, fps per step), and written with json.dump(indent=2,
default=str) like the reporter. Deterministic: no clock, no randomness.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1700000000.0


def stats(vals):
    return min(vals), max(vals), sum(vals) / len(vals)


def session(rank=0, world_size=1, ulysses=1, ring=1, with_rank_tag=True, slow=1.0):
    """Returns (events, stages, gpu snapshots, cpu snapshots, end) of one synthetic session."""
    events = []
    stages = {}

    def stage(name, a, b):
        st = stages.setdefault(name, {"total_time": 0.0, "call_count": 0,
                                      "min_time": float("inf"), "max_time": 0.0})
        d = b - a
        st["total_time"] += d
        st["call_count"] += 1
        st["min_time"] = min(st["min_time"], d)
        st["max_time"] = max(st["max_time"], d)

    def ev(name, t, data):
        events.append({"name": name, "timestamp": T0 + t, "data": data})

    ev("checkpoint_loaded", 1.75, {"checkpoint_path": "ckpts/self_forcing_dmd.pt", "use_ema": True})
    ev("model_parameters", 1.875, {"model_name": "WanDiffusionGenerator",
                                   "parameters_count": 1300000000, "model_type": "diffusion"})
    ev("model_parameters", 1.9375, {"model_name": "WanTextEncoder",
                                    "parameters_count": 5680000000, "model_type": "text_encoder"})
    stage("model_loading", 0.0, 2.0)
    stage("text_encoding", 2.0, 2.5)
    t = 2.5
    inf_start = t
    step_ms = [250.0, 240.5, 245.25, 238.0]
    timesteps = [1.0, 0.75, 0.5, 0.25]
    for b in range(2):
        b_start = t
        for s, (ms, ts) in enumerate(zip(step_ms, timesteps)):
            ms = round(ms * slow + b * 3.5, 3)
            t = t + ms / 1000.0
            ev("diffusion_step", t, {"step": s, "timestep": ts, "block_size": 3,
                                     "computation_time_ms": ms, "guidance_scale": None})
            ev("layer_computation", t - 0.01 - 0.04 * slow, {"layer_name": "attention",
                                                             "computation_time_ms": 150.0 * slow,
                                                             "parameters_count": 52428800})
            ev("layer_computation", t - 0.01, {"layer_name": "ffn", "computation_time_ms": 40.0 * slow,
                                               "parameters_count": 104857600})
        t += 0.0125
        ev("cache_event", t, {"event_type": "hits" if b else "misses", "cache_size": 4096,
                              "requested_size": 1024, "evicted_size": 0})
        ev("block_computation", t, {"block_index": b, "block_size": 3,
                                    "computation_time_ms": round((t - b_start) * 1000.0, 6),
                                    "memory_usage_mb": 20480.5 + 9.5 * b})
        stage("diffusion_block", b_start, t)
    stage("run_inference", inf_start, t)
    v0 = t
    t += 1.0
    stage("vae_decode", v0, t)
    ev("generation_completed", t, {"output_shape": "torch.Size([1, 6, 3, 480, 832])"})
    end = t + 0.25

    gpus = []
    i = 0
    while 0.5 * i <= end:
        ts = 0.5 * i
        util = 0 if ts < 2.0 else (95 if ts < v0 else 60)
        used = 20000 + (200 if ts >= 2.5 else 0) + 10 * (i % 3)
        gpus.append({"t": ts, "used": used, "total": 81559, "util": util,
                     "temp": 55 + min(i, 10), "power": 80.5 + 2.25 * util})
        i += 1
    cpus = []
    i = 0
    while 1.0 * i + 0.25 <= end:
        ts = 1.0 * i + 0.25
        cpus.append({"t": ts, "cpu": [12.5, 30.0, 18.75, 22.5][i % 4] + rank,
                     "used": 12840 + 40 * i, "total": 32768})
        i += 1
    tags = {"experiment": "demo", "mode": "text_to_video", "num_prompts": 1, "num_output_frames": 6,
            "num_samples": 1}
    if with_rank_tag:
        tags["rank"] = rank
    tags.update({"local_rank": rank, "world_size": world_size, "ulysses_size": ulysses,
                 "ring_size": ring})
    return events, stages, gpus, cpus, end, tags


def report(events, stages, gpus, cpus, end, tags, sid="t2v_generation"):
    rep = {"session_info": {"id": sid, "start_time": T0, "end_time": T0 + end, "duration": end,
                            "tags": tags, "generated_at": T0 + end + 0.62}}
    used = [g["used"] for g in gpus]
    util = [g["util"] for g in gpus]
    temp = [g["temp"] for g in gpus]
    power = [g["power"] for g in gpus]
    cpu = [c["cpu"] for c in cpus]
    mem = [c["used"] for c in cpus]
    summary = {}
    summary["gpu"] = {"peak_memory_usage_mb": max(used), "avg_memory_usage_mb": sum(used) / len(used),
                      "peak_memory_utilization": max(used) / max(gpus[0]["total"], 1) * 100,
                      "avg_gpu_utilization": sum(util) / len(util), "peak_gpu_utilization": max(util)}
    summary["cpu"] = {"avg_cpu_usage": sum(cpu) / len(cpu), "peak_cpu_usage": max(cpu),
                      "avg_memory_usage_mb": sum(mem) / len(mem), "peak_memory_usage_mb": max(mem)}
    rep["summary"] = summary
    avg_u = sum(util) / len(util)
    var = sum((u - avg_u) ** 2 for u in util) / len(util)
    rep["gpu_metrics"] = {
        "total_samples": len(gpus),
        "timeline": [{"timestamp": T0 + g["t"], "memory_used_mb": g["used"], "memory_total_mb": g["total"],
                      "utilization": g["util"], "temperature": g["temp"], "power": g["power"]} for g in gpus],
        "memory_analysis": {"peak_usage_mb": max(used), "avg_usage_mb": sum(used) / len(used),
                            "min_usage_mb": min(used), "total_memory_mb": gpus[0]["total"],
                            "peak_utilization_percent": max(used) / gpus[0]["total"] * 100},
        "utilization_analysis": {"peak_utilization": max(util), "avg_utilization": avg_u,
                                 "min_utilization": min(util),
                                 "utilization_efficiency": min(100, (avg_u + max(0, 100 - var)) / 2)},
        "temperature_analysis": {"peak_temperature": max(temp), "avg_temperature": sum(temp) / len(temp),
                                 "min_temperature": min(temp), "thermal_throttling_risk": max(temp) > 85},
        "power_analysis": {"peak_power_watts": max(power), "avg_power_watts": sum(power) / len(power),
                           "total_energy_wh": sum(power) * len(power) * 0.5 / 3600},
    }
    rep["cpu_metrics"] = {
        "total_samples": len(cpus),
        "timeline": [{"timestamp": T0 + c["t"], "cpu_usage": c["cpu"], "memory_used_mb": c["used"],
                      "memory_total_mb": c["total"]} for c in cpus],
        "cpu_analysis": {"peak_usage": max(cpu), "avg_usage": sum(cpu) / len(cpu), "min_usage": min(cpu)},
        "memory_analysis": {"peak_usage_mb": max(mem), "avg_usage_mb": sum(mem) / len(mem),
                            "min_usage_mb": min(mem), "total_memory_mb": cpus[0]["total"],
                            "peak_utilization_percent": max(mem) / cpus[0]["total"] * 100},
    }
    total = sum(s["total_time"] for s in stages.values())
    sa = {"total_stages": len(stages), "total_time": total, "stages": {}, "bottlenecks": []}
    for name, s in stages.items():
        pct = s["total_time"] / total * 100
        sa["stages"][name] = {"total_time": s["total_time"], "call_count": s["call_count"],
                              "avg_time": s["total_time"] / max(s["call_count"], 1),
                              "min_time": s["min_time"], "max_time": s["max_time"],
                              "percentage_of_total": pct}
        if pct > 30:
            sa["bottlenecks"].append({"stage": name, "percentage": pct, "total_time": s["total_time"]})
    sa["bottlenecks"].sort(key=lambda b: b["percentage"], reverse=True)
    rep["stage_analysis"] = sa
    rep["events"] = events
    rep["recommendations"] = []

    layers = {}
    for e in events:
        if e["name"] == "layer_computation":
            layers.setdefault(e["data"]["layer_name"], []).append(e["data"]["computation_time_ms"])
    if layers:
        perf = {}
        for n, v in layers.items():
            perf[n] = {"avg_time_ms": sum(v) / len(v), "min_time_ms": min(v), "max_time_ms": max(v),
                       "total_time_ms": sum(v), "call_count": len(v)}
        lt = sum(p["total_time_ms"] for p in perf.values())
        bn = [{"layer": n, "percentage": p["total_time_ms"] / lt * 100, "total_time_ms": p["total_time_ms"]}
              for n, p in perf.items() if p["total_time_ms"] / lt * 100 > 30]
        bn.sort(key=lambda b: b["percentage"], reverse=True)
        rep["computation_analysis"] = {"layer_performance": perf, "bottlenecks": bn}
    cache = {"hits": 0, "misses": 0, "evictions": 0, "total_requests": 0}
    for e in events:
        if e["name"] == "cache_event":
            cache["total_requests"] += 1
            if e["data"]["event_type"] in cache:
                cache[e["data"]["event_type"]] += 1
    if cache["total_requests"]:
        n = cache["total_requests"]
        rep["cache_analysis"] = {"cache_performance": cache,
                                 "cache_efficiency": {"hit_rate": cache["hits"] / n, "miss_rate": cache["misses"] / n,
                                                      "eviction_rate": cache["evictions"] / n}}
    else:
        rep["cache_analysis"] = {}
    steps = [e["data"] for e in events if e["name"] == "diffusion_step"]
    if steps:
        ms = [s["computation_time_ms"] for s in steps]
        tsv = [s["timestep"] for s in steps]
        bs = [s["block_size"] for s in steps]
        tot = sum(ms)
        rep["diffusion_analysis"] = {
            "total_steps": len(steps), "steps": steps, "total_computation_time_ms": tot,
            "avg_computation_time_ms": tot / len(ms), "min_computation_time_ms": min(ms),
            "max_computation_time_ms": max(ms), "avg_timestep": sum(tsv) / len(tsv), "min_timestep": min(tsv),
            "max_timestep": max(tsv), "avg_block_size": sum(bs) / len(bs), "min_block_size": min(bs),
            "max_block_size": max(bs), "total_frames": sum(bs),
            "fps": sum(bs) / (tot / 1000) if tot > 0 else 0, "bps": len(steps) / (tot / 1000) if tot > 0 else 0}
    models, total_params = {}, 0
    for e in events:
        if e["name"] == "model_parameters":
            d = e["data"]
            models[d["model_name"]] = {"parameters_count": d["parameters_count"], "model_type": d["model_type"]}
            total_params += d["parameters_count"]
    if models:
        if total_params >= 1e9:
            readable = f"{total_params / 1e9:.1f}B"
        elif total_params >= 1e6:
            readable = f"{total_params / 1e6:.1f}M"
        else:
            readable = f"{total_params:,}"
        rep["model_analysis"] = {"models": models, "total_parameters": total_params,
                                 "total_parameters_readable": readable}
    blocks = [e["data"] for e in events if e["name"] == "block_computation"]
    if blocks:
        ms = [b["computation_time_ms"] for b in blocks]
        bs = [b["block_size"] for b in blocks]
        mm = [b["memory_usage_mb"] for b in blocks]
        tot = sum(ms)
        rep["block_analysis"] = {
            "total_blocks": len(blocks), "blocks": blocks, "total_computation_time_ms": tot,
            "avg_computation_time_ms": tot / len(ms), "min_computation_time_ms": min(ms),
            "max_computation_time_ms": max(ms), "avg_block_size": sum(bs) / len(bs), "min_block_size": min(bs),
            "max_block_size": max(bs), "total_frames": sum(bs), "avg_memory_usage_mb": sum(mm) / len(mm),
            "peak_memory_usage_mb": max(mm), "min_memory_usage_mb": min(mm),
            "fps": sum(bs) / (tot / 1000) if tot > 0 else 0, "bps": len(blocks) / (tot / 1000) if tot > 0 else 0}

    recs = []
    g = summary.get("gpu", {})
    if g and g["peak_memory_utilization"] > 90:
        recs.append(("GPU Memory", "High", f"Peak GPU memory utilization is {g['peak_memory_utilization']:.1f}%",
                     "Consider reducing batch size, enabling gradient checkpointing, or using mixed precision training to reduce memory usage."))
    if g and g["avg_gpu_utilization"] < 50:
        recs.append(("GPU Utilization", "Medium", f"Average GPU utilization is only {g['avg_gpu_utilization']:.1f}%",
                     "Consider increasing batch size, optimizing data loading, or reducing CPU bottlenecks to better utilize GPU."))
    for b in sa["bottlenecks"][:3]:
        if b["stage"] != "run_inference":
            recs.append(("Performance Bottleneck", "High", f"Stage '{b['stage']}' takes {b['percentage']:.1f}% of total time",
                         f"Focus optimization efforts on the '{b['stage']}' stage as it's a major bottleneck."))
    for b in rep.get("computation_analysis", {}).get("bottlenecks", [])[:3]:
        recs.append(("Computation Bottleneck", "High", f"Layer '{b['layer']}' takes {b['percentage']:.1f}% of total computation time",
                     f"Consider optimizing '{b['layer']}' layer computation or redistributing workload."))
    da = rep.get("diffusion_analysis")
    if da and da["total_steps"] > 30:
        recs.append(("Diffusion Steps", "High", f"Using {da['total_steps']} diffusion steps",
                     "Consider reducing steps to 20-30 to improve generation speed."))
    ba = rep.get("block_analysis")
    if ba and ba["avg_block_size"] > 8:
        recs.append(("Block Size", "Medium", f"Average block size is {ba['avg_block_size']:.1f} frames",
                     "Consider reducing block size to improve latency and memory usage. Smaller blocks enable better streaming performance."))
    if da and da["fps"] < 10:
        recs.append(("Generation Speed", "High", f"Current FPS is {da['fps']:.1f}",
                     "Current generation speed is below real-time requirements. Consider optimizing the model or reducing the computational load to achieve at least 16 FPS for smooth video generation."))
    if da and da["bps"] < 2:
        recs.append(("Block Processing", "Medium", f"Current BPS is {da['bps']:.1f}",
                     "Current block processing speed is relatively slow. Consider optimizing block processing or using parallel processing to improve throughput."))
    delay = ba["blocks"][0]["computation_time_ms"] / 1000 if ba else None
    if delay:
        recs.append(("Latency Optimization", "Medium", f"First-block delay is {delay:.2f} seconds",
                     "The time to generate the first video block is significant. Consider optimizing initialization or using smaller block sizes to reduce initial latency."))
    ws = tags.get("world_size", 1)
    if ws > 1:
        parts = []
        if tags.get("ulysses_size", 1) > 1:
            parts.append(f"Ulysses ({tags['ulysses_size']} GPUs)")
        if tags.get("ring_size", 1) > 1:
            parts.append(f"Ring ({tags['ring_size']} GPUs)")
        strategy = " and ".join(parts) if parts else "Data Parallel"
        recs.append(("Multi-GPU Scaling", "Medium", f"Using {ws} GPUs with {strategy} strategy",
                     "You're already using multi-GPU parallelization. For better scaling, consider: 1) Experimenting with different ulysses/ring combinations based on your GPU interconnect bandwidth; 2) Exploring advanced parallelization strategies like block-parallel or timestep-parallel; 3) Note that scaling is not perfectly linear due to communication overhead."))
        recs.append(("Advanced Parallelization", "Low", "Opportunity for more sophisticated parallel strategies",
                     "Consider implementing more advanced parallelization: 1) Block-parallel: Process different video blocks on different GPUs; 2) Timestep-parallel: Pipeline diffusion timesteps across GPUs; 3) Hybrid approaches: Combine block and timestep parallelization for optimal throughput."))
    else:
        recs.append(("Multi-GPU Scaling", "Medium", "Using single GPU",
                     "Consider using multiple GPUs to accelerate generation. You can use Ulysses parallel (for attention computation) and Ring parallel (for sequence processing) in various combinations depending on your GPU interconnect bandwidth."))
    rep["recommendations"] = [{"category": c, "priority": p, "issue": i, "suggestion": s} for c, p, i, s in recs]
    return rep


def raw(gpus, cpus, end, sid="t2v_generation"):
    gd = []
    for g in gpus:
        dev = {"device_id": 0, "memory_used_mb": g["used"], "memory_total_mb": g["total"],
               "memory_free_mb": g["total"] - g["used"],
               "memory_utilization_percent": g["used"] / g["total"] * 100,
               "utilization_percent": g["util"], "memory_util_percent": g["util"] // 3,
               "temperature_celsius": g["temp"], "power_watts": g["power"],
               "graphics_clock_mhz": 1755, "memory_clock_mhz": 2619,
               "device_name": "NVIDIA H100 80GB HBM3",
               "torch_memory_allocated_mb": g["used"] - 1024.0, "torch_memory_reserved_mb": g["used"] - 512.0,
               "torch_device_name": "NVIDIA H100 80GB HBM3", "torch_total_memory_mb": 81004.0}
        gd.append({"timestamp": T0 + g["t"], "metrics": {
            "gpu_devices": {"gpu_0": dev}, "total_gpu_memory_used_mb": g["used"],
            "total_gpu_memory_total_mb": g["total"], "max_gpu_utilization": g["util"],
            "max_gpu_temperature": g["temp"], "total_gpu_power_watts": g["power"]}})
    cd = []
    for c in cpus:
        cd.append({"timestamp": T0 + c["t"], "metrics": {
            "cpu_usage_percent": c["cpu"], "cpu_per_core_percent": [c["cpu"] + 5.0, c["cpu"] - 5.0],
            "cpu_core_count": 2, "memory_total_mb": c["total"], "memory_used_mb": c["used"],
            "memory_available_mb": c["total"] - c["used"], "memory_usage_percent": c["used"] / c["total"] * 100,
            "cpu_freq_current_mhz": 2450.0, "cpu_freq_max_mhz": 3500.0,
            "load_average_1min": 1.25, "load_average_5min": 0.75, "load_average_15min": 0.5}})
    return {"session_id": sid, "gpu_data": gd, "cpu_data": cd, "saved_at": T0 + end + 0.7}


def dump(obj, *parts):
    path = os.path.join(HERE, *parts)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=2, default=str)


def main():
    ev, st, g, c, end, tags = session()
    dump(report(ev, st, g, c, end, tags), "profiling_report_t2v_generation_20231114_221332.json")
    dump(raw(g, c, end), "raw_profiling_data_t2v_generation_20231114_221332.json")
    for r in range(3):
        ev, st, g, c, end, tags = session(rank=r, world_size=3, ulysses=1, ring=3,
                                          with_rank_tag=r != 2, slow=1.0 + 0.125 * r)
        dump(report(ev, st, g, c, end, tags), "multirank", f"rank_{r}",
             f"profiling_report_t2v_generation_2023111422133{2 + r}.json".replace("2023111422133", "20231114_22133"))


if __name__ == "__main__":
    main()
