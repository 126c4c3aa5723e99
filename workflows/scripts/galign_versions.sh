#!/usr/bin/env bash
# galign_versions.sh -- print an nf-core style versions.yml entry on stdout.
#
# Usage: galign_versions.sh PROCESS_NAME [TOOL ...]     (TOOL: galign, samtools)
#
# Example: galign_versions.sh GALIGN_MAP galign samtools > versions.yml
#   "GALIGN_MAP":
#       galign: 0.1.0
#       samtools: 1.16.1
set -euo pipefail
here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$here/common.sh"

[[ $# -ge 1 ]] || { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
process="$1"; shift
[[ $# -ge 1 ]] || set -- galign
printf '"%s":\n' "$process"
for tool in "$@"; do
    v="$(tool_version "$tool")"
    [[ -n "$v" ]] || die "could not determine the version of $tool"
    printf '    %s: %s\n' "$tool" "$v"
done
