// Runs kernels/seed/smem.cu's kernels on the CPU (tests/kernel_on_host.rs): reads the
// index, the reads and the rows from the file named first, writes each read's count and
// slots, then the located rows, to the file named second (all little-endian u64 words
// but the counts, u32).
#include "shim.h"
#include "seed/smem.cu"

#include <cstdio>
#include <cstdlib>
#include <vector>

static std::vector<u64> words(FILE* f, u64 n) {
    std::vector<u64> v(n);
    if (n && fread(v.data(), 8, n, f) != n) { perror("read"); exit(2); }
    return v;
}

static u64 word(FILE* f) { return words(f, 1)[0]; }

static void launch_all(u64 n, void (*one)(u64)) {
    blockDim.x = 256;
    for (u64 t = 0; t < n; ++t) {
        blockIdx.x = (unsigned)(t / 256);
        threadIdx.x = (unsigned)(t % 256);
        one(t);
    }
}

static std::vector<u64> occ, l2, positions, offsets, slots, rows;
static std::vector<u8> bases;
static std::vector<u32> counts;
static u64 primary, interval, nreads, max_intv;
static u32 min_intv, min_len;

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    FILE* in = fopen(argv[1], "rb");
    if (!in) { perror(argv[1]); return 2; }
    occ = words(in, word(in));
    l2 = words(in, 5);
    primary = word(in);
    interval = word(in);
    positions = words(in, word(in));
    nreads = word(in);
    offsets = words(in, nreads + 1);
    bases.resize(offsets[nreads]);
    if (bases.size() && fread(bases.data(), 1, bases.size(), in) != bases.size()) return 2;
    min_intv = (u32)word(in);
    max_intv = word(in);
    min_len = (u32)word(in);
    rows = words(in, word(in));
    fclose(in);
    counts.assign(nreads, 0);
    slots.assign(nreads * SMEM_SLOTS * 4, 0);
    launch_all(nreads, [](u64) {
        smem_reads((const Occ*)occ.data(), l2.data(), primary, bases.data(), offsets.data(), (u32)nreads,
                   min_intv, max_intv, min_len, slots.data(), counts.data());
    });
    launch_all(rows.size(), [](u64) {
        locate_rows((const Occ*)occ.data(), l2.data(), primary, positions.data(), interval, rows.data(),
                    rows.size());
    });
    FILE* out = fopen(argv[2], "wb");
    if (!out) { perror(argv[2]); return 2; }
    fwrite(counts.data(), 4, counts.size(), out);
    fwrite(slots.data(), 8, slots.size(), out);
    fwrite(rows.data(), 8, rows.size(), out);
    return fclose(out) == 0 ? 0 : 2;
}
