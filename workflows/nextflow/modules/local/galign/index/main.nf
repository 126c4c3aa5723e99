// GALIGN_INDEX: build the galign index of a reference, as a directory.
//
// The shell is workflows/scripts/galign_index.sh, the very script the
// Snakemake rule `galign_index` runs. It is reached through ${moduleDir}, so
// the repository checkout must be visible where tasks run (a shared file
// system, as usual with SLURM).
process GALIGN_INDEX {
    tag "$meta.id"
    label 'process_gpu'

    input:
    tuple val(meta), path(fasta)

    output:
    tuple val(meta), path("galign"), emit: index
    path "versions.yml"            , emit: versions

    when:
    task.ext.when == null || task.ext.when

    script:
    def args   = task.ext.args ?: ''
    def prefix = task.ext.prefix ?: "${fasta.baseName}"
    // task.accelerator decides GPU or CPU: GPUs requested -> --device gpu
    // (when one is visible), none -> --device auto (GPU if present, else CPU).
    def gpus   = task.accelerator ? (task.accelerator.request ?: 0) : 0
    """
    ${moduleDir}/../../../../../scripts/galign_index.sh \\
        -f ${fasta} \\
        -p galign/${prefix} \\
        -t ${task.cpus} \\
        -g ${gpus} \\
        -- ${args}

    ${moduleDir}/../../../../../scripts/galign_versions.sh "${task.process}" galign > versions.yml
    """

    stub:
    def prefix = task.ext.prefix ?: "${fasta.baseName}"
    """
    mkdir -p galign
    touch galign/${prefix}.galign

    ${moduleDir}/../../../../../scripts/galign_versions.sh "${task.process}" galign > versions.yml
    """
}
