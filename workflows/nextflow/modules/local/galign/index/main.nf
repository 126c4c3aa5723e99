// GALIGN_INDEX: build the galign index of a reference, as a directory.
//
// The shell is galign_index.sh (with galign_device.sh) in this module's
// resources/usr/bin, which Nextflow puts on PATH
// (nextflow.enable.moduleBinaries = true): the module needs nothing outside its
// folder. The Snakemake rule `galign_index` runs the same file. Software: the
// container / conda directives below (workflows/README.md).
process GALIGN_INDEX {
    tag "$meta.id"
    label 'process_gpu'

    conda "${moduleDir}/environment.yml"
    container "ghcr.io/galign/galign:0.1.0"

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
    galign_index.sh \\
        -f ${fasta} \\
        -p galign/${prefix} \\
        -t ${task.cpus} \\
        -g ${gpus} \\
        -- ${args}

    cat <<-END_VERSIONS > versions.yml
    "${task.process}":
        galign: \$(\${GALIGN:-galign} --version 2>&1 | head -n 1 | sed 's/^galign[[:space:]]*//')
    END_VERSIONS
    """

    stub:
    def prefix = task.ext.prefix ?: "${fasta.baseName}"
    """
    mkdir -p galign
    touch galign/${prefix}.galign

    cat <<-END_VERSIONS > versions.yml
    "${task.process}":
        galign: \$(\${GALIGN:-galign} --version 2>&1 | head -n 1 | sed 's/^galign[[:space:]]*//')
    END_VERSIONS
    """
}
