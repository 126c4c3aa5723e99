#!/usr/bin/env bash
# Real-read mapping benchmark (issue 15) on a GPU host: real Illumina reads, repeated to a
# few million, against chr20 and against a human-scale index (chr20 + ~3 Gbp of random DNA
# as further contigs, so that the reads keep their real hit counts). For each set: plain
# FASTQ -> SAM `-a` under auto, gpu and cpu beside `bowtie -v 0 -a -p CORES` (same reads,
# same run); gzip and BGZF FASTQ -> BAM; the same plain and gzip reads from a pipe (`cat |
# galign map idx -`, and `zcat | galign map idx -` as issue 15 words its row) against the
# files, and each pipe's writer alone. Every galign output of a set is compared with the CPU's
# (cmp), every timed command runs $REPEATS times (min and max shown), and `-v` stage
# seconds are kept in the log.
#
# usage: scripts/gpu_bench_real.sh GALIGN [WORKDIR]
# env:   GALIGN_SHARED_DATA (default ../shared/data of the checkout), BOWTIE_DIR
#        (bowtie-align-s, bowtie-build-s), REPEATS (default 3), HG002_COPIES (default 100),
#        NA12878_COPIES (default 40), HUMAN_SCALE_RANDOM (random bases added to chr20,
#        default 3000000000; 0 skips the human-scale index).
set -euo pipefail
galign=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(realpath "${2:-$(mktemp -d)}"); mkdir -p "$work"
shared=${GALIGN_SHARED_DATA:-$here/../../shared/data}
export GALIGN_KERNEL_CACHE=${GALIGN_KERNEL_CACHE:-$work/kernel-cache}
[ -z "${BOWTIE_DIR:-}" ] || export PATH=$BOWTIE_DIR:$PATH
cores=$(nproc); repeats=${REPEATS:-3}
chr20=$shared/ref/human_GRCh37_chr20.fa.gz
now() { date +%s.%N; }
calc() { python3 -c "print($1)"; }
rows=()

# copies FASTQ.gz N OUT: N copies of the reads (names made unique per copy), plain, gzip
# and BGZF (compressed on all cores).
copies() {
  python3 "$here/copy_reads.py" "$1" "$2" "$3"
  python3 "$here/gz_parallel.py" "$3" "$3.gz" --gzip
  python3 "$here/gz_parallel.py" "$3" "$3.bgzf.gz" --bgzf
}

# timed NAME OUTPUT COMMAND...: runs COMMAND $repeats times (output removed, caches warm,
# earlier writes flushed before each), keeps "NAME|min|max" and the last run's stderr.
# NAME may hold neither `|` nor `/`.
timed() {
  local name=$1 out=$2; shift 2
  local best="" worst="" t0 t
  for ((r = 0; r < repeats; r++)); do
    rm -f "$out"; sync
    t0=$(now)
    "$@" 2>"$work/last.err" || { echo "FAILED: $name"; cat "$work/last.err"; return 1; }
    t=$(calc "$(now) - $t0")
    best=$(calc "min(${best:-$t}, $t)"); worst=$(calc "max(${worst:-$t}, $t)")
  done
  rows+=("$name|$best|$worst")
  grep -E 'busy seconds|GPU stage|kernels:|searching on|mapping on' "$work/last.err" | sed "s/^/  [$name] /" || true
}

same() { # same A B: fails unless identical
  if cmp -s "$1" "$2"; then echo "identical: $(basename "$1") $(basename "$2")"; else echo "FAILED: $1 differs from $2"; exit 1; fi
}

# bench SET INDEX FASTQ BOWTIE_INDEX: the timed runs of one read set against one index.
# Each device writes the same relative name in a folder of its own, so that @PG CL agrees.
bench() {
  local label=$1 idx=$2 fq=$3 bt=$4 o=$work/out
  mkdir -p "$o"/{auto,gpu,cpu,pipe}; cat "$fq" "$fq.gz" "$fq.bgzf.gz" >/dev/null
  local n; n=$(( $(wc -l <"$fq") / 4 ))
  rows+=("-- $label: $n reads|")
  for dev in auto gpu cpu; do
    cd "$o/$dev"
    timed "$label: $dev, FASTQ -> SAM -a" out.sam "$galign" map --verbose -a --device $dev -o out.sam "$idx" "$fq"
  done
  same "$o/gpu/out.sam" "$o/cpu/out.sam"; same "$o/auto/out.sam" "$o/cpu/out.sam"
  if [ -n "$bt" ]; then
    timed "$label: bowtie -v 0 -a -p $cores -S" "$o/bt.sam" bowtie-align-s -p "$cores" -v 0 -a -S "$bt" "$fq" "$o/bt.sam"
  fi
  for dev in gpu cpu; do
    cd "$o/$dev"
    timed "$label: $dev, gzip FASTQ -> BAM" gz.bam "$galign" map --verbose --device $dev -o gz.bam "$idx" "$fq.gz"
    timed "$label: $dev, BGZF FASTQ -> BAM" bgzf.bam "$galign" map --verbose --device $dev -o bgzf.bam "$idx" "$fq.bgzf.gz"
  done
  same "$o/gpu/gz.bam" "$o/cpu/gz.bam"; same "$o/gpu/bgzf.bam" "$o/cpu/bgzf.bam"
  # The same reads from the file and from a pipe (`cat FILE | galign map INDEX -`:
  # the pipe's own cost; galign inflates the gzip itself), outputs equal but for @PG CL.
  cd "$o/auto"
  timed "$label: auto, gzip FASTQ file -> SAM -a" file.sam "$galign" map --verbose -a -o file.sam "$idx" "$fq.gz"
  same <(grep -v "^@PG" file.sam) <(grep -v "^@PG" out.sam)
  timed "$label: auto, gzip FASTQ from a pipe -> SAM -a" pipe.sam \
    bash -c "cat '$fq.gz' | '$galign' map --verbose -a -o pipe.sam '$idx' -"
  same <(grep -v '^@PG' pipe.sam) <(grep -v '^@PG' out.sam)
  timed "$label: auto, FASTQ from a pipe -> SAM -a" pipe.sam \
    bash -c "cat '$fq' | '$galign' map --verbose -a -o pipe.sam '$idx' -"
  same <(grep -v '^@PG' pipe.sam) <(grep -v '^@PG' out.sam)
  # The issue's row as written (`zcat r.fq.gz | galign map idx -`) and the pipes' writers
  # alone: no reader of a pipe ends before its writer.
  timed "$label: auto, zcat FASTQ.gz piped -> SAM -a" pipe.sam \
    bash -c "zcat '$fq.gz' | '$galign' map --verbose -a -o pipe.sam '$idx' -"
  same <(grep -v '^@PG' pipe.sam) <(grep -v '^@PG' out.sam)
  timed "$label: writer alone, zcat FASTQ.gz" writer.none \
    bash -c "zcat '$fq.gz' > /dev/null"
  timed "$label: writer alone, cat FASTQ into a pipe" writer.none \
    bash -c "cat '$fq' | dd bs=4M of=/dev/null status=none"
  timed "$label: writer alone, cat FASTQ.gz into a pipe" writer.none \
    bash -c "cat '$fq.gz' | dd bs=4M of=/dev/null status=none"
  cd "$work"; rm -rf "$o"
}

echo "== device"; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
echo "== inputs"
zcat -f "$chr20" >"$work/chr20.fa"
bt=""
if command -v bowtie-build-s >/dev/null; then
  bowtie-build-s --threads "$cores" -q "$work/chr20.fa" "$work/bt_chr20" && bt=$work/bt_chr20
fi
"$galign" index -p "$work/chr20" "$chr20" 2>/dev/null
copies "$shared/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz" "${HG002_COPIES:-100}" "$work/hg002.fq"
bench "HG002 148 bp x${HG002_COPIES:-100} vs chr20" "$work/chr20" "$work/hg002.fq" "$bt"

chrm=$shared/ref/human_rCRS_chrM_NC_012920.fa.gz
zcat -f "$chrm" >"$work/chrM.fa"
btm=""; [ -z "$bt" ] || { bowtie-build-s -q "$work/chrM.fa" "$work/bt_chrM" && btm=$work/bt_chrM; }
"$galign" index -p "$work/chrM" "$chrm" 2>/dev/null
copies "$shared/reads/NA12878_chrM_cnvkit.fq.gz" "${NA12878_COPIES:-40}" "$work/na12878.fq"
bench "NA12878 100 bp x${NA12878_COPIES:-40} vs chrM" "$work/chrM" "$work/na12878.fq" "$btm"
rm -f "$work"/na12878.fq*

random=${HUMAN_SCALE_RANDOM:-3000000000}
if [ "$random" != 0 ]; then
  echo "== human-scale index: chr20 + $random random bases"
  big=$(python3 "$here/gen_inputs.py" "$work/inputs" --plus-random "$chr20" "$random")
  "$galign" index -v --device gpu -p "$work/human_scale" "$big" 2>&1 | grep -E 'bases|GPU|total' || true
  rm -f "$big"
  bench "HG002 x${HG002_COPIES:-100} vs chr20+random ($random)" "$work/human_scale" "$work/hg002.fq" ""
fi

printf '\n%-58s %9s %9s %12s %9s\n' what min_s max_s reads/s vs_bowtie
n=0; btime=""
for row in "${rows[@]}"; do
  IFS='|' read -r name best worst <<<"$row"
  case $name in --*) printf '%s\n' "$name"; n=$(grep -o '[0-9]* reads' <<<"$name" | cut -d' ' -f1)
    label=${name#-- }; label=${label%%:*}
    btime=$(printf '%s\n' "${rows[@]}" | grep -F "$label: bowtie" | head -1 | cut -d'|' -f2 || true); continue ;; esac
  ratio=""; [ -z "$btime" ] || ratio=$(calc "round($btime / $best, 2)")
  printf '%-58s %9.3f %9.3f %12.0f %9s\n' "$name" "$best" "$worst" "$(calc "$n / $best")" "$ratio"
done
