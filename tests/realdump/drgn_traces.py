#!/usr/bin/env python3
"""Hold orccrash's task list and traces to drgn's (ref/drgn.txt).

usage: drgn_traces.py NAME ORCCRASH_JSON REF_DRGN_TXT

ORCCRASH_JSON is `orccrash --json --all-tasks VMCORE VMLINUX`; REF_DRGN_TXT
is samples/drgn-ref.py's output as samples/make-samples.sh keeps it: one or
more attempts (Debian 12's drgn, then sid's), each ending "# exit status N".
The first attempt that exited 0 with every trace read is the oracle; none:
SKIP.

* task list: the same (pid, comm) pairs as drgn's for_each_task() (which
  skips the idle tasks: ours beyond that are reported).
* traces: for each task drgn unwound that is not on a CPU, our frames
  expanded as drgn prints them (each inlined call, innermost first, then
  the function; assembly without DWARF as sym+off/size) must be drgn's
  function names and file:line, frame for frame, up to the first
  user-space address, with drgn's pc of every frame (#pc lines; refs
  made before them: the names alone).
* the task on each CPU (with #pc lines): drgn's frames must be ours from
  drgn's first pc on (we show the crash NMI's frames before them).
Prints PASS/FAIL/SKIP lines.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import parse_blocks  # noqa: E402 (the @KIND ... @end blocks)


def attempts(path):
    cur, out = None, []
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if re.match(r"^# (sid-chroot\.sh run )?python3 samples/drgn-ref\.py ", line):
            cur = {"head": line, "lines": [], "rc": None}
            out.append(cur)
        elif cur is not None:
            m = re.match(r"^# exit status (\d+)$", line)
            if m:
                cur["rc"] = int(m.group(1))
                cur = None
            else:
                cur["lines"].append(line)
    return out


FRAME = re.compile(r"^#\d+\s+(\S+)(?: \((.*)\))?$")


def drgn_frames(lines):
    """[(name, file:line, pc or None, (off, size) or None)] up to the
    first user address; None on error."""
    out, pcs, user = [], [], False
    for line in lines:
        if line.startswith("error:"):
            return None
        if line.startswith("#pc "):
            pcs = [int(x, 16) for x in line.split()[1:]]
            continue
        m = FRAME.match(line)
        if not m or user:
            continue
        name, where = m.group(1), m.group(2) or ""
        if name.startswith("0x") or name == "???":
            user = True
            continue
        # "file:line:col" or "file:line": compare file:line
        where = ":".join(where.split(":")[:2])
        r = re.match(r"^(.*)\+0x([0-9a-f]+)/0x([0-9a-f]+)$", name)
        rng = (int(r.group(2), 16), int(r.group(3), 16)) if r else None
        out.append([r.group(1) if r else name, where, None, rng])
    for f, pc in zip(out, pcs):
        f[2] = pc
    return out


def our_frames(task):
    """[(name, file:line or None, ip, offset)], drgn's order"""
    out = []
    for f in task.get("frames", []):
        if f.get("scanned"):
            continue
        if f.get("symbol") is None:
            break
        ip = int(f["ip"], 16)
        for i in f.get("inlines") or []:
            out.append((i["function"], "%s:%s" % (i.get("file"), i.get("line")), ip, f["offset"]))
        out.append((f["symbol"], "%s:%s" % (f.get("file"), f.get("line"))
                    if f.get("file") else None, ip, f["offset"]))
    return out


def same(ours, theirs):
    """Frame for frame: drgn's function and file:line.  Where drgn names
    an ELF symbol (sym+off/size: assembly without DWARF) and we name
    another one (the kernel's kallsyms picks the inner label, e.g.
    entry_SYSCALL_64_after_hwframe inside entry_SYSCALL_64), the pc must
    be ours (without drgn's pcs: our symbol must start inside drgn's)."""
    if len(ours) < len(theirs):
        return False
    for (on, ow, oip, ooff), (tn, tw, tpc, trng) in zip(ours, theirs):
        if tpc is not None and tpc != oip:
            return False
        if on != tn:
            # a gcc clone's part (__handle_sysrq.cold): drgn names the
            # DWARF function, kallsyms (and we) the ELF symbol
            # (without drgn's pcs, refs made before the #pc lines: the
            # same file:line)
            if on.startswith(tn + ".") and (
                    tpc is not None or
                    (ow is not None and tw and (ow == tw or tw.endswith("/" + ow)))):
                continue
            if trng is None:
                return False
            if tpc is None and not ooff <= trng[0] < trng[1]:
                return False
        elif ow is not None and tw and ow != tw and not tw.endswith("/" + ow):
            # drgn 0.0.22 names assembly files by their build path
            return False
    return True


def main():
    name, js, ref = sys.argv[1:4]
    good = [a for a in attempts(ref) if a["rc"] == 0 and
            any(l.startswith("@task ") for l in a["lines"]) and
            not any(l.startswith("error:") for l in a["lines"])]
    if not good:
        print("SKIP %s: no drgn attempt in %s read every trace" % (name, ref))
        return 0
    att = good[0]
    who = "drgn (%s)" % ("sid" if "sid-chroot" in att["head"] else "Debian 12")
    bl = [(b["kind"], b["attrs"], b["lines"]) for b in parse_blocks(att["lines"])]
    report = json.load(open(js))
    ours = {t["pid"]: t for t in report["tasks"]}
    tasks = [(int(a["pid"]), a["comm"], fr) for k, a, fr in bl if k == "task"]
    oncpu = {int(a["pid"]) for k, a, fr in bl if k == "cpu"}
    theirs = {(p, c) for p, c, _ in tasks}
    mine = {(p, t["comm"].replace(" ", "_") or "?") for p, t in ours.items() if p != 0}
    missing, extra = theirs - mine, mine - theirs
    if missing or extra:
        print("FAIL %s: task list differs from %s: missing %s, extra %s" % (
            name, who, sorted(missing)[:5], sorted(extra)[:5]))
    else:
        print("PASS %s: the %d tasks of %s's list" % (name, len(theirs), who))
    bad, n = [], 0
    for pid, comm, fr in tasks:
        if pid in oncpu or pid not in ours:
            continue
        want = drgn_frames(fr)
        if not want:
            continue
        n += 1
        got = our_frames(ours[pid])
        if not same(got, want):
            bad.append("pid %d %s: drgn %s, ours %s" % (pid, comm, [f[:2] for f in want],
                                                          [f[:2] for f in got[:len(want) + 1]]))
    # The tasks on a CPU: drgn unwinds from the registers of the CPU's
    # note, we from the same and, on a CPU stopped by the crash NMI, from
    # the NMI stack before them: drgn's frames must be ours from its
    # first pc on.
    cbad, cn = [], 0
    for kind, a, fr in bl:
        pid = int(a.get("pid", -1))
        if kind != "cpu" or pid not in ours:
            continue
        want = drgn_frames(fr)
        if not want or want[0][2] is None:
            continue
        cn += 1
        got = our_frames(ours[pid])
        k = next((i for i, f in enumerate(got) if f[2] == want[0][2]), None)
        if k is None or not same(got[k:], want):
            cbad.append("cpu %s pid %d: drgn %s, ours %s" % (a.get("cpu"), pid, [f[0] for f in want],
                                                           [f[0] for f in got]))
    if cbad:
        print("FAIL %s: %d of %d on-CPU traces differ from %s" % (name, len(cbad), cn, who))
        for b in cbad[:3]:
            print("  " + b)
    elif cn:
        print("PASS %s: %d on-CPU traces equal %s's from its first pc on" % (name, cn, who))
    if n == 0:
        print("FAIL %s: no sleeping task's trace from %s to compare" % (name, who))
    elif bad:
        print("FAIL %s: %d of %d sleeping tasks' traces differ from %s" % (name, len(bad), n, who))
        for b in bad[:5]:
            print("  " + b)
    else:
        print("PASS %s: %d sleeping tasks' traces equal %s's, frame for frame "
              "(inlined calls, file:line)" % (name, n, who))
    return 0


if __name__ == "__main__":
    sys.exit(main())
