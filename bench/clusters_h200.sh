#!/usr/bin/env bash
# One device session for cluster culling (bench/RESULTS.md, "Clusters (H200)"): the cluster GPU tests with
# validation and synchronization validation (the mesh-shader path included), then bench/run_clusters.sh,
# with the clocks logged before and after (read only). Run from the bundle folder: bin/ holds sieve-bench
# and sieve_gpu_tests. Output under $1.
set -uo pipefail
out=${1:?usage: $0 OUT_DIR}
clocks() { nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader; }
echo "clocks before: $(clocks)" | tee "$out/clocks.txt"
SIEVE_SYNC_VALIDATION=1 timeout 180 ./sieve_gpu_tests --gtest_filter='Cluster*:CullingPlugin*:GraphExecutor*' \
    >"$out/gpu_tests.log" 2>&1
echo "gpu tests exit $?" | tee -a "$out/clocks.txt"
grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |clusters \]" "$out/gpu_tests.log"
./run_clusters.sh "$out/h200_clusters.jsonl" ./sieve-bench 2>&1 | tee "$out/bench.log"
echo "clocks after: $(clocks)" | tee -a "$out/clocks.txt"
