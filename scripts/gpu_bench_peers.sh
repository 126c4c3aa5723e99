#!/usr/bin/env bash
# galign's GPU suffix-array algorithms against libcubwt, in one run (issue 11's table):
# per input, the GPU part of `galign index` (suffix array + FM derivation of the forward
# index, from GALIGN_GPU_PROFILE) and its peak device bytes a base for each
# --sa-algorithm, and libcubwt's BWT (host text to host BWT, best of 3) with its peak
# device memory (nvidia-smi, polled every 20 ms), and libsais's suffix array on all cores
# for texts of at most $SAIS_MAX bases (default 300 M).
#
# usage: scripts/gpu_bench_peers.sh GALIGN BENCH_DIR CHR.fa.gz
#   GALIGN:    the release binary.
#   BENCH_DIR: a copy of ../shared/bench (libcubwt/, cubwt_bench.cu, libsais/,
#              sais_bench.c); cubwt_bench is built there with nvcc and sais_bench with
#              gcc on first use (or carry a static sais_bench built beforehand).
#   CHR.fa.gz: the real chromosome the inputs are made from (scripts/gen_inputs.py): its
#              four orientations, 3, 31 and 47 copies (1% mutated), random 256 Mbp, and
#              all-A and period-2 texts of 64 Mbp; $PEER_INPUTS (FASTA paths, space
#              separated) replaces them.
# libcubwt takes texts under 2^31 bases and A/C/G/T bytes only: every input is first made
# into one text both sort (scripts/peer_text.py: ambiguity codes become pseudo-random
# bases, as galign makes them; a run of A in their place would cost the peer rounds that
# galign never does).
set -euo pipefail
cli=$1 bench=$2 chr=$3
here=$(cd "$(dirname "$0")" && pwd)
work=${GALIGN_CHECK_DIR:-$(mktemp -d)}
algorithms=${GALIGN_SA_ALGORITHMS:-doubling hybrid skew auto}
export GALIGN_KERNEL_CACHE=${GALIGN_KERNEL_CACHE:-$work/kernel-cache}

cubwt=$bench/cubwt_bench
if [ ! -x "$cubwt" ]; then
  nvcc -O3 -std=c++17 -arch=sm_90 -o "$cubwt" "$bench/cubwt_bench.cu" "$bench/libcubwt/libcubwt.cu" \
    -I"$bench/libcubwt"
fi

sais=$bench/sais_bench
if [ ! -x "$sais" ]; then
  gcc -O3 -fopenmp -DLIBSAIS_OPENMP -I"$bench/libsais" -o "$sais" "$bench/sais_bench.c" \
    "$bench/libsais/libsais.c" "$bench/libsais/libsais64.c"
fi
cores=$(nproc)

if [ -n "${PEER_INPUTS:-}" ]; then
  inputs=$PEER_INPUTS
else
  gen() { python3 "$here/gen_inputs.py" "$work/in" "$@"; }
  inputs="$(gen --orient "$chr") $(gen --real "$chr" 3 31 47) $(gen --random 268435456)"
  inputs="$inputs $(gen --periodic A 67108864) $(gen --periodic AC 67108864)"
fi

# Peak device memory (MiB) used by `$@` above what was in use before it started.
peak_mib() {
  local before log pid
  before=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -1)
  log=$work/mem.log
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 20 > "$log" &
  pid=$!
  "$@" > "$work/peer.out" 2>&1 || true
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo $(( $(sort -n "$log" | tail -1) - before ))
}

for input in $inputs; do
  { read -r f; read -r raw; } < <(python3 "$here/peer_text.py" "$input" "$work/text")
  [ -n "${PEER_INPUTS:-}" ] || rm -f "$input"
  name=$(basename "$f" .fa)
  line="PEER $name"
  bases=""
  for algo in $algorithms; do
    if GALIGN_GPU_PROFILE=1 "$cli" index -v --device gpu --sa-algorithm "$algo" -p "$work/peer" "$f" \
      2> "$work/algo.err"; then
      # A partitioned build prints no whole-build profile: its fields stay '?'.
      prof=$(grep '^gpu fm: n=' "$work/algo.err" | head -1 || true)
      bases=$(echo "$prof" | grep -o 'n=[0-9]*' | cut -d= -f2 || true)
      ms=$(echo "$prof" | grep -o 'total [0-9.]* ms' | cut -d' ' -f2 || true)
      peak=$(echo "$prof" | grep -o 'peak [0-9.]* B/base' | cut -d' ' -f2 || true)
      held=$(echo "$prof" | grep -o 'pool held [0-9.]* B/base' | cut -d' ' -f3 || true)
      line="$line  $algo ${ms:-?} ms ${peak:-?} B/base (pool ${held:-?})"
      [ "$algo" = auto ] && auto_ms=$ms
    else
      line="$line  $algo failed ($(tail -1 "$work/algo.err" | cut -c1-80))"
      [ "$algo" = auto ] && auto_ms=""
    fi
  done
  rm -f "$work/peer.galign" "$f"
  n=$(stat -c %s "$raw")
  if [ "$n" -lt 2147483648 ]; then
    mib=$(peak_mib "$cubwt" "$raw" 3)
    best=$(grep -o 'best_s=[0-9.]*' "$work/peer.out" | cut -d= -f2 || true)
    alloc=$(grep -o 'alloc_s=[0-9.]*' "$work/peer.out" | cut -d= -f2 || true)
    if [ -n "$best" ]; then
      line="$line  libcubwt $(python3 -c "print(f'{$best * 1e3:.1f}')") ms"
      line="$line (storage allocated once beforehand: $(python3 -c "print(f'{${alloc:-0} * 1e3:.1f}')") ms)"
      line="$line $(python3 -c "print(f'{$mib * 2**20 / $n:.1f}')") B/base"
      [ -n "${auto_ms:-}" ] && line="$line  libcubwt/auto $(python3 -c "print(f'{$best * 1e3 / $auto_ms:.2f}')")x"
    else
      line="$line  libcubwt failed ($(tail -1 "$work/peer.out" | cut -c1-80))"
    fi
  else
    line="$line  libcubwt n/a (texts under 2^31 only)"
  fi
  if [ "$n" -le "${SAIS_MAX:-300000000}" ]; then
    sa_s=$(NOBWT=1 "$sais" "$raw" "$cores" | grep -o 'sa_s=[0-9.]*' | cut -d= -f2 || true)
    if [ -n "$sa_s" ]; then
      line="$line  libsais($cores threads) $(python3 -c "print(f'{$sa_s * 1e3:.1f}')") ms"
      [ -n "${auto_ms:-}" ] && line="$line  libsais/auto $(python3 -c "print(f'{$sa_s * 1e3 / $auto_ms:.1f}')")x"
    fi
  fi
  rm -f "$raw"
  echo "$line  (${bases:-$n} bases)"
done
