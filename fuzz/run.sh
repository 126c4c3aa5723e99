#!/usr/bin/env bash
# Fuzzes one target with AFL++ for a while, at low priority:
#   fuzz/run.sh TARGET SECONDS
# The corpus starts from fuzz/seeds/TARGET (fuzz/seeds.sh) and tests/fuzz/corpus/TARGET;
# findings go to fuzz/out/TARGET/default/{crashes,hangs}. The harness is built by
# fuzz/build.sh. Replay the findings (and commit them under tests/fuzz/regressions/TARGET/)
# with `cargo test --release --test fuzz_replay`.
set -euo pipefail
cd "$(dirname "$0")"
target=$1
seconds=${2:-600}
harness=target/x86_64-unknown-linux-gnu/release/galign-fuzz
[ -x "$harness" ] || ./build.sh
input=$(mktemp -d)
cp seeds/"$target"/* "$input"/ 2>/dev/null || true
cp ../tests/fuzz/corpus/"$target"/* "$input"/ 2>/dev/null || true
mkdir -p out
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_SKIP_CRASHES=1
export TMPDIR=${TMPDIR:-/dev/shm}
# -t: per-input time limit (ms); -m: memory limit (MB): an input that needs more is a finding.
exec nice -n 15 afl-fuzz -i "$input" -o out/"$target" -V "$seconds" -t 5000 -m 4096 \
    -- "$harness" "$target" @@
