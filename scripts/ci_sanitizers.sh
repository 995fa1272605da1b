#!/usr/bin/env bash
# CI jobs that run after the main test command (.ci/run), each timed:
#   asan  configure -DSIEVE_SANITIZE=ON (ASan + UBSan, LeakSanitizer on) into build-asan, build the unit
#         tests and the viewer (the GPU tests would double the build time), run the unit tests, a short
#         headless viewer run (procedural city, validation on) and a hostile glTF file.
#   fuzz  build tests/fuzz (libFuzzer + ASan + UBSan, clang-14) into build-fuzz, replay the seed and
#         hostile files, then fuzz loadGltfFromMemory for SIEVE_FUZZ_SECONDS (default 60).
#   build only the builds of both (and clang's installation): .ci/run starts it at the lowest priority
#         while the main tests run, so that the builds use the cores the tests leave idle; asan and fuzz
#         then find their builds done.
#   install  only clang's installation (apt), for a caller that runs `build` in the background.
# Usage: scripts/ci_sanitizers.sh [asan] [fuzz] [build] [install]   (no argument: asan fuzz)
# Environment: SIEVE_JOBS (default 2), SIEVE_SKIP_APT=1, SIEVE_FUZZ_SECONDS, SIEVE_ASAN_BUILD_DIR,
# SIEVE_FUZZ_BUILD_DIR.
#
# LeakSanitizer and Vulkan: at exit the loader dlclose()s lavapipe and the validation layer while their
# globals still point at live allocations; once unloaded, those allocations look unreachable and LSan
# reports megabytes of "leaks" from <unknown module>. The viewer runs therefore preload a one-line shim
# whose dlclose() does nothing, so the libraries stay mapped and their roots stay visible. No leak is
# suppressed: anything LSan still reports fails the job.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${SIEVE_JOBS:-2}"
fuzz_seconds="${SIEVE_FUZZ_SECONDS:-60}"
asan_build="${SIEVE_ASAN_BUILD_DIR:-$here/build-asan}"
fuzz_build="${SIEVE_FUZZ_BUILD_DIR:-$here/build-fuzz}"
selected=("$@")
[ ${#selected[@]} -eq 0 ] && selected=(asan fuzz)

install_clang() {
    [[ "${SIEVE_SKIP_APT:-0}" == 1 ]] && return 0
    local missing=()
    for p in clang-14 libclang-rt-14-dev; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    echo "ci_sanitizers: installing ${missing[*]}"
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$work}"

# The dlclose shim (see the header).
printf 'int dlclose(void* handle) { (void)handle; return 0; }\n' >"$work/noclose.c"
cc -shared -fPIC -o "$work/libnoclose.so" "$work/noclose.c"

# Line tables only (-g1): the sanitizers' reports keep their files and lines, the build skips the full
# debug information.
build_asan() {
    cmake -S "$here" -B "$asan_build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" \
        -DCMAKE_C_FLAGS_DEBUG="-g1 -O1" -DSIEVE_SANITIZE=ON
    cmake --build "$asan_build" -j "$jobs" --target sieve_unit_tests sieve-viewer
}

build_fuzz() {
    CC=clang-14 CXX=clang++-14 cmake -S "$here/tests/fuzz" -B "$fuzz_build"
    cmake --build "$fuzz_build" -j "$jobs"
}

job_install() {
    install_clang
}

job_build() {
    install_clang
    build_asan
    build_fuzz
}

job_asan() {
    build_asan
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    "$asan_build/tests/sieve_unit_tests" --gtest_brief=1
    local viewer
    viewer=$(find "$asan_build" -name sieve-viewer -type f -perm -u+x | head -n1)
    # The shim goes before the ASan runtime in the load order, which ASan accepts when told to.
    export LD_PRELOAD="$work/libnoclose.so"
    export ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"
    "$viewer" --headless --frames 30 --instances 3000 --width 160 --height 90 --validation \
        --stats "$work/stats.json" --screenshot "$work/shot.png" >"$work/viewer.log" 2>&1 || {
        cat "$work/viewer.log"; echo "ci_sanitizers: the sanitized viewer failed"; return 1; }
    tail -n 3 "$work/viewer.log"
    if grep -q '^\[vulkan\]' "$work/viewer.log"; then echo "validation messages"; return 1; fi
    # A hostile file: a clean error, no sanitizer report.
    python3 "$here/tests/fuzz/gltf_cases.py" bad "$work/bad"
    local rc=0
    "$viewer" --headless --frames 1 --width 32 --height 32 --scene "$work/bad/index_range.gltf" \
        >"$work/bad.log" 2>&1 || rc=$?
    if [ "$rc" -ne 1 ] || grep -q 'Sanitizer\|runtime error' "$work/bad.log"; then
        cat "$work/bad.log"; echo "ci_sanitizers: hostile glTF: exit $rc"; return 1
    fi
    echo "sanitized viewer OK"
}

job_fuzz() {
    install_clang
    build_fuzz
    mkdir -p "$work/seeds" "$work/bad" "$work/corpus" "$work/cwd" "$work/artifacts"
    python3 "$here/tests/fuzz/gltf_cases.py" seeds "$work/seeds"
    python3 "$here/tests/fuzz/gltf_cases.py" bad "$work/bad"
    rmdir "$work/bad/a_directory.gltf" 2>/dev/null || true
    rm -f "$work/bad/a_fifo.glb"  # not a file the fuzzer could read
    # External buffer URIs resolve against the working directory: an empty one.
    (
        cd "$work/cwd"
        "$fuzz_build/fuzz_gltf" -runs=0 "$work/seeds" "$work/bad" 2>&1 | tail -n 2
        "$fuzz_build/fuzz_gltf" -max_total_time="$fuzz_seconds" -timeout=10 -rss_limit_mb=2048 \
            -max_len=16384 -dict="$here/tests/fuzz/gltf.dict" -artifact_prefix="$work/artifacts/" \
            -print_final_stats=1 "$work/corpus" "$work/seeds" "$work/bad" >"$work/fuzz.log" 2>&1
    ) || {
        tail -n 60 "$work/fuzz.log"
        for a in "$work"/artifacts/*; do
            [ -f "$a" ] && { echo "reproducer $(basename "$a") (base64):"; base64 -w0 "$a" | head -c 4000; echo; }
        done
        echo "ci_sanitizers: the fuzzer found a failure"
        return 1
    }
    grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$work/fuzz.log" || tail -n 5 "$work/fuzz.log"
    echo "fuzz OK"
}

passed=0
failed=0
for job in "${selected[@]}"; do
    echo "== ci_sanitizers: $job"
    start=$(date +%s)
    # Not in an `if`: there bash would ignore set -e inside the job.
    set +e
    (set -e; "job_$job")
    rc=$?
    set -e
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1))
        result=ok
    else
        failed=$((failed + 1))
        result=FAILED
    fi
    echo "== ci_sanitizers: $job $result in $(($(date +%s) - start)) s"
done
echo "ci_sanitizers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
