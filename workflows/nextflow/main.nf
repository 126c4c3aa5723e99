#!/usr/bin/env nextflow
/*
 * galign scatter/gather pipeline for Nextflow (DSL2).
 *
 *   GALIGN_INDEX   galign index, once for the reference (--fasta); with
 *                  --index_parts N > 1 instead GALIGN_INDEX_PART, one task per
 *                  part (scatter), and GALIGN_INDEX_ASSEMBLE (gather): the same index
 *   SPLIT_FASTQ    each sample's reads -> params.chunks chunks (scatter)
 *   GALIGN_MAP     galign map | samtools sort, one task per chunk (GPU if allocated)
 *   MERGE_BAMS     samtools merge -c -p + index, one BAM per sample (gather)
 *
 * Every module is self-contained: its script is in the module's
 * resources/usr/bin (on PATH with nextflow.enable.moduleBinaries, set in
 * nextflow.config), its software in the container / conda directives. The
 * Snakemake workflow in ../snakemake runs the same module scripts, so both
 * engines do the same work. Parameters: nextflow_schema.json.
 *
 *   nextflow run workflows/nextflow/main.nf --input samplesheet.csv \
 *       --fasta ref.fa.gz --chunks 8 --outdir results [-profile gpu,slurm]
 *
 * samplesheet.csv: header `sample,fastq_1,fastq_2` (fastq_2 empty for single-end).
 */

include { GALIGN_INDEX } from './modules/local/galign/index/main'
include { GALIGN_INDEX_PART     } from './modules/local/galign/index_part/main'
include { GALIGN_INDEX_ASSEMBLE } from './modules/local/galign/index_assemble/main'
include { GALIGN_MAP   } from './modules/local/galign/map/main'
include { SPLIT_FASTQ  } from './modules/local/split_fastq/main'
include { MERGE_BAMS   } from './modules/local/merge_bams/main'

workflow {
    if (!params.input) { error "Missing --input samplesheet.csv (columns: sample,fastq_1,fastq_2)" }
    if (!params.fasta) { error "Missing --fasta reference.fa[.gz]" }
    def n_chunks = params.chunks as int
    if (n_chunks < 1) { error "--chunks must be >= 1" }
    def n_parts = params.index_parts as int
    if (n_parts < 1) { error "--index_parts must be >= 1" }

    ch_versions = Channel.empty()

    // Reference -> index (a directory holding <name>.galign), used by every chunk.
    def fasta = file(params.fasta, checkIfExists: true)
    if (n_parts == 1) {
        GALIGN_INDEX(Channel.value([[id: fasta.simpleName], fasta]))
        ch_index = GALIGN_INDEX.out.index.first()
        ch_versions = ch_versions.mix(GALIGN_INDEX.out.versions)
    } else {
        // Scatter: one task per part of the index; gather: assemble them all.
        GALIGN_INDEX_PART(
            Channel.of(0..<n_parts).map { i -> [[id: fasta.simpleName, part: i, parts: n_parts], fasta] }
        )
        GALIGN_INDEX_ASSEMBLE(
            Channel.value([[id: fasta.simpleName], fasta]),
            GALIGN_INDEX_PART.out.part.map { meta, part -> part }.collect()
        )
        ch_index = GALIGN_INDEX_ASSEMBLE.out.index.first()
        ch_versions = ch_versions.mix(GALIGN_INDEX_PART.out.versions.first(), GALIGN_INDEX_ASSEMBLE.out.versions)
    }

    // Samplesheet -> [meta, [R1(, R2)]]
    ch_reads = Channel
        .fromPath(params.input, checkIfExists: true)
        .splitCsv(header: true, strip: true)
        .map { row ->
            if (!row.sample || !row.fastq_1) { error "samplesheet: every row needs sample and fastq_1: ${row}" }
            def fq = [file(row.fastq_1, checkIfExists: true)]
            if (row.fastq_2) { fq << file(row.fastq_2, checkIfExists: true) }
            [[id: row.sample, single_end: fq.size() == 1], fq]
        }

    // Scatter: one task per sample splits all its chunks; then one
    // [meta, [chunk R1(, R2)]] item per chunk.
    SPLIT_FASTQ(ch_reads, n_chunks)
    ch_chunks = SPLIT_FASTQ.out.chunks.flatMap { meta, files ->
        def fl = files instanceof List ? files : [files]
        fl.groupBy { f -> (f.name =~ /\.(\d+)_R[12]\.fq\.gz$/)[0][1] }
          .collect { chunk, fs ->
              [meta + [id: "${meta.id}.${chunk}", sample: meta.id, chunk: chunk], fs.sort { it.name }]
          }
    }

    GALIGN_MAP(ch_chunks, ch_index)
    ch_versions = ch_versions.mix(GALIGN_MAP.out.versions.first())

    // Gather: a sample's BAMs are merged as soon as all its chunks are mapped.
    ch_gather = GALIGN_MAP.out.bam
        .map { meta, bam -> [groupKey(meta.sample, n_chunks), meta.single_end, bam] }
        .groupTuple()
        .map { key, single_end, bams -> [[id: key.toString(), single_end: single_end[0]], bams.sort { it.name }] }

    MERGE_BAMS(ch_gather)
    ch_versions = ch_versions.mix(MERGE_BAMS.out.versions.first())

    ch_versions
        .unique()
        .collectFile(name: 'versions.yml', storeDir: "${params.outdir}/pipeline_info", sort: true)
}
