#!/usr/bin/env python3
"""mkcorpus.py -- (re)generate the committed seed corpora of the fuzz
targets under tests/fuzz/corpus/<target>/. Run from the repository root
after 'make fixtures' (it reads the compiled fixtures of BUILD):

    python3 tests/fuzz/mkcorpus.py [BUILD]

Inputs: the test fixtures, a few small JDK 17 classes (java.base.jmod),
two JDK 25 classes (read from its image with bin/cccp-rewrite --copy),
fixtures recompiled with --release 8, a hand-made version 45.3 class.
Policies and profiles (plain and gzipped) are written here; summaries are made by bin/cccp-rewrite from a
few of those classes and java/lang/Object.
Containers (jars, jmods, jimages) are built here from those classes, so
the corpora are small (a few KB per file) and reproducible.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.dont_write_bytecode = True    # keep the source tree clean
sys.path.insert(0, os.path.join(ROOT, 'tests', 'hostile'))
import hostile  # noqa: E402

BUILD = sys.argv[1] if len(sys.argv) > 1 else 'build'
JDK17 = os.environ.get('JDK17', '/usr/lib/jvm/java-17-openjdk-amd64')
JDK25 = os.environ.get('JDK25', '/usr/lib/jvm/temurin-25-jdk-amd64')
OUT = os.path.join(ROOT, 'tests', 'fuzz', 'corpus')
JDK_CLASSES = [
    'java/lang/Object.class', 'java/lang/Runnable.class',
    'java/lang/Thread$State.class', 'java/util/function/Function.class',
    'java/lang/annotation/Retention.class', 'java/lang/Deprecated.class',
    'java/util/Objects.class',
]


def clean(name):
    return name.replace('/', '_').replace('$', '-')


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def v45_class():
    """A tiny Java 1.1 class (45.3): one method with jsr/ret, no frames."""
    cp = [None]

    def utf8(s):
        cp.append(b'\x01' + struct.pack('>H', len(s)) + s.encode())
        return len(cp) - 1

    def cls(n):
        i = utf8(n)
        cp.append(b'\x07' + struct.pack('>H', i))
        return len(cp) - 1

    this, sup = cls('Old'), cls('java/lang/Object')
    m, d, code = utf8('f'), utf8('()V'), utf8('Code')
    # jsr +4; return; astore_0; ret 0
    body = bytes([0xa8, 0x00, 0x04, 0xb1, 0x4b, 0xa9, 0x00])
    attr = struct.pack('>HHI', 1, 1, len(body)) + body + struct.pack('>HH',
                                                                    0, 0)
    out = struct.pack('>IHHH', 0xCAFEBABE, 3, 45, len(cp))
    out += b''.join(cp[1:])
    out += struct.pack('>HHHH', 0x21, this, sup, 0)
    out += struct.pack('>H', 0)                       # fields
    out += struct.pack('>HHHHH', 1, 0x9, m, d, 1)      # methods
    out += struct.pack('>HI', code, len(attr)) + attr
    out += struct.pack('>H', 0)                       # class attributes
    return out


def classes(tmp):
    """(name, bytes) of every seed class."""
    got = []
    fx = os.path.join(ROOT, BUILD, 'fixtures')
    for dp, _, fs in os.walk(fx):
        for f in sorted(fs):
            if f.endswith('.class'):
                rel = os.path.relpath(os.path.join(dp, f), fx)
                with open(os.path.join(dp, f), 'rb') as fh:
                    got.append(('fx-' + clean(rel), fh.read()))
    z = zipfile.ZipFile(os.path.join(JDK17, 'jmods', 'java.base.jmod'))
    for n in JDK_CLASSES:
        got.append(('jdk17-' + clean(n), z.read('classes/' + n)))
    got.append(('jdk17-module-info-java.logging.class', zipfile.ZipFile(
        os.path.join(JDK17, 'jmods', 'java.logging.jmod')).read(
            'classes/module-info.class')))
    # release 8 classes: old-style frames, no nest attributes
    src = os.path.join(ROOT, 'tests', 'data', 'java')
    r8 = os.path.join(tmp, 'r8')
    os.makedirs(r8)
    subprocess.run(['javac', '-nowarn', '--release', '8', '-d', r8] +
                   [os.path.join(src, f) for f in ('Consts.java',
                                                   'Color.java',
                                                   'Lambdas.java')],
                   check=True, stderr=subprocess.DEVNULL)
    for f in ('Consts.class', 'Color.class', 'Lambdas.class'):
        with open(os.path.join(r8, 'fx', f), 'rb') as fh:
            got.append(('r8-' + f, fh.read()))
    # JDK 25 (class version 69), through the image reader of cccp itself
    rw = os.path.join(ROOT, BUILD, 'bin', 'cccp-rewrite')
    if not os.path.exists(rw):
        rw = os.path.join(ROOT, 'bin', 'cccp-rewrite')
    if os.path.exists(os.path.join(JDK25, 'lib', 'modules')):
        o = os.path.join(tmp, 'j25')
        subprocess.run([rw, '-q', '--copy', '--jdk', JDK25, '-o', o + '/'],
                       check=True)
        zb = zipfile.ZipFile(os.path.join(o, 'java.base.jar'))
        for n in ('java/lang/Record.class', 'java/lang/Runnable.class'):
            got.append(('jdk25-' + clean(n), zb.read(n)))
    got.append(('v45-Old.class', v45_class()))
    return got


def jars(cls):
    small = [(n, d) for n, d in cls if len(d) < 1500][:6]
    man = b'Manifest-Version: 1.0\r\nCreated-By: cccp corpus\r\n\r\n'
    pairs = [('META-INF/', b''), ('META-INF/MANIFEST.MF', man)] + \
        [('p/' + n, d) for n, d in small] + [('p/res.txt', b'hello\n')]
    out = {}
    b, _ = hostile.build_zip(hostile.zip_entries_from(pairs))
    out['deflated.jar'] = b
    b, _ = hostile.build_zip(hostile.zip_entries_from(pairs, method=0))
    out['stored.jar'] = b
    b, _ = hostile.build_zip([])
    out['empty.zip'] = b
    es = hostile.zip_entries_from(pairs[:4])
    for e in es:
        e.zip64 = True
    b, _ = hostile.build_zip(es, zip64_end=True)
    out['zip64.jar'] = b
    b, _ = hostile.build_zip(hostile.zip_entries_from(pairs[:3]),
                             comment=b'a comment')
    out['comment.zip'] = b
    # Python's own writer: data descriptors when the stream cannot seek
    class NoSeek:
        def __init__(self):
            self.b = bytearray()

        def write(self, x):
            self.b += x
            return len(x)

        def flush(self):
            pass

    ns = NoSeek()
    with zipfile.ZipFile(ns, 'w', zipfile.ZIP_DEFLATED) as z:
        for n, d in pairs[:4]:
            with z.open(n, 'w') as f:
                f.write(d)
    out['datadesc.jar'] = bytes(ns.b)
    return out


def jmods(cls, tmp):
    """Bodies of jmods (the zip after the 4-byte "JM" header)."""
    out = {}
    fx = os.path.join(ROOT, BUILD, 'fixtures')
    jm = os.path.join(tmp, 'fx.jmod')
    cp = os.path.join(tmp, 'cp')
    shutil.copytree(fx, cp, ignore=shutil.ignore_patterns('.stamp'))
    # keep the jmod small: the module-info and two classes
    keep = {'module-info.class', 'Lambdas.class', 'Lambdas$Greeter.class',
            'Shape.class'}
    for dp, _, fs in os.walk(cp):
        for f in fs:
            if f not in keep:
                os.remove(os.path.join(dp, f))
    os.makedirs(os.path.join(tmp, 'conf'))
    with open(os.path.join(tmp, 'conf', 'fx.properties'), 'w') as f:
        f.write('a=b\n')
    r = subprocess.run(['jmod', 'create', '--class-path', cp, '--config',
                        os.path.join(tmp, 'conf'), jm],
                       stderr=subprocess.PIPE)
    if r.returncode == 0:
        with open(jm, 'rb') as f:
            data = f.read()
        assert data[:4] == b'JM\x01\x00'
        out['jmod-tool.zip'] = data[4:]
    small = [(n, d) for n, d in cls if len(d) < 1200][:4]
    mi = dict(cls)['fx-module-info.class']
    pairs = [('classes/module-info.class', mi)] + \
        [('classes/p/' + n, d) for n, d in small] + \
        [('classes/META-INF/', b''), ('lib/libx.so', b'\x7fELF....'),
         ('bin/tool', b'#!/bin/sh\n'), ('conf/x.conf', b'k=v\n'),
         ('legal/LICENSE', b'text\n'), ('classes/', b'')]
    b, _ = hostile.build_zip(hostile.zip_entries_from(pairs))
    out['sections.zip'] = b
    b, _ = hostile.build_zip(hostile.zip_entries_from(pairs[:2], method=0))
    out['stored.zip'] = b
    return out


def jimages(cls):
    small = [(n, d) for n, d in cls if len(d) < 1500][:5]
    res = [('m.one', 'p/' + small[0][0], small[0][1], 0),
           ('m.one', 'p/' + small[1][0], small[1][1], 1),
           ('m.one', 'module-info.class', small[2][1], 0),
           ('m.two', 'q/r/' + small[3][0], small[3][1], 2),
           ('m.two', 'q/data.txt', b'text resource\n', 1),
           ('m.two', 'noext', b'', 0),
           ('modules', 'm.one/p', b'', 0),
           ('packages', 'p/m.one', b'', 0)]
    out = {}
    out['mixed.jimage'], _ = hostile.build_jimage(res)
    out['big-endian.jimage'], _ = hostile.build_jimage(res[:4], True)
    out['empty.jimage'], _ = hostile.build_jimage([])
    out['one-stored.jimage'], _ = hostile.build_jimage(res[:1])
    out['compact-cp.jimage'], _ = hostile.build_jimage(
        [('m.one', 'p/x.class', small[4][1], -1)])
    return out


def code_seeds(cls):
    """Classes with code, small ones (the code target runs three stages
    per input)."""
    return [(n, d) for n, d in cls if len(d) <= 6000 and b'Code' in d]


# Code-only seeds of the code target: one method's code, wrapped by
# fuzz_code.c in a class of a fixed constant pool (see 'wrap' there):
# header (descriptor, static bit and version, max_stack, max_locals,
# number of exception-table entries), the exception table, then the code.
def code_only(flags, stack, locals_, code, handlers=()):
    out = bytes([flags, stack, locals_, len(handlers)])
    for h in handlers:
        out += struct.pack('>HHHH', *h)
    return out + bytes(code)


CODE_ONLY = {
    # static (I)I: return n > 0 ? m(n - 1) : 0
    'wrap-recursion.bin': code_only(0x09, 2, 1, [
        0x1a, 0x9e, 0x00, 0x0a, 0x1a, 0x04, 0x64, 0xb8, 0x00, 0x1a, 0xac,
        0x03, 0xac]),
    # static (I)I: tableswitch 0..2, then lookupswitch {-1, 1000}
    'wrap-switch.bin': code_only(0x09, 1, 1, [
        0x1a, 0xaa, 0, 0, 0, 0, 0, 31, 0, 0, 0, 0, 0, 0, 0, 2,
        0, 0, 0, 27, 0, 0, 0, 29, 0, 0, 0, 31,
        0x04, 0xac, 0x05, 0xac,
        0x1a, 0xab, 0, 0, 0, 0, 0, 27, 0, 0, 0, 2,
        0xff, 0xff, 0xff, 0xff, 0, 0, 0, 27, 0, 0, 0x03, 0xe8, 0, 0, 0, 27,
        0x03, 0xac]),
    # ()V: try { run() } catch (any) {}
    'wrap-handler.bin': code_only(0x00, 1, 2, [
        0x2a, 0xb9, 0x00, 0x1f, 0x01, 0x00, 0xb1, 0x4c, 0xb1],
        [(0, 6, 7, 0)]),
    # static (JD)J: (a + (long) b) * 7L
    'wrap-wide-values.bin': code_only(0x0a, 6, 4, [
        0x1e, 0x26, 0x8f, 0x61, 0x14, 0x00, 0x13, 0x69, 0xad]),
    # static ([I)V: arrays, ldc String, checkcast
    'wrap-arrays.bin': code_only(0x0c, 4, 2, [
        0x2a, 0xbe, 0xbc, 0x0a, 0x4c, 0x2b, 0x03, 0x2a, 0x03, 0x2e, 0x4f,
        0x12, 0x10, 0xc0, 0x00, 0x18, 0x57, 0xb1]),
    # static ()V: ldc of a method handle, a method type, int, float
    'wrap-ldc.bin': code_only(0x08, 1, 0, [
        0x12, 0x22, 0x57, 0x12, 0x23, 0x57, 0x12, 0x11, 0x57, 0x12, 0x12,
        0x57, 0xb2, 0x00, 0x0f, 0x57, 0xb1]),
    # static (I)I: wide iinc
    'wrap-wide.bin': code_only(0x09, 1, 1, [
        0xc4, 0x84, 0x00, 0x00, 0x01, 0x00, 0x1a, 0xac]),
    # static ()V: invokedynamic
    'wrap-indy.bin': code_only(0x08, 0, 0, [0xba, 0x00, 0x28, 0, 0, 0xb1]),
    # static ()V, version 50: jsr and ret
    'wrap-jsr.bin': code_only(0x18, 1, 1, [
        0xa8, 0x00, 0x04, 0xb1, 0x4b, 0xa9, 0x00]),
    # (Ljava/lang/Object;)Z: new, monitors, if_acmpne
    'wrap-objects.bin': code_only(0x07, 2, 3, [
        0xbb, 0x00, 0x02, 0x59, 0xb7, 0x00, 0x0b, 0x4d, 0x2b, 0xc2, 0x2b,
        0xc3, 0x2c, 0x2b, 0xa6, 0x00, 0x05, 0x04, 0xac, 0x03, 0xac]),
}

POLICIES = {
    'empty.xml': "<policy/>\n",
    'rules.xml': """<?xml version='1.0'?>
<policy>
  <nonoverloadable class='org/mozilla/javascript/*' name='*' id='rhino'/>
  <nonwrappable class='p/A' name='m' desc='(I)V' id='one'/>
  <overloadable class='java/lang/Object' name='toString' id='back'/>
  <wrappable annotation='Ljdk/internal/vm/annotation/ForceInline;' id='fi'/>
  <nonoverloadable native='1' virtual='1' id='natives'/>
  <nonoverloadable sigpoly='1' id='poly'/>
</policy>
""",
    'jdk.xml': """<?xml version='1.0'?>
<policy>
  <redirect class='java/lang/Class' from='a/B.c(I)J' to='x/Y.z(I)J' id='r'/>
  <redirect class='p/*' from='a/B.v()Ljava/lang/Class;'
            to='x/Y.v(Ljava/lang/Object;)Ljava/lang/Class;'/>
  <thread-entry class='p/Pool' name='work*' desc='()V'/>
  <upcall name='loadClass' desc='(Ljava/lang/String;)Ljava/lang/Class;'/>
  <insert-call class='p/T' name='stop' desc='()V' call='ended'/>
  <thread-field class='p/T' name='slot' why='w'/>
  <redirect class='java/lang/*' from='*.get*' remove='1'/>
  <insert-call call='st*' remove='1'/>
</policy>
""",
    'doctype.xml': """<?xml version='1.0'?>
<!DOCTYPE policy [<!ENTITY x "y">]>
<policy><nonoverloadable class='&x;' id='e'/></policy>
""",
    'bad.xml': "<policy><nonoverloadable class='a' id='x'></policy>",
    'escapes.xml': """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<?pi some processing instruction?>
<policy version="1">
  <!-- comments, character references, CDATA and odd names -->
  <nonwrappable class="p/&#x41;&amp;B" name="&lt;init&gt;" desc="(&#73;)V"
                why="a &quot;quoted&quot; reason &#xE9;&#x4E2D;&#x1F600;"/>
  <![CDATA[   ]]>
  <overloadable class="café/Été" name="*" native="0" virtual="1"
                sigpoly="0" id="utf8" annotation="Lp/A;"/>
</policy>
""",
}
# Seeds in other encodings (bytes as they are).
POLICY_BYTES = {
    'latin1.xml': b"<?xml version='1.0' encoding='ISO-8859-1'?>\n<policy>"
                  b"<nonwrappable class='p/Caf\xe9' why='d\xe9j\xe0'/>"
                  b"</policy>\n",
    'utf16.xml': "\ufeff<?xml version='1.0' encoding='UTF-16'?>\n<policy>"
                 "<nonoverloadable name='m\u00e9' id='u16'/></policy>\n"
                 .encode('utf-16-le'),
}

PROFILES = {
    'empty.xml': '<cct version="1"/>\n',
    'metrics.xml': """<?xml version="1.0" encoding="UTF-8"?>
<cct version="1" mode="test">
  <method id="1" class="a/M" name="main" desc="()V" size="3"/>
  <method id="2" class="a/M" name="f" desc="(I)I" native="1" library="1"/>
  <tree thread="main">
    <node method="1" calls="1" cycles="10" bytecodes="3" note="x">
      <node method="2" calls="18446744073709551615" cycles="7"/>
      <node method="2" calls="2" allocations="9"/>
    </node>
  </tree>
  <tree thread="main"><node method="2" calls="0"/></tree>
</cct>
""",
    'escapes.xml': """<?xml version="1.0"?>
<!-- comments, references, odd names -->
<?pi x?>
<cct version="1" mode="&lt;&amp;&gt;">
  <method id="1" class="p/&#x41;&amp;B;c" name="m&#10;n" desc="(&#73;)V"/>
  <tree thread="t&#9;&#x4E2D;&#x1F600;"><node method="1" calls="1"/></tree>
  <![CDATA[ ]]>
</cct>
""",
    'doctype.xml': """<?xml version="1.0"?>
<!DOCTYPE cct [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<cct version="1" mode="&x;"/>
""",
    'truncated.xml': """<cct version="1"><method id="1" class="a" name="b" desc="()V"/>
<tree thread="t"><node method="1" calls="1"><node method="1" cal""",
    'bad-ids.xml': '<cct version="1"><method id="2" class="a" name="b" '
                   'desc="()V"/></cct>',
}


def profile_seeds():
    """Profiles: the hand-made ones above, the report suite's, a chain
    1000 calls deep and a tree 3 levels of 8 wide."""
    out = {n: d.encode() for n, d in PROFILES.items()}
    data = os.path.join(ROOT, 'tests', 'report', 'data')
    for n in sorted(os.listdir(data)):
        if n.endswith('.xml'):
            with open(os.path.join(data, n), 'rb') as f:
                out['report-' + n] = f.read()
    head = ('<cct version="1"><method id="1" class="a/R" name="r" '
            'desc="()V"/><method id="2" class="a/L" name="l" desc="()V"/>'
            '<tree thread="t">')
    out['deep.xml'] = (head + '<node method="1" calls="1">' * 1000 +
                       '<node method="2" calls="3"/>' + '</node>' * 1000 +
                       '</tree></cct>\n').encode()
    def wide(d):
        if d == 0:
            return '<node method="2" calls="1"/>'
        return ''.join('<node method="%d" calls="%d">%s</node>' %
                       (1 + i % 2, i, wide(d - 1)) for i in range(8))
    out['wide.xml'] = (head + wide(3) + '</tree></cct>\n').encode()
    out.update(gzip_profiles(out))
    return out


def gzip_member(data):
    """One gzip member (RFC 1952) of 'data': no name, no time, level 6."""
    c = zlib.compressobj(6, zlib.DEFLATED, 16 + 15)
    return c.compress(data) + c.flush()


def gzip_profiles(plain):
    """Gzip-compressed profiles (the reader tells them by their magic
    bytes): whole, in three members, truncated, with a bad CRC, with
    trailing garbage, and the DOCTYPE refused inside gzip."""
    small = plain['report-small.xml']
    whole = gzip_member(small)
    third = len(small) // 3
    crc = bytearray(whole)
    crc[-8] ^= 1
    return {
        'small.xml.gz': whole,
        'members.xml.gz': (gzip_member(small[:third]) + gzip_member(b'') +
                           gzip_member(small[third:2 * third]) +
                           gzip_member(small[2 * third:])),
        'truncated.xml.gz': whole[:len(whole) * 2 // 3],
        'bad-crc.xml.gz': bytes(crc),
        'garbage.xml.gz': whole + b'garbage',
        'doctype.xml.gz': gzip_member(plain['doctype.xml']),
    }


def builtin_policy():
    """The built-in policy as --print-policy writes it (every rule kind
    and qualifier, long reasons): (name, bytes) or None without a build."""
    rw = os.path.join(ROOT, BUILD, 'bin', 'cccp-rewrite')
    if not os.path.exists(rw):
        rw = os.path.join(ROOT, 'bin', 'cccp-rewrite')
    if not os.path.exists(rw):
        return None
    r = subprocess.run([rw, '--print-policy'], stdout=subprocess.PIPE,
                       check=True)
    return 'builtin.xml', r.stdout


def summaries(cls, tmp):
    """Summaries of small hierarchies: java/lang/Object among the inputs,
    so that no JDK is added as the library."""
    z = zipfile.ZipFile(os.path.join(JDK17, 'jmods', 'java.base.jmod'))
    obj = z.read('classes/java/lang/Object.class')
    out = {}
    for k, pick in enumerate((cls[:3], cls[3:10], [c for c in cls
                                                   if b'Lambda' in c[1]][:4])):
        jar = os.path.join(tmp, 's%d.jar' % k)
        with zipfile.ZipFile(jar, 'w') as j:
            j.writestr('java/lang/Object.class', obj)
            for i, (n, d) in enumerate(pick):
                j.writestr('c%d.class' % i, d)
        sum_path = os.path.join(tmp, 's%d.sum' % k)
        subprocess.run([os.path.join(ROOT, 'bin', 'cccp-rewrite'), '-q',
                        '--lenient', '--analyze', jar, '--emit-summary',
                        sum_path], check=True)
        with open(sum_path, 'rb') as f:
            out['small-%d.sum' % k] = f.read()
    # the hierarchy fixtures (interfaces, defaults, natives, a library
    # part, missing supertypes) analysed with seeds of a user policy
    hi = os.path.join(ROOT, BUILD, 'fixtures', 'hi')
    jar = os.path.join(tmp, 'hi.jar')
    with zipfile.ZipFile(jar, 'w') as j:
        j.writestr('java/lang/Object.class', obj)
        for f in sorted(os.listdir(hi)):
            if f.endswith('.class') and not f.startswith('Cy'):
                j.write(os.path.join(hi, f), 'hi/' + f)
    pol = os.path.join(tmp, 'seeds.xml')
    with open(pol, 'w') as f:
        f.write("<policy><nonoverloadable class='hi/R1C' name='m' id='s1'/>"
                "<nonwrappable class='hi/NaB' native='1' id='s2'/>"
                "<nonoverloadable class='hi/DfI' name='*' id='s3'/></policy>")
    sum_path = os.path.join(tmp, 'hi.sum')
    subprocess.run([os.path.join(ROOT, 'bin', 'cccp-rewrite'), '-q',
                    '--analyze', '--policy', pol, jar, '--emit-summary',
                    sum_path], check=True)
    with open(sum_path, 'rb') as f:
        out['hier-fixtures.sum'] = f.read()
    return out


def raw_deflate(data, level=6, strategy=zlib.Z_DEFAULT_STRATEGY, flushes=()):
    """Raw deflate stream; 'flushes' are (offset, mode) pairs."""
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 8, strategy)
    out, at = b'', 0
    for off, mode in flushes:
        out += c.compress(data[at:off]) + c.flush(mode)
        at = off
    return out + c.compress(data[at:]) + c.flush()


def samples(cls):
    """Text, pseudo-random bytes, runs and a small class file."""
    text = b''.join(b'%d: the quick brown fox jumps over the lazy dog\n' % i
                    for i in range(40))
    rnd, x = bytearray(), 7
    for _ in range(600):
        x = (x * 1103515245 + 12345) & 0x7fffffff
        rnd.append((x >> 16) & 0xff)
    runs = b'a' * 300 + b'ab' * 100 + b'abc' * 80 + bytes(range(40)) * 3
    small = min((d for n, d in cls if len(d) > 300), key=len)
    return text, bytes(rnd), runs, small


def deflate_seeds(cls):
    """Inputs of the deflate target: bytes to compress."""
    text, rnd, runs, small = samples(cls)
    return {'text.bin': text, 'random.bin': rnd, 'runs.bin': runs,
            'class.bin': small, 'one-byte.bin': b'x'}


def inflate_seeds(cls):
    """Inputs of the inflate target: output capacity (u2 LE), then a raw
    deflate stream."""
    text, rnd, runs, small = samples(cls)
    out = {}

    def seed(name, data, z, cap=None):
        cap = len(data) if cap is None else cap
        out[name] = struct.pack('<H', cap) + z

    seed('text-6.bin', text, raw_deflate(text))
    seed('text-1-fixed.bin', text[:400],
         raw_deflate(text[:400], 1, zlib.Z_FIXED))
    seed('stored.bin', rnd[:200], raw_deflate(rnd[:200], 0))
    seed('huffman-only.bin', rnd, raw_deflate(rnd, 9,
                                              zlib.Z_HUFFMAN_ONLY))
    seed('rle.bin', runs, raw_deflate(runs, 9, zlib.Z_RLE))
    seed('class-9.bin', small, raw_deflate(small, 9))
    seed('blocks.bin', text, raw_deflate(
        text, 6, flushes=((100, zlib.Z_SYNC_FLUSH),
                          (700, zlib.Z_FULL_FLUSH))))
    seed('empty.bin', b'', raw_deflate(b''))
    seed('short-by-one.bin', text, raw_deflate(text), len(text) - 1)
    z = raw_deflate(text[:500], 9)
    seed('truncated.bin', text[:500], z[:len(z) // 2])

    # hand-made dynamic blocks: one-bit codes that zlib accepts
    class Bits:
        def __init__(self):
            self.b = []

        def put(self, v, n):        # n bits, LSB first
            self.b += [(v >> i) & 1 for i in range(n)]

        def code(self, v, n):       # a Huffman code, MSB first
            self.b += [(v >> i) & 1 for i in reversed(range(n))]

        def data(self):
            b = self.b + [0] * (-len(self.b) % 8)
            return bytes(sum(b[i + j] << j for j in range(8))
                         for i in range(0, len(b), 8))

    def canon(lens):
        """Canonical codes of 'lens' (RFC 1951 3.2.2)."""
        codes, code = [0] * len(lens), 0
        for n in range(1, 16):
            for s, ln in enumerate(lens):
                if ln == n:
                    codes[s] = code
                    code += 1
            code <<= 1
        return codes

    def dynamic(lit, dist, body):
        """Final dynamic block: code lengths 'lit' (257..286 of them) and
        'dist', sent with a code-length code of 4 and 5 bits, each length
        as itself; then 'body', a list of symbols: ('l', s) literal/length
        symbol, ('d', s) distance symbol, ('x', v, n) extra bits."""
        w = Bits()
        w.put(1, 1)
        w.put(2, 2)
        w.put(len(lit) - 257, 5)
        w.put(len(dist) - 1, 5)
        order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14,
                 1, 15]
        pre = [4] * 13 + [5] * 6
        pc = canon(pre)
        w.put(15, 4)
        for s in order:
            w.put(pre[s], 3)
        for ln in lit + dist:
            w.code(pc[ln], pre[ln])
        lc, dc = canon(lit), canon(dist)
        for item in body:
            if item[0] == 'l':
                w.code(lc[item[1]], lit[item[1]])
            elif item[0] == 'd':
                w.code(dc[item[1]], dist[item[1]])
            else:
                w.put(item[1], item[2])
        return w.data()

    lit = [0] * 257
    lit[0] = lit[256] = 1           # literal 0: code 0, end: code 1
    out['one-bit-codes.bin'] = struct.pack('<H', 1) + dynamic(
        lit, [0], [('l', 0), ('l', 256)])
    lit = [0] * 258
    lit[65], lit[256], lit[257] = 1, 2, 2
    # 'A', then length 3 at distance 1 (the one distance code), end
    out['one-distance-code.bin'] = struct.pack('<H', 4) + dynamic(
        lit, [1], [('l', 65), ('l', 257), ('d', 0), ('l', 256)])
    # codes of 1 to 15 bits: 16 literal/length and 16 distance symbols
    syms = [101, 116, 97, 256, 111, 257, 105, 110, 270, 115, 104, 280,
            114, 285, 100, 108]
    lit, dist = [0] * 286, [0] * 30
    for i, s in enumerate(syms):
        lit[s] = dist[i] = min(i + 1, 15)
    body = [('l', c) for c in b'etaoinshrdl' * 3]
    for ds in range(10):            # distances 1..33: match at each
        body += [('l', 285 if ds % 2 else 257), ('d', ds),
                 ('x', 0, [0, 0, 0, 0, 1, 1, 2, 2, 3, 3][ds])]
    body.append(('l', 256))
    n = 33 + 5 * 258 + 5 * 3
    out['long-codes.bin'] = struct.pack('<H', n) + dynamic(lit, dist, body)
    return out


def main():
    tmp = tempfile.mkdtemp()
    try:
        cls = classes(tmp)
        if os.path.isdir(OUT):
            shutil.rmtree(OUT)
        for n, d in cls:
            put('class', n, d)
        for n, d in jars(cls).items():
            put('jar', n, d)
        for n, d in jmods(cls, tmp).items():
            put('jmod', n, d)
        for n, d in jimages(cls).items():
            put('jimage', n, d)
        for n, d in code_seeds(cls):
            put('code', n, d)
        for n, d in CODE_ONLY.items():
            put('code', n, d)
        for n, d in POLICIES.items():
            put('policy', n, d.encode())
        for n, d in POLICY_BYTES.items():
            put('policy', n, d)
        b = builtin_policy()
        if b:
            put('policy', *b)
        for n, d in summaries(cls, tmp).items():
            put('summary', n, d)
        for n, d in inflate_seeds(cls).items():
            put('inflate', n, d)
        for n, d in deflate_seeds(cls).items():
            put('deflate', n, d)
        for n, d in profile_seeds().items():
            put('profile', n, d)
    finally:
        shutil.rmtree(tmp)
    for t in sorted(os.listdir(OUT)):
        fs = os.listdir(os.path.join(OUT, t))
        size = sum(os.path.getsize(os.path.join(OUT, t, f)) for f in fs)
        print('%-7s %3d files %7d bytes' % (t, len(fs), size))


if __name__ == '__main__':
    main()
