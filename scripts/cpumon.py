#!/usr/bin/env python3
"""cpumon.py LABEL CMD...: where a run's cores go, thread by thread (Linux).

Runs CMD (stdout to /dev/null, stderr to $ERR or /dev/null), samples every thread's
on-CPU nanoseconds (/proc/PID/task/TID/schedstat) every 20 ms, and prints a timeline
(cores busy per ~100 ms) and each thread's busy seconds in creation order (galign's
rayon workers first, then the stage threads `map` starts after the index loads).
Used in the session 29 runs (docs/benchmarks-history.md) to find the GPU path's idle cores."""
import os, subprocess, sys, time

label, cmd = sys.argv[1], sys.argv[2:]
err = open(os.environ.get("ERR", "/dev/null"), "w")
t0 = time.time()
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
pid = p.pid
threads = {}  # tid -> [first_seen, last_ns, comm]
samples = []  # (t, total_ns)
def snap():
    total = 0
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for tid in tids:
        try:
            ns = int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
        except (OSError, ValueError, IndexError):
            continue
        t = int(tid)
        if t not in threads:
            try:
                comm = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
            except OSError:
                comm = "?"
            threads[t] = [time.time() - t0, ns, comm]
        threads[t][1] = ns
    return sum(v[1] for v in threads.values())
while p.poll() is None:
    s = snap()
    if s is not None:
        samples.append((time.time() - t0, s))
    time.sleep(0.02)
wall = time.time() - t0
print(f"{label} wall {wall:.3f} s rc={p.returncode}")
line = []
prev_t, prev_ns = 0.0, 0
nxt = 0.1
for t, ns in samples:
    if t >= nxt:
        line.append(f"{(ns - prev_ns) / 1e9 / (t - prev_t):.1f}")
        prev_t, prev_ns, nxt = t, ns, t + 0.1
print(f"{label} cores per ~100 ms: " + " ".join(line))
busy = sorted(threads.items())
print(f"{label} threads (tid order: first seen s, busy s, name): " + "; ".join(
    f"{v[0]:.2f} {v[1] / 1e9:.3f} {v[2]}" for _, v in busy))
print(f"{label} total busy {sum(v[1] for v in threads.values()) / 1e9:.2f} s in {len(threads)} threads")
