#!/usr/bin/env bash
# GPU check and benchmark of `galign fastmap` (issue 64), on a GPU machine:
#  1. the GPU unit test (SMEMs and locate on the GPU == the CPU's, nasty references and
#     reads; gpu_smems_match_cpu in tests/gpu_kernels.rs);
#  2. on every real read set with its reference: bwa's index written by galign (CPU),
#     `fastmap --device gpu` == `--device cpu` == `bwa fastmap` (cmp), with the defaults
#     and with `-l 25 -w 5`; a GPU failure during the run under auto (allocation limit)
#     falls back and gives the same bytes; under `--device gpu` it fails and leaves no
#     output;
#  3. throughput on chr20 with the HG002 reads copied (scripts/copy_reads.py) for each
#     of $FASTMAP_COPIES (default "100 1000": 2.1 M and 21 M reads): galign fastmap
#     end to end, FASTQ -> text file, with --device gpu, auto and cpu (all cores) against
#     `bwa fastmap` run as one process a core on as many shards (its only way to use the
#     cores), every output compared with cmp, and the speed-ups; the SMEM kernel's
#     reads/s alone (galign's --verbose line) and, with FASTMAP_HOST_TESTBIN, its Occ
#     bandwidth (Occ lookups per read counted on the host x 64 bytes x reads/s, against
#     the H100's 3.35 TB/s); the time to read the FASTQ and to write the output alone.
#
# usage: scripts/gpu_check_fastmap.sh TESTBIN GALIGN [WORKDIR]
# env:   GALIGN_SHARED_DATA (reads/ and ref/; default ../shared/data of the checkout),
#        GALIGN_BWA (bwa 0.7.17; default bwa on PATH; without it bwa is left out),
#        FASTMAP_COPIES (default "100 1000"), FASTMAP_THROUGHPUT_ONLY=1 (skip 1 and 2),
#        FASTMAP_HOST_TESTBIN (the test binary of tests/kernel_on_host.rs, for the Occ
#        lookups per read; needs c++).
set -euo pipefail
bin=$1; galign=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
work=$(realpath "${3:-$(mktemp -d)}"); mkdir -p "$work"
export GALIGN_KERNEL_CACHE=${GALIGN_KERNEL_CACHE:-$work/kernel-cache}
shared=${GALIGN_SHARED_DATA:-$here/../../shared/data}
bwa=${GALIGN_BWA:-$(command -v bwa || true)}
cores=$(nproc)
calc() { python3 -c "print($1)"; }
now() { date +%s.%N; }
fail() { echo "FAILED: $*"; exit 1; }

if [ -z "${FASTMAP_THROUGHPUT_ONLY:-}" ]; then
echo "== unit test on the GPU"
GALIGN_REQUIRE_GPU=1 "$bin" --test-threads 1 gpu_smems --nocapture 2>&1 | grep -v '^$'

echo "== galign fastmap: --device gpu vs --device cpu vs bwa fastmap (cmp)"
sets="NA12878_chrM_20k|$here/../data/human_rCRS_chrM_NC_012920.fa.gz|$here/../data/NA12878_chrM_20k.fq.gz
NA12878_chrM_cnvkit|$shared/ref/human_rCRS_chrM_NC_012920.fa.gz|$shared/reads/NA12878_chrM_cnvkit.fq.gz
HG002_chr20|$shared/ref/human_GRCh37_chr20.fa.gz|$shared/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz
celegans|$shared/ref/celegans_ce_htslib_1Mb.fa.gz|$shared/reads/celegans_SRR065390_1000.fq.gz
samtools_ex1|$shared/ref/samtools_ex1.fa.gz|$shared/reads/samtools_ex1_35bp.fq.gz
ecoli_R1|$shared/ref/ecoli_K12_MG1655.fa.gz|$shared/reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz
ecoli_R2|$shared/ref/ecoli_K12_MG1655.fa.gz|$shared/reads/ecoli_MG1655_first10kb_EAS20_R2.fq.gz"
printf '%-22s %-14s %12s %s\n' set options bytes result
while IFS='|' read -r name ref reads; do
  if [ ! -e "$ref" ] || [ ! -e "$reads" ]; then echo "$name: not present, skipped"; continue; fi
  [ -e "$work/$name.bwt" ] || "$galign" index --format bwa --device cpu -p "$work/$name" "$ref" 2>/dev/null
  for opts in "" "-l 25 -w 5"; do
    for dev in gpu cpu; do
      # shellcheck disable=SC2086
      "$galign" fastmap --device $dev $opts "$work/$name" "$reads" >"$work/fm.$dev" 2>"$work/fm.$dev.err" \
        || { cat "$work/fm.$dev.err"; fail "fastmap --device $dev"; }
    done
    res=OK; cmp -s "$work/fm.gpu" "$work/fm.cpu" || res=DIFFERENT
    if [ -n "$bwa" ]; then
      # shellcheck disable=SC2086
      "$bwa" fastmap $opts "$work/$name" "$reads" >"$work/fm.bwa" 2>/dev/null
      cmp -s "$work/fm.bwa" "$work/fm.cpu" || res="$res, bwa DIFFERENT"
    fi
    printf '%-22s %-14s %12s %s\n' "$name" "${opts:-defaults}" "$(stat -c %s "$work/fm.cpu")" "$res"
    [ "$res" = OK ] || fail "fastmap output differs"
  done
done <<<"$sets"
grep -h "GPU" "$work/fm.gpu.err" | head -3

echo "== a GPU failure during the run (allocation limit after the index upload)"
idx=$work/HG002_chr20; reads=$shared/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz
if [ -e "$idx.bwt" ]; then
  "$galign" fastmap --device cpu "$idx" "$reads" >"$work/f.cpu" 2>/dev/null
  limit=$(( $(stat -c %s "$idx.bwt") + $(stat -c %s "$idx.sa") + (4 << 20) ))
  GALIGN_GPU_MEM_LIMIT=$limit "$galign" fastmap --device auto "$idx" "$reads" >"$work/f.auto" 2>"$work/f.err"
  cat "$work/f.err"
  grep -q "searching on the CPU" "$work/f.err" || fail "no fallback message"
  cmp "$work/f.auto" "$work/f.cpu" && echo "auto after a GPU failure: output identical to --device cpu"
  if GALIGN_GPU_MEM_LIMIT=$limit "$galign" fastmap --device gpu -o "$work/f_gpu.txt" "$idx" "$reads" 2>"$work/f_gpu.err"; then
    fail "--device gpu succeeded despite the GPU failure"
  fi
  cat "$work/f_gpu.err"
  [ ! -e "$work/f_gpu.txt" ] || fail "--device gpu left its output"
fi
fi # FASTMAP_THROUGHPUT_ONLY

echo "== throughput: chr20, HG002 148 bp reads x ${FASTMAP_COPIES:-100 1000}"
ref=$shared/ref/human_GRCh37_chr20.fa.gz
src=$shared/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz
[ -e "$ref" ] && [ -e "$src" ] || { echo "no chr20 or HG002 reads: skipped"; exit 0; }
idx=$work/HG002_chr20
[ -e "$idx.bwt" ] || "$galign" index --format bwa --device gpu -p "$idx" "$ref" 2>/dev/null
# The Occ lookups of the SMEM walk per read, counted on the host (the kernel compiled as
# C++ by tests/kernel_on_host.rs): each reads one 64-byte Occ interval of bwa's .bwt.
lookups=
if [ -n "${FASTMAP_HOST_TESTBIN:-}" ]; then
  lookups=$(GALIGN_OCC_INDEX=$idx GALIGN_OCC_READS=$src "$FASTMAP_HOST_TESTBIN" --ignored \
    --nocapture occ_lookups_per_read 2>/dev/null | sed -n 's/^occ lookups per read: //p')
  echo "Occ lookups per read (HG002 vs chr20, counted on the host): $lookups"
else
  echo "FASTMAP_HOST_TESTBIN not set: Occ lookups per read not counted, bandwidth share left out"
fi
# time NAME COMMAND...: seconds of one run, the input in the page cache; in $last.
timed() {
  local name=$1; shift
  cat "$big" >/dev/null; sync
  local t0; t0=$(now)
  "$@"
  last=$(calc "$(now) - $t0")
  printf '%-34s %8.2f s %12.0f reads/s\n' "$name" "$last" "$(calc "$nreads / $last")"
}
# galign fastmap DEVICE OUT ERR: end to end, FASTQ -> text file.
fastmap() { "$galign" fastmap --verbose --device "$1" -o "$2" "$idx" "$big" 2>"$3"; }
for copies in ${FASTMAP_COPIES:-100 1000}; do
  big=$work/hg_x$copies.fq
  [ -s "$big" ] || python3 "$here/copy_reads.py" "$src" "$copies" "$big"
  nreads=$(( $(wc -l <"$big") / 4 ))
  echo "-- x$copies: $nreads reads, $cores cores, $(stat -c %s "$big") bytes of FASTQ"
  timed "galign fastmap --device gpu" fastmap gpu "$work/t.gpu" "$work/t.gpu.err"; t_gpu=$last
  timed "galign fastmap --device auto" fastmap auto "$work/t.auto" "$work/t.auto.err"; t_auto=$last
  timed "galign fastmap --device cpu" fastmap cpu "$work/t.cpu" "$work/t.cpu.err"; t_cpu=$last
  cmp "$work/t.gpu" "$work/t.cpu" || fail "GPU output differs from the CPU's"
  cmp "$work/t.auto" "$work/t.cpu" || fail "auto output differs from the CPU's"
  grep -h "GPU\|SMEM kernel" "$work/t.gpu.err" | head -3
  kernel=$(sed -n 's/^.*SMEM kernel: \([0-9.]*\) s, \([0-9]*\) reads\/s.*$/\2/p' "$work/t.gpu.err" | tail -1)
  if [ -n "$kernel" ]; then
    echo "SMEM kernel alone (walk + count scan, all batches): $kernel reads/s"
    if [ -n "$lookups" ]; then
      echo "Occ bandwidth of the kernel: $(calc "round($kernel * $lookups * 64 / 1e9, 1)") GB/s" \
        "= $(calc "round(100 * $kernel * $lookups * 64 / 3.35e12, 1)") % of H100 HBM3's 3.35 TB/s" \
        "($lookups lookups a read, 64 bytes each)"
    fi
  fi
  if [ -n "$bwa" ]; then
    # bwa fastmap as one process a core on as many shards (records dealt in order).
    rm -rf "$work/shards"; mkdir -p "$work/shards"
    per=$(( (nreads + cores - 1) / cores ))
    split -d -a 3 -l $(( per * 4 )) "$big" "$work/shards/s."
    shard_run() {
      for s in "$work"/shards/s.[0-9][0-9][0-9]; do
        "$bwa" fastmap "$idx" "$s" >"$s.out" 2>/dev/null &
      done
      wait
    }
    timed "bwa fastmap, $cores shards" shard_run; t_bwa=$last
    cat "$work"/shards/s.[0-9][0-9][0-9].out | cmp - "$work/t.cpu" \
      || fail "bwa fastmap's output differs from galign's"
    echo "outputs identical: GPU, auto, CPU, bwa ($(stat -c %s "$work/t.cpu") bytes)"
    echo "x$copies speed-up over bwa fastmap as $cores shards: GPU $(calc "round($t_bwa / $t_gpu, 2)")x," \
      "auto $(calc "round($t_bwa / $t_auto, 2)")x, CPU $(calc "round($t_bwa / $t_cpu, 2)")x"
    rm -rf "$work/shards"
  fi
  # What bounds it: the time to write the output alone, and to read the FASTQ.
  cat "$big" >/dev/null
  timed "cat FASTQ > /dev/null" sh -c "cat \"$big\" >/dev/null"
  timed "cp output (write alone)" cp "$work/t.cpu" "$work/t.copy"
  rm -f "$work/t.gpu" "$work/t.auto" "$work/t.cpu" "$work/t.copy" "$big"
done
