#!/usr/bin/env python3
"""CUB's scan and compaction through torch, beside Sieve's primitives (issue 25 item 5).

On a machine with torch and CUDA: times torch.cumsum (int32 -> int32, CUB's DeviceScan) at 2^20 and 2^28,
torch.masked_select of 2^28 u32 with half the flags set (CUB's DeviceSelect, stable), and a device copy of
the same bytes (Tensor.copy_) as their peer, interleaved round by round after ~0.5 s of GPU work, with
CUDA events. Prints one JSON line per subject (median/p10/p90 in us, clocks before and after) and checks
each result against a reference computed another way. Exits 0 with one line {"torch": false} where torch
or CUDA is missing (the device decides whether this peer exists).
usage: torch_peers.py [ROUNDS]"""
import json
import statistics
import subprocess
import sys
import time


def clocks():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm,clocks.mem", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=10).stdout.strip().split(",")
        return {"sm_mhz": int(out[0]), "mem_mhz": int(out[1])}
    except Exception:  # no nvidia-smi: no clocks, the timings stand
        return None


def main():
    try:
        import torch
    except ImportError:
        print(json.dumps({"torch": False, "why": "no torch"}))
        return 0
    if not torch.cuda.is_available():
        print(json.dumps({"torch": False, "why": "no CUDA device"}))
        return 0
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    dev = torch.device("cuda")
    gen = torch.Generator(device=dev).manual_seed(1)
    subjects = {}
    for e in (20, 28):
        n = 1 << e
        x = torch.randint(0, 16, (n,), dtype=torch.int32, device=dev, generator=gen)
        out = torch.empty_like(x)
        subjects[f"cumsum_2^{e}"] = (n, lambda x=x: torch.cumsum(x, 0, dtype=torch.int32), x)
        subjects[f"copy_2^{e}"] = (n, lambda x=x, out=out: out.copy_(x), x)
    n = 1 << 28
    vals = torch.randint(0, 2**31 - 1, (n,), dtype=torch.int32, device=dev, generator=gen)
    mask = torch.rand(n, device=dev, generator=gen) < 0.5
    subjects["masked_select_2^28_50%"] = (n, lambda: torch.masked_select(vals, mask), vals)

    # Warm-up by time: the idle GPU clocks down and a few launches do not bring it back.
    before = clocks()
    t0 = time.time()
    while time.time() - t0 < 0.5:
        for _, (_, f, _) in subjects.items():
            f()
        torch.cuda.synchronize()
    times = {k: [] for k in subjects}
    for _ in range(rounds):
        for k, (_, f, _) in subjects.items():
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            f()
            b.record()
            b.synchronize()
            times[k].append(a.elapsed_time(b) * 1000.0)
    after = clocks()
    # Verified after timing, against references computed another way (int64 on the GPU, boolean indexing).
    ok = {}
    for e in (20, 28):
        x = subjects[f"cumsum_2^{e}"][2]
        ok[f"cumsum_2^{e}"] = bool(torch.equal(torch.cumsum(x, 0, dtype=torch.int32),
                                               torch.cumsum(x.long(), 0).to(torch.int32)))
        ok[f"copy_2^{e}"] = bool(torch.equal(subjects[f"copy_2^{e}"][1](), x))
    ok["masked_select_2^28_50%"] = bool(torch.equal(torch.masked_select(vals, mask), vals[mask]))
    for k, ts in times.items():
        ts.sort()
        q = lambda p: ts[min(len(ts) - 1, int(p * len(ts)))]
        print(json.dumps({"torch": True, "torch_version": torch.__version__, "device": torch.cuda.get_device_name(0),
                          "subject": k, "n": subjects[k][0], "median_us": statistics.median(ts), "p10_us": q(0.1),
                          "p90_us": q(0.9), "rounds": rounds, "verified": ok[k], "clocks_before": before,
                          "clocks_after": after}))
    return 0 if all(ok.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
