#!/usr/bin/python3
"""Checks a renderdoc_inspect.py report against expectations, one per line, in frame order:

    label NAME                   a debug-label region or inserted label named NAME (or, when NAME has a '/',
                                 whose nested path is NAME), after the one the previous label line matched
    indirect MARKER [count>=N]   an indirect draw inside a region named MARKER (any nesting depth), after
                                 the previous indirect line's draw, whose draw count was read from the
                                 capture; with count>=N, at least N
    # comment, blank lines ignored

    /usr/bin/python3 tests/e2e/renderdoc_expect.py REPORT.json EXPECTATIONS
Exit status 0 when every line matched; 1 with one message per unmatched line otherwise.
"""
import json
import re
import sys


def check(report, lines):
    errors = []
    markers = report["markers"]
    draws = report["indirect_draws"]
    next_marker = 0
    next_draw = 0
    for number, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        kind, _, rest = line.partition(" ")
        rest = rest.strip()
        if kind == "label":
            key = "path" if "/" in rest else "name"
            found = next((i for i in range(next_marker, len(markers)) if markers[i][key] == rest), None)
            if found is None:
                errors.append("line %d: no label %r after marker %d; markers in order: %s" % (
                    number, rest, next_marker, [m["path"] for m in markers]))
            else:
                next_marker = found + 1
        elif kind == "indirect":
            m = re.fullmatch(r"(\S+)(?:\s+count>=(\d+))?", rest)
            if not m:
                errors.append("line %d: cannot parse %r" % (number, raw.rstrip()))
                continue
            marker, at_least = m.group(1), int(m.group(2) or 0)
            found = None
            for i in range(next_draw, len(draws)):
                d = draws[i]
                if marker in d["marker"].split("/") and d.get("count") is not None and d["count"] >= at_least:
                    found = i
                    break
            if found is None:
                errors.append("line %d: no indirect draw in %r with a count >= %d after draw %d; draws: %s" % (
                    number, marker, at_least, next_draw,
                    [(d["marker"], d["call"], d.get("count")) for d in draws]))
            else:
                next_draw = found + 1
        else:
            errors.append("line %d: unknown expectation %r" % (number, kind))
    return errors


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    report = json.load(open(sys.argv[1]))
    with open(sys.argv[2]) as f:
        errors = check(report, f.readlines())
    for e in errors:
        print("renderdoc expectation failed: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
