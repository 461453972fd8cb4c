"""hostile.py -- building blocks of the hostile-input campaign: a class-file
walker that finds the fields worth corrupting, class mutators, a zip writer
with full control over every header field, zip mutators, a jimage
(lib/modules) writer and jimage mutators. Used by campaign.py and by
tests/fuzz/mkcorpus.py. Pure Python 3, no dependencies.
"""
import struct
import zlib

# ---------------------------------------------------------------- classes

UTF8, INTEGER, FLOAT, LONG, DOUBLE, CLASS, STRING = 1, 3, 4, 5, 6, 7, 8
FIELDREF, METHODREF, IMETHODREF, NAT = 9, 10, 11, 12
MHANDLE, MTYPE, DYNAMIC, INDY, MODULE, PACKAGE = 15, 16, 17, 18, 19, 20
ANY = 0     # a loadable constant of any kind


class ClassInfo:
    """Where things are in one class file (all offsets absolute)."""

    def __init__(self):
        self.cp_count = 0
        self.tags = {}          # cp index -> tag
        self.cp_off = {}        # cp index -> offset of its tag byte
        self.cp_end = 0         # offset just after the pool
        self.refs = []          # (offset, wanted tag) u2 pool indices
        self.utf8 = []          # (offset of bytes, length)
        self.lens = []          # (offset, size, what) length/count fields
        self.attrs = []         # (start, name, body_start, body_end)
        self.bounds = [0, 4, 8, 10]   # record starts: good truncation points
        self.code = []          # (Code body offset, code_length, offset of
                                #  exception_table_length)


def u2(b, o):
    return struct.unpack_from('>H', b, o)[0]


def u4(b, o):
    return struct.unpack_from('>I', b, o)[0]


class Walk:
    def __init__(self, b):
        self.b = b
        self.i = ClassInfo()
        self.names = {}

    def ref(self, off, tag):
        self.i.refs.append((off, tag))

    def pool(self):
        b, i = self.b, self.i
        i.cp_count = u2(b, 8)
        i.lens.append((8, 2, 'constant_pool_count'))
        k, off = 1, 10
        while k < i.cp_count:
            tag = b[off]
            i.tags[k], i.cp_off[k] = tag, off
            i.bounds.append(off)
            if tag == UTF8:
                n = u2(b, off + 1)
                i.lens.append((off + 1, 2, 'Utf8 length'))
                i.utf8.append((off + 3, n))
                self.names[k] = b[off + 3:off + 3 + n]
                off += 3 + n
            elif tag in (INTEGER, FLOAT):
                off += 5
            elif tag in (LONG, DOUBLE):
                off += 9
                k += 1
            elif tag in (CLASS, STRING, MTYPE, MODULE, PACKAGE):
                self.ref(off + 1, UTF8)
                off += 3
            elif tag == MHANDLE:
                self.ref(off + 2, METHODREF)
                off += 4
            elif tag in (FIELDREF, METHODREF, IMETHODREF):
                self.ref(off + 1, CLASS)
                self.ref(off + 3, NAT)
                off += 5
            elif tag == NAT:
                self.ref(off + 1, UTF8)
                self.ref(off + 3, UTF8)
                off += 5
            elif tag in (DYNAMIC, INDY):
                self.ref(off + 3, NAT)
                off += 5
            else:
                raise ValueError('bad tag %d' % tag)
            k += 1
        i.cp_end = off
        i.bounds.append(off)
        return off

    def attrs(self, off):
        b, i = self.b, self.i
        n = u2(b, off)
        i.lens.append((off, 2, 'attributes_count'))
        off += 2
        for _ in range(n):
            i.bounds.append(off)
            self.ref(off, UTF8)
            ln = u4(b, off + 2)
            i.lens.append((off + 2, 4, 'attribute_length'))
            name = self.names.get(u2(b, off), b'?').decode('latin-1')
            body, end = off + 6, off + 6 + ln
            i.attrs.append((off, name, body, end))
            self.attr_body(name, body, end)
            off = end
        i.bounds.append(off)
        return off

    def table(self, off, what, each, fn):
        """A u2-counted table of 'each'-byte records; fn(record offset)."""
        n = u2(self.b, off)
        self.i.lens.append((off, 2, what))
        for r in range(n):
            fn(off + 2 + r * each)
        return off + 2 + n * each

    def attr_body(self, name, o, end):
        b, i = self.b, self.i
        if name == 'Code':
            i.lens.append((o + 4, 4, 'code_length'))
            cl = u4(b, o + 4)
            p = o + 8 + cl
            i.bounds.append(p)
            i.code.append((o, cl, p))
            p = self.table(p, 'exception_table_length', 8,
                           lambda r: self.ref(r + 6, CLASS))
            self.attrs(p)
        elif name in ('SourceFile', 'Signature'):
            self.ref(o, UTF8)
        elif name == 'ConstantValue':
            self.ref(o, ANY)
        elif name in ('Exceptions', 'NestMembers', 'PermittedSubclasses'):
            self.table(o, name + ' count', 2, lambda r: self.ref(r, CLASS))
        elif name == 'NestHost':
            self.ref(o, CLASS)
        elif name == 'InnerClasses':
            def ic(r):
                self.ref(r, CLASS)
                self.ref(r + 4, UTF8)
            self.table(o, 'number_of_classes', 8, ic)
        elif name == 'EnclosingMethod':
            self.ref(o, CLASS)
        elif name in ('LocalVariableTable', 'LocalVariableTypeTable'):
            def lv(r):
                self.ref(r + 4, UTF8)
                self.ref(r + 6, UTF8)
            self.table(o, name + ' length', 10, lv)
        elif name == 'LineNumberTable':
            self.table(o, 'line_number_table_length', 4, lambda r: None)
        elif name == 'StackMapTable':
            i.lens.append((o, 2, 'number_of_entries'))
        elif name == 'BootstrapMethods':
            n = u2(b, o)
            i.lens.append((o, 2, 'num_bootstrap_methods'))
            p = o + 2
            for _ in range(n):
                self.ref(p, MHANDLE)
                na = u2(b, p + 2)
                i.lens.append((p + 2, 2, 'num_bootstrap_arguments'))
                for a in range(na):
                    self.ref(p + 4 + 2 * a, ANY)
                p += 4 + 2 * na
        elif name in ('RuntimeVisibleAnnotations',
                      'RuntimeInvisibleAnnotations'):
            i.lens.append((o, 2, 'num_annotations'))
        elif name == 'MethodParameters':
            i.lens.append((o, 1, 'parameters_count'))
        elif name == 'Record':
            i.lens.append((o, 2, 'components_count'))

    def members(self, off, what):
        b, i = self.b, self.i
        n = u2(b, off)
        i.lens.append((off, 2, what + '_count'))
        off += 2
        for _ in range(n):
            i.bounds.append(off)
            self.ref(off + 2, UTF8)
            self.ref(off + 4, UTF8)
            off = self.attrs(off + 6)
        return off

    def run(self):
        b, i = self.b, self.i
        off = self.pool()
        self.ref(off + 2, CLASS)
        i.bounds.append(off + 6)
        n = u2(b, off + 6)
        i.lens.append((off + 6, 2, 'interfaces_count'))
        for k in range(n):
            self.ref(off + 8 + 2 * k, CLASS)
        off += 8 + 2 * n
        off = self.members(off, 'fields')
        off = self.members(off, 'methods')
        off = self.attrs(off)
        if off != len(b):
            raise ValueError('walk ended at %d of %d' % (off, len(b)))
        i.bounds = sorted(set(x for x in i.bounds if 0 <= x < len(b)))
        return i


def walk_class(b):
    """ClassInfo for a well-formed class file 'b' (raises if it is not)."""
    return Walk(b).run()


def put_u2(b, off, v):
    b = bytearray(b)
    struct.pack_into('>H', b, off, v & 0xFFFF)
    return bytes(b)


def put_u4(b, off, v):
    b = bytearray(b)
    struct.pack_into('>I', b, off, v & 0xFFFFFFFF)
    return bytes(b)


def put_len(b, off, size, v):
    if size == 1:
        b = bytearray(b)
        b[off] = v & 0xFF
        return bytes(b)
    return put_u2(b, off, v) if size == 2 else put_u4(b, off, v)


def get_len(b, off, size):
    return b[off] if size == 1 else u2(b, off) if size == 2 else u4(b, off)


INTERESTING = [0, 1, 0x7F, 0x80, 0xFE, 0xFF]


def mut_trunc(b, info, rng):
    if rng.random() < 0.5 and info.bounds:
        n = rng.choice(info.bounds) + rng.choice((-1, 0, 1, 2))
    else:
        n = rng.randrange(len(b))
    return b[:max(0, min(n, len(b) - 1))]


def mut_bitflip(b, info, rng):
    b = bytearray(b)
    for _ in range(rng.choice((1, 1, 2, 3))):
        p = rng.randrange(len(b))
        b[p] ^= 1 << rng.randrange(8)
    return bytes(b)


def mut_byte(b, info, rng):
    b = bytearray(b)
    b[rng.randrange(len(b))] = rng.choice(INTERESTING + [rng.randrange(256)])
    return bytes(b)


def mut_cp_range(b, info, rng):
    off, _ = rng.choice(info.refs)
    n = info.cp_count
    return put_u2(b, off, rng.choice((0, n, n + 1, 0xFFFF, n - 1 + 0x100)))


def mut_cp_kind(b, info, rng):
    off, want = rng.choice(info.refs)
    wrong = [k for k, t in info.tags.items() if t != want]
    # the unusable slot after a Long or Double, if there is one
    wrong += [k + 1 for k, t in info.tags.items() if t in (LONG, DOUBLE)]
    if not wrong:
        return mut_cp_range(b, info, rng)
    return put_u2(b, off, rng.choice(wrong))


def lie(rng, v, size):
    top = (1 << (8 * size)) - 1
    return rng.choice((v + 1, v - 1, v + rng.randrange(2, 300),
                       v - rng.randrange(2, 300), 0, top, top - 1,
                       v * 2, v // 2)) & top


def mut_length(b, info, rng):
    off, size, _ = rng.choice(info.lens)
    return put_len(b, off, size, lie(rng, get_len(b, off, size), size))


def mut_utf8_len(b, info, rng):
    if not info.utf8:
        return mut_length(b, info, rng)
    off, n = rng.choice(info.utf8)
    return put_u2(b, off - 2, lie(rng, n, 2))


def mut_utf8_bytes(b, info, rng):
    cands = [(o, n) for o, n in info.utf8 if n > 0]
    if not cands:
        return mut_byte(b, info, rng)
    off, n = rng.choice(cands)
    bad = rng.choice((b'\x00', b'\xf0', b'\x80', b'\xc0', b'\xe0\x80',
                      b'\xff', b'\xed\xa0\x80'[:rng.randrange(1, 4)]))
    p = off + rng.randrange(n)
    if p + len(bad) > off + n:
        p = off + n - len(bad)
        if p < off:
            return b[:off] + bad[:n] + b[off + n:]
    return b[:p] + bad + b[p + len(bad):]


def mut_attr_len(b, info, rng):
    """attribute_length that disagrees with the contents."""
    if not info.attrs:
        return mut_length(b, info, rng)
    start, name, body, end = rng.choice(info.attrs)
    return put_u4(b, start + 2, lie(rng, end - body, 4))


def mut_attr_shift(b, info, rng):
    """Insert or delete bytes inside an attribute and fix its length, so
    that the file still frames but the contents disagree with their own
    counts."""
    if not info.attrs:
        return mut_bitflip(b, info, rng)
    start, name, body, end = rng.choice(info.attrs)
    p = rng.randint(body, end)
    if rng.random() < 0.5 or end == body:
        k = rng.randint(1, 4)
        b = b[:p] + bytes(rng.randrange(256) for _ in range(k)) + b[p:]
        return put_u4(b, start + 2, end - body + k)
    k = min(rng.randint(1, 4), end - p)
    if k == 0:
        p, k = body, 1
    b = b[:p] + b[p + k:]
    return put_u4(b, start + 2, end - body - k)


def mut_attr_dup(b, info, rng):
    """Duplicate a whole attribute in place (its count cannot follow: the
    class-level count is bumped only when the attribute is a class one)."""
    if not info.attrs:
        return mut_bitflip(b, info, rng)
    start, name, body, end = rng.choice(info.attrs)
    return b[:end] + b[start:end] + b[end:]


def mut_tag(b, info, rng):
    k = rng.choice(list(info.tags))
    off = info.cp_off[k]
    b = bytearray(b)
    b[off] = rng.choice((0, 2, 13, 14, 21, 255, 5, 6, 1, 7, 15, 17, 19))
    return bytes(b)


def mut_version(b, info, rng):
    major = rng.choice((0, 44, 45, 46, 50, 52, 56, 69, 70, 0xFFFF))
    minor = rng.choice((0, 3, 1, 0xFFFF, 0x8000))
    return put_u2(put_u2(b, 6, major), 4, minor)


def mut_insdel(b, info, rng):
    p = rng.randrange(len(b))
    if rng.random() < 0.5:
        return b[:p] + bytes(rng.randrange(256)
                             for _ in range(rng.randint(1, 8))) + b[p:]
    return b[:p] + b[p + rng.randint(1, 8):]


def mut_splice(b, info, rng, other):
    p = rng.randrange(len(b))
    q = rng.randrange(len(other))
    n = rng.randint(1, 64)
    return b[:p] + other[q:q + n] + b[p + n:]


# Mutants that keep the class well-formed but its code odd: they get past
# the parser to the instruction decoder, frames and transforms.

def _code(info, rng):
    return rng.choice(info.code) if info.code else None


def mut_code_byte(b, info, rng):
    """Bytes of one method's bytecode replaced (opcodes, operands)."""
    c = _code(info, rng)
    if not c or c[1] == 0:
        return mut_byte(b, info, rng)
    b = bytearray(b)
    for _ in range(rng.choice((1, 1, 2, 4))):
        p = c[0] + 8 + rng.randrange(c[1])
        b[p] = rng.choice(INTERESTING + [rng.randrange(256)] * 3)
    return bytes(b)


def mut_code_limits(b, info, rng):
    """max_stack or max_locals of one method made too small or huge."""
    c = _code(info, rng)
    if not c:
        return mut_byte(b, info, rng)
    v = rng.choice((0, 1, 2, 0xffff, u2(b, c[0]) - 1))
    return put_u2(b, c[0] + rng.choice((0, 2)), max(0, v))


def mut_code_handlers(b, info, rng):
    """An exception-table entry (start, end, handler pc, type) that lies."""
    c = [x for x in info.code if u2(b, x[2]) > 0]
    if not c:
        return mut_code_byte(b, info, rng)
    o, cl, p = rng.choice(c)
    r = p + 2 + 8 * rng.randrange(u2(b, p))
    f = rng.randrange(4)
    v = rng.choice((0, 1, cl - 1, cl, cl + 1, 0xffff, rng.randrange(cl + 2)))
    return put_u2(b, r + 2 * f, max(0, v))


CODE_MUTATORS = [
    ('code-byte', mut_code_byte, 10), ('code-limits', mut_code_limits, 3),
    ('code-handlers', mut_code_handlers, 3),
]

CLASS_MUTATORS = [
    ('truncate', mut_trunc, 12), ('bitflip', mut_bitflip, 14),
    ('byte', mut_byte, 8), ('cp-index-range', mut_cp_range, 12),
    ('cp-index-kind', mut_cp_kind, 12), ('length-field', mut_length, 10),
    ('utf8-length', mut_utf8_len, 5), ('utf8-bytes', mut_utf8_bytes, 5),
    ('attr-length', mut_attr_len, 8), ('attr-contents', mut_attr_shift, 8),
    ('attr-dup', mut_attr_dup, 3), ('cp-tag', mut_tag, 5),
    ('version', mut_version, 3), ('insert-delete', mut_insdel, 5),
]

# -------------------------------------------------------------------- zip

SIG_LOCAL, SIG_CENTRAL, SIG_END = 0x04034b50, 0x02014b50, 0x06054b50
SIG_END64, SIG_LOC64 = 0x06064b50, 0x07064b50


class ZEntry:
    """One entry as it will be written; every field may lie."""

    def __init__(self, name, data=b'', method=8, level=6):
        self.name = name if isinstance(name, bytes) else name.encode()
        self.usize = len(data)
        self.crc = zlib.crc32(data) & 0xFFFFFFFF
        if method == 8 and data:
            c = zlib.compressobj(level, zlib.DEFLATED, -15)
            self.raw = c.compress(data) + c.flush()
        else:
            method = 0 if method == 8 else method
            self.raw = data
        self.method = method
        self.csize = len(self.raw)
        self.flags = 0x800 if any(c >= 0x80 for c in self.name) else 0
        self.local_name = None      # a different name in the local header
        self.at = None              # reuse another entry's local header
        self.zip64 = False


class ZipLayout:
    def __init__(self):
        self.local = []     # offset of each entry's local header
        self.central = []   # offset of each central record
        self.data = []      # (offset, length) of each entry's data
        self.cd_off = self.cd_size = self.eocd = 0


def build_zip(entries, comment=b'', prefix=b'', zip64_end=False):
    """Bytes of a zip holding 'entries' (ZEntry), and its layout. 'prefix'
    is written first (offsets then count from after it, as in a jmod)."""
    out = bytearray()
    lay = ZipLayout()
    for e in entries:
        if e.at is not None:
            lay.local.append(lay.local[e.at])
            lay.data.append(lay.data[e.at])
            continue
        lay.local.append(len(out))
        name = e.local_name if e.local_name is not None else e.name
        extra = b''
        cs, us = e.csize, e.usize
        if e.zip64:
            extra = struct.pack('<HHQQ', 1, 16, e.usize, e.csize)
            cs = us = 0xFFFFFFFF
        out += struct.pack('<IHHHHHIIIHH', SIG_LOCAL, 45 if e.zip64 else 20,
                           e.flags, e.method, 0, 0x21, e.crc,
                           cs & 0xFFFFFFFF, us & 0xFFFFFFFF, len(name),
                           len(extra))
        out += name + extra
        lay.data.append((len(out), len(e.raw)))
        out += e.raw
    lay.cd_off = len(out)
    for k, e in enumerate(entries):
        lay.central.append(len(out))
        extra = b''
        cs, us, off = e.csize, e.usize, lay.local[k]
        if e.zip64:
            extra = struct.pack('<HHQQQ', 1, 24, e.usize, e.csize, off)
            cs = us = off = 0xFFFFFFFF
        out += struct.pack('<IHHHHHHIIIHHHHHII', SIG_CENTRAL,
                           45 if e.zip64 else 20, 45 if e.zip64 else 20,
                           e.flags, e.method, 0, 0x21, e.crc,
                           cs & 0xFFFFFFFF, us & 0xFFFFFFFF, len(e.name),
                           len(extra), 0, 0, 0, 0, off & 0xFFFFFFFF)
        out += e.name + extra
    lay.cd_size = len(out) - lay.cd_off
    n = len(entries)
    if zip64_end or n >= 0xFFFF:
        at = len(out)
        out += struct.pack('<IQHHIIQQQQ', SIG_END64, 44, 45, 45, 0, 0, n, n,
                           lay.cd_size, lay.cd_off)
        out += struct.pack('<IIQI', SIG_LOC64, 0, at, 1)
    lay.eocd = len(out)
    out += struct.pack('<IHHHHIIH', SIG_END, 0, 0, min(n, 0xFFFF),
                       min(n, 0xFFFF), lay.cd_size, lay.cd_off, len(comment))
    out += comment
    return prefix + bytes(out), lay


def zpatch(b, off, fmt, v):
    b = bytearray(b)
    struct.pack_into(fmt, b, off, v)
    return bytes(b)


def zip_entries_from(pairs, method=8):
    return [ZEntry(n, d, method) for n, d in pairs]


def zip_mutants(pairs, rng, prefix=b''):
    """Yield (kind, bytes, expect) mutants of a zip of 'pairs' (name, data).
    'expect' is None, or 'dups'/'dups-dir' when the output must lack the
    later duplicates (a warning is expected for 'dups' only)."""
    P = len(prefix)

    def base(method=8):
        return zip_entries_from(pairs, method)

    def pick(es):
        return rng.randrange(len(es))

    es = base()
    good, lay = build_zip(es, prefix=prefix)
    kind = rng.choice([
        'truncate', 'bitflip', 'bitflip-cd', 'bitflip-data',
        'usize-central', 'csize-central', 'usize-local', 'csize-local',
        'crc', 'method', 'flags', 'name', 'dup-name', 'count', 'cd-offset',
        'cd-size', 'comment-len', 'local-offset', 'zip64', 'overlap',
        'local-name'])
    if kind == 'truncate':
        cuts = [lay.eocd + 10, lay.cd_off + 5, lay.data[0][0] + 3,
                rng.randrange(len(good) - P)]
        return kind, good[:P + rng.choice(cuts)], None
    if kind == 'bitflip':
        return kind, mut_bitflip(good, None, rng), None
    if kind == 'bitflip-cd':
        b = bytearray(good)
        p = P + rng.randrange(lay.cd_off, len(good) - P)
        b[p] ^= 1 << rng.randrange(8)
        return kind, bytes(b), None
    if kind == 'bitflip-data':
        k = pick(es)
        off, n = lay.data[k]
        if n == 0:
            return kind, good, None
        b = bytearray(good)
        b[P + off + rng.randrange(n)] ^= 1 << rng.randrange(8)
        return kind, bytes(b), None
    if kind in ('usize-central', 'csize-central', 'usize-local',
                'csize-local'):
        k = pick(es)
        e = es[k]
        v = e.usize if kind.startswith('u') else e.csize
        v = rng.choice((0, v + 1, max(0, v - 1), 0xFFFFFFFE, 0xFFFFFFFF,
                        v * 100, 300 << 20))
        if kind.endswith('central'):
            o = lay.central[k] + (24 if kind.startswith('u') else 20)
        else:
            o = lay.local[k] + (22 if kind.startswith('u') else 18)
        return kind, zpatch(good, P + o, '<I', v & 0xFFFFFFFF), None
    if kind == 'crc':
        k = pick(es)
        return kind, zpatch(good, P + lay.central[k] + 16, '<I',
                            rng.randrange(1 << 32)), None
    if kind == 'method':
        k = pick(es)
        m = rng.choice((0, 1, 8, 9, 12, 14, 93, 95, 98, 99))
        b = zpatch(good, P + lay.central[k] + 10, '<H', m)
        if rng.random() < 0.5:
            b = zpatch(b, P + lay.local[k] + 8, '<H', m)
        return kind, b, None
    if kind == 'flags':
        k = pick(es)
        f = rng.choice((1, 8, 0x41, 0x2000, 0xFFFF, 0x809))
        b = zpatch(good, P + lay.central[k] + 8, '<H', f)
        return kind, zpatch(b, P + lay.local[k] + 6, '<H', f), None
    if kind == 'name':
        k = pick(es)
        es[k].name = rng.choice([
            b'../x', b'../../etc/passwd', b'/abs/path', b'a/../../b',
            b'C:\\evil', b'', b'a\x00b', b'\n', b'\xff\xfe', b'.', b'/',
            b'x' * 4000, b'./y', b'a//b', b'dir/../../../z.class'])
        b, _ = build_zip(es, prefix=prefix)
        return kind, b, None
    if kind == 'dup-name':
        k = pick(es)
        j = rng.randrange(len(es) + 1)
        dup = ZEntry(es[k].name, rng.choice((b'other', pairs[k][1])))
        es.insert(j, dup)
        b, _ = build_zip(es, prefix=prefix)
        # a duplicate directory entry is dropped silently, a file warns;
        # in a jmod only the classes/ section is output (and checked)
        quiet = dup.name.endswith(b'/') or (
            prefix and not dup.name.startswith(b'classes/'))
        return kind, b, 'dups-dir' if quiet else 'dups'
    if kind == 'count':
        n = len(es)
        v = rng.choice((0, n - 1, n + 1, 0xFFFF))
        b = zpatch(good, P + lay.eocd + 10, '<H', v)
        if rng.random() < 0.5:
            b = zpatch(b, P + lay.eocd + 8, '<H', v)
        return kind, b, None
    if kind == 'cd-offset':
        return kind, zpatch(good, P + lay.eocd + 16, '<I',
                            rng.choice((0, lay.cd_off + 1, lay.cd_off - 1,
                                        0xFFFFFFFF, len(good)))), None
    if kind == 'cd-size':
        return kind, zpatch(good, P + lay.eocd + 12, '<I',
                            rng.choice((0, lay.cd_size + 1,
                                        lay.cd_size - 1, 0xFFFFFFFF))), None
    if kind == 'comment-len':
        return kind, zpatch(good, P + lay.eocd + 20, '<H',
                            rng.choice((1, 100, 0xFFFF))), None
    if kind == 'local-offset':
        k = pick(es)
        return kind, zpatch(good, P + lay.central[k] + 42, '<I',
                            rng.choice((0, 1, lay.local[k] + 1,
                                        lay.cd_off, 0xFFFFFFFF))), None
    if kind == 'zip64':
        for e in es:
            e.zip64 = rng.random() < 0.5
        b, l2 = build_zip(es, prefix=prefix, zip64_end=True)
        if rng.random() < 0.5:
            k = pick(es)
            if es[k].zip64:      # lie in the zip64 extra of the central dir
                o = l2.central[k] + 46 + len(es[k].name) + 4
                b = zpatch(b, P + o, '<Q', rng.choice((0, 1 << 40,
                                                       es[k].usize + 1)))
        return kind, b, None
    if kind == 'overlap':
        e = ZEntry(b'again/' + es[0].name, b'')
        e.at = 0
        es.append(e)
        b, _ = build_zip(es, prefix=prefix)
        return kind, b, None
    # local-name: the local header names another file than the central one
    k = pick(es)
    es[k].local_name = b'../evil.class'
    b, _ = build_zip(es, prefix=prefix)
    return kind, b, None


_ZEROS = {}


def deflate_zeros(n, chunk=1 << 20):
    """Raw deflate of 'n' zero bytes, built quickly from one compressed
    chunk repeated (each chunk flushed to a byte boundary); cached."""
    if n not in _ZEROS:
        _ZEROS[n] = _deflate_zeros(n, chunk)
    return _ZEROS[n]


def _deflate_zeros(n, chunk):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    one = c.compress(bytes(chunk)) + c.flush(zlib.Z_FULL_FLUSH)
    full, rest = divmod(n, chunk)
    out = [one] * full
    if rest:
        c2 = zlib.compressobj(9, zlib.DEFLATED, -15)
        out.append(c2.compress(bytes(rest)) + c2.flush(zlib.Z_FULL_FLUSH))
    out.append(b'\x03\x00')     # final empty fixed-Huffman block
    crc = 0
    z = bytes(chunk)
    for _ in range(full):
        crc = zlib.crc32(z, crc)
    crc = zlib.crc32(bytes(rest), crc)
    return b''.join(out), crc & 0xFFFFFFFF


def bomb_entry(name, n, declared=None):
    """A ZEntry of 'n' zeros, deflated, declaring 'declared' bytes."""
    e = ZEntry(name, b'')
    e.raw, e.crc = deflate_zeros(n)
    e.method, e.csize = 8, len(e.raw)
    e.usize = n if declared is None else declared
    return e

# ----------------------------------------------------------------- jimage

JIMAGE_MAGIC, RES_MAGIC = 0xCAFEDADA, 0xCAFEFAFA
A_END, A_MODULE, A_PARENT, A_BASE, A_EXT, A_OFFSET, A_COMP, A_UNCOMP = \
    range(8)


class JLayout:
    def __init__(self):
        self.offsets = 0        # offset of the offsets[] table
        self.locs = 0           # offset of the locations table
        self.strings = 0
        self.index = 0          # where resources start
        self.loc_at = []        # offset of each location (absolute)
        self.res_at = []        # (absolute offset, stored length)


def split_name(path):
    """'java/lang/Object.class' -> ('java/lang', 'Object', 'class')."""
    parent, _, leaf = path.rpartition('/')
    base, dot, ext = leaf.rpartition('.')
    if not dot:
        base, ext = leaf, ''
    return parent, base, ext


def compress_res(data, levels, order, strings):
    """'levels' stacked zip compressions of 'data' with 29-byte headers;
    levels < 0: one level that names the "compact-cp" decompressor."""
    cur = data
    name = 'zip' if levels > 0 else 'compact-cp'
    for _ in range(abs(levels)):
        z = zlib.compress(cur, 6)
        hdr = struct.pack(order + 'IQQIIB', RES_MAGIC, len(z), len(cur),
                          strings(name), strings(''), 1)
        cur = hdr + z
    return cur


def build_jimage(resources, big_endian=False):
    """A lib/modules image of 'resources': (module, path, data, levels)
    where 'levels' is how many times the resource is zip-compressed
    (-1: once, naming the unsupported "compact-cp" decompressor).
    The lookup tables (redirect, perfect hash) are left zero: cccp lists
    images through the offsets table and never looks a name up."""
    order = '>' if big_endian else '<'
    strs = bytearray(b'\0')
    sidx = {'': 0}

    def s(x):
        if x not in sidx:
            sidx[x] = len(strs)
            strs.extend(x.encode() + b'\0')
        return sidx[x]

    blobs, locs, locoffs = [], bytearray(), []
    pos = 0
    for module, path, data, levels in resources:
        stored = compress_res(data, levels, order, s) if levels else data
        parent, base, ext = split_name(path)
        attrs = [(A_MODULE, s(module)), (A_PARENT, s(parent)),
                 (A_BASE, s(base)), (A_EXT, s(ext)), (A_OFFSET, pos),
                 (A_COMP, len(stored) if levels else 0),
                 (A_UNCOMP, len(data))]
        locoffs.append(len(locs))
        for kind, v in attrs:
            if v == 0:
                continue
            n = max(1, (v.bit_length() + 7) // 8)
            locs.append(kind << 3 | (n - 1))
            locs.extend(v.to_bytes(n, 'big'))
        locs.append(A_END)
        blobs.append(stored)
        pos += len(stored)
    nt = len(resources)
    lay = JLayout()
    hdr = struct.pack(order + '7I', JIMAGE_MAGIC, 1 << 16, 0, nt, nt,
                      len(locs), len(strs))
    lay.offsets = 28 + 4 * nt
    lay.locs = lay.offsets + 4 * nt
    lay.strings = lay.locs + len(locs)
    lay.index = lay.strings + len(strs)
    lay.loc_at = [lay.locs + o for o in locoffs]
    body = bytearray(hdr)
    body += bytes(4 * nt)
    body += struct.pack(order + '%dI' % nt, *locoffs)
    body += locs + strs
    p = lay.index
    for blob in blobs:
        lay.res_at.append((p, len(blob)))
        p += len(blob)
        body += blob
    return bytes(body), lay


def jimage_mutants(resources, rng, big_endian=False):
    """One (kind, bytes) mutant of the image of 'resources'."""
    order = '>' if big_endian else '<'
    good, lay = build_jimage(resources, big_endian)
    kind = rng.choice(['truncate', 'bitflip', 'bitflip-index', 'header',
                       'offsets', 'loc-kind', 'loc-value', 'res-header',
                       'decompressor', 'bitflip-res'])
    if kind == 'truncate':
        return kind, good[:rng.choice((rng.randrange(len(good)), 27, 28,
                                       lay.index - 1, lay.index,
                                       len(good) - 1))]
    if kind == 'bitflip':
        return kind, mut_bitflip(good, None, rng)
    if kind == 'bitflip-index':
        b = bytearray(good)
        p = rng.randrange(lay.index)
        b[p] ^= 1 << rng.randrange(8)
        return kind, bytes(b)
    if kind == 'header':
        f = rng.randrange(1, 7)
        v = rng.choice((0, 1, 0xFFFFFFFF, 0x7FFFFFFF, len(good),
                        struct.unpack_from(order + 'I', good, 4 * f)[0] + 1,
                        2 << 16))
        return kind, zpatch(good, 4 * f, order + 'I', v)
    if kind == 'offsets':
        k = rng.randrange(len(resources))
        return kind, zpatch(good, lay.offsets + 4 * k, order + 'I',
                            rng.choice((0xFFFFFFFF, lay.strings - lay.locs,
                                        lay.strings - lay.locs - 1, 1)))
    if kind in ('loc-kind', 'loc-value'):
        k = rng.randrange(len(resources))
        at = lay.loc_at[k]
        b = bytearray(good)
        if kind == 'loc-kind':
            b[at] = rng.choice((0x40, 0x47, 0xF8, 0x07, 0x3F))
        else:
            # lengthen or corrupt one value byte: offsets/sizes/names lie
            p = at + 1 + rng.randrange(4)
            b[p] = rng.choice((0, 0xFF, 0x7F, b[p] + 1 & 0xFF))
        return kind, bytes(b)
    comp = [i for i, r in enumerate(resources) if r[3]]
    if kind in ('res-header', 'decompressor') and comp:
        k = rng.choice(comp)
        at, n = lay.res_at[k]
        if kind == 'res-header':
            f = rng.choice((4, 12))     # compressed, uncompressed size
            v = rng.choice((0, 1, 1 << 40, 0xFFFFFFFFFFFFFFFF, 300 << 20,
                            struct.unpack_from(order + 'Q', good,
                                               at + f)[0] + 1))
            return kind, zpatch(good, at + f, order + 'Q', v)
        v = rng.choice((0xFFFFFFFF, 1, lay.index - lay.strings))
        return kind, zpatch(good, at + 20, order + 'I', v)
    at, n = lay.res_at[rng.randrange(len(resources))]
    if n == 0:
        return 'bitflip', mut_bitflip(good, None, rng)
    b = bytearray(good)
    b[at + rng.randrange(n)] ^= 1 << rng.randrange(8)
    return 'bitflip-res', bytes(b)
