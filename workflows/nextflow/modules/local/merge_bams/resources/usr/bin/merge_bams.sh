#!/usr/bin/env bash
# merge_bams.sh -- gather: merge the sorted per-chunk BAMs of one sample into
# one sorted BAM and index it.
#
# Usage: merge_bams.sh -o OUT.bam [-t THREADS] IN_1.bam [IN_2.bam ...]
#
# Header lines that every chunk carries (the sample's @RG, galign's @PG) are
# kept once (samtools merge -c -p), so the records keep their RG:Z tags
# unchanged and the result equals mapping the sample's reads in one go.
# Writes OUT.bam and OUT.bam.bai.
#
# Shared by the Snakemake rule `merge_bams` and the Nextflow process
# MERGE_BAMS: both engines run exactly this script.
set -euo pipefail
die() { echo "merge_bams.sh: $*" >&2; exit 1; }

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }

out="" threads=1
while getopts ":o:t:h" opt; do
    case "$opt" in
        o) out="$OPTARG" ;;
        t) threads="$OPTARG" ;;
        h) usage 0 ;;
        :) echo "merge_bams.sh: -$OPTARG needs a value" >&2; usage ;;
        *) echo "merge_bams.sh: unknown option -$OPTARG" >&2; usage ;;
    esac
done
shift $((OPTIND - 1))
[[ -n "$out" && $# -ge 1 ]] || { echo "merge_bams.sh: need -o OUT.bam and at least one input" >&2; usage; }
[[ "$threads" =~ ^[0-9]+$ ]] || die "-t must be a non-negative integer, got '$threads'"; (( threads >= 1 )) || threads=1
for f in "$@"; do [[ -r "$f" ]] || die "cannot read '$f'"; done
command -v samtools >/dev/null 2>&1 || die "samtools not found on PATH"

mkdir -p -- "$(dirname -- "$out")"
trap 'rc=$?; (( rc == 0 )) || rm -f -- "$out" "$out.bai"; exit $rc' EXIT
echo "merge_bams.sh: $(samtools --version 2>&1 | head -n 1), $# input(s)" >&2
set -x
samtools merge -f -c -p -@ "$threads" "$out" "$@"
samtools index -@ "$threads" "$out"
{ set +x; } 2>/dev/null
