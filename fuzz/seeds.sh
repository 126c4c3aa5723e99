#!/usr/bin/env bash
# Writes the starting corpus of every fuzz target to fuzz/seeds/TARGET/ from small slices
# of the real files in ../shared/data (or data/) and from hand-made edge cases. The
# index seeds are built by `galign index` (target/release/galign) on small references.
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data
[ -d "$data" ] || data=data
out=fuzz/seeds
rm -rf "$out"
for t in fasta fastq fastq_tiled fastq_paired compressed_reads index part read_group; do mkdir -p "$out/$t"; done
find_file() {
    for path in "$data"/*/"$1" "$data/$1"; do
        if [ -f "$path" ]; then echo "$path"; return; fi
    done
}

# FASTA: the first lines of each reference, plain and in every compression.
for f in phiX174 lambda_virus human_rCRS_chrM_NC_012920 samtools_ex1 celegans_ce_htslib_1Mb; do
    src=$(find_file "$f.fa.gz")
    [ -n "$src" ] || continue
    zcat "$src" | head -12 > "$out/fasta/$f.fa" || true
done
printf '>a desc\nACGTNNNNacgtRYKM\nAC\n>b\nTTTT\r\n>c\nG\n' > "$out/fasta/edge.fa"
base="$out/fasta/phiX174.fa"
gzip -c "$base" > "$out/fasta/phix.fa.gz"
bgzip -c "$base" > "$out/fasta/phix.fa.bgz"
bzip2 -c "$base" > "$out/fasta/phix.fa.bz2"
zstd -q -c "$base" > "$out/fasta/phix.fa.zst"
xz -c "$base" > "$out/fasta/phix.fa.xz"

# FASTQ: the first records of each read file; CRLF, a FASTA-reads file, odd names.
for f in samtools_ex1_35bp ecoli_MG1655_first10kb_EAS20_R1 celegans_SRR065390_1000 HG002_chr20_10.0-10.1Mb_148bp; do
    src=$(find_file "$f.fq.gz")
    [ -n "$src" ] || continue
    zcat "$src" | head -16 > "$out/fastq/$f.fq" || true
done
printf '@r1/1 x\r\nACGT\r\n+r1\r\nIIII\r\n@r2\nNNAC\n+\n!!!!' > "$out/fastq/crlf_noeol.fq"
printf '>r1\nACGTACGT\n>r2\nGGCC\n' > "$out/fastq/reads.fa"
printf '@a\nACGT\n+\nIIII\n\n\n' > "$out/fastq/blank_end.fq"
cp "$out"/fastq/* "$out/fastq_tiled/"

# Pairs: mode byte (even: interleaved, odd: two files), cut byte, then the reads.
r1=$(find_file ecoli_MG1655_first10kb_EAS20_R1.fq.gz); r2=$(find_file ecoli_MG1655_first10kb_EAS20_R2.fq.gz)
if [ -n "$r1" ] && [ -n "$r2" ]; then
    paste <(zcat "$r1" | head -16 | paste - - - -) <(zcat "$r2" | head -16 | paste - - - -) \
        | tr '\t' '\n' > /tmp/galign-seeds-interleaved.fq || true
    { printf '\x00\x80'; cat /tmp/galign-seeds-interleaved.fq; } > "$out/fastq_paired/interleaved"
    { printf '\x01\x80'; zcat "$r1" | head -16 || true; zcat "$r2" | head -16 || true; } > "$out/fastq_paired/two_files"
    rm -f /tmp/galign-seeds-interleaved.fq
fi
printf '\x01\x80@a/1\nACGT\n+\nIIII\n@a/2\nTTGA\n+\nIIII\n' > "$out/fastq_paired/tiny"

# Compressed reads: one FASTQ slice in each compression.
fq="$out/fastq/samtools_ex1_35bp.fq"
gzip -c "$fq" > "$out/compressed_reads/reads.fq.gz"
bgzip -c "$fq" > "$out/compressed_reads/reads.fq.bgz"
bzip2 -c "$fq" > "$out/compressed_reads/reads.fq.bz2"
zstd -q -c "$fq" > "$out/compressed_reads/reads.fq.zst"
xz -c "$fq" > "$out/compressed_reads/reads.fq.xz"
# BGZF in several small members (the parallel inflater's blocks).
python3 - "$fq" "$out/compressed_reads/reads.multi.bgz" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
out = open(sys.argv[2], 'wb')
def member(chunk):
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = c.compress(chunk) + c.flush()
    head = b'\x1f\x8b\x08\x04\x00\x00\x00\x00\x00\xff\x06\x00BC\x02\x00'
    size = len(head) + 2 + len(body) + 8
    return head + struct.pack('<H', size - 1) + body + struct.pack('<II', zlib.crc32(chunk), len(chunk))
for i in range(0, len(data), 200):
    out.write(member(data[i:i + 200]))
out.write(member(b''))
PY

# Index: galign index on two small references.
galign=target/release/galign
printf '>a\nACGTACGTTAGCATCGATCGATCGGGCTA\n>b\nTTTTGGGGCCCCAAAANNNACGT\n' > /tmp/galign-seeds-tiny.fa
"$galign" index --device cpu -p "$out/index/tiny" /tmp/galign-seeds-tiny.fa 2>/dev/null
head -c 2000 "$base" > /tmp/galign-seeds-phix.fa
"$galign" index --device cpu -p "$out/index/phix" /tmp/galign-seeds-phix.fa 2>/dev/null
rm -f /tmp/galign-seeds-tiny.fa /tmp/galign-seeds-phix.fa

# Part files: the part target's reference (tests/fuzz/part_reference.fa, which the target
# assembles them with) in one part, and the middle part of three at another sampling rate.
partref=tests/fuzz/part_reference.fa
"$galign" index --device cpu --parts 1 --part 0 -o "$out/part/whole" "$partref" 2>/dev/null
"$galign" index --device cpu --parts 3 --part 1 --sample-rate 3 -o "$out/part/middle" "$partref" 2>/dev/null

# Read groups.
printf '@RG\\tID:s1\\tSM:sample one\\tPL:ILLUMINA' > "$out/read_group/escaped"
printf '@RG\tID:x\tLB:lib\tPU:unit.1' > "$out/read_group/tabs"
printf '@RG\tSM:noid' > "$out/read_group/no_id"
du -sh "$out"/*
