#!/usr/bin/env bash
# sieve-viewer --headless --scene BAD: for every hostile glTF/GLB file (generated into a temp dir by
# tests/fuzz/gltf_cases.py), the viewer prints one message naming the file and the reason, exits with a
# plain non-zero status (no signal, no sanitizer abort), and never hangs. The valid seed files load and
# render under validation.
# $1: build directory, $2: source directory.
source "$(dirname "$0")/lib.sh"
src=$2
python3 "$src/tests/fuzz/gltf_cases.py" bad "$out/bad"
python3 "$src/tests/fuzz/gltf_cases.py" seeds "$out/good"
run=(--headless --frames 2 --width 64 --height 48 --overlay off)

failures=0
checked=0
while IFS=$'\t' read -r name reasons; do
    file="$out/bad/$name"
    rc=0
    timeout 60 "$viewer" "${run[@]}" --scene "$file" >"$out/stdout" 2>"$out/stderr" || rc=$?
    checked=$((checked + 1))
    message=$(grep '^sieve-viewer: ' "$out/stderr" | head -n1 || true)
    problem=""
    if [ "$rc" -eq 0 ]; then problem="exit status 0"
    elif [ "$rc" -eq 124 ]; then problem="hung (killed after 60 s)"
    elif [ "$rc" -ge 128 ]; then problem="killed by signal $((rc - 128))"
    elif [ -z "$message" ]; then problem="no 'sieve-viewer: ' message on stderr"
    elif [[ "$message" != *"$name"* ]]; then problem="message does not name the file"
    elif grep -q 'ERROR: AddressSanitizer\|runtime error:' "$out/stderr"; then problem="sanitizer report"
    else
        lower=${message,,}
        found=0
        IFS='|' read -ra words <<<"$reasons"
        for w in "${words[@]}"; do [[ "$lower" == *"$w"* ]] && found=1; done
        [ "$found" -eq 1 ] || problem="reason not one of '$reasons'"
    fi
    if [ -n "$problem" ]; then
        echo "FAIL $name: $problem (exit $rc)"
        sed 's/^/    /' "$out/stderr" | head -n 20
        failures=$((failures + 1))
    else
        echo "ok   $name: exit $rc: ${message#sieve-viewer: }" | cut -c1-200
    fi
done <"$out/bad/cases.tsv"

# The valid files next to them load, render two frames and exit 0 without validation messages.
for file in "$out"/good/*; do
    checked=$((checked + 1))
    if ! timeout 120 "$viewer" "${run[@]}" --validation --scene "$file" >"$out/log" 2>&1 ||
        grep -q '^\[vulkan\]' "$out/log"; then
        echo "FAIL valid $(basename "$file")"
        sed 's/^/    /' "$out/log" | tail -n 20
        failures=$((failures + 1))
    else
        echo "ok   valid $(basename "$file"): $(grep '^scene:' "$out/log")"
    fi
done
echo "$((checked - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
