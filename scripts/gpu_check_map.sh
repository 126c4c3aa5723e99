#!/usr/bin/env bash
# GPU check of `galign map` (run through `gpu_check.sh TESTBIN --map GALIGN`, or directly):
# GPU unit tests, CLI output of --device gpu against --device cpu on every real read set
# (cmp, SAM and BAM, single and paired, -k 5 and -a), the GPU-error fallback under auto,
# and a reads/s table on generated reads. Any difference fails the script. Both devices
# write to the same relative name (in $work/gpu and $work/cpu), so that @PG CL agrees.
#
# usage: scripts/gpu_check_map.sh TESTBIN GALIGN [WORKDIR]
# env:   GALIGN_SHARED_DATA (reads/ and ref/; default ../shared/data of the checkout),
#        MAP_REF (throughput reference; default the shared human_GRCh37_chr20.fa.gz),
#        MAP_READS (generated reads, default 4000000), BOWTIE_DIR (bowtie-align-s and
#        bowtie-build-s, else PATH).
set -euo pipefail
bin=$1; galign=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
work=$(realpath "${3:-$(mktemp -d)}"); mkdir -p "$work/gpu" "$work/cpu"
export GALIGN_KERNEL_CACHE=${GALIGN_KERNEL_CACHE:-$work/kernel-cache}
shared=${GALIGN_SHARED_DATA:-$here/../../shared/data}
export GALIGN_SHARED_DATA=$shared
map_ref=${MAP_REF:-$shared/ref/human_GRCh37_chr20.fa.gz}
nreads=${MAP_READS:-4000000}
cores=$(nproc)
calc() { python3 -c "print($1)"; }
now() { date +%s.%N; }
[ -z "${BOWTIE_DIR:-}" ] || export PATH=$BOWTIE_DIR:$PATH
bowtie=""; command -v bowtie-align-s >/dev/null && command -v bowtie-build-s >/dev/null && bowtie=1

# bowtie's index builds in the background while the correctness checks run.
if [ -n "$bowtie" ] && [ -e "$map_ref" ]; then
  zcat -f "$map_ref" >"$work/bt_ref.fa"
  (bowtie-build-s --threads "$cores" -q "$work/bt_ref.fa" "$work/bt" >"$work/bt_build.log" 2>&1; echo $? >"$work/bt_build.rc") &
fi

echo "== unit tests on the GPU"
"$bin" --test-threads 1 gpu_ kernels_compile --nocapture 2>&1 | grep -v '^$'

echo "== galign map: --device gpu vs --device cpu (cmp)"
# name|reference|mate 1|mate 2
sets="NA12878_chrM_20k|$here/../data/human_rCRS_chrM_NC_012920.fa.gz|$here/../data/NA12878_chrM_20k.fq.gz|
NA12878_chrM_cnvkit|$shared/ref/human_rCRS_chrM_NC_012920.fa.gz|$shared/reads/NA12878_chrM_cnvkit.fq.gz|
HG002_chr20|$shared/ref/human_GRCh37_chr20.fa.gz|$shared/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz|
celegans|$shared/ref/celegans_ce_htslib_1Mb.fa.gz|$shared/reads/celegans_SRR065390_1000.fq.gz|
samtools_ex1|$shared/ref/samtools_ex1.fa.gz|$shared/reads/samtools_ex1_35bp.fq.gz|
ecoli_R1|$shared/ref/ecoli_K12_MG1655.fa.gz|$shared/reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz|
ecoli_paired|$shared/ref/ecoli_K12_MG1655.fa.gz|$shared/reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz|$shared/reads/ecoli_MG1655_first10kb_EAS20_R2.fq.gz"
printf '%-22s %-4s %-4s %10s %s\n' set mode fmt bytes result
while IFS='|' read -r name ref r1 r2; do
  if [ ! -e "$ref" ] || [ ! -e "$r1" ]; then echo "$name: not present, skipped"; continue; fi
  "$galign" index -p "$work/$name" "$ref" 2>/dev/null
  for mode in -k -a; do
    opt=(); [ $mode = -a ] && opt=(-a)
    for fmt in sam bam; do
      for dev in gpu cpu; do
        (cd "$work/$dev" && "$galign" map --device $dev "${opt[@]}" -R '@RG\tID:x\tSM:y' -o "m.$fmt" "$work/$name" "$r1" $r2 2>m.err) \
          || { cat "$work/$dev/m.err"; exit 1; }
      done
      res=OK; cmp -s "$work/gpu/m.$fmt" "$work/cpu/m.$fmt" || res=DIFFERENT
      printf '%-22s %-4s %-4s %10s %s\n' "$name" $mode $fmt "$(stat -c %s "$work/cpu/m.$fmt")" $res
      [ $res = OK ] || { echo "FAILED: GPU output differs"; exit 1; }
    done
  done
done <<<"$sets"

echo "== GPU error during the run (allocation limit after the index upload)"
chrm=$work/NA12878_chrM_20k; reads=$here/../data/NA12878_chrM_20k.fq.gz
(cd "$work/gpu" && GALIGN_GPU_MEM_LIMIT=100000 "$galign" map --device auto -o f.sam "$chrm" "$reads" 2>f.err)
cat "$work/gpu/f.err"
grep -q "mapping the rest on the CPU" "$work/gpu/f.err" || { echo "FAILED: no fallback message"; exit 1; }
(cd "$work/cpu" && "$galign" map --device cpu -o f.sam "$chrm" "$reads" 2>/dev/null)
cmp "$work/gpu/f.sam" "$work/cpu/f.sam" && echo "auto after a GPU error: output identical to --device cpu"
if GALIGN_GPU_MEM_LIMIT=100000 "$galign" map --device gpu -o "$work/f_gpu.sam" "$chrm" "$reads" 2>"$work/f_gpu.err"; then
  echo "FAILED: --device gpu succeeded despite the GPU error"; exit 1
fi
cat "$work/f_gpu.err"

[ -e "$map_ref" ] || { echo "no $map_ref: throughput skipped"; exit 0; }
echo "== throughput: $nreads generated 150 bp reads of $(basename "$map_ref"), $cores cores"
python3 "$here/gen_reads.py" "$map_ref" "$work/big.fq" "$nreads"
"$galign" index -v -p "$work/big" "$map_ref" 2>&1 | grep -E 'GPU|total' || true
rows=()
# run NAME DEVICE FORMAT [OPTIONS]: times one map run; keeps its kernel and GPU-stage seconds.
run() {
  local name=$1 dev=$2 fmt=$3; shift 3
  local t0; t0=$(now)
  (cd "$work/$dev" && "$galign" map -v --device "$dev" "$@" -o "big.$fmt" "$work/big" "$work/big.fq" 2>big.err) \
    || { cat "$work/$dev/big.err"; exit 1; }
  rows+=("$name|$(calc "$(now) - $t0")")
  sed "s/^/  [$name] /" "$work/$dev/big.err"
  local k s
  k=$(grep -o 'kernels: [0-9]* reads in [0-9.]* s' "$work/$dev/big.err" | awk '{print $5}') || true
  s=$(grep -o 'GPU stage ([^)]*): [0-9.]* s' "$work/$dev/big.err" | awk '{print $(NF-1)}') || true
  [ -z "$k" ] || rows+=("  GPU search+locate kernels alone|$k" "  GPU stage: packing, transfers, kernels|$s")
}
run "galign map --device gpu, BAM, batch 1M" gpu bam --batch-size 1048576
mv "$work/gpu/big.bam" "$work/gpu/big_1m.bam"
run "galign map --device gpu, BAM" gpu bam
run "galign map --device gpu, SAM" gpu sam
run "galign map --device cpu, BAM" cpu bam
run "galign map --device cpu, SAM" cpu sam
for out in big.sam big.bam big_1m.bam; do
  res=OK; cmp -s "$work/gpu/$out" "$work/cpu/big.${out##*.}" || res=DIFFERENT
  echo "generated reads, GPU $out vs CPU: $res"
  [ $res = OK ] || { echo "FAILED: GPU output differs"; exit 1; }
done
if [ -n "$bowtie" ]; then
  wait
  if [ "$(cat "$work/bt_build.rc")" = 0 ]; then
    t0=$(now)
    bowtie-align-s -p "$cores" -v 0 -a -S "$work/bt" "$work/big.fq" >"$work/bt.sam" 2>"$work/bt.err"
    rows+=("bowtie 1 -v 0 -a -p $cores -S (SAM)|$(calc "$(now) - $t0")")
    sed 's/^/  [bowtie] /' "$work/bt.err"
  else
    cat "$work/bt_build.log"
  fi
fi
printf '\n%-44s %10s %14s\n' "what ($nreads reads, both strands)" seconds reads/s
for row in "${rows[@]}"; do
  printf '%-44s %10.3f %14.0f\n' "${row%%|*}" "${row##*|}" "$(calc "$nreads / ${row##*|}")"
done
