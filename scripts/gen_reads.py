#!/usr/bin/env python3
"""Deterministic reads for map throughput checks: exact substrings of a reference.

usage: gen_reads.py REF.fa[.gz] OUT.fq COUNT [LENGTH] [--paired OUT2.fq]

Reads are LENGTH-base windows (default 150) at seeded random positions of the
concatenated contigs, upper-cased, none over an N or a contig boundary, half of them
reverse-complemented; qualities are all 'I'. With --paired, mate 2 is the reverse
complement of the window ending 200-500 bases after mate 1's start, or the
other way round (FR pairs, inserts 200-500). The
output depends only on the arguments.
"""
import gzip
import sys

import numpy as np


def read_contigs(path):
    opener = gzip.open if path.endswith(".gz") else open
    contigs, cur = [], []
    with opener(path, "rb") as f:
        for line in f:
            if line.startswith(b">"):
                if cur:
                    contigs.append(b"".join(cur))
                cur = []
            else:
                cur.append(line.strip())
    if cur:
        contigs.append(b"".join(cur))
    return contigs


def main():
    args = sys.argv[1:]
    mate2 = None
    if "--paired" in args:
        i = args.index("--paired")
        mate2 = args[i + 1]
        del args[i : i + 2]
    ref, out, count = args[0], args[1], int(args[2])
    length = int(args[3]) if len(args) > 3 else 150
    contigs = read_contigs(ref)
    text = np.frombuffer(b"|".join(contigs).upper(), dtype=np.uint8)
    # Bad[i]: text[i] is not A, C, G or T (N, IUPAC, contig separator).
    good = np.zeros(256, dtype=bool)
    good[list(b"ACGT")] = True
    bad = np.concatenate([[0], np.cumsum(~good[text])])
    span = length + (500 if mate2 else 0)
    rng = np.random.default_rng(20240601)
    starts = np.empty(0, dtype=np.int64)
    while len(starts) < count:
        s = rng.integers(0, len(text) - span, size=2 * (count - len(starts)) + 1000)
        s = s[bad[s + span] == bad[s]]
        starts = np.concatenate([starts, s])[:count]
    comp = np.arange(256, dtype=np.uint8)
    for a, b in (b"AT", b"CG", b"GC", b"TA"):
        comp[a] = b

    def windows(at):
        return text[at[:, None] + np.arange(length)[None, :]]

    def write(path, seqs, reverse):
        seqs = seqs.copy()
        seqs[reverse] = comp[seqs[reverse][:, ::-1]]
        n = len(seqs)
        h = 12  # "@r" + 9 digits + newline
        names = np.array([b"@r%09d\n" % i for i in range(n)], dtype="S12")
        rec = np.empty((n, h + length + 3 + length + 1), dtype=np.uint8)
        rec[:, :h] = np.frombuffer(names.tobytes(), dtype=np.uint8).reshape(n, h)
        rec[:, h : h + length] = seqs
        rec[:, h + length : h + 3 + length] = np.frombuffer(b"\n+\n", dtype=np.uint8)
        rec[:, h + 3 + length : h + 3 + 2 * length] = ord("I")
        rec[:, -1] = ord("\n")
        with open(path, "wb") as f:
            for i in range(0, n, 1 << 20):
                f.write(rec[i : i + (1 << 20)].tobytes())

    flip = rng.random(count) < 0.5
    if not mate2:
        write(out, windows(starts), flip)
        return
    # The forward mate is the leftmost: mate 1 forward at the start, or mate 2.
    other = starts + rng.integers(200, 501, size=count) - length
    write(out, windows(np.where(flip, other, starts)), flip)
    write(mate2, windows(np.where(flip, starts, other)), ~flip)


if __name__ == "__main__":
    main()
