#!/usr/bin/env bash
# Mismatch mapping benchmark (issue 14) on a GPU host: the real HG002 148 bp reads,
# repeated COPIES times (names made unique), against GRCh37 chr20, plain FASTQ -> SAM,
# every hit: `galign map -v K -a` on the GPU and on the CPU beside `bowtie -v K -a -p
# CORES -S` (same reads, same run), K in $KS. Each command runs $REPEATS times (min wall
# shown); the GPU's output is compared with the CPU's (cmp, @PG aside); alignment lines
# and mapped reads are counted for both tools; the GPU run's `--verbose` stage seconds
# are kept in WORKDIR/verbose_K.log.
#
# usage: scripts/gpu_bench_mismatch.sh GALIGN [WORKDIR]
# env:   GALIGN_SHARED_DATA (default ../shared/data of the checkout), BOWTIE_DIR
#        (bowtie-align-s, bowtie-build-s), COPIES (default 20), REPEATS (default 2),
#        KS (default "0 1 2 3")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
galign=$(realpath "$1")
work=${2:-/tmp/galign_bench_mismatch}
shared=${GALIGN_SHARED_DATA:-$here/../../shared/data}
[ -z "${BOWTIE_DIR:-}" ] || export PATH=$BOWTIE_DIR:$PATH
cores=$(nproc)
repeats=${REPEATS:-2}
mkdir -p "$work"

zcat "$shared/ref/human_GRCh37_chr20.fa.gz" >"$work/chr20.fa"
"$galign" index -p "$work/chr20" "$work/chr20.fa" 2>/dev/null
bowtie-build-s --threads "$cores" -q "$work/chr20.fa" "$work/bt_chr20"
python3 "$here/copy_reads.py" "$shared/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz" "${COPIES:-20}" "$work/reads.fq"
reads=$(($(wc -l <"$work/reads.fq") / 4))

# best OUT COMMAND...: the least wall seconds of $repeats runs of COMMAND.
best() {
  local out=$1 b="" t
  shift
  for ((r = 0; r < repeats; r++)); do
    rm -f "$out"
    /usr/bin/time -f %e -o "$work/time" "$@" 2>/dev/null
    t=$(tail -1 "$work/time")
    b=$(python3 -c "print(min(float('$t'), float('${b:-inf}')))")
  done
  echo "$b"
}
# body FILE: the SAM lines that are not header lines.
body() { grep -v '^@' "$1"; }
# mapped FILE: reads with at least one alignment.
mapped() { body "$1" | awk -F'\t' 'int($2 / 4) % 2 == 0 { print $1 }' | sort -u | wc -l; }

printf '%s reads, %s cores, %s runs each (min wall, s)\n' "$reads" "$cores" "$repeats"
printf '%-3s %8s %8s %8s %10s %10s %10s %10s %9s %9s %s\n' K gpu cpu bowtie bt/gpu bt/cpu \
  lines lines_bt mapped mapped_bt gpu==cpu
for k in ${KS:-0 1 2 3}; do
  map=("$galign" map -v "$k" -a -t "$cores")
  tg=$(best "$work/gpu.sam" "${map[@]}" --device gpu -o "$work/gpu.sam" "$work/chr20" "$work/reads.fq")
  tc=$(best "$work/cpu.sam" "${map[@]}" --device cpu -o "$work/cpu.sam" "$work/chr20" "$work/reads.fq")
  same=identical
  cmp -s <(grep -v '^@PG' "$work/gpu.sam") <(grep -v '^@PG' "$work/cpu.sam") || same=DIFFERENT
  tb=$(best "$work/bt.sam" bowtie-align-s -v "$k" -a -p "$cores" -S "$work/bt_chr20" "$work/reads.fq" "$work/bt.sam")
  "${map[@]}" --device gpu --verbose -o "$work/gpu.sam" "$work/chr20" "$work/reads.fq" 2>"$work/verbose_$k.log"
  printf '%-3s %8.3f %8.3f %8.3f %10.2f %10.2f %10s %10s %9s %9s %s\n' "$k" "$tg" "$tc" "$tb" \
    "$(python3 -c "print($tb / $tg)")" "$(python3 -c "print($tb / $tc)")" \
    "$(body "$work/gpu.sam" | wc -l)" "$(body "$work/bt.sam" | wc -l)" \
    "$(mapped "$work/gpu.sam")" "$(mapped "$work/bt.sam")" "$same"
done
