#!/usr/bin/env bash
# galign_index_part.sh -- build one share (part I of N) of a galign index into a
# part file: one job of an index built on several nodes.
#
# Usage: galign_index_part.sh -f REF.fa[.gz] -n PARTS -i PART -o OUT.part
#                             [-t THREADS] [-- EXTRA_GALIGN_INDEX_ARGS...]
#
#   -f REF      reference FASTA (plain or gzip)
#   -n PARTS    number of parts N (the same for every job of one index)
#   -i PART     this job's part, 0 to N-1
#   -o OUT      part file to write (its directory is created if needed)
#   -t THREADS  threads (default 1)
#   -- ARGS     passed verbatim to `galign index` (the same for every part,
#               e.g. --sample-rate 32)
#
# Every job derives the same plan from the reference and N alone, so the jobs
# share nothing but the reference. Part files are sorted on the CPU.
# galign_index_assemble.sh then builds the index from the N part files.
# The binary is $GALIGN if set, else `galign` from PATH.
# Shared by the Snakemake rule `galign_index_part` and the Nextflow process
# GALIGN_INDEX_PART: both engines run exactly this script.
set -euo pipefail
GALIGN="${GALIGN:-galign}"   # the binary: $GALIGN if set, else galign from PATH
die() { echo "galign_index_part.sh: $*" >&2; exit 1; }

usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }

ref="" parts="" part="" out="" threads=1
while getopts ":f:n:i:o:t:h" opt; do
    case "$opt" in
        f) ref="$OPTARG" ;;
        n) parts="$OPTARG" ;;
        i) part="$OPTARG" ;;
        o) out="$OPTARG" ;;
        t) threads="$OPTARG" ;;
        h) usage 0 ;;
        :) echo "galign_index_part.sh: -$OPTARG needs a value" >&2; usage ;;
        *) echo "galign_index_part.sh: unknown option -$OPTARG" >&2; usage ;;
    esac
done
shift $((OPTIND - 1))
[[ "${1-}" == "--" ]] && shift
extra=("$@")

[[ -n "$ref" && -n "$parts" && -n "$part" && -n "$out" ]] \
    || { echo "galign_index_part.sh: -f, -n, -i and -o are required" >&2; usage; }
[[ -r "$ref" ]] || die "cannot read reference '$ref'"
[[ "$parts" =~ ^[0-9]+$ ]] || die "-n must be a non-negative integer, got '$parts'"
[[ "$part" =~ ^[0-9]+$ ]] || die "-i must be a non-negative integer, got '$part'"
(( part < parts )) || die "-i $part: parts are numbered 0 to $((parts - 1))"
[[ "$threads" =~ ^[0-9]+$ ]] || die "-t must be a non-negative integer, got '$threads'"; (( threads >= 1 )) || threads=1
command -v "$GALIGN" >/dev/null 2>&1 || die "'$GALIGN' not found (set GALIGN or PATH)"

mkdir -p -- "$(dirname -- "$out")"
echo "galign_index_part.sh: $("$GALIGN" --version 2>&1 | head -n 1), part $part of $parts, threads $threads" >&2
set -x
"$GALIGN" index --parts "$parts" --part "$part" -o "$out" -t "$threads" "${extra[@]}" "$ref"
{ set +x; } 2>/dev/null
[[ -s "$out" ]] || die "galign index did not write '$out'"
