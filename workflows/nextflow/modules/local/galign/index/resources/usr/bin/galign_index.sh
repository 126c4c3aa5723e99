#!/usr/bin/env bash
# galign_index.sh -- build the galign index of one reference (once per reference).
#
# Usage: galign_index.sh -f REF.fa[.gz] -p PREFIX [-t THREADS] [-g GPUS]
#                        [-- EXTRA_GALIGN_INDEX_ARGS...]
#
#   -f REF      reference FASTA (plain or gzip)
#   -p PREFIX   index prefix; the index is the single file PREFIX.galign
#               (its directory is created if needed)
#   -t THREADS  threads (default 1)
#   -g GPUS     GPUs the scheduler allocated (default 0): --device gpu when
#               GPUS > 0 and a GPU is visible, else --device auto (GPU if
#               present, CPU otherwise). $GALIGN_DEVICE (auto|cpu|gpu)
#               overrides this, a --device among the extra arguments both.
#   -- ARGS     passed verbatim to `galign index`
#
# The binary is $GALIGN if set, else `galign` from PATH.
# Shared by the Snakemake rule `galign_index` and the Nextflow process
# GALIGN_INDEX: both engines run exactly this script.
set -euo pipefail
here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=galign_device.sh
source "$here/galign_device.sh"

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }

ref="" prefix="" threads=1 gpus=0
while getopts ":f:p:t:g:h" opt; do
    case "$opt" in
        f) ref="$OPTARG" ;;
        p) prefix="$OPTARG" ;;
        t) threads="$OPTARG" ;;
        g) gpus="$OPTARG" ;;
        h) usage 0 ;;
        :) echo "galign_index.sh: -$OPTARG needs a value" >&2; usage ;;
        *) echo "galign_index.sh: unknown option -$OPTARG" >&2; usage ;;
    esac
done
shift $((OPTIND - 1))
[[ "${1-}" == "--" ]] && shift
extra=("$@")

[[ -n "$ref" && -n "$prefix" ]] || { echo "galign_index.sh: -f and -p are required" >&2; usage; }
[[ -r "$ref" ]] || die "cannot read reference '$ref'"
require_int "-t" "$threads"; (( threads >= 1 )) || threads=1
require_int "-g" "$gpus"
require_cmd "$GALIGN" GALIGN

choose_device "$gpus" "${extra[@]}"

mkdir -p -- "$(dirname -- "$prefix")"
echo "galign_index.sh: $("$GALIGN" --version 2>&1 | head -n 1), threads $threads, device: $DEVICE_NOTE" >&2
set -x
"$GALIGN" index -p "$prefix" -t "$threads" "${DEVICE_ARGS[@]}" "${extra[@]}" "$ref"
{ set +x; } 2>/dev/null
[[ -s "$prefix.galign" ]] || die "galign index did not write '$prefix.galign'"
