#!/usr/bin/env bash
# Reproduces BENCHMARKS.md, "Hand-written components": `galign map` of HG002 x40 (848,240
# real 148 bp reads, 290 MB of plain FASTQ) against chr20 to BAM, (1) with the FASTQ
# reader as it is and with needletail's reader in its place (the same binary, built with
# scripts/ab/fastq_via_needletail.patch, needletail when AB_NEEDLETAIL is set; the BAM
# records are the same), the same reads gzipped (`gzip -1`) inflated by ISA-L (`gzip.rs`)
# and by flate2 on zlib-rs (scripts/ab/gzip_via_flate2.patch, AB_FLATE2), (2) galign's BAM records and BGZF against htslib's (samtools
# view from galign's SAM, its thread pool on 2 threads) at levels 1 and 6, (3) the two
# FASTQ readers alone (examples/fastq_vs_needletail.rs).
# usage: scripts/bench_hand_written.sh [ROUNDS]   (run from the checkout; needs the shared
# data, samtools and GNU time; leaves the checkout as it found it)
set -euo pipefail
rounds=${1:-5}
data=${GALIGN_SHARED_DATA:-../shared/data}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for _ in $(seq 40); do zcat "$data/reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz"; done >"$work/r.fq"
gzip -1 -c "$work/r.fq" >"$work/r.fq.gz"
git apply scripts/ab/fastq_via_needletail.patch scripts/ab/gzip_via_flate2.patch
cargo build --release --quiet && cp target/release/galign "$work/galign_ab"
git apply -R scripts/ab/fastq_via_needletail.patch scripts/ab/gzip_via_flate2.patch
cargo build --release --quiet --example fastq_vs_needletail
g=target/release/galign
cargo build --release --quiet
"$g" index --device cpu -p "$work/chr20" "$data/ref/human_GRCh37_chr20.fa.gz" 2>/dev/null
t() { /usr/bin/time -f "  %e s wall, %U user, %S sys: $1" "${@:2}" 2>&1 >/dev/null | tail -1; }
map() { echo "$g map $work/chr20 $work/r.fq $*"; }
for round in $(seq "$rounds"); do
    echo "round $round"
    t "FASTQ reader (galign)" "$work/galign_ab" map "$work/chr20" "$work/r.fq" -o "$work/a.bam"
    t "FASTQ via needletail" env AB_NEEDLETAIL=1 "$work/galign_ab" map "$work/chr20" "$work/r.fq" -o "$work/b.bam"
    t "gzip by ISA-L (galign)" "$work/galign_ab" map "$work/chr20" "$work/r.fq.gz" -o "$work/e.bam"
    t "gzip by flate2 (zlib-rs)" env AB_FLATE2=1 "$work/galign_ab" map "$work/chr20" "$work/r.fq.gz" -o "$work/f.bam"
    for level in 1 6; do
        t "BAM -l $level (galign)" "$g" map -l "$level" "$work/chr20" "$work/r.fq" -o "$work/c.bam"
        t "BAM level $level (htslib)" sh -c "$(map) 2>/dev/null | samtools view --no-PG -@ 2 -O bam,level=$level -o $work/d.bam -"
    done
done
cmp <(samtools view "$work/a.bam") <(samtools view "$work/b.bam") && echo "FASTQ readers: the same records"
for which in galign needletail; do
    target/release/examples/fastq_vs_needletail "$work/r.fq" "$which" "$rounds"
done
