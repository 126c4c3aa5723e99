// GALIGN_MAP: map reads (one chunk, single- or paired-end) with galign and
// write a coordinate-sorted BAM (galign map | samtools sort).
//
// The shell is galign_map.sh (with galign_device.sh) in this module's
// resources/usr/bin, which Nextflow puts on PATH
// (nextflow.enable.moduleBinaries = true): the module needs nothing outside its
// folder. The Snakemake rule `galign_map` runs the same file. Software: the
// container / conda directives below (workflows/README.md).
process GALIGN_MAP {
    tag "$meta.id"
    label 'process_gpu'

    conda "${moduleDir}/environment.yml"
    container "ghcr.io/galign/galign:0.1.0"

    input:
    tuple val(meta), path(reads)
    tuple val(meta2), path(index)

    output:
    tuple val(meta), path("*.bam"), emit: bam
    path "versions.yml"           , emit: versions

    when:
    task.ext.when == null || task.ext.when

    script:
    def args   = task.ext.args ?: ''     // galign map arguments, e.g. -R '@RG\tID:x\tSM:x'
    def args2  = task.ext.args2 ?: ''    // samtools sort arguments
    def prefix = task.ext.prefix ?: "${meta.id}"
    // task.accelerator decides GPU or CPU: GPUs requested -> --device gpu
    // (when one is visible), none -> --device auto (GPU if present, else CPU).
    def gpus   = task.accelerator ? (task.accelerator.request ?: 0) : 0
    def fq     = reads instanceof Path ? [reads] : reads.collect { it }
    def mates  = fq.size() > 1 ? "-2 ${fq[1]}" : ''
    // samtools sort memory per thread: half of the task memory over its threads.
    def sort_mem = task.memory ? "${Math.max(64, (task.memory.toMega() / (2 * task.cpus)) as long)}M" : '768M'
    def sort_extra = args2 ? "-S '${args2}'" : ''
    """
    galign_map.sh \\
        -x ${index} \\
        -o ${prefix}.bam \\
        -1 ${fq[0]} ${mates} \\
        -t ${task.cpus} \\
        -g ${gpus} \\
        -m ${sort_mem} ${sort_extra} \\
        -- ${args}

    cat <<-END_VERSIONS > versions.yml
    "${task.process}":
        galign: \$(\${GALIGN:-galign} --version 2>&1 | head -n 1 | sed 's/^galign[[:space:]]*//')
        samtools: \$(samtools --version 2>&1 | head -n 1 | sed 's/^samtools[[:space:]]*//')
    END_VERSIONS
    """

    stub:
    def prefix = task.ext.prefix ?: "${meta.id}"
    """
    touch ${prefix}.bam

    cat <<-END_VERSIONS > versions.yml
    "${task.process}":
        galign: \$(\${GALIGN:-galign} --version 2>&1 | head -n 1 | sed 's/^galign[[:space:]]*//')
        samtools: \$(samtools --version 2>&1 | head -n 1 | sed 's/^samtools[[:space:]]*//')
    END_VERSIONS
    """
}
