#!/usr/bin/env bash
# The installed package: `cmake --install` into a temporary prefix (moved after the install, so nothing
# may point back at the build or source tree), header checks (no engine/ includes, every include
# resolvable inside the installed tree, every public header in the umbrella sieve/sieve.h), version
# compatibility, then tests/consumer (the culling plugin, and the cluster plugin beside it) built with
# find_package(sieve) and run on the Vulkan device.
# $1: build directory, $2: source directory.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
    export XDG_RUNTIME_DIR=$tmp/xdg
    mkdir -m 700 "$XDG_RUNTIME_DIR"
fi
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$tmp/stage" > "$tmp/install.log" || { cat "$tmp/install.log"; fail "install"; }
mv "$tmp/stage" "$tmp/prefix"
prefix=$tmp/prefix
inc=$prefix/include

# The library directory is lib/ or lib/<multiarch>/, depending on the configured install prefix.
config=$(find "$prefix" -name sieveConfig.cmake -path '*/cmake/sieve/*' | head -n1)
[ -n "$config" ] || fail "sieveConfig.cmake not installed"
cmakedir=$(dirname "$config")
libdir=$(dirname "$(dirname "$cmakedir")")
for f in "$libdir/libsieve.a" "$libdir/libsieve_spirv.a" "$cmakedir/sieveConfigVersion.cmake" \
         "$prefix/include/sieve/sieve.h" "$prefix/include/sieve/shaders/shared/common.h"; do
    [ -f "$f" ] || fail "${f#"$prefix"/} not installed"
done
if grep -rn "$src\|$build" "$cmakedir"; then fail "the installed package names the source or build tree"; fi

# The plugin never includes engine/.
if grep -rnE '^\s*#\s*include\s*[<"]engine/' "$inc"; then fail "an installed header includes engine/"; fi

# Every quoted include of an installed header resolves inside the installed tree (the include
# directories a consumer gets: include/ and include/sieve/shaders/).
missing=0
while IFS= read -r -d '' header; do
    while IFS= read -r name; do
        [ -f "$inc/$name" ] || [ -f "$inc/sieve/shaders/$name" ] || [ -f "$(dirname "$header")/$name" ] || {
            echo "$header includes \"$name\", which is not installed"
            missing=1
        }
    done < <(sed -nE 's/^\s*#\s*include\s*"([^"]+)".*/\1/p' "$header")
done < <(find "$inc" -name '*.h' -print0)
[ $missing = 0 ] || fail "unresolved includes"

# The umbrella header lists every public header.
while IFS= read -r rel; do
    grep -q "#include \"sieve/$rel\"" "$inc/sieve/sieve.h" || { echo "sieve.h lacks sieve/$rel"; missing=1; }
done < <(cd "$inc/sieve" && find . -name '*.h' ! -path './shaders/*' ! -name sieve.h | sed 's|^\./||' | sort)
[ $missing = 0 ] || fail "passes/include/sieve/sieve.h is incomplete"

# Each public header compiles on its own (a host may include just one), with the loader's ordinary
# prototypes and with VK_NO_PROTOTYPES alike: the package does not choose for the host.
export inc
for defs in "" "-DVK_NO_PROTOTYPES"; do
    export defs
    (cd "$inc/sieve" && find . -name '*.h' ! -path './shaders/*' | sed 's|^\./||' | sort) |
        xargs -P "$(nproc)" -I{} bash -c 'echo "#include \"sieve/{}\"" | ${CXX:-c++} -std=c++20 -fsyntax-only \
            $defs -I"$inc" -I"$inc/sieve/shaders" -x c++ - || { echo "sieve/{} is not self-contained ($defs)"; exit 1; }' ||
        fail "a public header does not compile on its own"
done

# The public surface is the Vulkan headers and the standard library: no volk, GLM or ImGui reaches a host.
echo '#include "sieve/sieve.h"' | ${CXX:-c++} -std=c++20 -E -H -I"$inc" -I"$inc/sieve/shaders" -x c++ - \
    2> "$tmp/headers.txt" > /dev/null || fail "sieve/sieve.h does not preprocess"
if grep -E 'volk\.h|/glm/|imgui' "$tmp/headers.txt"; then fail "sieve/sieve.h pulls in volk, GLM or ImGui"; fi
if nm -C "$libdir"/libsieve*.a 2>/dev/null | grep -E ' [TtWwDdBb] .*ImGui'; then fail "libsieve defines ImGui symbols"; fi
if nm "$libdir"/libsieve*.a 2>/dev/null | grep -E ' [TDB] vk[A-Z]'; then
    fail "libsieve defines global vk* symbols (they would clash with the host's loader)"
fi
if grep -rnE 'find_dependency\((imgui|glm|volk)|SIEVE_IMGUI|volk|glm' "$cmakedir"; then
    fail "the installed package depends on ImGui, GLM or volk"
fi

# Version file: SameMajorVersion accepts the same major version only.
mkdir -p "$tmp/version"
cat > "$tmp/version/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(sieve_version LANGUAGES CXX)  # FindVulkan looks for the library by architecture
find_package(sieve ${WANT} CONFIG QUIET)
message(STATUS "sieve ${WANT}: found=${sieve_FOUND} version=${sieve_VERSION}")
if(NOT "${sieve_FOUND}" STREQUAL "${EXPECT}")
  message(FATAL_ERROR "find_package(sieve ${WANT}) found=${sieve_FOUND}, expected ${EXPECT}")
endif()
EOF
version=$(sed -nE 's/^project\(sieve VERSION ([0-9.]+).*/\1/p' "$src/CMakeLists.txt")
major=${version%%.*}
for case in "$version:1" "$major:1" "$((major + 1)):0"; do
    rm -rf "$tmp/version/build"
    cmake -S "$tmp/version" -B "$tmp/version/build" -DCMAKE_PREFIX_PATH="$prefix" -DWANT="${case%%:*}" \
        -DEXPECT="${case##*:}" > "$tmp/version.log" 2>&1 || { cat "$tmp/version.log"; fail "version ${case%%:*}"; }
done

# The consumer project, built against the installed package only.
cmake -S "$src/tests/consumer" -B "$tmp/consumer" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
    > "$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "consumer configure"; }
found=$(sed -nE 's/^sieve_DIR:PATH=(.*)/\1/p' "$tmp/consumer/CMakeCache.txt")
[ "$found" = "$cmakedir" ] || fail "the consumer found sieve in '$found', not in the prefix"
cmake --build "$tmp/consumer" -j2 > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "consumer build"; }
"$tmp/consumer/sieve_consumer" || fail "sieve_consumer exited with $?"
echo "consumer package: ok"
