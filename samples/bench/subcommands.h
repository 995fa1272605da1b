#pragma once
// The subcommands of sieve-bench. Each lives in its own file and returns the process exit code.
namespace bench {

// sieve-bench prim ...: reduce, scan and compaction from files or timed (prim_cli.cpp).
int primMain(int argc, char** argv);

}  // namespace bench
