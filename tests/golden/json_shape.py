#!/usr/bin/env python3
"""Check an orccrash --json report against the shape in docs/json.md.
Prints PASS/FAIL lines; exits non-zero on a mismatch."""
import json
import re
import sys

HEX = re.compile(r"^0x[0-9a-f]+$")
HOWS = {"start", "orc", "cfi", "callsite", "fp", "scan"}
STACKS = {"task", "irq", "nmi", "df", "db", "mc", "vc", "vc2", "entry", "unknown", "softirq"}
errors = []


def need(obj, key, types, where, nullable=False):
    if key not in obj:
        errors.append("%s: no %r" % (where, key))
        return None
    v = obj[key]
    if v is None and nullable:
        return None
    if not isinstance(v, types) or (isinstance(v, bool) and bool not in
                                    (types if isinstance(types, tuple) else (types,))):
        errors.append("%s.%s: %r is not %s" % (where, key, v, types))
        return None
    return v


def hexstr(obj, key, where, nullable=False):
    v = need(obj, key, str, where, nullable)
    if v is not None and not HEX.match(v):
        errors.append("%s.%s: %r is not a 0x hex string" % (where, key, v))


def frame(f, where):
    hexstr(f, "ip", where)
    hexstr(f, "sp", where)
    sym = need(f, "symbol", str, where, nullable=True)
    need(f, "offset", int, where, nullable=sym is None)
    need(f, "size", int, where, nullable=sym is None)
    need(f, "module", str, where, nullable=True)
    st = need(f, "stack", str, where)
    if st is not None and st not in STACKS:
        errors.append("%s.stack: %r" % (where, st))
    need(f, "reliable", bool, where)
    scanned = need(f, "scanned", bool, where)
    how = need(f, "how", str, where)
    if how is not None and how not in HOWS:
        errors.append("%s.how: %r" % (where, how))
    if scanned and how != "scan":
        errors.append("%s.how: %r for a scanned entry" % (where, how))
    need(f, "file", str, where, nullable=True)
    need(f, "line", int, where, nullable=True)
    regs = need(f, "regs", dict, where, nullable=True)
    if regs is not None:
        kind = need(regs, "kind", str, where + ".regs")
        for r in ("ip", "cs", "flags", "sp", "ss"):
            hexstr(regs, r, where + ".regs")
        if kind == "pt_regs":
            for r in ("ax", "bx", "cx", "dx", "si", "di", "bp", "r8", "r9", "r10",
                      "r11", "r12", "r13", "r14", "r15", "orig_ax"):
                hexstr(regs, r, where + ".regs")


def trace(t, where):
    frames = need(t, "frames", list, where) or []
    for i, f in enumerate(frames):
        frame(f, "%s.frames[%d]" % (where, i))
    stop = need(t, "stop", str, where)
    if stop is not None and not re.match(r"^(end of stack|user mode|error: .+|frame limit)", stop):
        errors.append("%s.stop: %r" % (where, stop))
    need(t, "reliable", bool, where)
    return len(frames)


def main():
    doc = json.load(open(sys.argv[1]))
    k = need(doc, "kernel", dict, "$") or {}
    need(k, "release", str, "kernel")
    hexstr(k, "kaslr_offset", "kernel")
    need(k, "cpus", int, "kernel")
    p = need(k, "panic", dict, "kernel") or {}
    need(p, "cpu", int, "kernel.panic", nullable=True)
    need(p, "pid", int, "kernel.panic", nullable=True)
    need(p, "message", str, "kernel.panic", nullable=True)
    nframes = 0
    for i, c in enumerate(need(doc, "cpus", list, "$") or []):
        need(c, "cpu", int, "cpus[%d]" % i)
        need(c, "pid", int, "cpus[%d]" % i, nullable=True)
        nframes += trace(c, "cpus[%d]" % i)
    tasks = need(doc, "tasks", list, "$") or []
    for i, t in enumerate(tasks):
        w = "tasks[%d]" % i
        for key in ("pid", "tgid", "cpu"):
            need(t, key, int, w)
        need(t, "comm", str, w)
        st = need(t, "state", str, w)
        if st is not None and st not in list("RSDTtXZPI"):
            errors.append("%s.state: %r" % (w, st))
        need(t, "on_cpu", bool, w)
        nframes += trace(t, w)
    for i, r in enumerate(doc.get("log", [])):
        need(r, "text", str, "log[%d]" % i)
        need(r, "ts_nsec", int, "log[%d]" % i)
    if not tasks or not nframes:
        errors.append("the report has no tasks or no frames")
    if errors:
        print("FAIL json shape: %d problems" % len(errors))
        for e in errors[:20]:
            print("  " + e)
        return 1
    print("PASS json shape: %d tasks, %d frames as docs/json.md says" % (len(tasks), nframes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
