#!/usr/bin/env bash
# Two galign binaries A and B against each other on issue 15's human-scale row, in one
# device call: real HG002 reads (148 bp) repeated to ~21 M against chr20 + ~3 Gbp of
# random DNA (`map -a`, plain FASTQ -> SAM on /dev/null), each binary on the GPU and the
# CPU, ROUNDS rounds whose order alternates (A first, then B first), then each binary's
# and device's min / median / max wall seconds and, per binary, the CPU path's median
# over the GPU path's (the issue asks 2x). One `--verbose` run of each binary on the GPU
# prints its stage seconds; the outputs of A and B on the GPU and B on the CPU are
# compared (md5 of the whole SAM; any difference fails the script).
#
# Input generation is kept short (the device's time is scarce): the reads are copied
# 10 times by copy_reads.py, that file then concatenated COPIES / 10 times (names repeat
# every 10 copies, which changes nothing that is timed); the random contigs come from
# gen_inputs.py --plus-random while the reads are written.
#
# usage: scripts/gpu_ab_human.sh A B [WORKDIR]
# env:   GALIGN_SHARED_DATA (ref/, reads/; default ../shared/data of the checkout),
#        ROUNDS (default 4), COPIES (read copies, a multiple of 10; default 1000),
#        RANDOM_BASES (default 3000000000), DEVICES (default "gpu cpu"; "cpu" alone runs
#        the whole script without a GPU, to try it), INDEX_DEVICE (default gpu).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(realpath "${3:-$(mktemp -d)}"); mkdir -p "$work/A" "$work/B"
# Each binary runs as ./galign from a folder of its own: @PG CL is then the same.
cp "$1" "$work/A/galign"; cp "$2" "$work/B/galign"
a=$work/A/galign; b=$work/B/galign
shared=${GALIGN_SHARED_DATA:-$here/../../shared/data}
export GALIGN_KERNEL_CACHE=${GALIGN_KERNEL_CACHE:-$work/kernel-cache}
rounds=${ROUNDS:-4}; copies=${COPIES:-1000}; random=${RANDOM_BASES:-3000000000}
devices=${DEVICES:-gpu cpu}
reads=$work/hg002_x$copies.fq
start=$(date +%s.%N)
elapsed() { python3 -c "print(f'{$(date +%s.%N) - $start:.1f} s')"; }

echo "== $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null || echo 'no GPU'), $(nproc) cores"
echo "== inputs"
python3 "$here/copy_reads.py" "$shared/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz" 10 "$work/x10.fq"
(for ((i = 0; i < copies / 10; i++)); do cat "$work/x10.fq"; done >"$reads") &
writing=$!
fasta=$(python3 "$here/gen_inputs.py" "$work/in" --plus-random "$shared/ref/human_GRCh37_chr20.fa.gz" "$random")
"$a" index -v --device "${INDEX_DEVICE:-gpu}" -p "$work/human" "$fasta" 2>&1 | grep -E 'GPU|total' | tail -2 || true
rm -f "$fasta"
wait "$writing"
echo "inputs ready at $(elapsed): $(( $(wc -l <"$reads") / 4 )) reads"
cat "$reads" >/dev/null

# galign BINARY_LABEL ARGS...: ./galign ARGS... in the binary's folder.
galign() { local x=$1; shift; (cd "$work/$x" && ./galign "$@"); }
# run LABEL DEVICE: one timed run of binary LABEL; appends "LABEL DEVICE SECONDS" to
# $work/times.
run() {
  local t0 t1
  t0=$(date +%s.%N)
  galign "$1" map -a --device "$2" "$work/human" "$reads" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
  t1=$(date +%s.%N)
  echo "$1 $2 $(python3 -c "print(f'{$t1 - $t0:.3f}')")" | tee -a "$work/times"
}
: >"$work/times"
for ((r = 0; r < rounds; r++)); do
  for dev in $devices; do
    if ((r % 2 == 0)); then run A "$dev"; run B "$dev"; else run B "$dev"; run A "$dev"; fi
  done
done
python3 - "$work/times" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    who, dev, t = line.split()
    runs.setdefault((who, dev), []).append(float(t))
med = {k: statistics.median(v) for k, v in runs.items()}
for (who, dev), v in sorted(runs.items()):
    print(f"{who} {dev}: min {min(v):.3f} median {med[who, dev]:.3f} max {max(v):.3f} s ({len(v)} runs)")
for who in "AB":
    if (who, "gpu") in med and (who, "cpu") in med:
        print(f"{who}: CPU path / GPU path (medians) {med[who, 'cpu'] / med[who, 'gpu']:.2f}")
EOF

echo "== stage seconds (--verbose, first device)"
dev=${devices%% *}
for x in A B; do
  galign $x map -a --verbose --device "$dev" "$work/human" "$reads" 2>&1 >/dev/null |
    grep -E 'busy|GPU stage|kernels|opened|load index' | sed "s/^/  $x: /"
done

echo "== outputs"
sums=()
for pair in "A $dev" "B $dev" "B cpu"; do
  set -- $pair
  sum=$(galign "$1" map -a --device "$2" "$work/human" "$reads" 2>/dev/null | md5sum | cut -d' ' -f1)
  echo "$1 $2: $sum"; sums+=("$sum")
done
[ "${sums[0]}" = "${sums[1]}" ] && [ "${sums[1]}" = "${sums[2]}" ] || { echo "FAILED: outputs differ"; exit 1; }
echo "outputs identical; done at $(elapsed)"
