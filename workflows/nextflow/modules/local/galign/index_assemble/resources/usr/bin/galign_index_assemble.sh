#!/usr/bin/env bash
# galign_index_assemble.sh -- build a galign index from the part files of all
# its parts (the gather step of an index built on several nodes).
#
# Usage: galign_index_assemble.sh -f REF.fa[.gz] -p PREFIX [-t THREADS] PART...
#
#   -f REF      the reference FASTA the parts were built from
#   -p PREFIX   index prefix; the index is the single file PREFIX.galign
#               (its directory is created if needed)
#   -t THREADS  threads (default 1)
#   PART...     the part files of every part 0..N-1 (galign_index_part.sh),
#               in any order
#
# The index is the very file `galign index` writes for REF. Part files of
# another reference or number of parts, a missing or repeated part, or a
# corrupt part file are errors naming the file; nothing is written then.
# The binary is $GALIGN if set, else `galign` from PATH.
# Shared by the Snakemake rule `galign_index_assemble` and the Nextflow
# process GALIGN_INDEX_ASSEMBLE: both engines run exactly this script.
set -euo pipefail
GALIGN="${GALIGN:-galign}"   # the binary: $GALIGN if set, else galign from PATH
die() { echo "galign_index_assemble.sh: $*" >&2; exit 1; }

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }

ref="" prefix="" threads=1
while getopts ":f:p:t:h" opt; do
    case "$opt" in
        f) ref="$OPTARG" ;;
        p) prefix="$OPTARG" ;;
        t) threads="$OPTARG" ;;
        h) usage 0 ;;
        :) echo "galign_index_assemble.sh: -$OPTARG needs a value" >&2; usage ;;
        *) echo "galign_index_assemble.sh: unknown option -$OPTARG" >&2; usage ;;
    esac
done
shift $((OPTIND - 1))
[[ -n "$ref" && -n "$prefix" && $# -ge 1 ]] \
    || { echo "galign_index_assemble.sh: need -f, -p and at least one part file" >&2; usage; }
[[ -r "$ref" ]] || die "cannot read reference '$ref'"
for f in "$@"; do [[ -r "$f" ]] || die "cannot read part file '$f'"; done
[[ "$threads" =~ ^[0-9]+$ ]] || die "-t must be a non-negative integer, got '$threads'"; (( threads >= 1 )) || threads=1
command -v "$GALIGN" >/dev/null 2>&1 || die "'$GALIGN' not found (set GALIGN or PATH)"

mkdir -p -- "$(dirname -- "$prefix")"
echo "galign_index_assemble.sh: $("$GALIGN" --version 2>&1 | head -n 1), $# part file(s)" >&2
set -x
"$GALIGN" index --assemble -p "$prefix" -t "$threads" "$ref" "$@"
{ set +x; } 2>/dev/null
[[ -s "$prefix.galign" ]] || die "galign index --assemble did not write '$prefix.galign'"
