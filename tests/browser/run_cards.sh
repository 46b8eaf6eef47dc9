#!/bin/sh
# run_cards.sh - the first screen of profreport's pages in headless chromium
# (check_cards.js): the first card is the primary quantity (GPU busy on a GPU page, else
# the primary memory series' peak under its label), no peak card for a series that stays
# at 0 B, and the GPU-busy card reads what the GPU section says. Run by ctest as
# browser/cards (tests/browser.cmake). Exit 77 (skip) without chromium, node or
# tests/browser/node_modules.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
browser_setup cards
rc=0
check() { node "$here/check_cards.js" "$@" || rc=1; }
q=$PR_SAMPLES/qnn/memory_20241219_143000
"$PROFREPORT" report "$q.csv" --phases "$q.phases.log" -q -o "$tmp/qnn.html"
# swap_total_kb = swap_free_kb = 0 in every row: sys.swap.used is 0 B throughout
check "$tmp/qnn.html" --first "Peak Used memory" --absent sys.swap.used
"$PROFREPORT" report "$PR_SAMPLES/massif/massif.out.12345" -q -o "$tmp/massif.html"
# mem_stacks_B=0 in every snapshot
check "$tmp/massif.html" --first "Peak Heap used" --absent stack.used
"$PROFREPORT" report "$PR_SAMPLES/psutil/process_log.csv" -q -o "$tmp/psutil.html"
check "$tmp/psutil.html" --first "Peak Process RSS"
"$PROFREPORT" report "$PR_SAMPLES/torch-memory-timeline/memory_timeline.json" -q -o "$tmp/memtl.html"
check "$tmp/memtl.html" --first "Peak Total (all categories)"
# kernels on the GPU: GPU busy first, as the GPU section says
"$PROFREPORT" report "$PR_SAMPLES/torch/trace_rank0.pt.trace.json" -q -o "$tmp/torch.html"
check "$tmp/torch.html" --first "GPU busy"
nccl=${PR_TRACES:-$here/../data/traces}/hta/nccl_parser_config/nccl_data.json.gz
if [ -f "$nccl" ]; then
	"$PROFREPORT" report "$nccl" -q -o "$tmp/nccl.html"
	# tests/data/traces/README.md: GPU busy (kernel + memcpy + memset union) 23.84 %
	check "$tmp/nccl.html" --first "GPU busy" --gpu-busy 23.84
fi
exit $rc
