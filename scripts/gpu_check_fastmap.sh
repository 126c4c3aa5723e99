#!/usr/bin/env bash
# GPU check and benchmark of `galign fastmap` (issue 64), on a GPU machine:
#  1. the GPU unit test (SMEMs and locate on the GPU == the CPU's, nasty references and
#     reads; gpu_smems_match_cpu in tests/gpu_kernels.rs);
#  2. on every real read set with its reference: bwa's index written by galign (CPU),
#     `fastmap --device gpu` == `--device cpu` == `bwa fastmap` (cmp), with the defaults
#     and with `-l 25 -w 5`; a GPU failure during the run under auto (allocation limit)
#     falls back and gives the same bytes; under `--device gpu` it fails and leaves no
#     output;
#  3. throughput on chr20 with the HG002 reads repeated $FASTMAP_COPIES times (default
#     100: 2.1 M reads): galign fastmap on the GPU and on the CPU (all cores) against
#     `bwa fastmap` run as one process a core on as many shards (its only way to use the
#     cores), end to end FASTQ -> text; every output compared with cmp.
#
# usage: scripts/gpu_check_fastmap.sh TESTBIN GALIGN [WORKDIR]
# env:   GALIGN_SHARED_DATA (reads/ and ref/; default ../shared/data of the checkout),
#        GALIGN_BWA (bwa 0.7.17; default bwa on PATH; without it bwa is left out),
#        FASTMAP_COPIES (default 100), FASTMAP_THROUGHPUT_ONLY=1 (skip 1 and 2).
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

echo "== throughput: chr20, HG002 148 bp reads x ${FASTMAP_COPIES:-100}"
ref=$shared/ref/human_GRCh37_chr20.fa.gz
src=$shared/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz
[ -e "$ref" ] && [ -e "$src" ] || { echo "no chr20 or HG002 reads: skipped"; exit 0; }
idx=$work/HG002_chr20
[ -e "$idx.bwt" ] || "$galign" index --format bwa --device gpu -p "$idx" "$ref" 2>/dev/null
zcat "$src" >"$work/one.fq"
big=$work/big.fq; : >"$big"
for _ in $(seq "${FASTMAP_COPIES:-100}"); do cat "$work/one.fq" >>"$big"; done
nreads=$(( $(wc -l <"$big") / 4 ))
# time NAME COMMAND...: seconds of one run, the input in the page cache.
timed() {
  local name=$1; shift
  cat "$big" >/dev/null; sync
  local t0; t0=$(now)
  "$@"
  local t; t=$(calc "$(now) - $t0")
  printf '%-34s %8.2f s %12.0f reads/s\n' "$name" "$t" "$(calc "$nreads / $t")"
}
echo "$nreads reads, $cores cores"
timed "galign fastmap --device gpu" sh -c "\"$galign\" fastmap --device gpu \"$idx\" \"$big\" >\"$work/t.gpu\" 2>\"$work/t.gpu.err\""
timed "galign fastmap --device cpu" sh -c "\"$galign\" fastmap --device cpu \"$idx\" \"$big\" >\"$work/t.cpu\" 2>/dev/null"
cmp "$work/t.gpu" "$work/t.cpu" || fail "GPU output differs from the CPU's"
grep -h "GPU" "$work/t.gpu.err" | head -2
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
  timed "bwa fastmap, $cores shards" shard_run
  cat "$work"/shards/s.[0-9][0-9][0-9].out >"$work/t.bwa"
  cmp "$work/t.bwa" "$work/t.cpu" || fail "bwa fastmap's output differs from galign's"
  echo "outputs identical: GPU, CPU, bwa ($(stat -c %s "$work/t.cpu") bytes)"
fi
