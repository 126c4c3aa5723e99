#!/usr/bin/env bash
# Whole `galign index --device cpu` of one reference: this tree's build against the build
# of an earlier commit, alternated pair by pair on this machine, with libsais's suffix
# array (examples/sa_bench) in the same run. Issue 12's CPU row ("no slower than today")
# is this comparison against 2526196, the code whose chr20 index took the 3.2 s the
# issue quotes (one FM index; measured on another machine, an Intel Xeon).
# Usage: scripts/bench_index_since.sh [REV] [THREADS] [ROUNDS] [REFERENCE]
#   REV default 2526196, THREADS 2, ROUNDS 8, REFERENCE ../shared/data chr20.
# Builds REV in a temporary worktree (a few minutes); needs /usr/bin/time and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:-2526196}
T=${2:-2}
ROUNDS=${3:-8}
REF=${4:-../shared/data/ref/human_GRCh37_chr20.fa.gz}
W=$(mktemp -d)
trap 'git worktree remove --force "$W/old" >/dev/null 2>&1 || true; rm -rf "$W"' EXIT

cargo build --release --quiet
cargo build --release --quiet --example sa_bench
git worktree add --detach "$W/old" "$REV" >/dev/null 2>&1
(cd "$W/old" && CARGO_TARGET_DIR="$W/old-target" cargo build --release --quiet)
NEW=target/release/galign
OLD=$W/old-target/release/galign
# The reference read once untimed, so that both builds find it in the page cache.
zcat -f "$REF" > "$W/ref.fa"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); threads $T"
echo "old = $REV ($(git log -1 --format=%cd --date=short "$REV")), new = $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' + changes')"
timed() { # LABEL BINARY
    /usr/bin/time -f "%e %M" -o "$W/time" "$2" index --device cpu -t "$T" -p "$W/$1" "$W/ref.fa" 2>/dev/null
    echo "$1 $(cat "$W/time")" >> "$W/runs"
}
for round in $(seq "$ROUNDS"); do
    if [ $((round % 2)) -eq 1 ]; then timed old "$OLD"; timed new "$NEW"
    else timed new "$NEW"; timed old "$OLD"; fi
done
python3 - "$W/runs" <<'EOF'
import statistics, sys
runs = [line.split() for line in open(sys.argv[1])]
wall = {k: [float(r[1]) for r in runs if r[0] == k] for k in ("old", "new")}
peak = {k: max(int(r[2]) for r in runs if r[0] == k) // 1024 for k in ("old", "new")}
ratios = sorted(n / o for n, o in zip(wall["new"], wall["old"]))
for k in ("old", "new"):
    w = sorted(wall[k])
    print(f"{k}: wall median {statistics.median(w):.3f} s (min {w[0]:.3f}, max {w[-1]:.3f}), peak {peak[k]} MiB")
print(f"new / old wall, pair by pair: median {statistics.median(ratios):.3f} (min {ratios[0]:.3f}, max {ratios[-1]:.3f}, {len(ratios)} pairs)")
EOF
echo "== the same run's suffix array alone, galign CPU against libsais (best of 3)"
target/release/examples/sa_bench "$W/ref.fa" "$T" 3
