#!/usr/bin/env python3
"""CUB's radix sort through torch.sort, for comparison with galign's own sort.

usage: cub_sort_bench.py [N]   (default 2^28). Prints median times of stable sorts of
random 64-bit and 32-bit keys (torch returns int64 indices as the values).
"""
import sys

import torch

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 28
g = torch.Generator(device="cuda").manual_seed(1)
for dtype, bits in ((torch.int64, 64), (torch.int32, 32)):
    hi = 2**62 if bits == 64 else 2**31 - 1
    keys = torch.randint(0, hi, (n,), device="cuda", dtype=dtype, generator=g)
    times = []
    for _ in range(8):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        torch.sort(keys, stable=True)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    med = sorted(times[1:])[len(times[1:]) // 2]
    print(f"CUB (torch.sort stable) {bits}-bit keys + int64 indices: n={n} median {med:.2f} ms, {n / med / 1e3:.0f} Mpairs/s")
