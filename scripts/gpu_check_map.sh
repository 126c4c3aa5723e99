#!/usr/bin/env bash
# GPU check of `galign map` (run through `gpu_check.sh TESTBIN --map GALIGN`, or directly):
# GPU unit tests, CLI output of --device gpu against --device cpu on every real read set
# (cmp, SAM and BAM, single and paired, -k 5 and -a; and -v 1/2/3 with and without -a),
# the GPU-error fallback under auto, an index of 64-bit positions (GPU == CPU == the
# 32-bit index, -v 0 and -v 2), and a reads/s table on generated reads: for each read
# length, the search+locate kernels alone and end to end (plain FASTQ -> SAM; gzip and
# BGZF FASTQ -> BAM, compressed on all cores by gz_parallel.py) on the GPU and the CPU,
# beside bowtie 1 on the same reads; for 150 bp reads also `map -v K -a` (K = 1, 2, 3) on
# the GPU and the CPU beside `bowtie -v K -a` (output compared GPU vs CPU).
# Any difference fails the script. Both devices write to the same relative name (in
# $work/gpu and $work/cpu), so that @PG CL agrees.
#
# usage: scripts/gpu_check_map.sh TESTBIN GALIGN [WORKDIR]
# env:   GALIGN_SHARED_DATA (reads/ and ref/; default ../shared/data of the checkout),
#        MAP_REF (throughput reference; default the shared human_GRCh37_chr20.fa.gz),
#        MAP_READS (generated reads, default 4000000), MAP_READ_LENGTHS (default
#        "150 100"), MAP_BIG_FASTA (optional human-scale references, space separated,
#        e.g. from `gen_inputs.py DIR --real chr20.fa.gz 49` and `--random 3100000000`:
#        each indexed on the GPU, then 150 bp reads of it mapped to it), BOWTIE_DIR (bowtie-align-s and bowtie-build-s, else
#        PATH), MAP_THROUGHPUT_ONLY=1 (skip the tests and comparisons on real reads),
#        MAP_GPU_TESTS (the unit tests' name filters; default "gpu_ kernels_compile", all
#        of them, over 5 minutes: e.g. "gpu_map gpu_mismatch gpu_search" for map's own).
set -euo pipefail
bin=$1; galign=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
work=$(realpath "${3:-$(mktemp -d)}"); mkdir -p "$work/gpu" "$work/cpu" "$work/auto"
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

if [ -z "${MAP_THROUGHPUT_ONLY:-}" ]; then
echo "== unit tests on the GPU"
# shellcheck disable=SC2086
"$bin" --test-threads 1 ${MAP_GPU_TESTS:-gpu_ kernels_compile} --nocapture 2>&1 | grep -v '^$'

echo "== galign map: --device gpu vs --device cpu (cmp)"
# name|reference|mate 1|mate 2
sets="NA12878_chrM_20k|$here/../data/human_rCRS_chrM_NC_012920.fa.gz|$here/../data/NA12878_chrM_20k.fq.gz|
NA12878_chrM_cnvkit|$shared/ref/human_rCRS_chrM_NC_012920.fa.gz|$shared/reads/NA12878_chrM_cnvkit.fq.gz|
HG002_chr20|$shared/ref/human_GRCh37_chr20.fa.gz|$shared/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz|
celegans|$shared/ref/celegans_ce_htslib_1Mb.fa.gz|$shared/reads/celegans_SRR065390_1000.fq.gz|
samtools_ex1|$shared/ref/samtools_ex1.fa.gz|$shared/reads/samtools_ex1_35bp.fq.gz|
ecoli_R1|$shared/ref/ecoli_K12_MG1655.fa.gz|$shared/reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz|
ecoli_paired|$shared/ref/ecoli_K12_MG1655.fa.gz|$shared/reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz|$shared/reads/ecoli_MG1655_first10kb_EAS20_R2.fq.gz"
printf '%-22s %-9s %-4s %10s %s\n' set mode fmt bytes result
while IFS='|' read -r name ref r1 r2; do
  if [ ! -e "$ref" ] || [ ! -e "$r1" ]; then echo "$name: not present, skipped"; continue; fi
  "$galign" index -p "$work/$name" "$ref" 2>/dev/null
  for v in 0 1 2 3; do
  for mode in -k -a; do
    opt=(-v $v); [ $mode = -a ] && opt+=(-a)
    fmts="sam bam"; [ $v = 0 ] || fmts=sam
    for fmt in $fmts; do
      for dev in gpu cpu; do
        (cd "$work/$dev" && "$galign" map --device $dev "${opt[@]}" -R '@RG\tID:x\tSM:y' -o "m.$fmt" "$work/$name" "$r1" $r2 2>m.err) \
          || { cat "$work/$dev/m.err"; exit 1; }
      done
      res=OK; cmp -s "$work/gpu/m.$fmt" "$work/cpu/m.$fmt" || res=DIFFERENT
      printf '%-22s %-9s %-4s %10s %s\n' "$name" "-v $v $mode" $fmt "$(stat -c %s "$work/cpu/m.$fmt")" $res
      [ $res = OK ] || { echo "FAILED: GPU output differs"; exit 1; }
    done
  done
  done
done <<<"$sets"

echo "== GPU error during the run (allocation limit after the index upload)"
# -v 1: auto searches exactly on the CPU against an index this small (map::auto_device).
chrm=$work/NA12878_chrM_20k; reads=$here/../data/NA12878_chrM_20k.fq.gz
(cd "$work/gpu" && GALIGN_GPU_WAIT=1 GALIGN_GPU_MEM_LIMIT=100000 "$galign" map -v 1 --device auto -o f.sam "$chrm" "$reads" 2>f.err)
cat "$work/gpu/f.err"
grep -q "mapping the rest on the CPU" "$work/gpu/f.err" || { echo "FAILED: no fallback message"; exit 1; }
(cd "$work/cpu" && "$galign" map -v 1 --device cpu -o f.sam "$chrm" "$reads" 2>/dev/null)
cmp "$work/gpu/f.sam" "$work/cpu/f.sam" && echo "auto after a GPU error: output identical to --device cpu"
if GALIGN_GPU_MEM_LIMIT=100000 "$galign" map -v 1 --device gpu -o "$work/f_gpu.sam" "$chrm" "$reads" 2>"$work/f_gpu.err"; then
  echo "FAILED: --device gpu succeeded despite the GPU error"; exit 1
fi
cat "$work/f_gpu.err"

echo "== a read too long for the GPU's mismatch search (a FASTA read of 2^26 + 2^20 bases)"
python3 - "$work/long.fa" <<'PY'
import random, sys
random.seed(7)
piece = "".join(random.choice("ACGT") for _ in range(1 << 20))
open(sys.argv[1], "w").write(">long\n" + piece * 65 + "\n>short\n" + piece[1000:1148] + "\n")
PY
(cd "$work/gpu" && GALIGN_GPU_WAIT=1 "$galign" map -v 1 --device auto -o l.sam "$chrm" "$work/long.fa" 2>l.err)
grep -q "mapping the rest on the CPU" "$work/gpu/l.err" || { cat "$work/gpu/l.err"; echo "FAILED: no fallback message"; exit 1; }
(cd "$work/cpu" && "$galign" map -v 1 --device cpu -o l.sam "$chrm" "$work/long.fa" 2>/dev/null)
cmp "$work/gpu/l.sam" "$work/cpu/l.sam" && echo "auto after a read too long for the GPU: output identical to --device cpu"
if "$galign" map -v 1 --device gpu -o "$work/l_gpu.sam" "$chrm" "$work/long.fa" 2>"$work/l_gpu.err"; then
  echo "FAILED: --device gpu succeeded with a read too long for it"; exit 1
fi
grep -q "too long for the GPU search" "$work/l_gpu.err" || { cat "$work/l_gpu.err"; echo "FAILED: not the read-length error"; exit 1; }
[ ! -e "$work/l_gpu.sam" ] || { echo "FAILED: --device gpu left its output"; exit 1; }
cat "$work/l_gpu.err"

echo "== an index of 64-bit positions (forced): GPU == CPU on it, and == the 32-bit index's output"
while IFS='|' read -r name ref r1 r2; do
  [ -e "$work/$name.galign" ] || { echo "$name: not present, skipped"; continue; }
  "$galign" index --force-u64-positions -p "$work/wide_$name" "$ref" 2>/dev/null
  for v in 0 2; do
    for dev in gpu cpu; do
      (cd "$work/$dev" && "$galign" map --device $dev -v $v -o w.sam "$work/wide_$name" "$r1" $r2 2>w.err) \
        || { cat "$work/$dev/w.err"; exit 1; }
    done
    cmp "$work/gpu/w.sam" "$work/cpu/w.sam" || { echo "FAILED: GPU output differs on the 64-bit index"; exit 1; }
    # The 32-bit index's output, under the same output name (in $work/auto) for @PG CL.
    (cd "$work/auto" && "$galign" map --device cpu -v $v -o w.sam "$work/$name" "$r1" $r2 2>/dev/null)
    sed -i 's#'"$work/wide_$name"'#'"$work/$name"'#' "$work/cpu/w.sam"  # @PG CL names the index
    cmp "$work/cpu/w.sam" "$work/auto/w.sam" || { echo "FAILED: the 64-bit index's output differs"; exit 1; }
    echo "$name -v $v: 64-bit index, GPU output identical to the CPU's and to the 32-bit index's ($(stat -c %s "$work/auto/w.sam") bytes)"
  done
done <<<"NA12878_chrM_20k|$here/../data/human_rCRS_chrM_NC_012920.fa.gz|$here/../data/NA12878_chrM_20k.fq.gz|
ecoli_paired|$shared/ref/ecoli_K12_MG1655.fa.gz|$shared/reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz|$shared/reads/ecoli_MG1655_first10kb_EAS20_R2.fq.gz"

fi # MAP_THROUGHPUT_ONLY
[ -e "$map_ref" ] || { echo "no $map_ref: throughput skipped"; exit 0; }
"$galign" index -v -p "$work/big" "$map_ref" 2>&1 | grep -E 'GPU|total' || true
rows=()
# run NAME DEVICE FORMAT INDEX READS [OPTIONS]: times one map run (output big.FORMAT in
# $work/DEVICE); keeps its kernel and GPU-stage seconds.
run() {
  local name=$1 dev=$2 fmt=$3 idx=$4 reads=$5; shift 5
  # The old output removed (replacing a large file costs the file system its unlink),
  # earlier outputs flushed (their writeback would throttle this run's writes) and the
  # input in the page cache, as for bowtie: time the mapper, not the disk.
  rm -f "$work/$dev/big.$fmt"; sync; cat "$reads" >/dev/null
  local t0; t0=$(now)
  (cd "$work/$dev" && "$galign" map --verbose --device "$dev" "$@" -o "big.$fmt" "$idx" "$reads" 2>big.err) \
    || { cat "$work/$dev/big.err"; exit 1; }
  rows+=("$name|$(calc "$(now) - $t0")")
  sed "s/^/  [$name] /" "$work/$dev/big.err"
  local k s
  # Kernel seconds scaled to all $nreads reads (under auto only part of them go to the GPU).
  k=$(grep -o 'kernels: [0-9]* reads in [0-9.]* s' "$work/$dev/big.err" | awk -v n="$nreads" '{print $5 * n / $2}') || true
  s=$(grep -o 'GPU stage ([^)]*): [0-9.]* s' "$work/$dev/big.err" | awk '{print $(NF-1)}') || true
  [ -z "$k" ] || rows+=("  search+locate kernels alone|$k" "  GPU stage: packing, transfers, kernels|$s")
}
same() { # same FILE CPU_FILE: fails unless identical ($work/gpu/FILE, or $work/FILE with a /)
  local a=$work/gpu/$1; [[ $1 != */* ]] || a=$work/$1
  local res=OK; cmp -s "$a" "$work/cpu/$2" || res=DIFFERENT
  echo "generated reads, GPU $1 vs CPU $2: $res"
  [ $res = OK ] || { echo "FAILED: GPU output differs"; exit 1; }
}
# Every run reads the same path, a link to the plain, gzip or BGZF file, so that @PG CL
# agrees and all SAM (and all BAM) outputs can be compared.
reads=$work/reads.fq
for len in ${MAP_READ_LENGTHS:-150 100}; do
  echo "== throughput: $nreads generated $len bp reads of $(basename "$map_ref"), $cores cores"
  fq=$work/big_$len.fq
  python3 "$here/gen_reads.py" "$map_ref" "$fq" "$nreads" "$len"
  python3 "$here/gz_parallel.py" "$fq" "$fq.gz" --gzip
  python3 "$here/gz_parallel.py" "$fq" "$fq.bgzf.gz" --bgzf
  ls -l "$fq" "$fq.gz" "$fq.bgzf.gz" | awk '{print "  " $5, $NF}'
  sync # inputs on disk before the clock starts
  rows+=("-- $len bp reads|")
  ln -sf "$fq" "$reads"
  if [ "$len" = 150 ]; then
    run "GPU, FASTQ -> BAM, batch 1M" gpu bam "$work/big" "$reads" --batch-size 1048576
    mv "$work/gpu/big.bam" "$work/gpu/big_1m.bam"
  fi
  run "GPU, FASTQ -> SAM" gpu sam "$work/big" "$reads"
  run "auto (GPU once open), FASTQ -> SAM" auto sam "$work/big" "$reads"
  run "CPU, FASTQ -> SAM" cpu sam "$work/big" "$reads"
  ln -sf "$fq.gz" "$reads"
  run "GPU, gzip FASTQ -> BAM" gpu bam "$work/big" "$reads"
  mv "$work/gpu/big.bam" "$work/gpu/big_gz.bam"
  ln -sf "$fq.bgzf.gz" "$reads"
  run "GPU, BGZF FASTQ -> BAM" gpu bam "$work/big" "$reads"
  run "CPU, BGZF FASTQ -> BAM" cpu bam "$work/big" "$reads"
  same big.sam big.sam; same auto/big.sam big.sam; same big.bam big.bam; same big_gz.bam big.bam
  [ "$len" != 150 ] || same big_1m.bam big.bam
  if [ -n "$bowtie" ]; then
    wait
    if [ "$(cat "$work/bt_build.rc")" = 0 ]; then
      rm -f "$work/bt.sam"; sync; cat "$fq" >/dev/null
      t0=$(now)
      bowtie-align-s -p "$cores" -v 0 -a -S "$work/bt" "$fq" >"$work/bt.sam" 2>"$work/bt.err"
      rows+=("bowtie 1 -v 0 -a -p $cores, FASTQ -> SAM|$(calc "$(now) - $t0")")
      sed 's/^/  [bowtie] /' "$work/bt.err"
    else
      cat "$work/bt_build.log"
    fi
  fi
  if [ "$len" = 150 ]; then
    ln -sf "$fq" "$reads"
    for v in 1 2 3; do
      rows+=("-- $len bp reads, -v $v -a (all hits with up to $v mismatches)|")
      run "GPU -v $v -a, FASTQ -> SAM" gpu sam "$work/big" "$reads" -v $v -a
      run "CPU -v $v -a, FASTQ -> SAM" cpu sam "$work/big" "$reads" -v $v -a
      same big.sam big.sam
      if [ -n "$bowtie" ] && [ "$(cat "$work/bt_build.rc")" = 0 ]; then
        rm -f "$work/bt.sam"; sync; cat "$fq" >/dev/null
        t0=$(now)
        bowtie-align-s -p "$cores" -v $v -a -S "$work/bt" "$fq" >"$work/bt.sam" 2>"$work/bt.err"
        rows+=("bowtie 1 -v $v -a -p $cores, FASTQ -> SAM|$(calc "$(now) - $t0")")
        sed "s/^/  [bowtie -v $v] /" "$work/bt.err"
      fi
    done
  fi
  rm -f "$fq" "$fq.gz" "$fq.bgzf.gz" "$reads"
done
# Human-scale indexes ($MAP_BIG_FASTA, space separated; e.g. gen_inputs.py --real chr20 49
# and --random 3100000000): kernel rates where the index no longer fits the caches, on
# 150 bp reads of each reference itself.
for big in ${MAP_BIG_FASTA:-}; do
  echo "== human-scale index: $(basename "$big")"
  "$galign" index -v --device gpu -p "$work/huge" "$big" 2>&1 | grep -E 'bases|GPU\)' || true
  fq=$work/big_150.fq
  python3 "$here/gen_reads.py" "$big" "$fq" "$nreads" 150
  sync
  rows+=("-- 150 bp reads of $(basename "$big"), its own index|")
  ln -sf "$fq" "$reads"
  run "GPU, FASTQ -> SAM" gpu sam "$work/huge" "$reads"
  rm -f "$work/huge.galign" "$fq" "$reads"
done
printf '\n%-46s %10s %14s %10s\n' "what ($nreads reads, both strands)" seconds reads/s vs_bowtie
# Rows of a read length come before its bowtie row; ratios use that length's bowtie time.
bt=""
for ((i = ${#rows[@]} - 1; i >= 0; i--)); do
  row=${rows[$i]}
  case $row in bowtie*) bt=${row##*|} ;; --*) bt="" ;; esac
  ratios[$i]=""
  case $row in "  "*|--*|bowtie*) ;; *) [ -z "$bt" ] || ratios[$i]=$(calc "round($bt / ${row##*|}, 2)") ;; esac
done
for i in "${!rows[@]}"; do
  row=${rows[$i]}
  if [ "${row##*|}" = "" ]; then printf '%s\n' "${row%%|*}"; continue; fi
  printf '%-46s %10.3f %14.0f %10s\n' "${row%%|*}" "${row##*|}" "$(calc "$nreads / ${row##*|}")" "${ratios[$i]}"
done
