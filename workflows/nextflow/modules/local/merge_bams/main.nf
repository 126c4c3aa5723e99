// MERGE_BAMS: gather a sample's sorted chunk BAMs into one sorted, indexed
// BAM.
//
// The shell is merge_bams.sh in this module's resources/usr/bin, which Nextflow
// puts on PATH (nextflow.enable.moduleBinaries = true): the module needs
// nothing outside its folder. The Snakemake rule `merge_bams` runs the same
// file. Software: the container / conda directives below (workflows/README.md).
process MERGE_BAMS {
    tag "$meta.id"
    label 'process_medium'

    conda "${moduleDir}/environment.yml"
    container "ghcr.io/galign/galign:0.1.0"

    input:
    tuple val(meta), path(bams, stageAs: "chunks/*")

    output:
    tuple val(meta), path("*.bam"), path("*.bam.bai"), emit: bam
    path "versions.yml"                               , emit: versions

    when:
    task.ext.when == null || task.ext.when

    script:
    def prefix = task.ext.prefix ?: "${meta.id}"
    // one Path for a single chunk, a list otherwise; in chunk order (main.nf sorts them)
    def inputs = (bams instanceof Path ? [bams] : bams.collect { it }).join(' ')
    """
    merge_bams.sh -o ${prefix}.bam -t ${task.cpus} ${inputs}

    cat <<-END_VERSIONS > versions.yml
    "${task.process}":
        samtools: \$(samtools --version 2>&1 | head -n 1 | sed 's/^samtools[[:space:]]*//')
    END_VERSIONS
    """

    stub:
    def prefix = task.ext.prefix ?: "${meta.id}"
    """
    touch ${prefix}.bam ${prefix}.bam.bai

    cat <<-END_VERSIONS > versions.yml
    "${task.process}":
        samtools: \$(samtools --version 2>&1 | head -n 1 | sed 's/^samtools[[:space:]]*//')
    END_VERSIONS
    """
}
