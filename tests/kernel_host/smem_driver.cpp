// Runs kernels/seed/smem.cu's kernels on the CPU (tests/kernel_on_host.rs) as the host
// runs them on the GPU (src/gpu/seed.rs): smem_reads, the exclusive scans of each read's
// kept slots and listed rows (the device's scan primitive's job, done here in a loop),
// smem_compact, then locate_rows over the compacted rows. Reads the index and the reads
// from the file named first; writes to the file named second each read's count, slot
// start and row start (u32), the Occ lookups of smem_reads, the slots kept and the rows
// listed (u64), then the compacted slots and the located rows (u64; all little-endian).
#include <cstdint>
static unsigned long long occ_lookups;
#define SMEM_COUNT_OCC(row) (++occ_lookups)
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

// The exclusive scan of `in` into `out`; returns the total.
static u64 exclusive_scan(const std::vector<u32>& in, std::vector<u32>& out) {
    u64 total = 0;
    out.resize(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        out[i] = (u32)total;
        total += in[i];
    }
    return total;
}

static std::vector<u64> occ, l2, positions, offsets, slots, compact, rows;
static std::vector<u8> bases;
static std::vector<u32> counts, used, listed, slot_start, row_start;
static u64 primary, interval, nreads, max_intv, max_hits;
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
    max_hits = word(in);
    fclose(in);
    counts.assign(nreads, 0);
    used.assign(nreads, 0);
    listed.assign(nreads, 0);
    slots.assign(nreads * SMEM_SLOTS * 4, 0);
    launch_all(nreads, [](u64) {
        smem_reads((const Occ*)occ.data(), l2.data(), primary, bases.data(), offsets.data(), (u32)nreads,
                   min_intv, max_intv, min_len, max_hits, slots.data(), counts.data(), used.data(),
                   listed.data());
    });
    const u64 lookups = occ_lookups;
    const u64 total_slots = exclusive_scan(used, slot_start);
    const u64 total_rows = exclusive_scan(listed, row_start);
    compact.assign(total_slots * 4, 0);
    rows.assign(total_rows, 0);
    launch_all(nreads, [](u64) {
        smem_compact(slots.data(), counts.data(), slot_start.data(), row_start.data(), (u32)nreads, max_hits,
                     compact.data(), rows.data());
    });
    launch_all(rows.size(), [](u64) {
        locate_rows((const Occ*)occ.data(), l2.data(), primary, positions.data(), interval, rows.data(),
                    rows.size());
    });
    FILE* out = fopen(argv[2], "wb");
    if (!out) { perror(argv[2]); return 2; }
    fwrite(counts.data(), 4, counts.size(), out);
    fwrite(slot_start.data(), 4, slot_start.size(), out);
    fwrite(row_start.data(), 4, row_start.size(), out);
    const u64 sizes[3] = {lookups, total_slots, total_rows};
    fwrite(sizes, 8, 3, out);
    fwrite(compact.data(), 8, compact.size(), out);
    fwrite(rows.data(), 8, rows.size(), out);
    return fclose(out) == 0 ? 0 : 2;
}
