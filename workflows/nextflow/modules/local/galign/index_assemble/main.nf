// GALIGN_INDEX_ASSEMBLE: the galign index of a reference, as a directory,
// from the part files of all its parts (GALIGN_INDEX_PART): the same file
// GALIGN_INDEX writes.
//
// The shell is workflows/scripts/galign_index_assemble.sh, the very script
// the Snakemake rule `galign_index_assemble` runs.
process GALIGN_INDEX_ASSEMBLE {
    tag "$meta.id"
    label 'process_medium'

    input:
    tuple val(meta), path(fasta)
    path(parts, stageAs: "parts/*")

    output:
    tuple val(meta), path("galign"), emit: index
    path "versions.yml"            , emit: versions

    when:
    task.ext.when == null || task.ext.when

    script:
    def prefix = task.ext.prefix ?: "${fasta.baseName}"
    // one Path for a single part, a list otherwise (any order)
    def inputs = (parts instanceof Path ? [parts] : parts.collect { it }).join(' ')
    """
    ${moduleDir}/../../../../../scripts/galign_index_assemble.sh \\
        -f ${fasta} \\
        -p galign/${prefix} \\
        -t ${task.cpus} \\
        ${inputs}

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
