#!/usr/bin/env python3
"""Writes galign's GPU check inputs (deterministic FASTA files) into a directory.

usage: gen_inputs.py OUTDIR [--big]   (--big adds random 256 Mbp)
       gen_inputs.py OUTDIR --real FASTA.gz COPIES [COPIES ...]
         genome-scale inputs from a real chromosome: COPIES concatenated copies as
         separate contigs, each copy after the first with 1% of bases substituted
         (N runs and soft-masking kept), e.g. chr20 x3 = 189 Mbp, x32 = 2.0 Gbp.
       gen_inputs.py OUTDIR --random BASES   (one contig of uniform random DNA)
       gen_inputs.py OUTDIR --plus-random FASTA.gz BASES
         the real chromosome, then BASES of uniform random DNA as further contigs of at
         most 1 Gbp: a human-scale index whose reads of the chromosome keep their real
         hit counts (chr20 + 3e9 = 3.06 Gbp).
       gen_inputs.py OUTDIR --periodic UNIT BASES
         one contig of UNIT (e.g. A, AC) repeated to BASES: the worst cases of prefix
         doubling (all-A, period 2).
       gen_inputs.py OUTDIR --orient FASTA.gz
         the chromosome forward, reversed, complemented and reverse-complemented, as
         four contigs (chr20: 252 Mbp of real-looking DNA without long exact copies).
Prints one path per line. numpy only.
"""
import os
import sys

import numpy as np

ACGT = np.frombuffer(b"ACGT", dtype=np.uint8)


def write_fasta(path, contigs, width=60, mode="wb"):
    with open(path, mode) as f:
        for name, seq in contigs:
            f.write(b">" + name.encode() + b"\n")
            full = len(seq) // width * width
            if full:
                rows = seq[:full].reshape(-1, width)
                block = np.hstack([rows, np.full((rows.shape[0], 1), ord("\n"), np.uint8)])
                f.write(block.tobytes())
            if len(seq) > full:
                f.write(seq[full:].tobytes() + b"\n")
    return path


def random_dna(rng, n):
    return ACGT[rng.integers(0, 4, n, dtype=np.uint8)]


def tandem(rng, n):
    """Tandem repeats: random units (10 b to 10 kb) repeated 2-50 times, 1% mutated."""
    parts, total = [], 0
    while total < n:
        unit = random_dna(rng, int(rng.integers(10, 10_000)))
        rep = np.tile(unit, int(rng.integers(2, 50)))
        mut = rng.random(len(rep)) < 0.01
        rep[mut] = random_dna(rng, int(mut.sum()))
        parts.append(rep)
        total += len(rep)
    return np.concatenate(parts)[:n]


def n_rich(rng):
    """20 contigs with N runs, IUPAC codes and soft-masked stretches."""
    contigs = []
    for c in range(20):
        seq = random_dna(rng, int(rng.integers(100_000, 1_000_000)))
        for _ in range(int(rng.integers(1, 20))):
            s = int(rng.integers(0, len(seq)))
            seq[s : s + int(rng.integers(1, 50_000))] = ord("N")
        iupac = np.frombuffer(b"RYKMSWBDHVN", dtype=np.uint8)
        where = rng.integers(0, len(seq), 200)
        seq[where] = iupac[rng.integers(0, len(iupac), 200)]
        s = int(rng.integers(0, len(seq)))
        seq[s : s + 20_000] = np.char.lower(seq[s : s + 20_000].view("S1")).view(np.uint8)
        contigs.append((f"ctg{c}", seq))
    return contigs


def read_fasta_gz(path):
    import gzip

    contigs, name, parts = [], None, []
    with gzip.open(path, "rb") as f:
        for line in f:
            if line.startswith(b">"):
                if name is not None:
                    contigs.append((name, np.frombuffer(b"".join(parts), np.uint8).copy()))
                name, parts = line[1:].split()[0].decode(), []
            else:
                parts.append(line.rstrip())
    contigs.append((name, np.frombuffer(b"".join(parts), np.uint8).copy()))
    return contigs


def real_copies(out, path, copies):
    rng = np.random.default_rng(7)
    source = read_fasta_gz(path)
    # Positions that may mutate: not N (either case; bit 5 is the case bit).
    mutable = [(seq & 0xDF) != ord("N") for _, seq in source]
    paths = []
    for count in copies:
        target = f"{out}/real_x{count}.fa"
        open(target, "wb").close()
        for c in range(count):
            contigs = []
            for (name, seq), ok in zip(source, mutable):
                seq = seq.copy()
                if c:
                    where = np.flatnonzero(ok)
                    pick = where[rng.random(len(where)) < 0.01]
                    seq[pick] = random_dna(rng, len(pick))
                contigs.append((f"{name}_copy{c}", seq))
            write_fasta(target, contigs, mode="ab")
        paths.append(target)
    return paths


def orientations(out, path):
    """The chromosome forward, reversed, complemented and reverse-complemented: four
    times its length of real-looking DNA without the long exact repeats of copies."""
    table = np.arange(256, dtype=np.uint8)
    for x, y in ((b"A", b"T"), (b"C", b"G"), (b"a", b"t"), (b"c", b"g")):
        table[x[0]], table[y[0]] = y[0], x[0]
    contigs = []
    for name, seq in read_fasta_gz(path):
        comp = table[seq]
        contigs += [(f"{name}_fwd", seq), (f"{name}_rev", seq[::-1].copy()),
                    (f"{name}_comp", comp), (f"{name}_revcomp", comp[::-1].copy())]
    return write_fasta(f"{out}/real_orient4.fa", contigs)


def append_random_contig(path, name, bases, rng):
    """Appends one contig of `bases` uniform random bases to `path`, written in pieces."""
    with open(path, "ab") as f:
        f.write(b">" + name.encode() + b"\n")
    piece = 60 << 20
    for start in range(0, bases, piece):
        with open(path, "ab") as f:
            seq = random_dna(rng, min(piece, bases - start))
            rows = seq.reshape(-1, 60) if len(seq) % 60 == 0 else None
            if rows is None:
                f.write(b"\n".join(seq[i : i + 60].tobytes() for i in range(0, len(seq), 60)) + b"\n")
            else:
                f.write(np.hstack([rows, np.full((len(rows), 1), ord("\n"), np.uint8)]).tobytes())


def random_genome(out, bases):
    """`bases` of uniform random DNA in one contig."""
    path = f"{out}/random_{bases}.fa"
    open(path, "wb").close()
    append_random_contig(path, "random", bases, np.random.default_rng(31))
    return path


def plus_random(out, fasta, bases):
    """The contigs of `fasta`, then `bases` of random DNA in contigs of at most 1 Gbp."""
    rng = np.random.default_rng(37)
    path = f"{out}/{os.path.basename(fasta).split('.')[0]}_plus_random_{bases}.fa"
    write_fasta(path, read_fasta_gz(fasta))
    for i, start in enumerate(range(0, bases, 10**9)):
        append_random_contig(path, f"random{i + 1}", min(10**9, bases - start), rng)
    return path


def periodic(out, unit, bases):
    """`unit` repeated to `bases` bases in one contig."""
    reps = -(-bases // len(unit))
    seq = np.tile(np.frombuffer(unit.encode(), np.uint8), reps)[:bases]
    return write_fasta(f"{out}/period_{unit}_{bases}.fa", [("p", seq)])


def main():
    out = sys.argv[1]
    if "--periodic" in sys.argv:
        i = sys.argv.index("--periodic")
        os.makedirs(out, exist_ok=True)
        print(periodic(out, sys.argv[i + 1], int(sys.argv[i + 2])))
        return
    if "--random" in sys.argv:
        os.makedirs(out, exist_ok=True)
        print(random_genome(out, int(sys.argv[sys.argv.index("--random") + 1])))
        return
    if "--plus-random" in sys.argv:
        i = sys.argv.index("--plus-random")
        os.makedirs(out, exist_ok=True)
        print(plus_random(out, sys.argv[i + 1], int(sys.argv[i + 2])))
        return
    if "--orient" in sys.argv:
        os.makedirs(out, exist_ok=True)
        print(orientations(out, sys.argv[sys.argv.index("--orient") + 1]))
        return
    if "--real" in sys.argv:
        i = sys.argv.index("--real")
        os.makedirs(out, exist_ok=True)
        print("\n".join(real_copies(out, sys.argv[i + 1], [int(c) for c in sys.argv[i + 2 :]])))
        return
    big = "--big" in sys.argv
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20240601)
    paths = [
        write_fasta(f"{out}/random_1M.fa", [("r", random_dna(rng, 1 << 20))]),
        write_fasta(f"{out}/random_64M.fa", [("r", random_dna(rng, 64 << 20))]),
    ]
    if big:
        paths.append(write_fasta(f"{out}/random_256M.fa", [("r", random_dna(rng, 256 << 20))]))
    paths += [
        write_fasta(f"{out}/allA_1M.fa", [("a", np.full(1 << 20, ord("A"), np.uint8))]),
        write_fasta(f"{out}/period2_4M.fa", [("p2", np.tile(np.frombuffer(b"AC", np.uint8), 2 << 20))]),
        write_fasta(f"{out}/period7_4M.fa", [("p7", np.tile(np.frombuffer(b"ACGTTGC", np.uint8), 600_000))]),
        write_fasta(f"{out}/tandem_16M.fa", [("t", tandem(rng, 16 << 20))]),
        write_fasta(f"{out}/nrich_multi.fa", n_rich(rng)),
    ]
    print("\n".join(paths))


if __name__ == "__main__":
    main()
