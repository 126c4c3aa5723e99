// GALIGN_INDEX_PART: one part (share I of N) of a galign index built on
// several nodes, as a part file; GALIGN_INDEX_ASSEMBLE gathers the N parts.
//
// The shell is galign_index_part.sh in this module's resources/usr/bin, which
// Nextflow puts on PATH (nextflow.enable.moduleBinaries = true): the module
// needs nothing outside its folder. The Snakemake rule `galign_index_part` runs
// the same file. Software: the container / conda directives below
// (workflows/README.md).
process GALIGN_INDEX_PART {
    tag "${meta.id}.${meta.part}"
    label 'process_medium'

    conda "${moduleDir}/environment.yml"
    container "ghcr.io/galign/galign:0.1.0"

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
    galign_index_part.sh \\
        -f ${fasta} \\
        -n ${meta.parts} \\
        -i ${meta.part} \\
        -o ${prefix}.${meta.part}-of-${meta.parts}.part \\
        -t ${task.cpus} \\
        -- ${args}

    cat <<-END_VERSIONS > versions.yml
    "${task.process}":
        galign: \$(\${GALIGN:-galign} --version 2>&1 | head -n 1 | sed 's/^galign[[:space:]]*//')
    END_VERSIONS
    """

    stub:
    def prefix = task.ext.prefix ?: "${fasta.baseName}"
    """
    touch ${prefix}.${meta.part}-of-${meta.parts}.part

    cat <<-END_VERSIONS > versions.yml
    "${task.process}":
        galign: \$(\${GALIGN:-galign} --version 2>&1 | head -n 1 | sed 's/^galign[[:space:]]*//')
    END_VERSIONS
    """
}
