#!/usr/bin/env bash
# split_fastq.sh -- scatter one FASTQ file into N chunks of whole records.
#
# Usage: split_fastq.sh [-l LEVEL] IN.fq[.gz] OUT_1.fq.gz [OUT_2.fq.gz ...]
#
# The number of chunks is the number of output files. Record i (0-based) goes
# to chunk i mod N (round robin), so:
#   * every chunk holds whole 4-line records, and the chunks together hold
#     every input record exactly once;
#   * the split is deterministic and depends only on record order, so the R1
#     and R2 files of a pair split the same way stay in step (mate i of R1 and
#     mate i of R2 land in the same chunk);
#   * every chunk is created, even when there are fewer records than chunks
#     (such a chunk is a valid, empty gzip file).
# Input may be plain or gzip/bgzip-compressed. Outputs ending in .gz are
# written gzip-compressed (level LEVEL, default 1), anything else plain.
# FASTQ is expected in the usual 4-line form (no wrapped sequences).
#
# Shared by the Snakemake rule `split_fastq` and the Nextflow process
# SPLIT_FASTQ: both engines run exactly this script.
set -euo pipefail

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }

level=1
while getopts ":l:h" opt; do
    case "$opt" in
        l) level="$OPTARG" ;;
        h) usage 0 ;;
        *) echo "split_fastq.sh: unknown option -$OPTARG" >&2; usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -ge 2 ]] || { echo "split_fastq.sh: need an input and at least one output" >&2; usage; }

in="$1"; shift
[[ -r "$in" ]] || { echo "split_fastq.sh: cannot read '$in'" >&2; exit 1; }
[[ "$level" =~ ^[1-9]$ ]] || { echo "split_fastq.sh: -l must be 1..9" >&2; exit 2; }

for out in "$@"; do
    mkdir -p -- "$(dirname -- "$out")"
done

# gzip -cdf decompresses gzip/bgzip input and passes plain text through.
# Output names travel to awk through the environment, one per line, so that
# no shell quoting is involved in awk's pipes beyond the single quotes added
# below (names containing a single quote or newline are rejected).
for out in "$@"; do
    case "$out" in
        *\'* | *$'\n'*) echo "split_fastq.sh: unsupported character in '$out'" >&2; exit 2 ;;
    esac
done
gzip -cdf -- "$in" \
    | SPLIT_OUTS="$(printf '%s\n' "$@")" SPLIT_LEVEL="$level" LC_ALL=C awk '
BEGIN {
    n = split(ENVIRON["SPLIT_OUTS"], outs, "\n")
    # split() on a string ending in "\n" yields an empty last field.
    if (outs[n] == "") n--
    for (c = 0; c < n; c++) {
        name = outs[c + 1]
        if (name ~ /\.gz$/)
            sink[c] = "gzip -" ENVIRON["SPLIT_LEVEL"] " -c > '\''" name "'\''"
        else
            sink[c] = "cat > '\''" name "'\''"
        printf "" | sink[c]          # create every chunk, even empty ones
    }
}
NR % 4 == 1 {
    if (substr($0, 1, 1) != "@") {
        printf "split_fastq.sh: line %d is not a FASTQ header (expected @...)\n", NR > "/dev/stderr"
        bad = 1; exit 1
    }
    c = int((NR - 1) / 4) % n
}
NR % 4 == 3 && substr($0, 1, 1) != "+" {
    printf "split_fastq.sh: line %d is not a FASTQ separator (expected +...)\n", NR > "/dev/stderr"
    bad = 1; exit 1
}
{ print | sink[c] }
END {
    for (c = 0; c < n; c++)
        if (close(sink[c]) != 0) {
            printf "split_fastq.sh: writing chunk %s failed\n", outs[c + 1] > "/dev/stderr"
            bad = 1
        }
    if (bad) exit 1
    if (NR % 4 != 0) {
        printf "split_fastq.sh: truncated FASTQ: %d lines is not a multiple of 4\n", NR > "/dev/stderr"
        exit 1
    }
    printf "split_fastq.sh: %d records into %d chunks\n", NR / 4, n > "/dev/stderr"
}'
