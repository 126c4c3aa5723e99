#!/usr/bin/env python3
"""N copies of the reads of a gzip FASTQ, names made unique per copy (`NAME_c`).

usage: copy_reads.py READS.fq.gz N OUT.fq

Real read sets are small; their copies make a benchmark long enough to time while
keeping the reads' real hit counts. The output depends only on the arguments.
"""
import gzip
import sys


def main():
    src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    lines = gzip.open(src, "rb").read().split(b"\n")
    recs = [lines[i:i + 4] for i in range(0, len(lines) - 3, 4)]
    with open(out, "wb") as f:
        for c in range(n):
            f.write(b"".join(r[0].split()[0] + b"_%d\n" % c + r[1] + b"\n+\n" + r[3] + b"\n" for r in recs))


if __name__ == "__main__":
    main()
