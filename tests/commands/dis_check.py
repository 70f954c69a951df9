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
dis's mnemonic, prefixes included ("rep stos", "data16 cs nop", "ds
wrmsr"), white space folded.  dis decodes with libopcodes, objdump's own
decoder, so the check is not of the decoding but of what dis feeds it and
makes of it: the bytes read from the dump at the right addresses, every
instruction start (no lost step where the bytes are the file's), and each
target found and moved with the code.
Prints one PASS or FAIL line (up to 10 mismatches under it).
"""
import re
import subprocess
import sys

from jsondocs import docs

name, obj, path = sys.argv[1], sys.argv[2], sys.argv[3]

def mnem(m):
    return " ".join(m.split())


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
            ref = re.search(r"\s#\s*(?:0x)?([0-9a-f]+)\b", m.group(3))
            text = re.sub(r"\s+#.*$", "", m.group(3))
            tgt = re.match(r"^(?:(?:bnd|notrack|cs|ds)\s+)?(?:call|jmp|j[a-z]+|loop[a-z]*|jrcxz|jecxz)\s+([0-9a-f]+) <", text)
            insns.append({"addr": int(m.group(1), 16), "bytes": m.group(2).replace(" ", ""),
                          "text": mnem(text),
                          "target": int(tgt.group(1), 16) if tgt else None,
                          "ref": int(ref.group(1), 16) if ref else None})
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
        # a RIP-relative operand's address, objdump's "# ADDR": moved
        # with the code, but for a gs: (per-CPU) one before 6.15, an
        # offset into the per-CPU area (the same in the file and the dump)
        oref = int(o["reference"], 16) if o.get("reference") else None
        if oref is not None and not ("gs:" in o["operands"] and oref == t["ref"]):
            oref -= delta
        if oref != t["ref"]:
            bad.append("%s+0x%x: %s: objdump's reference %s, dis %s" % (
                func, t["addr"] - start, t["bytes"], t["ref"] and "%x" % t["ref"],
                o.get("reference")))
            continue
        if not (t["text"] == m or t["text"].startswith(m + " ")) or ot != t["target"]:
            bad.append("%s+0x%x: %s: objdump %s%s, dis %s%s" % (
                func, t["addr"] - start, t["bytes"], t["text"],
                " %x" % t["target"] if t["target"] is not None else "",
                o["mnemonic"], " %x" % ot if ot is not None else ""))
ok = not bad and functions and compared
print("%s %s: dis against objdump -d of %s: %d functions, %d instructions the same bytes "
      "compared (mnemonic, start, target, RIP-relative reference), %d patched or relocated at run time skipped%s%s"
      % ("PASS" if ok else "FAIL", name, obj.split("/")[-1], functions, compared, patched,
         "; %d mismatches" % len(bad) if bad else "",
         "; not compared, objdump knows them by an alias: " + " ".join(aliased) if aliased else ""))
for b in bad[:10]:
    print("  " + b)
sys.exit(0 if ok else 1)
