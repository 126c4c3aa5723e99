#!/usr/bin/env bash
# GPU check for galign: generates inputs, builds the suffix array and the FM index on the
# GPU (with each suffix-array algorithm: doubling, skew, hybrid, or those in
# $GALIGN_SA_ALGORITHMS) and the CPU, requires identical output, and prints tables (input,
# algorithm, bases, GPU s, CPU s, ratio, GB/s, peak GPU bytes per base). A missing GPU
# fails the unit tests.
#
# usage: scripts/gpu_check.sh TESTBIN [--big] [--bench] [--cli GALIGN] [--scale CHR.fa.gz [--sa-bench SA_BENCH]]
#        scripts/gpu_check.sh TESTBIN --map GALIGN
#   TESTBIN: the gpu_kernels test binary (cargo test --release --test gpu_kernels --no-run):
#            GPU unit tests and the in-process GPU-vs-CPU harness.
#   --big:   also random 256 Mbp.   --bench: also the radix sort against CUB (torch).
#   --cli GALIGN: also `GALIGN sa` and `GALIGN index` with --device gpu (each
#            --sa-algorithm) and --device cpu,
#            `GALIGN index --device cpu --memory` and `--device gpu --gpu-memory` (partitioned),
#            `--device gpu --memory` (GPU parts within the host budget),
#            and indexes of 64-bit positions (forced) on the GPU and the CPU, outputs
#            compared with cmp; bwa's five files (`GALIGN index --format bwa`) on the GPU
#            (whole, in parts, 64-bit) against the CPU's, and against `bwa index`
#            ($GALIGN_BWA or bwa on PATH) for inputs under 20 MB.
#   --scale CHR.fa.gz: genome-scale inputs generated from a real chromosome (the chromosome;
#            its four orientations, gen_inputs.py --orient, 252 Mbp for chr20; 3 copies ~190 Mbp
#            and 32 copies ~2 Gbp, or the copy counts in $GALIGN_SCALE_COPIES, copies 1% mutated,
#            gen_inputs.py --real):
#            `GALIGN index` on the GPU (whole command, -v step times, GPU phases; each
#            --sa-algorithm, index files compared, a table of GPU-part time and peak bytes a
#            base per algorithm), on the CPU (all cores,
#            inputs under 500 Mbp) with the index files compared, inputs over 1 Gbp also within
#            --gpu-memory $GALIGN_SCALE_GPU_MEMORY (default 16G), and SA_BENCH (examples/
#            sa_bench: galign CPU suffix array vs libsais, all cores) when given.
#   --map GALIGN: instead of the suffix-array checks, `galign map`: the GPU unit tests (with
#            the in-process SAM/BAM comparison), then through the CLI, for every real read
#            set ($GALIGN_SHARED_DATA/reads vs /ref, default ../shared/data; data/ of the
#            checkout), --device gpu vs --device cpu output compared with cmp (SAM and BAM,
#            single and paired, -k 5 and -a); the GPU-error fallback under auto
#            (GALIGN_GPU_MEM_LIMIT); and throughput on $MAP_READS (default 4M) generated
#            150 bp reads of $MAP_REF (default the shared chr20): search+locate kernels
#            alone, end to end on the GPU and on the CPU (SAM and BAM, outputs compared),
#            and bowtie 1 (`-v 0 -a`, all cores) when bowtie-align-s/bowtie-build-s are
#            on PATH or in $BOWTIE_DIR.
# Real genomes: data/*.fa.gz of the checkout, and $GALIGN_EXTRA_FASTA (space separated).
# GALIGN_GPU_TESTS: the test-name filters of the unit-test step (default: every GPU test,
#            ~10 minutes, more than one device call allows: split it, e.g. "gpu_scatter
#            gpu_fm"); "none" skips that step and the in-process harness (with --cli, the
#            CLI comparisons alone). The test binary looks for `galign` in the parent of
#            its folder (copy it as D/deps/TEST beside D/galign), else its CLI test fails.
set -euo pipefail
bin=$1; shift
big=""; bench=0; cli=""; scale=""; sa_bench=""; map=""
while [ $# -gt 0 ]; do
  case $1 in
    --map) map=$2; shift ;;
    --big) big=--big ;;
    --bench) bench=1 ;;
    --cli) cli=$2; shift ;;
    --scale) scale=$2; shift ;;
    --sa-bench) sa_bench=$2; shift ;;
  esac
  shift
done
here=$(cd "$(dirname "$0")" && pwd)
calc() { python3 -c "print($1)"; } # floating-point arithmetic (bc is not on every GPU host)
work=${GALIGN_CHECK_DIR:-$(mktemp -d)}
# Visible GPUs (several: the partitioned builds also run over all of them).
gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU" || true); [ "${gpus:-0}" -ge 1 ] || gpus=1
export GALIGN_KERNEL_CACHE=${GALIGN_KERNEL_CACHE:-$work/kernel-cache}
export GALIGN_REQUIRE_GPU=1
algorithms=${GALIGN_SA_ALGORITHMS:-doubling skew hybrid}

echo "== device"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
if [ -n "$map" ]; then exec "$here/gpu_check_map.sh" "$bin" "$map" "$work"; fi
echo "== inputs"
inputs=$(python3 "$here/gen_inputs.py" "$work/inputs" $big | tr '\n' ' ')
for f in "${GALIGN_DATA_DIR:-$here/../data}"/*.fa.gz ${GALIGN_EXTRA_FASTA:-}; do [ -e "$f" ] && inputs="$inputs $f"; done
echo "$inputs"

tests=${GALIGN_GPU_TESTS:-gpu_ kernels_compile out_of_memory}
if [ "$tests" != none ]; then
  echo "== unit tests on the GPU"
  # shellcheck disable=SC2086 # the filters are words
  "$bin" --test-threads 1 $tests

  echo "== GPU vs CPU"
  log=$work/check.log
  GALIGN_GPU_PROFILE=1 GALIGN_CHECK_ALGORITHMS="$algorithms" GALIGN_CHECK_FASTA="$inputs" "$bin" --ignored --exact check_fasta_files --nocapture 2>&1 | tee "$log"
  printf '\n%-28s %-9s %12s %9s %9s %8s %7s %10s %s\n' input algorithm bases gpu_s cpu_s cpu/gpu GB/s peak_B/b result
  grep '^CHECK ' "$log" | while read -r _ name algo n g c r gbs peak status; do
    printf '%-28s %-9s %12s %9s %9s %8s %7s %10s %s\n' "$name" "$algo" "$n" "$g" "$c" "$r" "$gbs" "$peak" "$status"
  done
  printf '\n%-28s %-9s %12s %9s %9s %8s %10s %s   (FM index: GPU SA + derivation vs CPU derivation)\n' input algorithm bases gpu_s cpu_s cpu/gpu peak_B/b result
  grep '^FMCHECK ' "$log" | while read -r _ name algo n g c r peak status; do
    printf '%-28s %-9s %12s %9s %9s %8s %10s %s\n' "$name" "$algo" "$n" "$g" "$c" "$r" "$peak" "$status"
  done
  if grep -q '^\(FM\)\?CHECK .*\(MISMATCH\|ERROR\)' "$log"; then echo "FAILED: GPU output differs"; exit 1; fi
fi

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
        eval "t_$dev=\$(calc \"\$(now) - \$t0\")"
      done
      res=OK; cmp -s "$work/gpu.out" "$work/cpu.out" || res=DIFFERENT
      printf '%-28s %12s %9.3f %9.3f %8.1f %s\n' "$name" $cmd "$t_gpu" "$t_cpu" "$(calc "$t_cpu / $t_gpu")" $res
      [ $res = OK ] || { cat "$work/gpu.err"; exit 1; }
      for algo in $algorithms; do
        t0=$(now)
        if [ $cmd = sa ]; then "$cli" sa --device gpu --sa-algorithm "$algo" -o "$work/algo.out" "$f" 2>"$work/algo.err"
        else "$cli" index --device gpu --sa-algorithm "$algo" -p "$work/algo" "$f" 2>"$work/algo.err"; cp "$work/algo.galign" "$work/algo.out"; fi
        t_algo=$(calc "$(now) - $t0")
        res=OK; cmp -s "$work/algo.out" "$work/cpu.out" || res=DIFFERENT
        printf '%-28s %12s %9.3f %9s %8s %s\n' "$name" "$cmd-$algo" "$t_algo" "" "" $res
        [ $res = OK ] || { cat "$work/algo.err"; exit 1; }
      done
    done
    # The partitioned CPU build (--memory: 66 MiB + 3 bytes a base of the FASTA, some
    # 36 parts) against the GPU's index.
    budget=$(( (66 << 20) + 3 * $(zcat -f "$f" | wc -c) ))
    t0=$(now)
    "$cli" index --device cpu --memory "$budget" -p "$work/parts" "$f" 2>"$work/parts.err" || { cat "$work/parts.err"; exit 1; }
    t_parts=$(calc "$(now) - $t0")
    res=OK; cmp -s "$work/gpu.galign" "$work/parts.galign" || res=DIFFERENT
    printf '%-28s %12s %9s %9.3f %8s %s\n' "$name" index-parts "" "$t_parts" "" $res
    [ $res = OK ] || exit 1
    # The partitioned GPU build (--gpu-memory: 64 MiB + a byte a base + 25 bytes for an
    # eighth of the bases, at least 2^20) against the same.
    fasta=$(zcat -f "$f" | wc -c); eighth=$(( fasta / 8 > 1048576 ? fasta / 8 : 1048576 ))
    gbudget=$(( (64 << 20) + fasta + 25 * eighth ))
    t0=$(now)
    GALIGN_GPU_PROFILE=1 "$cli" index --device gpu --gpus 1 --gpu-memory "$gbudget" -p "$work/gparts" "$f" 2>"$work/gparts.err" || { cat "$work/gparts.err"; exit 1; }
    t_parts=$(calc "$(now) - $t0")
    res=OK; cmp -s "$work/gpu.galign" "$work/gparts.galign" || res=DIFFERENT
    printf '%-28s %12s %9.3f %9s %8s %s   %s\n' "$name" index-gparts "$t_parts" "" "" $res "$(grep '^gpu parts: n=' "$work/gparts.err" | grep -o '[0-9]* parts; peak.*' | head -1)"
    [ $res = OK ] || { cat "$work/gparts.err"; exit 1; }
    # The GPU build in parts within the CPU build's host budget above too: parts no
    # larger than the CPU's (the host side of a GPU build in parts), against the same.
    GALIGN_GPU_PROFILE=1 "$cli" index --device gpu --gpus 1 --gpu-memory "$gbudget" --memory "$budget" -p "$work/hparts" "$f" 2>"$work/hparts.err" || { cat "$work/hparts.err"; exit 1; }
    res=OK; cmp -s "$work/gpu.galign" "$work/hparts.galign" || res=DIFFERENT
    printf '%-28s %12s %9s %9s %8s %s   %s\n' "$name" index-gpu-host "" "" "" $res "$(grep '^gpu parts: n=' "$work/hparts.err" | grep -o '[0-9]* parts; peak.*' | head -1)"
    [ $res = OK ] || { cat "$work/hparts.err"; exit 1; }
    # 64-bit positions (forced; what texts past 2^32 bases get): the GPU builds them in
    # parts (within 64 MiB + 2 bytes a base + 33 bytes for an eighth, and the default
    # budget), the CPU whole; compared with cmp.
    "$cli" index --device cpu --force-u64-positions -p "$work/wide_cpu" "$f" 2>"$work/wide.err" || { cat "$work/wide.err"; exit 1; }
    for wbudget in $(( (64 << 20) + 2 * fasta + 33 * eighth )) default; do
      t0=$(now)
      budget_arg=(); [ "$wbudget" = default ] || budget_arg=(--gpu-memory "$wbudget")
      GALIGN_GPU_PROFILE=1 "$cli" index --device gpu --force-u64-positions "${budget_arg[@]}" -p "$work/wide_gpu" "$f" 2>"$work/wide.err" || { cat "$work/wide.err"; exit 1; }
      t_wide=$(calc "$(now) - $t0")
      res=OK; cmp -s "$work/wide_cpu.galign" "$work/wide_gpu.galign" || res=DIFFERENT
      printf '%-28s %12s %9.3f %9s %8s %s   %s\n' "$name" "index-u64-$wbudget" "$t_wide" "" "" $res "$(grep '^gpu parts: n=' "$work/wide.err" | grep -o '[0-9]* parts; peak.*' | head -1)"
      [ $res = OK ] || { cat "$work/wide.err"; exit 1; }
    done
    # bwa's files (--format bwa: the text and its reverse complement, twice the bases) on
    # the GPU whole, in parts (within 64 MiB + 2 bytes a base + 50 bytes for an eighth)
    # and with 64-bit positions, against the CPU's; and against `bwa index` itself
    # ($GALIGN_BWA, or bwa on PATH) for inputs under 20 MB.
    "$cli" index --format bwa --device cpu -p "$work/bwa_cpu" "$f" 2>"$work/bwa.err" || { cat "$work/bwa.err"; exit 1; }
    for variant in whole parts u64; do
      vargs=()
      case $variant in
        parts) vargs=(--gpus 1 --gpu-memory $(( (64 << 20) + 2 * fasta + 50 * eighth ))) ;;
        u64) vargs=(--force-u64-positions) ;;
      esac
      t0=$(now)
      GALIGN_GPU_PROFILE=1 "$cli" index --format bwa --device gpu "${vargs[@]}" -p "$work/bwa_gpu" "$f" 2>"$work/bwa.err" || { cat "$work/bwa.err"; exit 1; }
      t_bwa=$(calc "$(now) - $t0")
      res=OK
      for e in amb ann bwt pac sa; do cmp -s "$work/bwa_cpu.$e" "$work/bwa_gpu.$e" || res="DIFFERENT(.$e)"; done
      printf '%-28s %12s %9.3f %9s %8s %s   %s\n' "$name" "bwa-$variant" "$t_bwa" "" "" "$res" "$(grep '^gpu parts: n=' "$work/bwa.err" | grep -o '[0-9]* parts; peak.*' | head -1)"
      [ "$res" = OK ] || { cat "$work/bwa.err"; exit 1; }
    done
    bwa_bin=${GALIGN_BWA:-$(command -v bwa || true)}
    if [ -n "$bwa_bin" ] && [ "$fasta" -lt 20000000 ]; then
      "$bwa_bin" index -p "$work/bwa_ref" "$f" 2>/dev/null
      res=OK
      for e in amb ann bwt pac sa; do cmp -s "$work/bwa_ref.$e" "$work/bwa_gpu.$e" || res="DIFFERENT(.$e)"; done
      printf '%-28s %12s %9s %9s %8s %s\n' "$name" "bwa-vs-bwa" "" "" "" "$res"
      [ "$res" = OK ] || exit 1
    fi
    if [ "$gpus" -gt 1 ]; then
      # The same parts over every GPU, then with the second failing on the first part it
      # sorts (under auto the others take its parts; it gets one where there are 4 or more).
      t0=$(now)
      GALIGN_GPU_PROFILE=1 "$cli" index --device gpu --gpus all --gpu-memory "$gbudget" -p "$work/gmulti" "$f" 2>"$work/gmulti.err" || { cat "$work/gmulti.err"; exit 1; }
      t_multi=$(calc "$(now) - $t0")
      parts=$(grep '^gpu parts: n=' "$work/gmulti.err" | grep -o '[0-9]* parts;' | head -1 | cut -d' ' -f1 || true)
      GALIGN_TEST_GPU_FAIL=1:1 "$cli" index --device auto --gpus all --gpu-memory "$gbudget" -p "$work/gfail" "$f" 2>"$work/gfail.err" || { cat "$work/gfail.err"; exit 1; }
      res=OK; cmp -s "$work/gpu.galign" "$work/gmulti.galign" || res=DIFFERENT
      cmp -s "$work/gpu.galign" "$work/gfail.galign" || res=DIFFERENT-AFTER-FAILURE
      if [ "${parts:-0}" -ge 4 ]; then grep -q "GPU 1 failed" "$work/gfail.err" || res=NO-HANDOVER-MESSAGE; fi
      printf '%-28s %12s %9.3f %9s %8s %s   %s parts, %s\n' "$name" "index-gparts-${gpus}gpu" "$t_multi" "" "" $res "${parts:-?}" \
        "$(grep -c 'GPU 1 failed' "$work/gfail.err") hand-over(s)"
      [ $res = OK ] || { cat "$work/gmulti.err" "$work/gfail.err"; exit 1; }
    fi
  done
fi

if [ "$bench" = 1 ]; then
  echo "== radix sort vs CUB"
  "$bin" --ignored --exact radix_sort_throughput --nocapture 2>&1 | grep -E '^RADIX|^DOWNLOAD|panicked' || true
  python3 "$here/cub_sort_bench.py" "${GALIGN_SORT_N:-268435456}" || true
fi

if [ -n "$scale" ] && [ -n "$cli" ]; then
  echo "== genome scale: galign index --device gpu / --device cpu (-t $(nproc)), files compared"
  mapfile -t big_inputs < <(python3 "$here/gen_inputs.py" "$work/real" --orient "$scale"
    python3 "$here/gen_inputs.py" "$work/real" --real "$scale" ${GALIGN_SCALE_COPIES:-3 32})
  for f in "$scale" "${big_inputs[@]}"; do
    name=$(basename "$f")
    t0=$(date +%s.%N)
    GALIGN_GPU_PROFILE=1 "$cli" index -v --device gpu -p "$work/scale_gpu" "$f" 2>"$work/gpu.err" || { cat "$work/gpu.err"; exit 1; }
    t_gpu=$(calc "$(date +%s.%N) - $t0")
    sed "s/^/  [gpu $name] /" "$work/gpu.err"
    bases=$(grep -o '[0-9]* bases' "$work/gpu.err" | head -1 | cut -d' ' -f1)
    if [ "${bases:-0}" -lt 500000000 ]; then
      t0=$(date +%s.%N)
      "$cli" index -v --device cpu -p "$work/scale_cpu" "$f" 2>"$work/cpu.err"
      t_cpu=$(calc "$(date +%s.%N) - $t0")
      sed "s/^/  [cpu $name] /" "$work/cpu.err"
      res=OK; cmp -s "$work/scale_gpu.galign" "$work/scale_cpu.galign" || res=DIFFERENT
      printf 'INDEX %-24s %12s bases  gpu %8.2f s  cpu %8.2f s  cpu/gpu %6.1f  %s\n' "$name" "$bases" "$t_gpu" "$t_cpu" "$(calc "$t_cpu / $t_gpu")" $res
      [ $res = OK ] || exit 1
      [ -z "$sa_bench" ] || "$sa_bench" "$f" "$(nproc)" 1
    else
      printf 'INDEX %-24s %12s bases  gpu %8.2f s  (CPU path not run at this size)\n' "$name" "$bases" "$t_gpu"
    fi
    if [ "${bases:-0}" -gt 1000000000 ]; then
      # Within a device memory budget (partitioned on the GPU), against the unbounded build.
      gmem=${GALIGN_SCALE_GPU_MEMORY:-16G}
      t0=$(date +%s.%N)
      GALIGN_GPU_PROFILE=1 "$cli" index -v --device gpu --gpu-memory "$gmem" -p "$work/scale_parts" "$f" 2>"$work/parts.err" || { cat "$work/parts.err"; exit 1; }
      t_parts=$(calc "$(date +%s.%N) - $t0")
      sed "s/^/  [gpu --gpu-memory $gmem $name] /" "$work/parts.err"
      res=OK; cmp -s "$work/scale_gpu.galign" "$work/scale_parts.galign" || res=DIFFERENT
      printf 'INDEX %-24s %12s bases  gpu --gpu-memory %s %8.2f s  unbounded %8.2f s  %s\n' "$name" "$bases" "$gmem" "$t_parts" "$t_gpu" $res
      [ $res = OK ] || exit 1
      if [ "$gpus" -gt 1 ]; then
        t0=$(date +%s.%N)
        GALIGN_GPU_PROFILE=1 "$cli" index -v --device gpu --gpus 1 --gpu-memory "$gmem" -p "$work/scale_one" "$f" 2>"$work/one.err" || { cat "$work/one.err"; exit 1; }
        t_one=$(calc "$(date +%s.%N) - $t0")
        sed "s/^/  [gpu --gpus 1 --gpu-memory $gmem $name] /" "$work/one.err"
        res=OK; cmp -s "$work/scale_gpu.galign" "$work/scale_one.galign" || res=DIFFERENT
        printf 'INDEX %-24s %12s bases  --gpu-memory %s: %s GPUs %8.2f s  1 GPU %8.2f s  %s\n' "$name" "$bases" "$gmem" "$gpus" "$t_parts" "$t_one" $res
        [ $res = OK ] || exit 1
      fi
    fi
    # Every suffix-array algorithm: the GPU part (SA + FM derivation, from the profile)
    # and its peak device bytes a base; index files compared with the default build.
    for algo in $algorithms; do
      t0=$(date +%s.%N)
      GALIGN_GPU_PROFILE=1 "$cli" index -v --device gpu --sa-algorithm "$algo" -p "$work/scale_algo" "$f" 2>"$work/algo.err" || { cat "$work/algo.err"; exit 1; }
      t_algo=$(calc "$(date +%s.%N) - $t0")
      res=OK; cmp -s "$work/scale_gpu.galign" "$work/scale_algo.galign" || res=DIFFERENT
      prof=$(grep '^gpu fm: n=' "$work/algo.err" | head -1)
      part=$(echo "$prof" | grep -o 'total [0-9.]* ms' | cut -d' ' -f2)
      peak=$(echo "$prof" | grep -o 'peak [0-9.]* B/base' | cut -d' ' -f2)
      printf 'ALGO %-24s %-9s %12s bases  command %8.2f s  GPU part %9s ms  peak %6s B/base  %s\n' "$name" "$algo" "$bases" "$t_algo" "${part:-?}" "${peak:-?}" $res
      [ $res = OK ] || { cat "$work/algo.err"; exit 1; }
    done
    rm -f "$work"/scale_*.galign
  done
fi
