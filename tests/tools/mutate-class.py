#!/usr/bin/env python3
"""mutate-class.py CLASS DIR SEED N NAME: mutants of class file CLASS in
DIR (M000.class, ...) and, on stdout, the arguments of lt.Define for
them: NAME and the file, one a line. First the targeted ones, each a
method's code as HotSpot's verifier refuses it: max_stack one less,
max_locals one less (where the code needs them all), and a
StackMapTable whose first frame is one byte further on. Then N random
ones, each with one to three bytes changed (seeded: the same mutants
every run); bytes inside code arrays are left alone (a changed branch
could loop for ever, in the plain run too), and in one case out of
seven the byte is one of a method's max_stack or max_locals."""
import os
import random
import struct
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "verify"))
from corrupt import parse_cp  # noqa: E402  (the constant pool walk)


def scan(b):
    """The code arrays (start, end), the offsets of each Code's max_stack
    and max_locals, and of each StackMapTable's first frame."""
    pool, p = parse_cp(b)
    utf = {i: e[1] for i, e in enumerate(pool) if e}
    p += 6
    p += 2 + 2 * struct.unpack_from('>H', b, p)[0]
    codes, heads, frames = [], [], []
    for kind in range(2):
        count = struct.unpack_from('>H', b, p)[0]
        p += 2
        for _ in range(count):
            p += 6
            na = struct.unpack_from('>H', b, p)[0]
            p += 2
            for _ in range(na):
                name, ln = struct.unpack_from('>HI', b, p)
                if kind == 1 and utf.get(name) == 'Code':
                    heads.append(p + 6)
                    cl = struct.unpack_from('>I', b, p + 10)[0]
                    codes.append((p + 14, p + 14 + cl))
                    q = p + 14 + cl
                    q += 2 + 8 * struct.unpack_from('>H', b, q)[0]
                    nsub = struct.unpack_from('>H', b, q)[0]
                    q += 2
                    for _ in range(nsub):
                        sn, sl = struct.unpack_from('>HI', b, q)
                        if utf.get(sn) == 'StackMapTable' and sl > 2:
                            frames.append(q + 8)
                        q += 6 + sl
                p += 6 + ln
    return codes, heads, frames


def main():
    path, out, seed, count, name = sys.argv[1:6]
    src = open(path, 'rb').read()
    codes, heads, frames = scan(src)
    os.makedirs(out, exist_ok=True)
    mutants = []
    for h in heads:
        for at in (h, h + 2):          # max_stack, max_locals
            v = struct.unpack_from('>H', src, at)[0]
            if v:
                b = bytearray(src)
                struct.pack_into('>H', b, at, v - 1)
                mutants.append(b)
    for f in frames:
        b = bytearray(src)
        t = b[f]
        if t < 63 or 64 <= t < 127:
            b[f] = t + 1
        elif t >= 247:
            struct.pack_into('>H', b, f + 1,
                             struct.unpack_from('>H', b, f + 1)[0] + 1)
        else:
            continue
        mutants.append(b)
    outside = [q for q in range(10, len(src))
               if not any(a <= q < e for a, e in codes)]
    r = random.Random(int(seed))
    for _ in range(int(count)):
        b = bytearray(src)
        for _ in range(r.randint(1, 3)):
            q = r.choice(heads) + r.randrange(4) if r.random() < 1 / 7 \
                else r.choice(outside)
            b[q] = r.randrange(256)
        mutants.append(b)
    args = []
    for k, b in enumerate(mutants):
        f = '%s/M%03d.class' % (out, k)
        open(f, 'wb').write(b)
        args += [name, f]
    print('\n'.join(args))


main()
