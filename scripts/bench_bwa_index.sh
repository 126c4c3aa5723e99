#!/usr/bin/env bash
# Times `galign index --format bwa` (bwa's five files) against `bwa index` (issue 63), on
# one machine in one run, and checks the files are the same (cmp).
#
# usage: scripts/bench_bwa_index.sh GALIGN BWA CHR20.fa.gz [STAGE...]
#   GALIGN: the galign binary; BWA: the bwa binary (0.7.17), or "" to time galign alone;
#   CHR20.fa.gz: a real chromosome (the shared GRCh37 chr20).
#   STAGE (default: chr20 large bwa-large; each fits a 10-minute call on its own):
#     chr20      galign on the GPU (and on the CPU, all cores) against `bwa index` on the
#                chromosome; files compared with cmp.
#     large      galign on the GPU, end to end, on ~3 Gbp: the chromosome and 3.0 Gbp of
#                random DNA (gen_inputs.py --plus-random; $BENCH_LARGE_BASES), and on
#                1%-mutated copies of it ($BENCH_LARGE_COPIES, default 47: 2.96 Gbp).
#     bwa-large  `bwa index` on $BENCH_BWA_COPIES (default 5: 315 Mbp) copies of the
#                chromosome, galign on the GPU on the same (files compared), and bwa's
#                time extrapolated linearly to 3 Gbp.
# Environment: BENCH_DIR (work folder, default a new temporary one), BENCH_DEVICE (default
# gpu), GALIGN_KERNEL_CACHE as for galign.
set -euo pipefail
galign=$1; bwa=$2; chr=$3; shift 3
stages=${*:-chr20 large bwa-large}
here=$(cd "$(dirname "$0")" && pwd)
work=${BENCH_DIR:-$(mktemp -d)}
device=${BENCH_DEVICE:-gpu}
mkdir -p "$work"
calc() { python3 -c "print($1)"; }
now() { date +%s.%N; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null || true
echo "cores: $(nproc)  work: $work"

# Times `galign index --format bwa` of $2 on device $1 under prefix $3; prints its -v log
# indented; sets $t_galign.
time_galign() {
  local t0; t0=$(now)
  "$galign" index --format bwa -v --device "$1" -p "$3" "$2" 2>"$work/galign.err" || { cat "$work/galign.err"; exit 1; }
  t_galign=$(calc "$(now) - $t0")
  sed "s/^/    [galign $1] /" "$work/galign.err"
}

# Times `bwa index` of $1 under prefix $2; sets $t_bwa.
time_bwa() {
  local t0; t0=$(now)
  "$bwa" index -p "$2" "$1" 2>"$work/bwa.err" || { cat "$work/bwa.err"; exit 1; }
  t_bwa=$(calc "$(now) - $t0")
}

# cmp of the five files of prefixes $1 and $2: OK or DIFFERENT(.ext).
same_files() {
  local res=OK e
  for e in amb ann bwt pac sa; do cmp -s "$1.$e" "$2.$e" || res="DIFFERENT(.$e)"; done
  echo "$res"
}

for stage in $stages; do
  case $stage in
    chr20)
      echo "== chr20: galign index --format bwa vs bwa index"
      time_galign "$device" "$chr" "$work/g"; t_gpu=$t_galign
      time_galign cpu "$chr" "$work/c"; t_cpu=$t_galign
      echo "BWA chr20 galign-$device $(printf %.2f "$t_gpu") s  galign-cpu $(printf %.2f "$t_cpu") s  $device-vs-cpu $(same_files "$work/g" "$work/c")"
      if [ -n "$bwa" ]; then
        time_bwa "$chr" "$work/b"
        echo "BWA chr20 bwa-index $(printf %.1f "$t_bwa") s  speedup $(printf %.1f "$(calc "$t_bwa / $t_gpu")")x (goal 100x)  files $(same_files "$work/g" "$work/b")"
      fi
      rm -f "$work"/[gcb].{amb,ann,bwt,pac,sa}
      ;;
    large)
      echo "== ~3 Gbp: galign index --format bwa on $device, end to end (goal 15 s)"
      plus=$(python3 "$here/gen_inputs.py" "$work/in" --plus-random "$chr" "${BENCH_LARGE_BASES:-3000000000}")
      copies=$(python3 "$here/gen_inputs.py" "$work/in" --real "$chr" "${BENCH_LARGE_COPIES:-47}")
      for f in $plus $copies; do
        time_galign "$device" "$f" "$work/l"
        echo "BWA large $(basename "$f") $(stat -c %s "$f") bytes  galign-$device $(printf %.2f "$t_galign") s"
        rm -f "$work"/l.{amb,ann,bwt,pac,sa} "$f"
      done
      ;;
    bwa-large)
      [ -n "$bwa" ] || { echo "bwa-large needs BWA"; exit 1; }
      echo "== bwa index on ${BENCH_BWA_COPIES:-5} copies of the chromosome, extrapolated to 3 Gbp"
      f=$(python3 "$here/gen_inputs.py" "$work/in" --real "$chr" "${BENCH_BWA_COPIES:-5}")
      bases=$(zcat -f "$f" | grep -v '^>' | tr -d '\n' | wc -c)
      time_galign "$device" "$f" "$work/g"
      time_bwa "$f" "$work/b"
      echo "BWA bwa-large $bases bases  bwa-index $(printf %.1f "$t_bwa") s  galign-$device $(printf %.2f "$t_galign") s  speedup $(printf %.1f "$(calc "$t_bwa / $t_galign")")x  files $(same_files "$work/g" "$work/b")"
      echo "BWA bwa-large extrapolated to 3.0e9 bases (linear): $(printf %.0f "$(calc "$t_bwa * 3.0e9 / $bases")") s"
      rm -f "$work"/[gb].{amb,ann,bwt,pac,sa} "$f"
      ;;
    *) echo "unknown stage $stage"; exit 1 ;;
  esac
done
