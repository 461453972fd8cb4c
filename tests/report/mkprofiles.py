#!/usr/bin/env python3
"""Writes the two generated profiles of the report suites into the
current folder: deep.xml, a chain DEPTH calls deep (recursion in the
reader or the commands would overflow the stack), and wide.xml, ROWS
top-level nodes of COLS children each over METHODS methods; --cycles
gives wide.xml's leaves a cycles metric, one node a line.

usage: mkprofiles.py DEPTH METHODS ROWS COLS [--cycles]
"""
import sys

depth, methods, rows, cols = (int(a) for a in sys.argv[1:5])
cycles = "--cycles" in sys.argv[5:]
with open("deep.xml", "w") as f:
    f.write('<cct version="1"><method id="1" class="a/R" name="r" desc="()V"/>'
            '<method id="2" class="a/L" name="leaf" desc="()V"/><tree thread="t">\n')
    f.write('<node method="1" calls="1">' * depth)
    f.write('<node method="2" calls="7"/>')
    f.write('</node>' * depth)
    f.write('\n</tree></cct>\n')
with open("wide.xml", "w") as f:
    f.write('<cct version="1">')
    for m in range(1, methods + 1):
        f.write('<method id="%d" class="w/C%d" name="m" desc="()V"/>' % (m, m % 37))
    f.write('<tree thread="t">\n')
    for i in range(rows):
        f.write('<node method="%d" calls="1">' % (i % methods + 1))
        for j in range(cols):
            m = (i * 7 + j) % methods + 1
            if cycles:
                f.write('<node method="%d" calls="%d" cycles="%d"/>\n' % (m, j % 13, j))
            else:
                f.write('<node method="%d" calls="%d"/>' % (m, j % 13))
        f.write('</node>\n')
    f.write('</tree></cct>\n')
