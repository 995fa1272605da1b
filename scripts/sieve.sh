#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: installs what is missing, builds, then runs.
#   scripts/sieve.sh run  [viewer flags...]   the viewer on the built-in scene (window or headless; headless
#                                             writes sieve-screenshot.png and sieve-stats.json into the
#                                             working directory)
#   scripts/sieve.sh test [ctest flags...]    the whole test suite (lavapipe + validation layers)
#   scripts/sieve.sh build                    install + build only
# Environment: SIEVE_BUILD_DIR (default build), SIEVE_JOBS (default 2), SIEVE_SKIP_APT=1 to skip apt,
# SIEVE_SKIP_BUILD=1 to use the build directory as it is.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cmd="${1:-}"
shift || true
build="${SIEVE_BUILD_DIR:-$here/build}"
jobs="${SIEVE_JOBS:-2}"

packages=(
  build-essential cmake pkg-config git
  libvulkan-dev vulkan-validationlayers libvulkan-volk-dev mesa-vulkan-drivers vulkan-tools
  glslc libshaderc-dev spirv-tools
  libglfw3-dev libglm-dev libmeshoptimizer-dev libimgui-dev libstb-dev libtinygltf-dev nlohmann-json3-dev
  libdraco-dev gltfpack draco
  librenderdoc-dev renderdoc python3-renderdoc
  libgtest-dev googletest
  xvfb xauth xdotool openbox python3-numpy python3-pil
)

install_packages() {
  [[ "${SIEVE_SKIP_APT:-0}" == 1 ]] && return 0
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  local sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  echo "sieve: installing ${missing[*]}"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
}

# Mesa's lavapipe (LLVM 15) corrupts its own heap on AVX-512 hosts while compiling some shaders
# (docs/subgroup-matrix.md); its switch GALLIUM_OVERRIDE_CPU_CAPS=avx avoids the fault. The engine sets it
# for its own hosts; exported here too for every program the tests start (host2, the consumer host).
if [[ -z "${GALLIUM_OVERRIDE_CPU_CAPS:-}" ]] && grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
  export GALLIUM_OVERRIDE_CPU_CAPS=avx
fi

build_all() {
  [[ "${SIEVE_SKIP_BUILD:-0}" == 1 ]] && return 0
  cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build "$build" -j "$jobs"
}

case "$cmd" in
  run)
    install_packages
    build_all
    # A headless run (asked for, or no window to be had) leaves its picture and numbers in the working
    # directory; the viewer prints both paths.
    exec "$build/samples/viewer/sieve-viewer" --headless-outputs "$PWD" "$@"
    ;;
  test)
    install_packages
    build_all
    cd "$build"
    # XDG_RUNTIME_DIR silences lavapipe's complaint on machines without a session: a folder of this run,
    # removed after it.
    if [[ -z "${XDG_RUNTIME_DIR:-}" ]]; then
      xdg_made=$(mktemp -d)
      trap 'rm -rf "$xdg_made"' EXIT
      export XDG_RUNTIME_DIR="$xdg_made"
    fi
    # Two tests at a time (SIEVE_JOBS): lavapipe, the validation layer and LLVM leave a core idle in most
    # GPU tests (measured: the five subgroup runs take 100 s each side by side, 100-136 s each alone).
    # The end-to-end tests run alone (RUN_SERIAL in tests/CMakeLists.txt): they time frames and measure
    # memory.
    ctest --output-on-failure --timeout 900 --parallel "$jobs" "$@"
    ;;
  build)
    install_packages
    build_all
    ;;
  *)
    sed -n '2,7p' "$0"
    exit 2
    ;;
esac
