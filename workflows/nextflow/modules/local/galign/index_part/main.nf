// GALIGN_INDEX_PART: one part (share I of N) of a galign index built on
// several nodes, as a part file; GALIGN_INDEX_ASSEMBLE gathers the N parts.
//
// The shell is workflows/scripts/galign_index_part.sh, the very script the
// Snakemake rule `galign_index_part` runs. It is reached through
// ${moduleDir}, so the repository checkout must be visible where tasks run.
process GALIGN_INDEX_PART {
    tag "${meta.id}.${meta.part}"
    label 'process_medium'

    input:
    tuple val(meta), path(fasta)     // meta: [id, part, parts]

    output:
    tuple val(meta), path("*.part"), emit: part
    path "versions.yml"            , emit: versions

    when:
    task.ext.when == null || task.ext.when

    script:
    def args   = task.ext.args ?: ''   // the same for every part, e.g. --sample-rate 32
    def prefix = task.ext.prefix ?: "${fasta.baseName}"
    """
    ${moduleDir}/../../../../../scripts/galign_index_part.sh \\
        -f ${fasta} \\
        -n ${meta.parts} \\
        -i ${meta.part} \\
        -o ${prefix}.${meta.part}-of-${meta.parts}.part \\
        -t ${task.cpus} \\
        -- ${args}

    ${moduleDir}/../../../../../scripts/galign_versions.sh "${task.process}" galign > versions.yml
    """

    stub:
    def prefix = task.ext.prefix ?: "${fasta.baseName}"
    """
    touch ${prefix}.${meta.part}-of-${meta.parts}.part

    ${moduleDir}/../../../../../scripts/galign_versions.sh "${task.process}" galign > versions.yml
    """
}
