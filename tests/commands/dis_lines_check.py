#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hold `dis -l` (orccrash --json -e 'dis -l FUNCTION') to addr2line's
reading of the vmlinux: each instruction's source line (the innermost of
its inline chain, as addr2line without -i prints it) must be the line
addr2line gives for its link-time address (the dump address less the
KASLR offset, from the function's address against nm's).

    dis_lines_check.py NAME VMLINUX DIS_L_JSON

The oracles are binutils' addr2line and elfutils' eu-addr2line (when
installed), as tests/realdump/lines.sh settles them: a line either gives
is right (binutils names some DWARF 5 files wrongly).  The alignment
padding after a function's last instruction with a line (nop, int3) lies in no
function's DWARF range, though the line table's last row runs on over it:
dis -l gives it no line, as binutils does for the address alone, and
that is not counted against it.  Files are compared from the source
tree's top (dis -l prints them so, as the trace does); "(discriminator
N)" and a column are dropped; an address an oracle has no line for
matches an instruction with none.
Prints one PASS or FAIL line (up to 10 mismatches under it).
"""
import re
import shutil
import subprocess
import sys

from jsondocs import docs

name, vml, path = sys.argv[1], sys.argv[2], sys.argv[3]
oracles = [p for p in ("addr2line", "eu-addr2line") if shutil.which(p)]
if not oracles:
    print("SKIP %s: dis -l: no addr2line (binutils) or eu-addr2line (elfutils)" % name)
    sys.exit(0)

nm = {}
for line in subprocess.run(["nm", vml], capture_output=True, text=True).stdout.splitlines():
    f = line.split()
    if len(f) == 3:
        nm.setdefault(f[2], int(f[0], 16))

rows = []       # (dump address, file or None, line or None, link address, trailing padding)
functions = 0
for d in docs(open(path).read()):
    r = d.get("result") or {}
    insns = r.get("instructions") or []
    if not insns or r.get("module") or r.get("symbol") not in nm:
        continue
    functions += 1
    delta = int(r["address"], 16) - nm[r["symbol"]]
    # the padding: nop (prefixes and all: "data16 cs nop"; 66 90, the
    # SDM's 2-byte NOP, is objdump's "xchg ax,ax") or int3 after the last
    # instruction with a line
    last = max([n for n, i in enumerate(insns) if i.get("file")], default=-1)
    for n, i in enumerate(insns):
        a = int(i["address"], 16)
        rows.append((a, i.get("file"), i.get("line"), a - delta,
                     n > last and ((i.get("mnemonic") or "").split()[-1:] in (["nop"], ["int3"]) or
                                   (i.get("mnemonic"), i.get("operands")) == ("xchg", "ax,ax"))))
if not any(r[1] for r in rows):
    print("FAIL %s: dis -l: no instruction with a source line in %s (%d instructions)"
          % (name, path, len(rows)))
    sys.exit(0)



def parse(want):
    """(file, line) of an addr2line line; None: no line"""
    want = re.sub(r" \(discriminator \d+\)$", "", want.strip())
    m = re.match(r"^(.*?):(\d+)(?::\d+)?$", want)
    if not m or m.group(1) == "??" or m.group(2) == "0":
        return None
    return m.group(1), int(m.group(2))


answers = []
for prog in oracles:
    out = subprocess.run([prog, "-e", vml] + ["0x%x" % r[3] for r in rows],
                         capture_output=True, text=True).stdout.splitlines()
    if len(out) != len(rows):
        print("FAIL %s: dis -l: %s printed %d lines for %d addresses" % (name, prog, len(out), len(rows)))
        sys.exit(0)
    answers.append([parse(w) for w in out])
bad = []
for n, (addr, file, line, link, padding) in enumerate(rows):
    def same(want):
        if want is None:
            return file is None
        return (file is not None and line == want[1] and
                (want[0] == file or want[0].endswith("/" + file)))
    if file is None and padding:
        continue        # (above)
    if not any(same(a[n]) for a in answers):
        bad.append("0x%x (link 0x%x): dis -l %s:%s, %s" % (
            addr, link, file, line, "; ".join("%s %s" % (p, a[n]) for p, a in zip(oracles, answers))))
if bad:
    print("FAIL %s: dis -l: %d of %d instructions' lines differ from %s" % (
        name, len(bad), len(rows), " and ".join(oracles)))
    for b in bad[:10]:
        print("   " + b)
else:
    print("PASS %s: dis -l: the source line of each of %d instructions (%d functions) as %s gives it"
          % (name, len(rows), functions, " or ".join(oracles)))
