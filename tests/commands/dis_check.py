#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hold `dis` (orccrash --json -e 'dis FUNCTION') to objdump's reading of
the same function in the vmlinux or the module's .ko.

    dis_check.py NAME OBJFILE DIS_JSON

DIS_JSON holds concatenated `dis FUNCTION` documents.  For each, objdump
-d -w -M intel --disassemble=FUNCTION OBJFILE is the oracle, its
addresses moved by the difference between the two first addresses (KASLR,
or a module's load address).  dis reads the code from the dump, as the
kernel patched it at run time (alternatives, jump labels, static calls,
ftrace's __fentry__ calls, return thunks); the file holds it as linked
(and a .ko's relocations unapplied).  So an instruction is compared where
its bytes are the file's: then it must start at the same place, have the
same mnemonic and, for a direct jump or call, the same target.  Where the
bytes differ (patched or relocated) it is counted, not compared; objdump's
instructions that dis has no instruction starting at, inside a stretch of
identical bytes, are a failure (the decoders lost step).

The mnemonic: objdump's text (mnemonic, then operands) must start with
dis's mnemonic.  Capstone spells a string instruction with its size and a
"rep" prefix as objdump does (objdump "rep stos", capstone "rep stosq"):
the size letter of movs/stos/lods/scas/cmps is dropped before comparing;
66 90 is "nop" to capstone, "xchg ax,ax" to objdump (the SDM's 2-byte NOP);
pushfq/popfq are objdump's pushf/popf; a cs/ds prefix on a near branch
(the kernel pads retpoline thunk calls with one) objdump prints and
capstone does not.
Prints one PASS or FAIL line (up to 10 mismatches under it).
"""
import re
import subprocess
import sys

from jsondocs import docs

name, obj, path = sys.argv[1], sys.argv[2], sys.argv[3]

STRING_OPS = re.compile(r"\b(movs|stos|lods|scas|cmps|ins|outs)[bwdq]\b")


def mnem(m):
    m = " ".join(STRING_OPS.sub(r"\1", m.strip()).split())
    m = re.sub(r"\b(pushf|popf)q\b", r"\1", m)
    # a segment override on a near branch (2E/3E: a hint, or padding
    # before a retpoline thunk call): objdump prints it, capstone not
    m = re.sub(r"^(?:cs|ds) (call|jmp|j[a-z]+)\b", r"\1", m)
    # 66 90, the 2-byte NOP (Intel SDM vol. 2B, NOP: "66 90H"): objdump
    # says "xchg ax,ax", capstone "nop"
    return "nop" if m == "xchg ax,ax" else m


def objdump(func):
    out = subprocess.run(["objdump", "-d", "-w", "-M", "intel", "--disassemble=" + func, obj],
                         capture_output=True, text=True).stdout
    insns, start = [], None
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
        if m:
            # the first header is FUNCTION's (objdump may name it by an
            # alias at the same address: memcpy's is __memcpy)
            if start is not None:
                break
            start = int(m.group(1), 16)
            continue
        m = re.match(r"^ *([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(.*)$", line)
        if m and start is not None:
            text = re.sub(r"\s+#.*$", "", m.group(3))
            tgt = re.match(r"^(?:(?:bnd|notrack|cs|ds)\s+)?(?:call|jmp|j[a-z]+|loop[a-z]*|jrcxz|jecxz)\s+([0-9a-f]+) <", text)
            insns.append({"addr": int(m.group(1), 16), "bytes": m.group(2).replace(" ", ""),
                          "text": mnem(text),
                          "target": int(tgt.group(1), 16) if tgt else None})
    return start, insns


compared = patched = functions = 0
bad, aliased = [], []
for d in docs(open(path).read()):
    func = d["args"][-1]
    ours = d["result"]["instructions"]
    start, theirs = objdump(func)
    if start is None:
        # objdump finds a function only by the first name at its
        # address (cleanup_module, not orccrash_exit): no oracle for it
        aliased.append(func)
        continue
    if not ours:
        bad.append("%s: dis printed nothing" % func)
        continue
    functions += 1
    delta = int(ours[0]["address"], 16) - start
    mine = {int(i["address"], 16) - delta: i for i in ours}
    for t in theirs:
        o = mine.get(t["addr"])
        if o is None:
            # inside bytes dis decoded differently because they were
            # patched: the patched instruction covering it was counted
            covering = [i for a, i in mine.items() if a < t["addr"] < a + len(i["bytes"]) // 2]
            if covering and any(c["bytes"] != t["bytes"] for c in covering):
                continue
            bad.append("%s+0x%x: objdump's %s, dis has no instruction there" % (func, t["addr"] - start, t["text"]))
            continue
        if o["bytes"] != t["bytes"]:
            patched += 1
            continue
        compared += 1
        ot = int(o["target"], 16) - delta if o["target"] else None
        # objdump's text is the mnemonic, then the operands
        m = mnem(o["mnemonic"])
        if not (t["text"] == m or t["text"].startswith(m + " ")) or ot != t["target"]:
            bad.append("%s+0x%x: %s: objdump %s%s, dis %s%s" % (
                func, t["addr"] - start, t["bytes"], t["text"],
                " %x" % t["target"] if t["target"] is not None else "",
                o["mnemonic"], " %x" % ot if ot is not None else ""))
ok = not bad and functions and compared
print("%s %s: dis against objdump -d of %s: %d functions, %d instructions the same bytes "
      "compared (mnemonic, start, target), %d patched or relocated at run time skipped%s%s"
      % ("PASS" if ok else "FAIL", name, obj.split("/")[-1], functions, compared, patched,
         "; %d mismatches" % len(bad) if bad else "",
         "; not compared, objdump knows them by an alias: " + " ".join(aliased) if aliased else ""))
for b in bad[:10]:
    print("  " + b)
sys.exit(0 if ok else 1)
