// GALIGN_INDEX_ASSEMBLE: the galign index of a reference, as a directory,
// from the part files of all its parts (GALIGN_INDEX_PART): the same file
// GALIGN_INDEX writes.
//
// The shell is galign_index_assemble.sh in this module's resources/usr/bin,
// which Nextflow puts on PATH (nextflow.enable.moduleBinaries = true): the
// module needs nothing outside its folder. The Snakemake rule
// `galign_index_assemble` runs the same file. Software: the container / conda
// directives below (workflows/README.md).
process GALIGN_INDEX_ASSEMBLE {
    tag "$meta.id"
    label 'process_medium'

    conda "${moduleDir}/environment.yml"
    container "ghcr.io/galign/galign:0.1.0"

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
    galign_index_assemble.sh \\
        -f ${fasta} \\
        -p galign/${prefix} \\
        -t ${task.cpus} \\
        ${inputs}

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
