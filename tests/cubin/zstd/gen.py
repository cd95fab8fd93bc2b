#!/usr/bin/env python3
"""gen.py KIND SIZE -- write the test input KIND-SIZE to stdout; mirrors
gen() in tests/unit/test_zstd.c (same LCG, same rules)."""
import sys

WORDS = ("the a of to in is that for it as with was on be by this are or from at "
         "kernel warp thread block shared register barrier predicate load store "
         "fatbin cubin").split()


class Lcg:
    def __init__(self, seed):
        self.x = seed

    def next(self):  # 15 bits
        self.x = (self.x * 1103515245 + 12345) & 0xFFFFFFFF
        return self.x >> 16 & 0x7FFF


def gen(kind, n):
    r = Lcg(n + len(kind))
    out = bytearray()
    if kind == "rand":
        while len(out) < n:
            out.append(r.next() & 255)
    elif kind.startswith("alpha"):  # alphaK: K distinct letters, no structure
        k = int(kind[5:])
        while len(out) < n:
            out.append(97 + r.next() % k)
    elif kind == "text":  # skewed words, lines
        while len(out) < n:
            i = min(r.next() % len(WORDS), r.next() % len(WORDS))
            out += WORDS[i].encode()
            out.append(10 if r.next() % 12 == 0 else 32)
    elif kind == "rep":  # a short pattern, now and then a random byte
        pat = b"abcabcabd\n"
        while len(out) < n:
            out += pat
            if r.next() % 64 == 0:
                out.append(r.next() & 255)
    elif kind == "runs":  # runs of one letter between random bytes
        while len(out) < n:
            out += b"a" * (r.next() % 40)
            out.append(r.next() & 255)
    elif kind.startswith("rec"):  # recK: a random byte, then K-1 fixed ones
        k = int(kind[3:])
        while len(out) < n:
            out.append(r.next() & 255)
            out += b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:k - 1]
    elif kind.startswith("skew"):  # skewK: bytes 0..K-1, low ones likelier
        k = int(kind[4:])
        while len(out) < n:
            out.append(min(r.next() % k, r.next() % k, r.next() % k))
    elif kind == "zeros":
        out = bytearray(n)
    else:
        sys.exit("unknown kind " + kind)
    return bytes(out[:n])


if __name__ == "__main__":
    sys.stdout.buffer.write(gen(sys.argv[1], int(sys.argv[2])))
