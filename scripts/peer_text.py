#!/usr/bin/env python3
"""Makes one text that galign and a peer suffix sorter both sort, from a FASTA file.

usage: peer_text.py FASTA[.gz] OUTDIR
Writes OUTDIR/NAME.fa (the same records, upper case, every byte other than A/C/G/T
replaced by a pseudo-random base, seed 11) and OUTDIR/NAME.txt (the records' bases
concatenated, no header, no newline: libcubwt's and libsais's input), and prints both
paths. galign concatenates the records of NAME.fa without separators, so both tools sort
the same bases. (Replacing N by one letter instead would hand the peer a long run of it
-- chr20's centromere is 3.1 Mbp of N -- that galign, which replaces N by pseudo-random
bases itself, never sees.) numpy only.
"""
import gzip
import os
import sys

import numpy as np

from gen_inputs import ACGT, write_fasta

UPPER = bytes.maketrans(b"acgt", b"ACGT")


def records(path):
    """(name, bases as bytes) of every record of the FASTA file."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    for chunk in data.lstrip(b">").split(b"\n>"):
        header, _, body = chunk.partition(b"\n")
        yield header.split()[0].decode(), body.translate(UPPER, b"\n\r")


def clean(bases, rng):
    """The bases with every byte other than A/C/G/T made a pseudo-random base."""
    seq = np.frombuffer(bases, dtype=np.uint8).copy()
    odd = ~np.isin(seq, ACGT)
    seq[odd] = ACGT[rng.integers(0, 4, int(odd.sum()), dtype=np.uint8)]
    return seq


def main():
    fasta, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    name = os.path.basename(fasta).removesuffix(".gz").removesuffix(".fa")
    rng = np.random.default_rng(11)
    contigs = [(n, clean(b, rng)) for n, b in records(fasta)]
    fa = write_fasta(os.path.join(outdir, name + ".fa"), contigs)
    txt = os.path.join(outdir, name + ".txt")
    with open(txt, "wb") as f:
        for _, seq in contigs:
            f.write(seq.tobytes())
    print(fa)
    print(txt)


if __name__ == "__main__":
    main()
