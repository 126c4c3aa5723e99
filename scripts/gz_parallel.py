#!/usr/bin/env python3
"""Compresses a file on all cores, for map throughput checks on hosts without pigz/bgzip.

usage: gz_parallel.py IN OUT (--bgzf | --gzip) [LEVEL]

--bgzf writes BGZF (what `bgzip` writes: gzip members of at most 64 KiB input, each with
the 'BC' extra field giving its size, then the empty EOF member); readers that know BGZF
can inflate its blocks in parallel. --gzip writes plain gzip as a series of members of
16 MiB input each (valid gzip that `gzip -d` reads; no BGZF field, so it has to be
inflated front to back). LEVEL defaults to 6 (gzip's and bgzip's default).
"""
import multiprocessing
import struct
import sys
import zlib

BGZF_BLOCK = 0xFF00  # input bytes per BGZF block, as bgzip
GZIP_MEMBER = 16 << 20
EOF_BLOCK = bytes.fromhex("1f8b08040000000000ff0600424302001b0003000000000000000000")


def bgzf_block(args):
    data, level = args
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    body = c.compress(data) + c.flush()
    header = struct.pack("<BBBBIBBHBBHH", 31, 139, 8, 4, 0, 0, 255, 6, 66, 67, 2, len(body) + 25)
    return header + body + struct.pack("<II", zlib.crc32(data), len(data))


def gzip_member(args):
    data, level = args
    c = zlib.compressobj(level, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()


def chunks(path, size, level):
    with open(path, "rb") as f:
        while True:
            data = f.read(size)
            if not data:
                return
            yield data, level


def main():
    src, dst, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    level = int(sys.argv[4]) if len(sys.argv) > 4 else 6
    bgzf = mode == "--bgzf"
    work, size = (bgzf_block, BGZF_BLOCK) if bgzf else (gzip_member, GZIP_MEMBER)
    with multiprocessing.Pool() as pool, open(dst, "wb") as out:
        for piece in pool.imap(work, chunks(src, size, level), chunksize=64 if bgzf else 1):
            out.write(piece)
        if bgzf:
            out.write(EOF_BLOCK)


if __name__ == "__main__":
    main()
