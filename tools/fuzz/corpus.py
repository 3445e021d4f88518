#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A fuzzer's corpus as one file (tools/fuzz/corpus/NAME.corpus) instead of hundreds:
each input as a 4-byte little-endian length and its bytes, in name order.
  corpus.py pack DIR FILE      the files of DIR into FILE
  corpus.py unpack FILE DIR    FILE's inputs into DIR (named by their SHA-1, as libFuzzer does)
Standard library only."""
import hashlib
import os
import struct
import sys


def pack(src, dst):
    names = sorted(n for n in os.listdir(src) if os.path.isfile(os.path.join(src, n)))
    with open(dst, "wb") as out:
        for n in names:
            with open(os.path.join(src, n), "rb") as f:
                data = f.read()
            out.write(struct.pack("<I", len(data)))
            out.write(data)
    print(f"{dst}: {len(names)} inputs")


def unpack(src, dst):
    os.makedirs(dst, exist_ok=True)
    with open(src, "rb") as f:
        blob = f.read()
    at = count = 0
    while at < len(blob):
        (n,) = struct.unpack_from("<I", blob, at)
        data = blob[at + 4 : at + 4 + n]
        if len(data) != n:
            sys.exit(f"{src}: truncated at byte {at}")
        with open(os.path.join(dst, hashlib.sha1(data).hexdigest()), "wb") as out:
            out.write(data)
        at += 4 + n
        count += 1
    print(f"{dst}: {count} inputs")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("pack", "unpack"):
        sys.exit(__doc__)
    (pack if sys.argv[1] == "pack" else unpack)(sys.argv[2], sys.argv[3])
