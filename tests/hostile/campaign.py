#!/usr/bin/env python3
"""campaign.py -- the hostile-input campaign against cccp-rewrite.

Generates mutants of real classes, jars, jmods and jimages (see
hostile.py), runs the rewriter on each, and checks the contract of
cccp-rewrite(1) for bad input:

  * no signal, no sanitizer report, no hang (timeout);
  * exit 0 and an output equal to the input (byte-equal class, or the
    same entries checked by cmp-entries and by Python's zipfile), or
  * exit 1, exactly one "cccp-rewrite: FILE: ..." line naming the input
    (and the entry, and an offset for class bytes), no output file and
    no temporary file left behind;
  * nothing is ever written outside the output folder.

The classes section runs class mutants through --identity; container
mutants go through --identity, --copy and, in turn, one of the modes past
parsing (--reencode, the default CCCP mode, --cccp, --analyze), which must
then agree with --identity: the same entries, the classes well-formed,
everything else byte-equal. The modes section sends other class mutants
(half of them with odd bytecode in well-formed classes) and cyclic class
hierarchies through those modes in turn, and the aux section mutated
policy files (--policy) and summaries (--summary).

Usage: campaign.py [options] SECTION...   (sections: classes jars jmods
jimages realimage bombs names modes aux). Prints one summary per section
and every failure; exits 1 when any check failed. Failing inputs are kept
under WORK/failures/.
"""
import argparse
import collections
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
import zipfile

sys.dont_write_bytecode = True    # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile  # noqa: E402

A = None                 # parsed arguments
LOCK = threading.Lock()
FAILS = []
SAN_RE = re.compile(r'Sanitizer|runtime error:|LeakSanitizer')


def fail(section, kind, why, files=()):
    with LOCK:
        n = len(FAILS)
        keep = os.path.join(A.work, 'failures', '%s-%03d-%s' % (section, n,
                                                                 kind))
        os.makedirs(keep, exist_ok=True)
        for f in files:
            if os.path.isfile(f):
                shutil.copy(f, keep)
        FAILS.append('%s/%s: %s [kept in %s]' % (section, kind, why, keep))
        print('  FAIL %s/%s: %s' % (section, kind, why), flush=True)


def run(argv, cwd=None, timeout=None, out=None):
    """(status, stderr) where status is the exit code, 'hang' or
    'signal N'. 'out': a list that receives the standard output."""
    env = dict(os.environ)
    env.setdefault('ASAN_OPTIONS', 'detect_leaks=1:exitcode=86')
    env.setdefault('UBSAN_OPTIONS', 'print_stacktrace=1:exitcode=87')
    try:
        p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env,
                           timeout=timeout or A.timeout)
    except subprocess.TimeoutExpired as e:
        return 'hang', (e.stderr or b'').decode('utf-8', 'replace')
    err = p.stderr.decode('utf-8', 'replace')
    if out is not None:
        out.append(p.stdout)
    if p.returncode < 0:
        return 'signal %d' % -p.returncode, err
    if p.returncode >= 128:
        return 'signal? exit %d' % p.returncode, err
    return p.returncode, err


def listing(d):
    out = []
    for dp, dns, fns in os.walk(d):
        for f in fns:
            out.append(os.path.relpath(os.path.join(dp, f), d))
        for f in dns:
            out.append(os.path.relpath(os.path.join(dp, f), d) + '/')
    return sorted(out)


def error_lines(err):
    lines = [l for l in err.splitlines() if l.strip()]
    return [l for l in lines if not l.startswith('cccp-rewrite: warning:')]


class Box:
    """A per-thread scratch area: in/, out/, cwd/ (the rewriter runs in
    cwd/, which must stay empty, as must everything but out/)."""

    def __init__(self, name):
        self.root = os.path.join(A.work, name)
        shutil.rmtree(self.root, ignore_errors=True)
        self.inp = os.path.join(self.root, 'in')
        self.out = os.path.join(self.root, 'out')
        self.cwd = os.path.join(self.root, 'cwd')
        for d in (self.inp, self.out, self.cwd):
            os.makedirs(d)

    def reset(self):
        for d in (self.out, self.cwd):
            shutil.rmtree(d)
            os.makedirs(d)

    def stray(self):
        """Files that appeared outside out/ (input files excluded)."""
        s = [x for x in listing(self.root)
             if not (x.startswith('in/') or x.startswith('out/') or
                     x in ('in/', 'out/', 'cwd/'))]
        return s


def judge(section, kind, box, inputs, status, err, expect_out, verify,
          want_offset=False, want_entry=None, stats=None):
    """Check one run. 'expect_out' lists the outputs exit 0 must leave in
    box.out (relative names, or None: any); 'verify(outs)' returns None or
    why the outputs are wrong. Returns the outcome name."""
    files = list(inputs)
    outs = listing(box.out)
    stray = box.stray()
    if stray:
        fail(section, kind, 'files written outside the output folder: %s'
             % stray[:5], files)
        return 'fail'
    if SAN_RE.search(err):
        fail(section, kind, 'sanitizer report: %s' %
             SAN_RE.search(err).group(0) + ' ' + err[-3000:], files)
        return 'sanitizer'
    if isinstance(status, str):
        fail(section, kind, status + ' ' + err[-500:], files)
        return status.split()[0]
    if status == 0:
        temps = [o for o in outs if '.cccp-' in o]
        if temps:
            fail(section, kind, 'temporary files left: %s' % temps, files)
            return 'fail'
        if expect_out is not None and sorted(expect_out) != outs:
            fail(section, kind, 'exit 0 but outputs %s, expected %s' %
                 (outs, expect_out), files)
            return 'fail'
        why = verify(outs)
        if why:
            fail(section, kind, 'exit 0 but output differs: ' + why, files)
            return 'fail'
        return 'ok'
    if status != 1:
        fail(section, kind, 'exit %s for bad input (want 0 or 1): %s' %
             (status, err.strip()[-400:]), files)
        return 'exit%s' % status
    ctl = [c for c in err if ord(c) < 0x20 and c not in '\n\t']
    if ctl:
        fail(section, kind, 'control bytes %r in the message: %r' % (
            sorted(set(ctl)), err[-300:]), files)
        return 'fail'
    el = error_lines(err)
    if len(el) != 1:
        fail(section, kind, 'exit 1 with %d error lines: %r' % (len(el),
                                                                el[:4]),
             files)
        return 'fail'
    line = el[0]
    named = any(line.startswith('cccp-rewrite: %s: ' % i) for i in inputs)
    if not named:
        fail(section, kind, 'error does not name the input: ' + line, files)
        return 'fail'
    if want_entry and (': %s: ' % want_entry) not in line:
        fail(section, kind, 'error does not name entry %s: %s' %
             (want_entry, line), files)
        return 'fail'
    if want_offset and not re.search(r': offset \d+: ', line):
        if stats is not None:
            stats['no-offset: ' + line.split(': ', 2)[-1][:60]] += 1
        if 'round-trip' in line:
            fail(section, kind, 'valid class does not round-trip: ' + line,
                 files)
            return 'roundtrip'
        fail(section, kind, 'class error without an offset: ' + line, files)
        return 'fail'
    if outs:
        fail(section, kind, 'exit 1 but left %s in the output folder' % outs,
             files)
        return 'fail'
    return 'rejected'


def class_sources(rng):
    """Real classes: the fuzz corpus plus a random sample of java.base."""
    src = []
    cdir = os.path.join(A.root, 'tests', 'fuzz', 'corpus', 'class')
    for f in sorted(os.listdir(cdir)):
        with open(os.path.join(cdir, f), 'rb') as fh:
            src.append((f, fh.read()))
    z = zipfile.ZipFile(os.path.join(A.jdk, 'jmods', 'java.base.jmod'))
    names = sorted(n for n in z.namelist() if n.endswith('.class') and
                   n.startswith('classes/') and
                   z.getinfo(n).file_size < 24000)
    for n in rng.sample(names, 60):
        src.append((n[8:].replace('/', '_'), z.read(n)))
    out = []
    for n, b in src:
        try:
            out.append((n, b, hostile.walk_class(b)))
        except Exception:   # e.g. the jsr class of the corpus: still fine
            pass
    return out


def pmap(fn, items):
    with concurrent.futures.ThreadPoolExecutor(A.jobs) as ex:
        return list(ex.map(fn, items))


def summary(section, counts, bykind, t0):
    total = sum(counts.values())
    parts = ', '.join('%s %d' % kv for kv in sorted(counts.items()))
    print('%s: %d runs in %.1f s: %s' % (section, total, time.time() - t0,
                                         parts), flush=True)
    for k in sorted(bykind):
        c = bykind[k]
        print('    %-16s %s' % (k, ', '.join('%s %d' % kv for kv in
                                             sorted(c.items()))), flush=True)


def new_stats():
    return collections.Counter(), collections.defaultdict(
        collections.Counter), collections.Counter()


def sandwich(box, i, data, good):
    """A jar in box.inp with class bytes 'data' as p/Bad.class between two
    good classes; (its path, its (name, bytes) entries)."""
    jar = os.path.join(box.inp, 'J%d.jar' % i)
    pairs = [('a/Good.class', good), ('p/Bad.class', data),
             ('z/Good.class', good)]
    with open(jar, 'wb') as f:
        f.write(hostile.build_zip(hostile.zip_entries_from(pairs))[0])
    return jar, pairs


def section_classes():
    """Mutated single classes (identity, -o FILE.class); every other one
    through a mode past parsing (into a jar, or a report), every tenth
    inside a jar (identity must name jar, entry and offset; --lenient must
    copy it through)."""
    t0 = time.time()
    rng = random.Random(A.seed)
    srcs = class_sources(rng)
    n = int(2500 * A.scale)
    weights = [w for _, _, w in hostile.CLASS_MUTATORS]
    jobs = []
    for i in range(n):
        name, b, info = rng.choice(srcs)
        mname, fn, _ = rng.choices(hostile.CLASS_MUTATORS, weights)[0]
        if rng.random() < 0.04:
            other = rng.choice(srcs)[1]
            mname, m = 'splice', hostile.mut_splice(b, info, rng, other)
        else:
            m = fn(b, info, rng)
        jobs.append((i, mname, m, rng.random() < 0.1, srcs[i % len(srcs)]))
    counts, bykind, notes = new_stats()
    boxes = threading.local()

    def past_parsing(i, kind, box, inp, data):
        """Every other mutant also through a mode past parsing, in turn."""
        mode = MODES[(i // 2) % len(MODES)]
        box.reset()
        st, err, extra = mode_run(mode, [inp], box,
                                  ['--summary', small_summary()])

        def verify(outs):
            if mode == '--analyze':
                return report_ok(os.path.join(box.out, 'r.xml'))
            got = jar_entries(os.path.join(box.out, 'o.jar'))
            if len(got) != 1:
                return 'entries %s' % [n for n, _ in got]
            try:
                hostile.walk_class(got[0][1])
            except Exception as e:
                return 'not a well-formed class: %s' % e
            return None
        el = error_lines(err)
        typed = st == 1 and len(el) == 1 and re.search(
            r'method|frames|type|code|bytecode|instruction|cyclic',
            el[0]) is not None
        res = judge('classes', kind + '@' + (mode or '--default')[2:], box,
                    [inp], st, err, ['r.xml'] if mode == '--analyze' else
                    ['o.jar'] + extra, verify,
                    want_offset=data[:4] == b'\xca\xfe\xba\xbe' and
                    not typed, stats=notes)
        with LOCK:
            counts[res + '@' + (mode or '--default')[2:]] += 1

    def one(job):
        i, kind, data, in_jar, (gname, good, _) = job
        if not hasattr(boxes, 'b'):
            boxes.b = Box('classes-%d' % threading.get_ident())
        box = boxes.b
        box.reset()
        inp = os.path.join(box.inp, 'M%d.class' % i)
        with open(inp, 'wb') as f:
            f.write(data)
        st, err = run([A.rewrite, '-q', '-j', '1', '--identity', inp, '-o',
                       os.path.join(box.out, 'M.class')], cwd=box.cwd)

        def same(outs):
            with open(os.path.join(box.out, 'M.class'), 'rb') as f:
                return None if f.read() == data else 'bytes differ'
        # without the magic the file is not taken for a class (a zip then)
        res = judge('classes', kind, box, [inp], st, err, ['M.class'], same,
                    want_offset=data[:4] == b'\xca\xfe\xba\xbe',
                    stats=notes)
        with LOCK:
            counts[res] += 1
            bykind[kind][res] += 1
        if i % 2 == 0:
            past_parsing(i, kind, box, inp, data)
        os.remove(inp)
        if not in_jar or res != 'rejected':
            return
        # the same mutant inside a jar, between two good classes
        box.reset()
        jar, _ = sandwich(box, i, data, good)
        st, err = run([A.rewrite, '-q', '--identity', jar, '-o',
                       os.path.join(box.out, 'o.jar')], cwd=box.cwd)
        res = judge('classes', kind + '@jar', box, [jar], st, err,
                    ['o.jar'], lambda o: 'bad class accepted in a jar',
                    want_offset=True, want_entry='p/Bad.class', stats=notes)
        box.reset()
        st, err = run([A.rewrite, '-q', '--lenient', '--identity', jar, '-o',
                       os.path.join(box.out, 'o.jar')], cwd=box.cwd)
        res2 = judge('classes', kind + '@lenient', box, [jar], st, err,
                     ['o.jar'], lambda o: cmp_entries(jar, box.out + '/o.jar'))
        if res2 == 'ok' and 'p/Bad.class' not in err:
            fail('classes', kind + '@lenient', '--lenient did not warn', [jar])
        with LOCK:
            counts[res + '@jar'] += 1
            counts[res2 + '@lenient'] += 1
        os.remove(jar)

    pmap(one, jobs)
    summary('classes', counts, bykind, t0)
    for k, v in sorted(notes.items()):
        print('    note: %s (%d)' % (k, v))


def cmp_entries(a, b, module=None):
    argv = [A.cmp] + (['-m', module] if module else []) + [a, b]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        return ('cmp-entries: ' + (p.stdout + p.stderr).decode(
            'utf-8', 'replace').strip()[-300:])
    return None


def zip_same(a, b):
    """Same names, sizes and CRCs (for entries too big for cmp-entries)."""
    with zipfile.ZipFile(a) as za, zipfile.ZipFile(b) as zb:
        x = [(i.filename, i.file_size, i.CRC) for i in za.infolist()]
        y = [(i.filename, i.file_size, i.CRC) for i in zb.infolist()]
    return None if x == y else 'entries differ: %s vs %s' % (x[:3], y[:3])


def pyzip_ok(path):
    """Python's zipfile (an independent reader) accepts the jar."""
    try:
        with zipfile.ZipFile(path) as z:
            bad = z.testzip()
            return None if bad is None else 'zipfile: bad CRC in ' + bad
    except Exception as e:
        return 'zipfile: %s' % e


# The modes past parsing: '' is the default mode (CCCP instrumentation).
MODES = ('--reencode', '', '--analyze', '--cccp')
LIB = {}


def base_summary():
    """A summary of java.base (its classes as inputs), made once: the quick
    library of most runs in the modes past parsing (reading java.base.jmod
    costs 0.3 s a run)."""
    if 'sum' not in LIB:
        p = os.path.join(A.work, 'java.base.sum')
        st, err = run([A.rewrite, '-q', '--analyze', os.path.join(
            A.jdk, 'jmods', 'java.base.jmod'), '--emit-summary', p],
            timeout=600)
        if st != 0:
            raise SystemExit('campaign: cannot make %s: %s' % (p, err))
        LIB['sum'] = p
    return LIB['sum']


def small_summary():
    """A committed summary of java/lang/Object and three classes."""
    return os.path.join(A.root, 'tests', 'fuzz', 'corpus', 'summary',
                        'small-0.sum')


def mode_run(mode, inputs, box, lib, out_dir=False):
    """Run cccp-rewrite in 'mode' (one of MODES) on 'inputs' with library
    arguments 'lib'. Output: box.out/o.jar (or one jar per input under
    box.out/ with 'out_dir'), the report box.out/r.xml for --analyze.
    Returns (status, stderr, the CCCP mode's extra outputs)."""
    argv = [A.rewrite, '-q', '-j', '1'] + lib + ([mode] if mode else []) + \
        list(inputs)
    if mode == '--analyze':
        argv += ['--report', os.path.join(box.out, 'r.xml')]
    else:
        argv += ['-o', box.out + '/' if out_dir else
                 os.path.join(box.out, 'o.jar')]
    extra = []
    if mode in ('', '--cccp'):
        extra = ['cccp-rt.jar', 'libcccp-agent.so',
                 'cccp.args' if out_dir else 'o.jar.args',
                 'cccp.summary' if out_dir else 'o.jar.summary']
    st, err = run(argv, cwd=box.cwd)
    return st, err, extra


def jar_entries(path):
    with zipfile.ZipFile(path) as z:
        return [(i.filename, z.read(i)) for i in z.infolist()]


def transformed(out, want):
    """None if jar 'out' holds the entries 'want' ((name, bytes), in order):
    classes well-formed (hostile.walk_class, an independent reader), every
    other entry byte-equal; else why not."""
    why = pyzip_ok(out)
    if why:
        return why
    got = jar_entries(out)
    if [n for n, _ in got] != [n for n, _ in want]:
        return 'entries %s, want %s' % ([n for n, _ in got][:6],
                                        [n for n, _ in want][:6])
    for (n, b), (_, w) in zip(got, want):
        if n.endswith('.class'):
            try:
                hostile.walk_class(b)
            except Exception as e:
                return '%s: not a well-formed class: %s' % (n, e)
        elif b != w:
            return 'bytes of %s differ' % n
    return None


def report_ok(path):
    try:
        ET.parse(path)
    except ET.ParseError as e:
        return 'report is not well-formed: %s' % e
    return None


def jar_bases():
    bases = []
    if A.example and os.path.exists(A.example):
        with zipfile.ZipFile(A.example) as z:
            bases.append([(i.filename, z.read(i)) for i in z.infolist()])
    z = zipfile.ZipFile(os.path.join(A.jdk, 'jmods', 'java.logging.jmod'))
    cls = [n for n in z.namelist() if n.startswith('classes/java/util/'
                                                    'logging/')][:10]
    man = b'Manifest-Version: 1.0\r\n\r\n'
    bases.append([('META-INF/', b''), ('META-INF/MANIFEST.MF', man)] +
                 [(n[8:], z.read(n)) for n in cls] +
                 [('res/readme.txt', b'text ' * 50), ('empty', b'')])
    return bases


def zip_names(z, jmod):
    """Entries of an input zip as the output names them (jmod: the
    classes/ section, prefix dropped)."""
    out = []
    for i in z.infolist():
        n = i.filename
        if jmod:
            if not n.startswith('classes/') or n == 'classes/':
                continue
            n = n[8:]
        out.append((n, i))
    return out


def dedup_check(inp, out):
    """Output = input with later duplicates dropped (first one wins)."""
    try:
        zi, zo = zipfile.ZipFile(inp), zipfile.ZipFile(out)
    except Exception as e:
        return 'zipfile: %s' % e
    seen, want = set(), []
    for n, i in zip_names(zi, inp.endswith('.jmod')):
        if n not in seen:
            seen.add(n)
            want.append((n, i))
    got = zo.infolist()
    if [n for n, _ in want] != [o.filename for o in got]:
        return 'names %s vs %s' % ([n for n, _ in want][:5],
                                   [o.filename for o in got][:5])
    for (n, i), o in zip(want, got):
        # a name ending in '/' is a directory: any data in it is dropped
        if not n.endswith('/') and zi.read(i) != zo.read(o):
            return 'bytes of %s differ' % n
    return None


def container_section(section, make_jobs, count):
    """Shared driver: each job is (kind, filename, bytes, expect); runs
    --identity into a folder, --copy into a jar, then one mode past
    parsing in turn (jimages: --reencode or --analyze) into a folder, with
    a small summary as the library (java/lang/Object and a few classes:
    the container is under test here, and the runs stay cheap): when
    --identity accepted the input, that mode must write the same jars (or
    a well-formed report)."""
    t0 = time.time()
    rng = random.Random(A.seed * 31 + sum(map(ord, section)))
    jobs = make_jobs(rng, int(count * A.scale))
    counts, bykind, _ = new_stats()
    boxes = threading.local()
    lib = ['--summary', small_summary()]

    def one(job):
        i, (kind, fname, data, expect) = job
        if not hasattr(boxes, 'b'):
            boxes.b = Box('%s-%d' % (section, threading.get_ident()))
        box = boxes.b
        inp = os.path.join(box.inp, fname)
        with open(inp, 'wb') as f:
            f.write(data)
        ident = None
        for mode in ('--identity', '--copy'):
            box.reset()
            if mode == '--identity':
                argv = [A.rewrite, '-q', mode, inp, '-o', box.out + '/']
            else:
                argv = [A.rewrite, '-q', mode, inp, '-o',
                        os.path.join(box.out, 'all.jar')]
            if section == 'jimages' and mode == '--copy':
                argv = [A.rewrite, '-q', mode, '--jdk', inp, '-o',
                        box.out + '/']
            st, err = run(argv, cwd=box.cwd)

            def verify(outs):
                for o in outs:
                    p = os.path.join(box.out, o)
                    why = pyzip_ok(p)
                    if why:
                        return o + ': ' + why
                    if expect in ('dups', 'dups-dir'):
                        why = dedup_check(inp, p)
                    elif section == 'jimages' and 'duplicate entry' in err:
                        why = None      # names collide: first one kept
                    elif section == 'jimages':
                        why = cmp_entries(inp, p, o[:-4])
                    else:
                        why = cmp_entries(inp, p)
                    if why:
                        return o + ': ' + why
                if not outs and section != 'jimages':
                    return 'no output'
                return None
            res = judge(section, kind + mode[1:3], box, [inp], st, err, None,
                        verify)
            if res == 'ok' and expect == 'dups' and 'duplicate' not in err:
                fail(section, kind, 'duplicates dropped without a warning',
                     [inp])
            if res == 'ok' and mode == '--identity':
                ident = {o: jar_entries(os.path.join(box.out, o))
                         for o in listing(box.out)}
            with LOCK:
                counts[res] += 1
                bykind[kind][res] += 1
        # one mode past parsing, in turn
        mode = MODES[i % len(MODES)]
        if section == 'jimages':
            mode = ('--reencode', '--analyze')[i % 2]
        box.reset()
        st, err, extra = mode_run(mode, [inp], box, lib, out_dir=True)

        def agrees(outs):
            if mode == '--analyze':
                return report_ok(os.path.join(box.out, 'r.xml'))
            if ident is None:
                return '--identity refused what %s accepted' % mode
            if sorted(outs) != sorted(list(ident) + extra):
                return 'outputs %s, --identity wrote %s' % (outs,
                                                            sorted(ident))
            for o, want in sorted(ident.items()):
                why = transformed(os.path.join(box.out, o), want)
                if why:
                    return o + ': ' + why
            return None
        res = judge(section, kind + (mode or '--default')[1:4], box, [inp],
                    st, err, None, agrees)
        with LOCK:
            counts[res + ' ' + (mode or '--default')[2:]] += 1
            bykind[kind][res] += 1
        os.remove(inp)

    pmap(one, list(enumerate(jobs)))
    summary(section, counts, bykind, t0)


def section_jars():
    bases = jar_bases()

    def make(rng, n):
        out = []
        for i in range(n):
            kind, b, exp = hostile.zip_mutants(rng.choice(bases), rng)
            out.append((kind, 'x%d.jar' % i, b, exp))
        return out
    container_section('jars', make, 500)


JMOD_HEADERS = [b'JM\x02\x00', b'JM\x00\x00', b'JM\x01\x01', b'JX\x01\x00',
                b'', b'JM', b'JM\x01', b'PK\x03\x04', b'\xca\xfe\xba\xbe']


def jmod_base():
    """A real, small jmod made by the jmod tool (the fuzz corpus seed),
    plus one with every section."""
    d = os.path.join(A.root, 'tests', 'fuzz', 'corpus', 'jmod')
    out = []
    for f in ('jmod-tool.zip', 'sections.zip'):
        with zipfile.ZipFile(os.path.join(d, f)) as z:
            out.append([(i.filename, z.read(i)) for i in z.infolist()])
    return out


def section_jmods():
    bases = jmod_base()

    def make(rng, n):
        out = []
        for i in range(n):
            pairs = rng.choice(bases)
            if rng.random() < 0.25:
                good, _ = hostile.build_zip(hostile.zip_entries_from(pairs))
                hdr = rng.choice(JMOD_HEADERS)
                b = hdr + good if rng.random() < 0.7 else hdr
                out.append(('header', 'm%d.jmod' % i, b, None))
                continue
            kind, b, exp = hostile.zip_mutants(pairs, rng,
                                               prefix=b'JM\x01\x00')
            out.append((kind, 'm%d.jmod' % i, b, exp))
        return out
    container_section('jmods', make, 200)


def jimage_resources():
    z = zipfile.ZipFile(os.path.join(A.jdk, 'jmods', 'java.base.jmod'))
    cls = ['java/lang/Runnable.class', 'java/lang/Object.class',
           'java/lang/Void.class', 'java/lang/annotation/Retention.class']
    r = [('java.base', n, z.read('classes/' + n), lvl)
         for n, lvl in zip(cls, (0, 1, 2, 1))]
    r += [('java.base', 'module-info.class', z.read(
        'classes/module-info.class')[:2000], 0),
        ('m.two', 'q/data.txt', b'resource\n' * 20, 1),
        ('modules', 'java.base/java/lang', b'', 0)]
    return r


def section_jimages():
    res = jimage_resources()

    def make(rng, n):
        out = []
        for i in range(n):
            be = rng.random() < 0.2
            kind, b = hostile.jimage_mutants(res, rng, be)
            out.append((kind + ('-be' if be else ''), 'modules%d' % i, b,
                        None))
        return out
    container_section('jimages', make, 250)


def image_data_end(path):
    """(index size, end of the last resource cccp lists) of a little-endian
    image: the /modules and /packages entries and padding come last."""
    import struct
    with open(path, 'rb') as f:
        b = f.read()
    nt, nl, ns = struct.unpack_from('<III', b, 16)
    offs = 28 + 4 * nt
    locs = offs + 4 * nt
    strs = locs + nl
    index = strs + ns
    end = 0
    for i in range(nt):
        p = locs + struct.unpack_from('<I', b, offs + 4 * i)[0]
        a = [0] * 8
        while b[p] >> 3:
            k, n = b[p] >> 3, (b[p] & 7) + 1
            a[k] = int.from_bytes(b[p + 1:p + 1 + n], 'big')
            p += 1 + n
        mod = b[strs + a[1]:b.index(b'\0', strs + a[1])]
        if mod not in (b'', b'modules', b'packages'):
            end = max(end, a[5] + (a[6] or a[7]))
    return index, index + end


def section_realimage():
    """Truncated copies of a real lib/modules: at open, inside the index,
    and one byte short (the last resource is cut)."""
    t0 = time.time()
    box = Box('realimage')
    src = os.path.join(A.jdk, 'lib', 'modules')
    img = os.path.join(box.inp, 'modules')
    shutil.copy(src, img)
    size = os.path.getsize(img)
    data_end = image_data_end(img)
    counts = collections.Counter()
    # descending sizes: one copy, truncated in place
    index, end = data_end
    for what, n in (('last resource byte', end - 1), ('half', size // 2),
                    ('index', index - 1), ('header', 27)):
        os.truncate(img, n)
        box.reset()
        st, err = run([A.rewrite, '-q', '--copy', '--jdk', img, '-o',
                       box.out + '/'], cwd=box.cwd, timeout=120)
        res = judge('realimage', what, box, [img], st, err, None,
                    lambda o: 'a truncated image was accepted')
        counts[res] += 1
        print('    truncated at %s (%d bytes): %s: %s' % (what, n, res,
                                                         err.strip()[-150:]))
    summary('realimage', counts, {}, t0)


def maxrss_run(argv, cwd, timeout=120):
    """run() under /usr/bin/time: (status, stderr, max RSS in MB)."""
    rf = os.path.join(A.work, 'rss.%d' % threading.get_ident())
    st, err = run(['/usr/bin/time', '-f', '%M', '-o', rf] + argv, cwd=cwd,
                  timeout=timeout)
    try:
        with open(rf) as f:
            rss = int(f.read().split()[-1]) / 1024
    except Exception:
        rss = -1
    if isinstance(st, int) and st > 128:
        st = 'signal? exit %d' % st
    return st, err, rss


def section_bombs():
    t0 = time.time()
    box = Box('bombs')
    counts = collections.Counter()
    good = ('a/A.class', zipfile.ZipFile(os.path.join(
        A.jdk, 'jmods', 'java.base.jmod')).read('classes/java/lang/'
                                                'Void.class'))
    cases = []
    e = hostile.ZEntry('huge.bin', b'tiny data')
    e.usize = 0xFFFFFFFE
    cases.append(('declares 4 GiB', [e], [], 1, 'exceeds the limit'))
    e = hostile.ZEntry('huge64.bin', b'tiny data')
    e.zip64, e.usize = True, 1 << 40
    cases.append(('zip64 declares 1 TiB', [e], [], 1, 'limit'))
    cases.append(('300 MiB of zeros', [hostile.bomb_entry('z.bin',
                                                          300 << 20)],
                  [], 1, 'exceeds the limit'))
    cases.append(('300 MiB declared as 1000 B',
                  [hostile.bomb_entry('z.bin', 300 << 20, 1000)], [], 1,
                  'more than the 1000 bytes'))
    cases.append(('300 MiB, --max-entry-size 100M',
                  [hostile.bomb_entry('z.bin', 300 << 20)],
                  ['--max-entry-size', '100M'], 1, 'exceeds the limit'))
    ov = [hostile.bomb_entry('b0.bin', 250 << 20)]
    for k in range(1, 80):
        x = hostile.ZEntry('b%d.bin' % k, b'')
        x.at, x.raw, x.crc = 0, ov[0].raw, ov[0].crc
        x.usize, x.csize = ov[0].usize, ov[0].csize
        ov.append(x)
    cases.append(('80 overlapping entries of 250 MiB (19.5 GiB)', ov, [], 1,
                  'in total'))
    cases.append(('300 MiB of zeros allowed by --max-entry-size 512M',
                  [hostile.bomb_entry('z.bin', 300 << 20)],
                  ['--max-entry-size', '512M'], 0, None))
    many = [hostile.ZEntry('d/e%05d.txt' % k, b'') for k in range(70000)]
    cases.append(('70000 entries (zip64 end records)', many, [], 0, None))
    for what, entries, opts, want, msg in cases:
        box.reset()
        jar = os.path.join(box.inp, 'bomb.jar')
        data, _ = hostile.build_zip([hostile.ZEntry(*good)] + entries)
        with open(jar, 'wb') as f:
            f.write(data)
        t1 = time.time()
        st, err, rss = maxrss_run([A.rewrite, '-q', '--copy'] + opts +
                                  [jar, '-o', box.out + '/o.jar'], box.cwd)
        dt = time.time() - t1
        res = judge('bombs', what, box, [jar], st, err, None,
                    lambda o: None if want == 0 else 'bomb accepted')
        if res not in ('ok', 'rejected'):
            counts['fail'] += 1
            continue
        line = (error_lines(err) or [''])[0]
        ok = (st == want) and (msg is None or msg in line)
        limit = 120 if want else 1400      # MB: refusals must be cheap
        if rss > limit:
            ok = False
            line += ' [max RSS %.0f MB > %d]' % (rss, limit)
        if want == 0 and ok:
            # cmp-entries has the default limit: compare with zipfile
            why = pyzip_ok(box.out + '/o.jar') or zip_same(jar,
                                                          box.out + '/o.jar')
            ok, line = why is None, why or 'equal'
        print('    %-48s %s exit %s, %.0f MB max RSS, %.1f s: %s' % (
            what, 'ok  ' if ok else 'FAIL', st, rss, dt, line[-110:]),
            flush=True)
        if not ok:
            fail('bombs', what, 'wanted exit %d /%s/: %s' % (want, msg, line),
                 [jar] if len(data) < 4 << 20 else [])
        counts['ok' if ok else 'fail'] += 1
        os.remove(jar)
    summary('bombs', counts, {}, t0)


NAMES = [b'../x.class', b'../../../../../tmp/cccp-hostile-escape',
         b'/abs/cccp-hostile.txt', b'a/../../b.txt', b'C:\\win.txt',
         b'..', b'../', b'./dot.txt', b'a//b.txt', b'n' * 4000,
         b'~/home.txt', b'dir/', b'-o', b'caf\xc3\xa9.txt']


def section_names():
    """Entry names that would be dangerous as paths stay plain names, and
    odd names are kept or refused as bad input (exit 1), never an output
    error."""
    t0 = time.time()
    box = Box('names')
    counts = collections.Counter()
    cls = zipfile.ZipFile(os.path.join(A.jdk, 'jmods', 'java.base.jmod')
                          ).read('classes/java/lang/Void.class')
    pairs = [(n, cls if n.endswith(b'.class') else
              b'' if n.endswith(b'/') else b'data ' + n, None)
             for n in NAMES]
    cases = [
        ('dangerous names', pairs, {0}),
        ('empty name', [(b'ok.txt', b'x', None), (b'', b'y', None)], {1}),
        ('name "a" and "a/"', [(b'a', b'x', None), (b'a/', b'', None)],
         {0}),
        # a directory entry that carries data would lose it: bad input
        ('directory entry with data', [(b'd/', b'data', None)], {1}),
        # libzip's reader turns a NUL inside a name into a space (it reads
        # names as C strings): the one rename tolerated, documented
        ('NUL inside a name', [(b'a\x00b.txt', b'x', None),
                               (b'a', b'y', None)], {0, 1}),
        ('non-UTF-8 name, no flag', [(b'\xff\xfe.txt', b'x', 0)], {0, 1}),
        ('non-UTF-8 name, UTF-8 flag', [(b'\xff\xfe.txt', b'x', 0x800)],
         {0, 1}),
        # a bad class (exit 1 under --identity, copied by --copy) whose
        # name would break the one-line message or drive the terminal
        ('newline in a bad name', [(b'p/a\nb.class', cls[:100], None)],
         {0, 1}),
        ('escape in a bad name', [(b'p/\x1b[2J\x1b[31mred.class', cls[:100],
                                   None)], {0, 1}),
    ]
    for label, entries, allowed in cases:
        for mode in ('--identity', '--copy'):
            box.reset()
            jar = os.path.join(box.inp, 'names.jar')
            es = []
            for n, d, fl in entries:
                e = hostile.ZEntry(n, d)
                if fl is not None:
                    e.flags = fl
                es.append(e)
            with open(jar, 'wb') as f:
                f.write(hostile.build_zip(es)[0])
            before = set(os.listdir('/tmp')) | set(os.listdir('/'))
            st, err = run([A.rewrite, '-q', mode, jar, '-o', box.out + '/'],
                          cwd=box.cwd)
            after = set(os.listdir('/tmp')) | set(os.listdir('/'))
            new = sorted(x for x in after - before if 'cccp-hostile' in x or
                         x == 'abs')
            if new:
                fail('names', label, 'written outside: %s' % new, [jar])

            def verify(outs):
                out = os.path.join(box.out, outs[0])
                try:
                    with zipfile.ZipFile(out) as z:
                        got = [i.orig_filename for i in z.infolist()]
                except Exception as e:
                    return 'Python cannot read the output: %s' % e
                with zipfile.ZipFile(jar) as z:
                    want = [i.orig_filename.replace('\x00', ' ')
                            for i in z.infolist()]
                if got != want:
                    return 'names differ: %r vs %r' % (
                        [g[:40] for g in got], [w[:40] for w in want])
                return cmp_entries(jar, out)
            res = judge('names', label + ' ' + mode, box, [jar], st, err,
                        ['names.jar'], verify)
            if res in ('ok', 'rejected') and st not in allowed:
                fail('names', label + ' ' + mode, 'exit %s, wanted %s: %s'
                     % (st, sorted(allowed), err.strip()[-200:]), [jar])
                res = 'fail'
            print('    %-28s %-10s exit %s: %s' % (
                label, mode, st, res + ('' if st == 0 else
                                        ' ' + err.strip()[-100:])),
                flush=True)
            counts[res] += 1
    summary('names', counts, {}, t0)


def tiny_class(name, sup, ifaces=(), acc=0x21):
    """A class file with no members: 'name' extends 'sup' (None: no
    superclass) and implements 'ifaces'."""
    import struct
    cp = []

    def cls(n):
        cp.append(b'\x01' + struct.pack('>H', len(n)) + n.encode())
        cp.append(b'\x07' + struct.pack('>H', len(cp)))
        return len(cp)
    this = cls(name)
    sup = cls(sup) if sup else 0
    ii = [cls(i) for i in ifaces]
    return (struct.pack('>IHHH', 0xCAFEBABE, 0, 52, len(cp) + 1) +
            b''.join(cp) + struct.pack('>HHHH', acc, this, sup, len(ii)) +
            b''.join(struct.pack('>H', i) for i in ii) + b'\0' * 6)


def cycles(rng):
    """(kind, entries) of class hierarchies with a cycle."""
    k = rng.randrange(6)
    obj = 'java/lang/Object'
    if k == 0:
        return 'cycle-self', [('p/C.class', tiny_class('p/C', 'p/C'))]
    if k == 1:
        return 'cycle-two', [('p/A.class', tiny_class('p/A', 'p/B')),
                             ('p/B.class', tiny_class('p/B', 'p/A'))]
    if k == 2:
        n = rng.randint(3, 40)
        return 'cycle-long', [('p/L%d.class' % i, tiny_class(
            'p/L%d' % i, 'p/L%d' % ((i + 1) % n))) for i in range(n)]
    if k == 3:
        return 'cycle-iface', [
            ('p/I.class', tiny_class('p/I', obj, ['p/J'], 0x601)),
            ('p/J.class', tiny_class('p/J', obj, ['p/I'], 0x601)),
            ('p/K.class', tiny_class('p/K', obj, ['p/I']))]
    if k == 4:          # a class extends a library class that extends it
        return 'cycle-library', [('p/S.class', tiny_class(
            'java/lang/Object', 'p/S')), ('p/T.class', tiny_class(
                'p/S', 'java/lang/Object'))]
    return 'cycle-below', [('p/D.class', tiny_class('p/D', 'p/E')),
                           ('p/E.class', tiny_class('p/E', 'p/D')),
                           ('p/F.class', tiny_class('p/F', 'p/D'))]


def section_modes():
    """Mutated classes between two good ones in a jar, through the modes
    that go past parsing: --reencode (IR, frames, re-encoding), the default
    mode and --cccp (hierarchy, analysis, instrumentation) and --analyze
    (with --report); and jars holding a cyclic class hierarchy. The library
    is java.base, as it would be for an application: every fourth run
    reads java.base.jmod (--classpath), the others its summary. Exit
    0 must leave a readable jar with the input's entries, classes
    well-formed (and, for CCCP, the args file and the runtime jar) or a
    well-formed report; exit 1 must name the jar and the bad entry and
    leave nothing. A class whose bytecode cannot be re-typed may be
    rejected without a byte offset (the method is named instead), as may
    a cycle (the entry of its first class is named)."""
    t0 = time.time()
    rng = random.Random(A.seed + 7)
    srcs = class_sources(rng)
    base = os.path.join(A.jdk, 'jmods', 'java.base.jmod')
    libs = (['--classpath', base], ['--summary', base_summary()],
            ['--summary', base_summary()], ['--summary', base_summary()])
    n = int(1000 * A.scale)
    muts = hostile.CLASS_MUTATORS + hostile.CODE_MUTATORS
    # half the mutants keep the class well-formed and change its code
    cw = sum(w for _, _, w in hostile.CLASS_MUTATORS)
    kw = sum(w for _, _, w in hostile.CODE_MUTATORS)
    weights = [w for _, _, w in hostile.CLASS_MUTATORS] + \
        [w * cw / kw for _, _, w in hostile.CODE_MUTATORS]
    jobs = []
    for i in range(n):
        name, b, info = rng.choice(srcs)
        good = srcs[i % len(srcs)][1]
        if i % 12 == 11:
            kind, es = cycles(rng)
        else:
            mname, fn, _ = rng.choices(muts, weights)[0]
            kind, es = mname, [('p/Bad.class', fn(b, info, rng))]
        mode = MODES[(i + i // 12) % len(MODES)]    # cycles too, in turn
        jobs.append((i, mode, libs[(i // 4) % 4], kind,
                     [('a/Good.class', good)] + es + [('z/Good.class',
                                                       good)]))
    counts, bykind, notes = new_stats()
    boxes = threading.local()

    def one(job):
        i, mode, lib, kind, pairs = job
        if not hasattr(boxes, 'b'):
            boxes.b = Box('modes-%d' % threading.get_ident())
        box = boxes.b
        box.reset()
        jar = os.path.join(box.inp, 'J%d.jar' % i)
        with open(jar, 'wb') as f:
            f.write(hostile.build_zip(hostile.zip_entries_from(pairs))[0])
        st, err, extra = mode_run(mode, [jar], box, lib)
        if mode == '--analyze':
            want = ['r.xml']

            def verify(outs):
                return report_ok(os.path.join(box.out, 'r.xml'))
        else:
            want = ['o.jar'] + extra

            def verify(outs):
                return transformed(os.path.join(box.out, 'o.jar'), pairs)
        el = error_lines(err)
        typed = st == 1 and len(el) == 1 and re.search(
            r'method|frames|type|code|bytecode|instruction|cyclic',
            el[0]) is not None
        res = judge('modes', (mode or '--default')[2:] + ':' + kind, box,
                    [jar], st, err, want, verify, want_offset=not typed,
                    want_entry=pairs[1][0] if len(pairs) == 3 else None,
                    stats=notes)
        if res == 'rejected' and kind.startswith('cycle'):
            named = [nm for nm, _ in pairs[1:-1] if ': %s: ' % nm in el[0]]
            if not named or 'cyclic' not in el[0]:
                fail('modes', kind, 'a cycle not named by one of its '
                     'entries: ' + el[0], [jar])
                res = 'fail'
        with LOCK:
            counts['%s %s' % ((mode or '--default')[2:], res)] += 1
            bykind[kind][res] += 1
        os.remove(jar)

    pmap(one, jobs)
    summary('modes', counts, bykind, t0)
    for k, v in sorted(notes.items()):
        print('    note: %s (%d)' % (k, v))


def policy_mutant(seeds, rng):
    """(kind, bytes) of a mutated policy file."""
    b = bytearray(rng.choice(seeds))
    k = rng.choice(['truncate', 'bitflip', 'byte', 'insert', 'splice-text',
                    'attribute', 'entity', 'encoding', 'nesting', 'huge'])
    if k == 'truncate':
        return k, bytes(b[:rng.randrange(len(b) + 1)])
    if k == 'bitflip':
        for _ in range(rng.choice((1, 1, 3))):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        return k, bytes(b)
    if k == 'byte':
        b[rng.randrange(len(b))] = rng.choice(
            [0, 0x1b, 0x80, 0xc3, 0xff, ord('<'), ord('&'), ord('"')])
        return k, bytes(b)
    at = rng.randrange(len(b) + 1)
    if k == 'insert':
        junk = rng.choice([b'<', b'>', b'&', b'&amp;', b'&#0;', b'&#x110000;',
                           b']]>', b'<![CDATA[x]]>', b'<?pi x?>',
                           b'<!-- c -->', b'\xef\xbb\xbf', b'\x00',
                           b"<nonwrappable name='x'/>", b'\xc3\xa9'])
        return k, bytes(b[:at] + junk + b[at:])
    if k == 'splice-text':
        other = rng.choice(seeds)
        q = rng.randrange(len(other))
        return k, bytes(b[:at] + other[q:q + rng.randint(1, 80)] + b[at:])
    if k == 'attribute':
        v = rng.choice(['', '*', '**', '0', '2', '-1', 'x' * 5000,
                        '\u00e9\u4e2d\U0001f600', '&lt;&gt;', '\t\n'])
        a = rng.choice(['class', 'name', 'desc', 'annotation', 'native',
                        'virtual', 'sigpoly', 'id', 'why', 'version',
                        'other'])
        e = rng.choice(['nonoverloadable', 'nonwrappable', 'overloadable',
                        'wrappable', 'policy', 'rule'])
        body = ("<%s %s='%s'/>" % (e, a, v.replace("'", ''))).encode()
        return k, b'<policy>' + body + b'</policy>'
    if k == 'entity':
        return k, rng.choice([
            b'<!DOCTYPE policy SYSTEM "http://127.0.0.1:9/p.dtd"><policy/>',
            b'<?xml version="1.0"?>\n<!DOCTYPE p [<!ENTITY e SYSTEM '
            b'"file:///etc/passwd">]><policy why="&e;"/>',
            b'<policy><nonwrappable name="&e;"/></policy>',
            b'<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" '
            b'href="/etc/passwd"/>'])
    if k == 'encoding':
        enc = rng.choice(['UTF-16', 'UTF-16LE', 'ISO-8859-1', 'EBCDIC',
                          'ISO-2022-JP', 'UTF-32', 'no-such-charset'])
        return k, ('<?xml version="1.0" encoding="%s"?>\n' % enc).encode() \
            + bytes(b[rng.randrange(2) * b.find(b'<policy'):])
    if k == 'nesting':
        d = rng.choice((10, 300, 5000))
        return k, b'<policy>' + b'<a>' * d + b'</a>' * d + b'</policy>'
    n = rng.choice((1000, 20000))
    return k, (b'<policy>' + b"<nonwrappable class='p/*' name='m'/>\n" * n +
               b'</policy>')


def fix_summary(b):
    """A summary with its payload length and CRC-32 made right, so that a
    mutant gets past the checksum (as the summary fuzz target does)."""
    import struct
    import zlib
    if len(b) < 24 or b[:8] != b'CCCPHIER':
        return b
    b = bytearray(b)
    struct.pack_into('>Q', b, 16, len(b) - 24)
    struct.pack_into('>I', b, 12, zlib.crc32(bytes(b[24:])) & 0xffffffff)
    return bytes(b)


def summary_mutant(seeds, rng):
    b = bytearray(rng.choice(seeds))
    k = rng.choice(['truncate', 'bitflip', 'byte', 'u32', 'insert-delete'])
    p = rng.randrange(24 if rng.random() < 0.2 else len(b))
    if k == 'truncate':
        b = b[:p]
    elif k == 'bitflip':
        b[p] ^= 1 << rng.randrange(8)
    elif k == 'byte':
        b[p] = rng.choice((0, 1, 0x7f, 0x80, 0xff))
    elif k == 'u32':
        p = min(p, len(b) - 4)
        b[p:p + 4] = rng.choice((0, 1, 0xffff, 0x7fffffff, 0xffffffff,
                                 len(b))).to_bytes(4, 'big')
    else:
        n = rng.randint(1, 16)
        b = b[:p] + (bytes(rng.randrange(256) for _ in range(n))
                     if rng.random() < 0.5 else b'') + b[p + n:]
    if rng.random() < 0.8:
        return k + '+crc', fix_summary(bytes(b))
    return k, bytes(b)


def section_aux():
    """The other files users hand over: mutated policy files (--policy,
    printed with --print-policy, or used by --analyze) and mutated summary
    files (--summary, in the default mode and with --analyze). Exit 0 with
    a policy that prints as well-formed XML, an instrumented jar or a
    well-formed report; or exit 1 with one line naming the file, and
    nothing written."""
    t0 = time.time()
    rng = random.Random(A.seed + 11)
    pdir = os.path.join(A.root, 'tests', 'fuzz', 'corpus', 'policy')
    pseeds = [open(os.path.join(pdir, f), 'rb').read()
              for f in sorted(os.listdir(pdir))]
    pseeds = [x for x in pseeds if x] or [b'<policy/>']
    sdir = os.path.join(A.root, 'tests', 'fuzz', 'corpus', 'summary')
    sseeds = [open(os.path.join(sdir, f), 'rb').read()
              for f in sorted(os.listdir(sdir))]
    jobs = []
    for i in range(int(500 * A.scale)):
        kind, b = policy_mutant(pseeds, rng)
        jobs.append((i, 'policy', kind, b))
    for i in range(int(500 * A.scale)):
        kind, b = summary_mutant(sseeds, rng)
        jobs.append((i, 'summary', kind, b))
    counts, bykind, _ = new_stats()
    boxes = threading.local()

    def one(job):
        i, what, kind, data = job
        if not hasattr(boxes, 'b'):
            boxes.b = Box('aux-%d' % threading.get_ident())
        box = boxes.b
        box.reset()
        f = os.path.join(box.inp, '%s%d.%s' % (what, i, 'xml' if what ==
                                                'policy' else 'sum'))
        with open(f, 'wb') as fh:
            fh.write(data)
        stdout = []
        if what == 'policy' and i % 2 == 0:
            mode = 'print'
            st, err = run([A.rewrite, '-q', '--policy', f, '--print-policy'],
                          cwd=box.cwd, out=stdout)
            want = []

            def verify(outs):
                try:
                    root = ET.fromstring(stdout[0])
                except ET.ParseError as e:
                    return 'printed policy is not well-formed: %s' % e
                return None if root.tag == 'policy' else 'root ' + root.tag
        else:
            mode = 'analyze' if what == 'policy' or i % 2 else 'default'
            opt = ['--policy', f, '--summary', small_summary()] \
                if what == 'policy' else ['--summary', f]
            st, err, extra = mode_run('--analyze' if mode == 'analyze'
                                      else '', [A.example], box, opt)
            if mode == 'analyze':
                want = ['r.xml']

                def verify(outs):
                    return report_ok(os.path.join(box.out, 'r.xml'))
            else:
                want = ['o.jar'] + extra

                def verify(outs):
                    return transformed(os.path.join(box.out, 'o.jar'),
                                       jar_entries(A.example))
        res = judge('aux', '%s-%s:%s' % (what, mode, kind), box, [f], st, err,
                    want, verify)
        with LOCK:
            counts['%s-%s %s' % (what, mode, res)] += 1
            bykind['%s-%s' % (what, kind)][res] += 1
        os.remove(f)

    pmap(one, jobs)
    summary('aux', counts, bykind, t0)


SECTIONS = {'classes': section_classes, 'jars': section_jars,
            'jmods': section_jmods, 'jimages': section_jimages,
            'realimage': section_realimage, 'bombs': section_bombs,
            'names': section_names, 'modes': section_modes,
            'aux': section_aux}


def main():
    global A
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--rewrite', required=True)
    ap.add_argument('--cmp', required=True, help='cmp-entries tool')
    ap.add_argument('--work', required=True)
    ap.add_argument('--root', default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), '..', '..'))
    ap.add_argument('--jdk', default='/usr/lib/jvm/java-17-openjdk-amd64')
    ap.add_argument('--example', default=None)
    ap.add_argument('--seed', type=int, default=20260)
    ap.add_argument('--scale', type=float, default=1.0)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=10)
    ap.add_argument('sections', nargs='+', choices=sorted(SECTIONS))
    A = ap.parse_args()
    for k in ('rewrite', 'cmp', 'work', 'root', 'example'):
        if getattr(A, k):
            setattr(A, k, os.path.abspath(getattr(A, k)))
    os.makedirs(A.work, exist_ok=True)
    for s in A.sections:
        SECTIONS[s]()
    print('campaign: %d failures' % len(FAILS))
    return 1 if FAILS else 0


if __name__ == '__main__':
    sys.exit(main())
