#pragma once
// The subcommands of sieve-bench. Each lives in its own file and returns the process exit code.
namespace bench {

// sieve-bench prim ...: reduce, scan and compaction from files or timed (prim_cli.cpp).
int primMain(int argc, char** argv);

// Scenario benchmarks (JSON lines; bench/RESULTS.md):
int hizMain(int argc, char** argv);          // hiz_bench.cpp: Hi-Z pyramid builders vs depth copies
int cullMain(int argc, char** argv);         // cull_bench.cpp: culling passes per N, stable vs atomic lists
int cpuMain(int argc, char** argv);          // cpu_bench.cpp: host frustum culling + per-draw recording baseline
int frameMain(int argc, char** argv);        // frame_bench.cpp: whole frames, culling on vs off
int clusterMain(int argc, char** argv);      // cluster_bench.cpp: the dense scene, instance vs cluster culling
int multiviewMain(int argc, char** argv);    // multiview_bench.cpp: 1 + C views in one plugin vs separate plugins
int kittenMain(int argc, char** argv);       // kitten_bench.cpp: cull's measurement on niagara's kitten field
int shaderStatsMain(int argc, char** argv);  // shader_stats.cpp: the driver's statistics of the compute pipelines

}  // namespace bench
