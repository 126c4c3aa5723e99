#!/usr/bin/env bash
# BENCHMARKS.md, "Hand-written components" (issue 62, item 6), the rows a 2-core machine
# cannot time: on a GPU host with many cores, `galign map --device gpu` of the real HG002
# 148 bp reads copied READ_COPIES times (default 100: 2,120,600 reads) against chr20, to
# BAM, with one binary built from scripts/ab/fastq_via_needletail.patch and
# scripts/ab/gzip_via_flate2.patch (needletail's FASTQ reader when AB_NEEDLETAIL is set;
# every gzip input inflated by flate2 on zlib-rs on one thread when AB_FLATE2 is set):
#   fastq       plain FASTQ, all cores: galign's reader against needletail's
#   gzip_t2     gzip file, -t 2 (one-thread inflater): ISA-L (gzip.rs) against flate2
#   gzip_file   gzip file, all cores: rapidgzip-core in parallel (gzip.rs, positioned.rs)
#               against flate2 on one thread
#   gzip_pipe   the same gzip through a pipe, all cores: the stream layers (gzip_stream.rs,
#               held.rs, gzip_resume.rs, gzip_blocks.rs) against flate2 on one thread
# ROUNDS alternated pairs (default 3); min / median / max wall seconds; the BAM of each
# pair compared with cmp (the same records and bytes, or the script fails).
#
# usage: scripts/bench_hand_written_16.sh GALIGN_AB [WORKDIR]
# env:   GALIGN_SHARED_DATA (ref/, reads/; default ../shared/data), ROUNDS, READ_COPIES.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
g=$(realpath "$1")
work=$(realpath "${2:-$(mktemp -d)}"); mkdir -p "$work"
shared=${GALIGN_SHARED_DATA:-$here/../../shared/data}
export GALIGN_KERNEL_CACHE=${GALIGN_KERNEL_CACHE:-$work/kernel-cache}
rounds=${ROUNDS:-3}; cores=$(nproc)
echo "== $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null || echo 'no GPU'), $cores cores"
python3 "$here/copy_reads.py" "$shared/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz" "${READ_COPIES:-100}" "$work/r.fq"
python3 "$here/gz_parallel.py" "$work/r.fq" "$work/r.fq.gz" --gzip 1 || gzip -1 -c "$work/r.fq" >"$work/r.fq.gz"
"$g" index --device gpu -p "$work/chr20" "$shared/ref/human_GRCh37_chr20.fa.gz" 2>/dev/null
cat "$work/r.fq" "$work/r.fq.gz" >/dev/null
ls -l "$work/r.fq" "$work/r.fq.gz" | awk '{print "  " $5 " bytes " $9}'

# timed ROW SIDE ENV THREADS INPUT: one run (its BAM written as out.bam in $work, so that
# @PG CL is the same); "-" as INPUT pipes the gzip file through cat.
timed() {
  local row=$1 side=$2 env=$3 t=$4 input=$5 t0 t1
  t0=$(date +%s.%N)
  if [ "$input" = - ]; then
    cat "$work/r.fq.gz" | env $env "$g" map --device gpu -t "$t" -o out.bam "$work/chr20" - 2>"$work/err" || { cat "$work/err"; exit 1; }
  else
    env $env "$g" map --device gpu -t "$t" -o out.bam "$work/chr20" "$input" 2>"$work/err" || { cat "$work/err"; exit 1; }
  fi
  t1=$(date +%s.%N)
  mv out.bam "$work/$side.bam"
  echo "$row $side $(python3 -c "print(f'{$t1 - $t0:.3f}')")" >>"$work/times"
}
# row ROW THREADS INPUT ENV_B: ROUNDS alternated pairs, galign (a) against the crate (b).
row() {
  local r
  for ((r = 0; r < rounds; r++)); do
    if ((r % 2 == 0)); then timed "$1" a X=1 "$2" "$3"; timed "$1" b "$4" "$2" "$3"
    else timed "$1" b "$4" "$2" "$3"; timed "$1" a X=1 "$2" "$3"; fi
  done
  cmp "$work/a.bam" "$work/b.bam" || { echo "FAILED: $1: outputs differ"; exit 1; }
}
: >"$work/times"
cd "$work"
row fastq "$cores" "$work/r.fq" AB_NEEDLETAIL=1
row gzip_t2 2 "$work/r.fq.gz" AB_FLATE2=1
row gzip_file "$cores" "$work/r.fq.gz" AB_FLATE2=1
row gzip_pipe "$cores" - AB_FLATE2=1
python3 - "$work/times" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    row, side, t = line.split()
    runs.setdefault(row, {}).setdefault(side, []).append(float(t))
for row, by in runs.items():
    med = {s: statistics.median(v) for s, v in by.items()}
    cells = "  ".join(f"{'galign' if s == 'a' else 'crate'}: {min(v):.3f} / {med[s]:.3f} / {max(v):.3f}" for s, v in sorted(by.items()))
    print(f"{row:10} {cells}  crate/galign {med['b'] / med['a']:.3f}")
EOF
