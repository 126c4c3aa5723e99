#!/usr/bin/env bash
# galign_map.sh -- map one chunk of reads with galign and write a
# coordinate-sorted BAM (galign map | samtools sort).
#
# Usage: galign_map.sh -x INDEX -o OUT.bam -1 READS.fq[.gz] [-2 MATES.fq[.gz]]
#                      [-t THREADS] [-g GPUS] [-s SORT_THREADS] [-m SORT_MEM]
#                      [-T TMP_PREFIX] [-S SORT_EXTRA]
#                      [-- EXTRA_GALIGN_MAP_ARGS...]
#
#   -x INDEX    the index: its prefix (PREFIX.galign exists), the PREFIX.galign
#               file itself, or a directory holding exactly one *.galign file
#   -o OUT.bam  sorted BAM to write
#   -1/-2       reads (and mates, for paired-end)
#   -t THREADS  galign threads (default 1)
#   -g GPUS     GPUs the scheduler allocated to this job (default 0). With
#               GPUS > 0 and a GPU visible, galign runs with --device gpu;
#               otherwise with --device auto, which uses a GPU if there is one
#               and falls back to the CPU, so the job still works on a node
#               without a GPU. $GALIGN_DEVICE (auto|cpu|gpu) overrides this,
#               and a --device among the extra arguments overrides both.
#   -s N        samtools sort threads (default: THREADS)
#   -m MEM      samtools sort memory per thread (default 768M)
#   -T PREFIX   samtools sort temporary-file prefix
#   -S ARGS     extra samtools sort arguments (split on whitespace)
#   -- ARGS     passed verbatim to `galign map`, e.g. -R '@RG\tID:x\tSM:x' -k 5
#
# The binary is $GALIGN if set, else `galign` from PATH.
# Shared by the Snakemake rule `galign_map` and the Nextflow process
# GALIGN_MAP: both engines run exactly this script.
set -euo pipefail
here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=galign_device.sh
source "$here/galign_device.sh"

usage() { sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }

index="" out="" r1="" r2="" threads=1 gpus=0 sort_threads="" sort_mem=768M
sort_tmp="" sort_extra=""
while getopts ":x:o:1:2:t:g:s:m:T:S:h" opt; do
    case "$opt" in
        x) index="$OPTARG" ;;
        o) out="$OPTARG" ;;
        1) r1="$OPTARG" ;;
        2) r2="$OPTARG" ;;
        t) threads="$OPTARG" ;;
        g) gpus="$OPTARG" ;;
        s) sort_threads="$OPTARG" ;;
        m) sort_mem="$OPTARG" ;;
        T) sort_tmp="$OPTARG" ;;
        S) sort_extra="$OPTARG" ;;
        h) usage 0 ;;
        :) echo "galign_map.sh: -$OPTARG needs a value" >&2; usage ;;
        *) echo "galign_map.sh: unknown option -$OPTARG" >&2; usage ;;
    esac
done
shift $((OPTIND - 1))
[[ "${1-}" == "--" ]] && shift
extra=("$@")

[[ -n "$index" && -n "$out" && -n "$r1" ]] || { echo "galign_map.sh: -x, -o and -1 are required" >&2; usage; }
require_int "-t" "$threads"; (( threads >= 1 )) || threads=1
require_int "-g" "$gpus"
sort_threads="${sort_threads:-$threads}"
require_int "-s" "$sort_threads"
for f in "$r1" ${r2:+"$r2"}; do [[ -r "$f" ]] || die "cannot read reads '$f'"; done
require_cmd "$GALIGN" GALIGN
require_cmd samtools

# Resolve the index prefix (what `galign map` takes, like bwa).
if [[ -d "$index" ]]; then
    mapfile -t found < <(find -L "$index" -maxdepth 1 -type f -name '*.galign' | LC_ALL=C sort)
    (( ${#found[@]} == 1 )) \
        || die "expected exactly one *.galign file in directory '$index', found ${#found[@]}"
    prefix="${found[0]%.galign}"
elif [[ "$index" == *.galign && -f "$index" ]]; then
    prefix="${index%.galign}"
elif [[ -f "$index.galign" ]]; then
    prefix="$index"
else
    die "no galign index at '$index' (expected PREFIX with PREFIX.galign, a .galign file, or a directory)"
fi

choose_device "$gpus" "${extra[@]}"

sort_args=(-@ "$sort_threads" -m "$sort_mem")
[[ -n "$sort_tmp" ]] && { mkdir -p -- "$(dirname -- "$sort_tmp")"; sort_args+=(-T "$sort_tmp"); }
if [[ -n "$sort_extra" ]]; then
    read -r -a sort_extra_arr <<<"$sort_extra"
    sort_args+=("${sort_extra_arr[@]}")
fi

mkdir -p -- "$(dirname -- "$out")"
trap 'rc=$?; (( rc == 0 )) || rm -f -- "$out"; exit $rc' EXIT

echo "galign_map.sh: $("$GALIGN" --version 2>&1 | head -n 1), $(samtools --version 2>&1 | head -n 1), device: $DEVICE_NOTE" >&2
set -x
"$GALIGN" map -t "$threads" "${DEVICE_ARGS[@]}" "${extra[@]}" "$prefix" "$r1" ${r2:+"$r2"} \
    | samtools sort "${sort_args[@]}" -o "$out" -
{ set +x; } 2>/dev/null
