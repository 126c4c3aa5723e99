# galign_device.sh -- helpers sourced by galign_index.sh and galign_map.sh (not
# executable on its own): which galign runs, argument checks, and the choice of
# GPU or CPU. Nextflow puts a module's resources/usr/bin on PATH, so each of the
# two modules carries this file next to its script; the copies are byte-identical
# (tests/workflows.rs checks it), and Snakemake runs the same module scripts.

# Which galign binary to run: $GALIGN if set (a path or a command name),
# otherwise `galign` from PATH.
GALIGN="${GALIGN:-galign}"

die() { echo "$(basename -- "$0"): $*" >&2; exit 1; }

require_cmd() {
    command -v "$1" >/dev/null 2>&1 \
        || die "'$1' not found (set ${2:-PATH} so that it can be run)"
}

# require_int NAME VALUE: VALUE must be a non-negative integer.
require_int() {
    [[ "$2" =~ ^[0-9]+$ ]] || die "$1 must be a non-negative integer, got '$2'"
}

# gpu_visible: succeed when this process can see at least one NVIDIA GPU.
# A scheduler that hides all devices (CUDA_VISIBLE_DEVICES empty, -1 or
# NoDevFiles) means "no GPU" even on a GPU node.
gpu_visible() {
    if [[ -n "${CUDA_VISIBLE_DEVICES+set}" ]]; then
        case "${CUDA_VISIBLE_DEVICES}" in
            "" | "-1" | "NoDevFiles" | "none") return 1 ;;
        esac
    fi
    if command -v nvidia-smi >/dev/null 2>&1 \
        && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
        return 0
    fi
    compgen -G '/dev/nvidia[0-9]*' >/dev/null
}

# choose_device GPUS [EXTRA_ARGS...]: set DEVICE_ARGS (to add to the galign
# command line) and DEVICE_NOTE (for the log). Order of precedence:
#   1. a --device among EXTRA_ARGS (the user's own galign arguments): add nothing;
#   2. $GALIGN_DEVICE (auto|cpu|gpu);
#   3. GPUS > 0 (the scheduler allocated GPUs) and a GPU visible: --device gpu;
#   4. otherwise --device auto: galign uses a GPU if it finds one, else the CPU,
#      so a job asking for a GPU still completes on a node without one.
choose_device() {
    local gpus="$1"; shift
    local a
    for a in "$@"; do
        case "$a" in
            --device | --device=*)
                DEVICE_ARGS=(); DEVICE_NOTE="as given in the extra arguments"; return 0 ;;
        esac
    done
    if [[ -n "${GALIGN_DEVICE:-}" ]]; then
        case "$GALIGN_DEVICE" in auto | cpu | gpu) ;; *) die "GALIGN_DEVICE must be auto, cpu or gpu, got '$GALIGN_DEVICE'" ;; esac
        DEVICE_ARGS=(--device "$GALIGN_DEVICE"); DEVICE_NOTE="$GALIGN_DEVICE (from GALIGN_DEVICE)"
    elif (( gpus > 0 )) && gpu_visible; then
        DEVICE_ARGS=(--device gpu); DEVICE_NOTE="gpu ($gpus allocated)"
    elif (( gpus > 0 )); then
        DEVICE_ARGS=(--device auto)
        DEVICE_NOTE="auto ($gpus GPU(s) requested but none visible here: CPU fallback)"
    else
        DEVICE_ARGS=(--device auto); DEVICE_NOTE="auto (no GPU requested)"
    fi
}
