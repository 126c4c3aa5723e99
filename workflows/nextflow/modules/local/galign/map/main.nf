// GALIGN_MAP: map reads (one chunk, single- or paired-end) with galign and
// write a coordinate-sorted BAM (galign map | samtools sort).
//
// The shell is workflows/scripts/galign_map.sh, the very script the Snakemake
// rule `galign_map` runs. It is reached through ${moduleDir}, so the
// repository checkout must be visible where tasks run (a shared file system,
// as usual with SLURM).
process GALIGN_MAP {
    tag "$meta.id"
    label 'process_gpu'

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
    ${moduleDir}/../../../../../scripts/galign_map.sh \\
        -x ${index} \\
        -o ${prefix}.bam \\
        -1 ${fq[0]} ${mates} \\
        -t ${task.cpus} \\
        -g ${gpus} \\
        -m ${sort_mem} ${sort_extra} \\
        -- ${args}

    ${moduleDir}/../../../../../scripts/galign_versions.sh "${task.process}" galign samtools > versions.yml
    """

    stub:
    def prefix = task.ext.prefix ?: "${meta.id}"
    """
    touch ${prefix}.bam

    ${moduleDir}/../../../../../scripts/galign_versions.sh "${task.process}" galign samtools > versions.yml
    """
}
