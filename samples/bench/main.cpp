// sieve-bench: dispatches to a subcommand (see subcommands.h).
#include <cstdio>
#include <cstring>

#include "subcommands.h"

namespace {

struct Subcommand {
    const char* name;
    int (*run)(int argc, char** argv);
    const char* summary;
};

const Subcommand kSubcommands[] = {
    {"prim", bench::primMain, "GPU reduce / exclusive scan / stable compaction: file in/out, or timed"},
    {"hiz", bench::hizMain, "Hi-Z min/max pyramid: single dispatch vs per mip, depth copies as peers"},
    {"cull", bench::cullMain, "culling passes per instance count on the city, stable vs atomic draw lists"},
    {"cpu", bench::cpuMain, "CPU frustum culling + one draw call per instance vs the GPU culling pipeline"},
    {"frame", bench::frameMain, "whole-frame GPU time of the city, culling on vs off"},
    {"clusters", bench::clusterMain, "the dense scene: instance culling vs clusters (indirect, mesh shaders)"},
    {"multiview", bench::multiviewMain, "camera + shadow cascades: one plugin vs single view vs separate plugins"},
    {"kitten", bench::kittenMain, "culling passes on niagara's scene: N kittens placed as niagara places them"},
    {"shaders", bench::shaderStatsMain, "the driver's statistics of the culling's compute pipelines (registers, ...)"},
};

void usage(FILE* to) {
    std::fprintf(to, "usage: sieve-bench <subcommand> [options]   (sieve-bench <subcommand> --help)\n\nsubcommands:\n");
    for (const auto& s : kSubcommands) std::fprintf(to, "  %-9s %s\n", s.name, s.summary);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    for (const auto& s : kSubcommands)
        if (!std::strcmp(argv[1], s.name)) return s.run(argc - 1, argv + 1);
    std::fprintf(stderr, "sieve-bench: unknown subcommand '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
