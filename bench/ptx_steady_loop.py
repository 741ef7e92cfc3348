#!/usr/bin/env python3
"""Static instruction counts of the sweep kernel's steady loop in a PTX file.

usage: python3 bench/ptx_steady_loop.py FILE.ptx [NB]

The steady loop (--tile=sweep, --steady with --steady-unroll) is the loop
(a label and the backward branch to it) with the most bar.sync
instructions (NB of them: one per unrolled sweep step; the generic loops
have one). Prints its instruction count, per opcode class, and the virtual
registers the kernel declares (.reg; ptxas allocates the real ones).
"""
import re
import sys
from collections import Counter


def main():
    text = open(sys.argv[1]).read().split('\n')
    labels = {}
    for i, l in enumerate(text):
        m = re.match(r'^\$?(L\w+|\$L\w+):', l.strip())
        if m:
            labels[m.group(1)] = i
    best = None
    for i, l in enumerate(text):
        m = re.search(r'\bbra(?:\.uni)?\s+(\$?L\w+);', l)
        if not m or m.group(1) not in labels or labels[m.group(1)] > i:
            continue
        lo = labels[m.group(1)]
        bars = sum('bar.sync' in x for x in text[lo:i + 1])
        if best is None or bars > best[0] or (bars == best[0] and i - lo < best[2] - best[1]):
            best = (bars, lo, i)
    if best is None:
        print('no loop found')
        return 1
    bars, lo, hi = best
    ins = [x.strip() for x in text[lo:hi + 1] if x.strip().endswith(';') and not x.strip().startswith(('.', '//'))]
    kinds = Counter()
    for x in ins:
        op = x.split()[0]
        if op.startswith('@'):
            op = x.split()[1]
        base = op.split('.')[0]
        if base in ('ld', 'st'):
            space = op.split('.')[1] if '.' in op else ''
            base = f'{base}.{space}'
        kinds[base] += 1
    regs = {}
    for l in text:
        m = re.match(r'\s*\.reg\s+\.(\w+)\s+%(\w+)<(\d+)>;', l)
        if m:
            regs[m.group(1)] = int(m.group(3))
    print(f'steady loop: {len(ins)} instructions, {bars} bar.sync, lines {lo + 1}-{hi + 1}')
    print('  ' + ', '.join(f'{k} {v}' for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])))
    print('  virtual registers: ' + ', '.join(f'.{k} {v}' for k, v in regs.items()))
    return 0


if __name__ == '__main__':
    sys.exit(main())
