#!/usr/bin/env python3
"""Break one class file so that only the bytecode verifier can notice.

usage: corrupt.py MODE IN.class OUT.class
       corrupt.py MODE --jar IN.jar ENTRY OUT.jar   (copy the jar, entry replaced)

MODE
  smt   rename the StackMapTable attribute (same length, so no other byte
        moves): the attribute becomes unknown and is ignored, and every method
        with a branch lacks its frames ("Expected stackmap frame ...").
        Needs a class with a StackMapTable.
  code  in the first constructor that starts with aload_0, replace it with
        iconst_0: the following use of 'this' sees an int ("Bad type on
        operand stack"). No frame changes; caught by both verifiers.
  v50   not a corruption: relabel the class as major version 50 (for a
        class compiled for 51 that uses nothing newer than 50).
The class stays well-formed: the format checker accepts it.
"""
import struct
import sys
import zipfile


def parse_cp(b):
    """Returns (list of Utf8 strings by index or None, offset after the pool)."""
    n = struct.unpack_from(">H", b, 8)[0]
    utf8 = [None] * n
    off, i = 10, 1
    while i < n:
        tag = b[off]
        if tag == 1:
            ln = struct.unpack_from(">H", b, off + 1)[0]
            utf8[i] = (off, b[off + 3:off + 3 + ln].decode("utf-8", "replace"))
            off += 3 + ln
        elif tag in (3, 4, 9, 10, 11, 12, 17, 18):
            off += 5
        elif tag in (5, 6):
            off += 9
            i += 1
        elif tag in (7, 8, 16, 19, 20):
            off += 3
        elif tag == 15:
            off += 4
        else:
            raise ValueError("bad constant pool tag %d at %d" % (tag, off))
        i += 1
    return utf8, off


def name(utf8, idx):
    e = utf8[idx] if 0 < idx < len(utf8) else None
    return e[1] if e else None


def smt(b):
    utf8, _ = parse_cp(b)
    for e in utf8:
        if e and e[1] == "StackMapTable":
            off = e[0] + 3 + len("StackMapTabl")
            b[off] = ord("X")
            return "renamed StackMapTable to StackMapTablX"
    raise SystemExit("corrupt.py: no StackMapTable in this class")


def skip_attrs(b, off):
    n = struct.unpack_from(">H", b, off)[0]
    off += 2
    for _ in range(n):
        off += 6 + struct.unpack_from(">I", b, off + 2)[0]
    return off


def code(b):
    utf8, off = parse_cp(b)
    off += 6                                    # access, this, super
    off += 2 + 2 * struct.unpack_from(">H", b, off)[0]   # interfaces
    nf = struct.unpack_from(">H", b, off)[0]
    off += 2
    for _ in range(nf):
        off = skip_attrs(b, off + 6)
    nm = struct.unpack_from(">H", b, off)[0]
    off += 2
    for _ in range(nm):
        mname = name(utf8, struct.unpack_from(">H", b, off + 2)[0])
        na = struct.unpack_from(">H", b, off + 6)[0]
        a = off + 8
        for _ in range(na):
            aname = name(utf8, struct.unpack_from(">H", b, a)[0])
            alen = struct.unpack_from(">I", b, a + 2)[0]
            if aname == "Code" and mname == "<init>":
                code_start = a + 6 + 2 + 2 + 4  # max_stack, max_locals, code_length
                if b[code_start] == 0x2A:
                    b[code_start] = 0x03
                    return "aload_0 -> iconst_0 at the start of <init>"
            a += 6 + alen
        off = a
    raise SystemExit("corrupt.py: no constructor starting with aload_0")


def v50(b):
    b[6], b[7] = 0, 50
    return "major version set to 50"


def corrupt(mode, data):
    b = bytearray(data)
    if b[:4] != b"\xca\xfe\xba\xbe":
        raise SystemExit("corrupt.py: not a class file")
    what = {"smt": smt, "code": code, "v50": v50}[mode](b)
    return bytes(b), what


def main(argv):
    if len(argv) == 4:
        mode, src, dst = argv[1:]
        with open(src, "rb") as f:
            out, what = corrupt(mode, f.read())
        with open(dst, "wb") as f:
            f.write(out)
    elif len(argv) == 6 and argv[2] == "--jar":
        mode, _, src, entry, dst = argv[1:]
        with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
            what = None
            for info in zin.infolist():
                data = zin.read(info)
                if info.filename == entry:
                    data, what = corrupt(mode, data)
                zout.writestr(info, data)
            if what is None:
                raise SystemExit("corrupt.py: no entry %s in %s" % (entry, src))
    else:
        raise SystemExit(__doc__)
    print("%s: %s" % (argv[-1], what))


if __name__ == "__main__":
    main(sys.argv)
