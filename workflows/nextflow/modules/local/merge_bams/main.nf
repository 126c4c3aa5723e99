// MERGE_BAMS: gather a sample's sorted chunk BAMs into one sorted, indexed
// BAM. Runs workflows/scripts/merge_bams.sh, like the Snakemake rule
// `merge_bams`.
process MERGE_BAMS {
    tag "$meta.id"
    label 'process_medium'

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
    ${moduleDir}/../../../../scripts/merge_bams.sh -o ${prefix}.bam -t ${task.cpus} ${inputs}

    ${moduleDir}/../../../../scripts/galign_versions.sh "${task.process}" samtools > versions.yml
    """

    stub:
    def prefix = task.ext.prefix ?: "${meta.id}"
    """
    touch ${prefix}.bam ${prefix}.bam.bai

    ${moduleDir}/../../../../scripts/galign_versions.sh "${task.process}" samtools > versions.yml
    """
}
