#!/usr/bin/env bash
# GPU check for galign: generates inputs, builds the suffix array on the GPU and the CPU,
# requires identical output, and prints a table (input, bases, GPU s, CPU s, ratio, GB/s,
# peak GPU bytes per base).
#
# usage: scripts/gpu_check.sh TESTBIN [--big] [--bench] [--cli GALIGN]
#   TESTBIN: the gpu_kernels test binary (cargo test --release --test gpu_kernels --no-run):
#            GPU unit tests and the in-process GPU-vs-CPU harness.
#   --big:   also random 256 Mbp.   --bench: also the radix sort against CUB (torch).
#   --cli GALIGN: also `GALIGN sa` and `GALIGN index` with --device gpu and --device cpu,
#            outputs compared with cmp (needs src/device.rs wired to galign::gpu).
# Real genomes: data/*.fa.gz of the checkout, and $GALIGN_EXTRA_FASTA (space separated).
set -euo pipefail
bin=$1; shift
big=""; bench=0; cli=""
while [ $# -gt 0 ]; do
  case $1 in
    --big) big=--big ;;
    --bench) bench=1 ;;
    --cli) cli=$2; shift ;;
  esac
  shift
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

if [ -n "$cli" ]; then
  echo "== galign CLI: --device gpu vs --device cpu"
  now() { date +%s.%N; }
  printf '%-28s %12s %9s %9s %8s %s\n' input command gpu_s cpu_s cpu/gpu result
  for f in $inputs; do
    name=$(basename "$f")
    for cmd in sa index; do
      for dev in gpu cpu; do
        t0=$(now)
        if [ $cmd = sa ]; then "$cli" sa --device $dev -o "$work/$dev.out" "$f" 2>"$work/$dev.err"
        else "$cli" index --device $dev -p "$work/$dev" "$f" 2>"$work/$dev.err"; cp "$work/$dev.galign" "$work/$dev.out"; fi
        eval "t_$dev=\$(echo \"\$(now) - \$t0\" | bc)"
      done
      res=OK; cmp -s "$work/gpu.out" "$work/cpu.out" || res=DIFFERENT
      printf '%-28s %12s %9.3f %9.3f %8.1f %s\n' "$name" $cmd "$t_gpu" "$t_cpu" "$(echo "$t_cpu / $t_gpu" | bc -l)" $res
      [ $res = OK ] || { cat "$work/gpu.err"; exit 1; }
    done
  done
fi

if [ "$bench" = 1 ]; then
  echo "== radix sort vs CUB"
  "$bin" --ignored --exact radix_sort_throughput --nocapture 2>&1 | grep -E '^RADIX|^DOWNLOAD|panicked' || true
  python3 "$here/cub_sort_bench.py" "${GALIGN_SORT_N:-268435456}" || true
fi
