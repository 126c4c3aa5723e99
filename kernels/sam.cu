// SAM lines of single-end reads searched exactly (src/gpu/sam.rs): the records that
// src/sam/record.rs writes for them, byte for byte, one thread per read. The kernel runs
// twice: first with `out` null, writing each read's byte count into `at`; after an
// exclusive scan of those counts, with `out` set, writing each read's lines from `at[i]`.
//
// A read's lines: its primary record (or, with no hit, its unmapped record), then with
// `-a` (`all_hits`) one secondary record for each other hit, in the order given:
//   name FLAG contig POS MAPQ {len}M * 0 0 SEQ QUAL NM:i:0 MD:Z:{len} AS:i:{len}
//   [XS:i:{len}] [XA:Z:...] [RG:Z:...]
// SEQ and QUAL on the primary record only (`*` on secondaries and for empty reads),
// reverse-complemented and reversed on the reverse strand; bases as htslib writes them
// back (`tables[b]`), complements as `tables[256 + b]`, qualities at least 33.

typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned char u8;

#define NONE 0xffffffffu

// One read: where its name, bases and qualities start in `bytes` (the batch's input
// bytes, as the file holds them), their lengths, its hits (`hit_count` from `hit_start`,
// the primary's index among them or NONE) and MAPQ.
struct Read {
    u32 name, seq, qual, name_len, seq_len, qual_len, hit_start, hit_count, primary, mapq;
};

// One hit: contig index, strand (1: reverse) and 0-based position in the contig.
struct Hit {
    u32 contig, reverse, pos_lo, pos_hi;
};

// Where a thread's bytes go: counted only while `out` is null.
struct Sink {
    u8* out;
    u64 n;

    __device__ void put(u8 c) {
        if (out) out[n] = c;
        n++;
    }
    __device__ void text(const char* s) {
        while (*s) put((u8)*s++);
    }
    __device__ void copy(const u8* s, u32 len) {
        if (out)
            for (u32 i = 0; i < len; i++) out[n + i] = s[i];
        n += len;
    }
    __device__ void num(u64 v) {
        u8 digits[20];
        int k = 0;
        do {
            digits[k++] = (u8)('0' + v % 10);
            v /= 10;
        } while (v);
        while (k) put(digits[--k]);
    }
};

// What every record of the run shares.
struct Run {
    const u8* bytes;
    const u8* names;
    const u32* name_offsets;
    const u8* tables;
    const u8* rg;
    u32 rg_len, has_rg, all_hits, max_alt;
};

__device__ void contig_name(Sink& s, const Run& run, u32 contig) {
    const u32 from = run.name_offsets[contig];
    s.copy(run.names + from, run.name_offsets[contig + 1] - from);
}

__device__ u64 hit_pos(const Hit& h) {
    return ((u64)h.pos_hi << 32) | h.pos_lo;
}

// SEQ and QUAL, tab between.
__device__ void bases_and_qualities(Sink& s, const Run& run, const Read& r, bool reverse) {
    const u8* seq = run.bytes + r.seq;
    const u32 len = r.seq_len;
    if (len == 0) {
        s.text("*\t*");
        return;
    }
    if (!s.out) {  // counting: the lengths say it all
        s.n += len + 1 + (r.qual_len == NONE ? 1 : r.qual_len);
        return;
    }
    for (u32 i = 0; i < len; i++)
        s.put(reverse ? run.tables[256 + seq[len - 1 - i]] : run.tables[seq[i]]);
    s.put('\t');
    if (r.qual_len == NONE) {
        s.put('*');
        return;
    }
    const u8* qual = run.bytes + r.qual;
    for (u32 i = 0; i < r.qual_len; i++) {
        const u8 q = reverse ? qual[r.qual_len - 1 - i] : qual[i];
        s.put(q < 33 ? 33 : q);
    }
}

// XA's value: `contig,±pos,{len}M,0;` for the first `max_alt` hits other than the primary.
__device__ void alternatives(Sink& s, const Run& run, const Read& r, const Hit* hits) {
    u32 listed = 0;
    for (u32 j = 0; j < r.hit_count && listed < run.max_alt; j++) {
        if (j == r.primary) continue;
        const Hit h = hits[r.hit_start + j];
        contig_name(s, run, h.contig);
        s.text(h.reverse ? ",-" : ",+");
        s.num(hit_pos(h) + 1);
        s.put(',');
        s.num(r.seq_len);
        s.text("M,0;");
        listed++;
    }
}

__device__ void read_group(Sink& s, const Run& run) {
    if (run.has_rg) {
        s.text("\tRG:Z:");
        s.copy(run.rg, run.rg_len);
    }
    s.put('\n');
}

__device__ void unmapped(Sink& s, const Run& run, const Read& r) {
    s.copy(run.bytes + r.name, r.name_len);
    s.text("\t4\t*\t0\t0\t*\t*\t0\t0\t");
    bases_and_qualities(s, run, r, false);
    read_group(s, run);
}

// The record of hit `j` of read `r`; `rank` 0 is the primary.
__device__ void mapped(Sink& s, const Run& run, const Read& r, const Hit* hits, u32 j, u32 rank) {
    const Hit h = hits[r.hit_start + j];
    s.copy(run.bytes + r.name, r.name_len);
    s.put('\t');
    s.num((h.reverse ? 16 : 0) | (rank > 0 ? 256 : 0));
    s.put('\t');
    contig_name(s, run, h.contig);
    s.put('\t');
    s.num(hit_pos(h) + 1);
    s.put('\t');
    s.num(r.mapq);
    s.put('\t');
    s.num(r.seq_len);
    s.text("M\t*\t0\t0\t");
    if (rank > 0)
        s.text("*\t*");
    else
        bases_and_qualities(s, run, r, h.reverse != 0);
    s.text("\tNM:i:0\tMD:Z:");
    s.num(r.seq_len);
    s.text("\tAS:i:");
    s.num(r.seq_len);
    if (r.hit_count > 1) {
        s.text("\tXS:i:");
        s.num(r.seq_len);
        if (!run.all_hits && rank == 0 && run.max_alt > 0) {
            s.text("\tXA:Z:");
            alternatives(s, run, r, hits);
        }
    }
    read_group(s, run);
}

extern "C" __global__ void sam_records(const Read* __restrict__ reads, u32 n, const Hit* __restrict__ hits,
                                       const u8* __restrict__ bytes, const u8* __restrict__ names,
                                       const u32* __restrict__ name_offsets, const u8* __restrict__ tables,
                                       const u8* __restrict__ rg, u32 rg_len, u32 has_rg, u32 all_hits,
                                       u32 max_alt, u32* __restrict__ at, u8* __restrict__ out) {
    const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const Run run = {bytes, names, name_offsets, tables, rg, rg_len, has_rg, all_hits, max_alt};
    const Read r = reads[i];
    Sink s = {out ? out + at[i] : 0, 0};
    if (r.primary == NONE) {
        unmapped(s, run, r);
    } else {
        mapped(s, run, r, hits, r.primary, 0);
        if (all_hits) {
            u32 rank = 1;
            for (u32 j = 0; j < r.hit_count; j++)
                if (j != r.primary) mapped(s, run, r, hits, j, rank++);
        }
    }
    if (!out) at[i] = (u32)s.n;
}
