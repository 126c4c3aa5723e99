#!/usr/bin/env bash
# CPU benchmarks for BENCHMARKS.md, each against its peer in the same run:
#   1. suffix array: galign's CPU builder vs libsais (examples/sa_bench.rs), same threads;
#   2. whole `galign index` wall time and peak memory (bytes per base);
#   3. mapping: `galign map -a` vs `bowtie -v 0 -a`, same threads, same real reads, SAM out.
# Usage: scripts/bench_cpu.sh [THREADS] [WORKDIR]   (needs bowtie, /usr/bin/time)
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:-$(nproc)}
W=${2:-$(mktemp -d)}
mkdir -p "$W"
S=../shared/data
cargo build --release --quiet --example sa_bench
G=target/release/galign
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), threads used: $T"

echo "== suffix array (best of 3), galign CPU vs libsais"
for ref in $S/ref/ecoli_K12_MG1655.fa.gz $S/ref/human_GRCh37_chr20.fa.gz; do
    target/release/examples/sa_bench "$ref" "$T" 3
done

echo "== galign index: wall time and peak RSS"
for ref in $S/ref/ecoli_K12_MG1655.fa.gz $S/ref/human_GRCh37_chr20.fa.gz; do
    name=$(basename "$ref" .fa.gz)
    /usr/bin/time -f "%e %M" -o "$W/time" $G index --device cpu -t "$T" -p "$W/$name" "$ref"
    read -r secs kb < "$W/time"
    n=$(zcat "$ref" | grep -v '>' | tr -d '\n' | wc -c)
    echo "$name: $n bases, ${secs} s, peak RSS $((kb / 1024)) MiB = $(python3 -c "print(f'{$kb*1024/$n:.2f}')") bytes/base"
done

echo "== map: galign map -a vs bowtie -v 0 -a, SAM to /dev/null"
map_bench() { # REF READS COPIES
    local ref=$1 reads=$2 copies=$3 name
    name=$(basename "$ref" .fa.gz)
    [ -f "$W/$name.galign" ] || $G index -t "$T" -p "$W/$name" "$ref" 2>/dev/null
    if [ ! -f "$W/$name.1.ebwt" ]; then
        zcat "$ref" > "$W/$name.fa"
        bowtie-build -q --threads "$T" "$W/$name.fa" "$W/$name" >/dev/null
    fi
    local fq="$W/$(basename "$reads" .fq.gz)_x$copies.fq"
    for _ in $(seq "$copies"); do zcat "$reads"; done > "$fq"
    local n=$(($(wc -l < "$fq") / 4))
    local t0 t1 t2
    t0=$(date +%s.%N)
    $G map -a -t "$T" "$W/$name" "$fq" > /dev/null 2>&1
    t1=$(date +%s.%N)
    bowtie -v 0 -a -S -p "$T" -x "$W/$name" -q "$fq" > /dev/null 2>&1
    t2=$(date +%s.%N)
    python3 -c "
g=$t1-$t0; b=$t2-$t1; n=$n
print(f'$(basename "$reads") x$copies vs $name: {n} reads; galign {g:.2f} s ({n/g/1e3:.0f} k reads/s); bowtie {b:.2f} s ({n/b/1e3:.0f} k reads/s); ratio {b/g:.2f}')"
}
map_bench $S/ref/human_GRCh37_chr20.fa.gz $S/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz 20
map_bench $S/ref/human_rCRS_chrM_NC_012920.fa.gz $S/reads/NA12878_chrM_cnvkit.fq.gz 5
map_bench $S/ref/ecoli_K12_MG1655.fa.gz $S/reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz 10
