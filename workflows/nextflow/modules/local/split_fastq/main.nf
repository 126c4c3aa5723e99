// SPLIT_FASTQ: scatter a sample's reads into `chunks` chunks of whole records
// (round robin, so R1/R2 chunks stay in step).
//
// The shell is split_fastq.sh in this module's resources/usr/bin, which
// Nextflow puts on PATH (nextflow.enable.moduleBinaries = true): the module
// needs nothing outside its folder. The Snakemake rule `split_fastq` runs the
// same file. Software: the container / conda directives below
// (workflows/README.md).
process SPLIT_FASTQ {
    tag "$meta.id"
    label 'process_single'

    conda "${moduleDir}/environment.yml"
    container "ghcr.io/galign/galign:0.1.0"

    input:
    tuple val(meta), path(reads)
    val chunks

    output:
    tuple val(meta), path("chunks/*.fq.gz"), emit: chunks

    when:
    task.ext.when == null || task.ext.when

    script:
    def prefix = task.ext.prefix ?: "${meta.id}"
    def fq     = reads instanceof Path ? [reads] : reads.collect { it }
    def ids    = (0..<(chunks as int)).collect { String.format('%03d', it) }
    def outs   = { mate -> ids.collect { "chunks/${prefix}.${it}_${mate}.fq.gz" }.join(' ') }
    def cmds   = (0..<fq.size()).collect { i ->
        "split_fastq.sh ${fq[i]} ${outs("R${i + 1}")}"
    }.join('\n')
    """
    ${cmds}
    """

    stub:
    def prefix = task.ext.prefix ?: "${meta.id}"
    def fq     = reads instanceof Path ? [reads] : reads.collect { it }
    def ids    = (0..<(chunks as int)).collect { String.format('%03d', it) }
    def files  = (0..<fq.size()).collect { i -> ids.collect { "chunks/${prefix}.${it}_R${i + 1}.fq.gz" } }.flatten().join(' ')
    """
    mkdir -p chunks
    for f in ${files}; do echo -n | gzip -c > "\$f"; done
    """
}
