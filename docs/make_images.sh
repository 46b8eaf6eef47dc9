#!/bin/sh
# make_images.sh - renders the README's panel images with profreport itself
# (run from the repository root after building: sh docs/make_images.sh).
set -eu
P=${PROFREPORT:-./build/cli/profreport}
out=docs/img
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
render() { # SAMPLE PANEL NAME
	rm -rf "$tmp/p" && mkdir "$tmp/p"
	"$P" report "samples/$1" --png "$tmp/p"
	cp "$tmp/p/$2.png" "$out/$3.png"
}
render qeff/qeff_profile.json memory qeff-memory
render qeff/qeff_profile.json cpu qeff-cpu
render qeff/qeff_profile.json disk qeff-disk
render qnn/memory_20241219_143000.csv pressure qnn-pressure
render torch/trace_rank0.pt.trace.json memory torch-memory
render memtracer/memory_timeline.json device_memory memtracer-fragmentation
render inferix/profiling_report_t2v_generation_20231114_221332.json gpu_util inferix-gpu-util
