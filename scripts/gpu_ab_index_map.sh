#!/usr/bin/env bash
# Two galign binaries A (before) and B (after) against each other in one device call, as
# issue 62 asks of a change that must not move speed: `galign index --device gpu` of
# chr20 x3 and x31 (gen_inputs.py --real: ~190 Mbp and ~1.95 Gbp, copies 1% mutated) and
# `galign map --device gpu` of the real HG002 148 bp reads copied 100 times (2,120,600
# reads) against chr20 at -v 0 and -v 2 (plain FASTQ -> SAM on /dev/null). ROUNDS rounds
# per row, the order alternating (A first, then B first); per row and binary the min /
# median / max wall seconds and B's median over A's. The outputs are compared: the index
# files of A and B with cmp, the SAM of A and B by md5 (any difference fails the script).
#
# usage: scripts/gpu_ab_index_map.sh A B [WORKDIR]
# env:   GALIGN_SHARED_DATA (ref/, reads/; default ../shared/data of the checkout),
#        ROUNDS (default 3), COPIES (index inputs, default "3 31"; empty: no index rows),
#        READ_COPIES (100), LEVELS (the -v of the map rows, default "0 2").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(realpath "${3:-$(mktemp -d)}"); mkdir -p "$work/A" "$work/B"
# Each binary runs as ./galign from a folder of its own: @PG CL is then the same.
cp "$1" "$work/A/galign"; cp "$2" "$work/B/galign"
shared=${GALIGN_SHARED_DATA:-$here/../../shared/data}
export GALIGN_KERNEL_CACHE=${GALIGN_KERNEL_CACHE:-$work/kernel-cache}
rounds=${ROUNDS:-3}
chr20=$shared/ref/human_GRCh37_chr20.fa.gz
echo "== $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null || echo 'no GPU'), $(nproc) cores"
python3 "$here/copy_reads.py" "$shared/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz" "${READ_COPIES:-100}" "$work/reads.fq"
inputs=()
copies=${COPIES-3 31}
[ -z "$copies" ] || mapfile -t inputs < <(python3 "$here/gen_inputs.py" "$work/in" --real "$chr20" $copies)

galign() { local x=$1; shift; (cd "$work/$x" && ./galign "$@"); }
# timed ROW BINARY ARGS...: one run of `galign ARGS...`; appends "ROW BINARY SECONDS".
timed() {
  local row=$1 x=$2 t0 t1; shift 2
  t0=$(date +%s.%N)
  galign "$x" "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
  t1=$(date +%s.%N)
  echo "$row $x $(python3 -c "print(f'{$t1 - $t0:.3f}')")" | tee -a "$work/times"
}
# rows ROW ARGS...: ROUNDS alternated pairs of A and B.
rows() {
  local row=$1 r; shift
  for ((r = 0; r < rounds; r++)); do
    if ((r % 2 == 0)); then timed "$row" A "$@"; timed "$row" B "$@"
    else timed "$row" B "$@"; timed "$row" A "$@"; fi
  done
}
: >"$work/times"
for f in "${inputs[@]+"${inputs[@]}"}"; do
  row="index_$(basename "$f" .fa)"
  rows "$row" index --device gpu -p idx "$f"
  cmp "$work/A/idx.galign" "$work/B/idx.galign" && echo "$row: A and B index files identical"
done
galign B index --device gpu -p chr20 "$chr20" 2>/dev/null
cp "$work/B/chr20.galign" "$work/A/"
for v in ${LEVELS:-0 2}; do
  rows "map_v$v" map -v "$v" --device gpu chr20 "$work/reads.fq"
  a=$(galign A map -v "$v" --device gpu chr20 "$work/reads.fq" 2>/dev/null | md5sum)
  b=$(galign B map -v "$v" --device gpu chr20 "$work/reads.fq" 2>/dev/null | md5sum)
  [ "$a" = "$b" ] || { echo "FAILED: map -v $v outputs differ"; exit 1; }
  echo "map_v$v: A and B SAM identical ($a)"
done
python3 - "$work/times" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    row, who, t = line.split()
    runs.setdefault(row, {}).setdefault(who, []).append(float(t))
for row, by in runs.items():
    med = {w: statistics.median(v) for w, v in by.items()}
    cells = "  ".join(f"{w}: min {min(v):.3f} median {med[w]:.3f} max {max(v):.3f}" for w, v in sorted(by.items()))
    print(f"{row:24} {cells}  B/A {med['B'] / med['A']:.3f}")
EOF
