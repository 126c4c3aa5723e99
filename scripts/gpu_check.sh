#!/usr/bin/env bash
# GPU check for galign: generates inputs, builds the suffix array on the GPU and the CPU,
# requires identical output, and prints a table (input, bases, GPU s, CPU s, ratio, GB/s,
# peak GPU bytes per base).
#
# usage: scripts/gpu_check.sh TESTBIN [--big] [--bench]
#   TESTBIN: the gpu_kernels test binary (cargo test --release --test gpu_kernels --no-run),
#            which holds the GPU-vs-CPU harness until `galign sa --device` lands.
#   --big:   also random 256 Mbp.   --bench: also the radix sort against CUB (torch).
# Real genomes: data/*.fa.gz of the checkout, and $GALIGN_EXTRA_FASTA (space separated).
set -euo pipefail
bin=$1; shift
big=""; bench=0
for a in "$@"; do
  case $a in
    --big) big=--big ;;
    --bench) bench=1 ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
work=${GALIGN_CHECK_DIR:-$(mktemp -d)}
export GALIGN_KERNEL_CACHE=${GALIGN_KERNEL_CACHE:-$work/kernel-cache}

echo "== device"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
echo "== inputs"
inputs=$(python3 "$here/gen_inputs.py" "$work/inputs" $big | tr '\n' ' ')
for f in "${GALIGN_DATA_DIR:-$here/../data}"/*.fa.gz ${GALIGN_EXTRA_FASTA:-}; do [ -e "$f" ] && inputs="$inputs $f"; done
echo "$inputs"

echo "== unit tests on the GPU"
"$bin" --test-threads 1 gpu_ kernels_compile out_of_memory

echo "== GPU vs CPU"
log=$work/check.log
GALIGN_GPU_PROFILE=1 GALIGN_CHECK_FASTA="$inputs" "$bin" --ignored --exact check_fasta_files --nocapture 2>&1 | tee "$log"
printf '\n%-28s %12s %9s %9s %8s %7s %10s %s\n' input bases gpu_s cpu_s cpu/gpu GB/s peak_B/b result
grep '^CHECK ' "$log" | while read -r _ name n g c r gbs peak status; do
  printf '%-28s %12s %9s %9s %8s %7s %10s %s\n' "$name" "$n" "$g" "$c" "$r" "$gbs" "$peak" "$status"
done
if grep -q '^CHECK .*\(MISMATCH\|ERROR\)' "$log"; then echo "FAILED: GPU output differs"; exit 1; fi

if [ "$bench" = 1 ]; then
  echo "== radix sort vs CUB"
  "$bin" --ignored --exact radix_sort_throughput --nocapture 2>&1 | grep -E '^RADIX|^DOWNLOAD|panicked' || true
  python3 "$here/cub_sort_bench.py" "${GALIGN_SORT_N:-268435456}" || true
fi
