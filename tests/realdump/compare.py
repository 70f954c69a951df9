#!/usr/bin/env python3
"""Compare orccrash's traces with the kernel's own (the first oracle).

usage: compare.py ORCCRASH_JSON REF_KERNEL_TXT [--min-task-match PCT]
                  [--kdump] [--crash-bt CRASH_BT_A_TXT]

ORCCRASH_JSON is `orccrash --json --all-tasks --scan VMCORE VMLINUX`;
REF_KERNEL_TXT is samples/parse-serial.py's ref/kernel.txt (the
sysrq-t traces, the oops and the panic's dump_stack, as the kernel printed
them).  Our frames are rendered the way the kernel prints them: stack
markers, "?" for scanned entries, "RIP cs:sym" + "RSP ss:sp" where a
pt_regs / iret frame was crossed.  Prints PASS/FAIL lines.

* @task blocks (sysrq-t, taken before the crash): a task that did not run
  between sysrq-t and the crash has the same stack, word for word, so its
  lines must be equal, "?" entries included.  Tasks that ran in between
  legitimately differ (the shell that typed the sysrq, kworkers), so at
  least --min-task-match percent of the comparable tasks must match; every
  mismatch is shown.
* @oops and @panic blocks: the crashing CPU's trace at dump time continues
  past the point the kernel printed (QEMU captures it later, spinning in
  panic()), so the kernel's lines from an anchor on (the first "RIP
  0010:" line for an oops, the line after "panic+" for a panic) must equal
  ours from the same anchor to the end of the trace.  Only frames the
  unwinder marks reliable count: an unwound frame that is not is rendered
  "(unreliable) ..." and matches no kernel line.
* Every trace: no unwound frame is a kernel address without a symbol (a
  stack address taken for a return address, a guess gone astray).
* --kdump (a real kdump): every CPU but the panicking one was stopped by
  the crash NMI, so its trace must show crash_nmi_callback on the NMI
  stack, every frame reliable.
* --crash-bt FILE (crash's "bt -a" on the same dump): on each stopped
  CPU, the frames crash shows on the NMI exception stack must be ours,
  with the same return address in the same stack slot.
"""
import json
import re
import sys


def render(frames, task_markers=True):
    """task_markers: the kernel prints <TASK> ... </TASK> around the task
    stack (6.1 does; 5.10's show_trace_log_lvl() in
    arch/x86/kernel/dumpstack.c marks only the exception and IRQ
    stacks)."""
    out, cur = [], None

    def marked(st):
        return st not in (None, "unknown") and (task_markers or st != "task")
    for f in frames:
        st = f["stack"]
        if st != cur:
            if marked(cur):
                out.append("</%s>" % NAMES.get(cur, cur))
            if marked(st):
                out.append("<%s>" % NAMES.get(st, st))
            cur = st
        if f.get("regs"):
            r = f["regs"]
            out.append("RIP %04x:%s" % (int(r["cs"], 16) & 0xFFFF, sym(f, int(r["ip"], 16))))
            out.append("RSP %04x:%016x" % (int(r["ss"], 16) & 0xFFFF, int(r["sp"], 16)))
            continue
        mark = "? " if f.get("scanned") else ("" if f.get("reliable") else "(unreliable) ")
        out.append(mark + sym(f, int(f["ip"], 16)))
    if marked(cur):
        out.append("</%s>" % NAMES.get(cur, cur))
    return out


NAMES = {"task": "TASK", "irq": "IRQ", "nmi": "NMI", "df": "#DF", "db": "#DB",
         "mc": "#MC", "vc": "#VC", "vc2": "#VC2", "entry": "ENTRY_TRAMPOLINE",
         "softirq": "SOFTIRQ"}


def sym(f, ip):
    if f.get("symbol") is None or int(f["ip"], 16) != ip:
        return "0x%x" % ip
    s = "%s+0x%x/0x%x" % (f["symbol"], f["offset"], f["size"])
    if f.get("module"):
        s += " [%s]" % f["module"]
    return s


def parse_blocks(lines):
    """"@KIND key=value ...", its lines, "@end" (samples/README.md) ->
    [{"kind", "attrs", "lines"}]; lines outside a block are dropped."""
    blocks, cur = [], None
    for line in lines:
        if line.startswith("@end"):
            if cur:
                blocks.append(cur)
            cur = None
        elif line.startswith("@"):
            kind, _, rest = line[1:].partition(" ")
            attrs = dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)
            cur = {"kind": kind, "attrs": attrs, "lines": []}
        elif cur is not None:
            cur["lines"].append(line)
    return blocks


def parse_ref(path):
    lines = [l.rstrip("\n") for l in open(path, encoding="utf-8", errors="replace")]
    blocks = parse_blocks([l for l in lines if l and not l.startswith("#")])
    for b in blocks:
        titles = [l for l in b["lines"] if l.startswith("title ")]
        if titles:
            b["title"] = titles[-1][6:]
            b["lines"] = [l for l in b["lines"] if not l.startswith("title ")]
    return blocks


def norm(lines):
    # RSP values of user-mode frames are the same in both; keep them.
    return [l for l in lines]


def diff(a, b):
    out = []
    n = max(len(a), len(b))
    for i in range(n):
        x = a[i] if i < len(a) else "<none>"
        y = b[i] if i < len(b) else "<none>"
        out.append(("   " if x == y else " ! ") + "%-50s | %s" % (x, y))
    return "\n".join(out)


def match_sysrq(blocks, tasks, scan=True, task_markers=None):
    """The sysrq-t blocks of tasks asleep then and not on a CPU at the
    crash, against our trace of the same pid (@tasks: pid -> the JSON
    task object): (compared, matched, [(pid, comm, kernel, ours)]).
    Without @scan the kernel's "?" lines are left out first (our trace
    has none without --scan).  The <TASK> markers as the kernel printed
    them (5.10 prints none), unless @task_markers says."""
    if task_markers is None:
        task_markers = any(l in ("<TASK>", "</TASK>")
                           for b in blocks for l in b["lines"])
    compared = matched = 0
    mismatches = []
    for b in blocks:
        if b["kind"] != "task":
            continue
        pid = int(b["attrs"].get("pid", -1))
        if b["attrs"].get("state") == "R" or pid not in tasks:
            continue
        t = tasks[pid]
        if t["on_cpu"]:
            continue
        compared += 1
        ours = render(t["frames"], task_markers)
        kernel = [l for l in b["lines"] if scan or not l.startswith("? ")]
        if norm(ours) == norm(kernel):
            matched += 1
        else:
            mismatches.append((pid, b["attrs"].get("comm"), kernel, ours))
    return compared, matched, mismatches


def skip_markers(lines, stack):
    """Drop the stack markers right after a RIP/RSP pair; return the
    lines and the stack the trace is on after them."""
    if len(lines) < 2 or not lines[0].startswith("RIP") or not lines[1].startswith("RSP"):
        return lines, stack
    i = 2
    while i < len(lines) and lines[i].startswith("<"):
        if not lines[i].startswith("</"):
            stack = lines[i]
        i += 1
    return lines[:2] + lines[i:], stack


def anchored(ref_lines, ours, kind):
    """Index of the anchor in ref_lines and in ours, or None."""
    if kind == "oops":
        pred = lambda l: l.startswith("RIP 0010:")
        for i, l in enumerate(ref_lines):
            if pred(l):
                for j, m in enumerate(ours):
                    if m == l:
                        return i, j
                return i, None
        return None, None
    # panic: the frame after panic+
    for i, l in enumerate(ref_lines):
        if l.lstrip("? ").startswith("panic+"):
            for j, m in enumerate(ours):
                if m.startswith("panic+"):
                    return i + 1, j + 1
            return i + 1, None
    return None, None


def parse_crash_bt(path):
    """crash's bt -a: {cpu: [(slot, symbol, address)]} of the frames
    before the "--- <NMI exception stack> ---" line of each CPU that has
    one."""
    cpus, cur, frames = {}, None, []
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^PID: +\d+ +TASK: +[0-9a-f]+ +CPU: +(\d+)", line)
        if m:
            cur, frames = int(m.group(1)), []
            continue
        m = re.match(r"^ *#\d+ \[([0-9a-f]+)\] (\S+) at ([0-9a-f]+)", line)
        if m and cur is not None:
            frames.append((int(m.group(1), 16), m.group(2), int(m.group(3), 16)))
        elif line.startswith("--- <NMI exception stack> ---") and cur is not None:
            cpus[cur] = frames
            cur = None
    return cpus


def check_frames(report):
    """No unwound kernel-half frame without a symbol."""
    bad = []
    for kind, items in (("CPU", report["cpus"]), ("pid", report["tasks"])):
        for t in items:
            for f in t["frames"]:
                ip = int(f["ip"], 16)
                if not f.get("scanned") and ip >= 0xffff800000000000 and f.get("symbol") is None:
                    bad.append("%s %s: 0x%x (stack %s)" % (kind, t.get("cpu") if kind == "CPU" else t["pid"], ip, f["stack"]))
    n = sum(len(t["frames"]) for t in report["cpus"] + report["tasks"])
    print("%s frames: %s" % ("PASS" if not bad else "FAIL",
                             "%d frames, none an unsymbolised kernel address" % n if not bad
                             else "kernel addresses without a symbol: " + "; ".join(bad[:6])))
    return len(bad) > 0


def check_stopped(cpus, panic_cpu, crash_bt):
    """--kdump: the CPUs the crash NMI stopped."""
    failed = 0
    for n, c in sorted(cpus.items()):
        if n == panic_cpu or not c["frames"]:
            continue
        # the handler runs on the NMI stack, or, for an NMI from user
        # mode, on the task's (arch/x86/entry/entry_64.S asm_exc_nmi):
        # the first pt_regs' CS says which
        regs = [f for f in c["frames"] if f.get("regs")]
        user = bool(regs) and int(regs[0]["regs"].get("cs") or "0", 16) & 3 != 0
        where = "task" if user else "nmi"
        nmi = [f for f in c["frames"] if f["stack"] == where and not f.get("scanned") and
               not (user and f.get("regs"))]
        names = [f["symbol"] for f in nmi]
        ok = "crash_nmi_callback" in names and all(f["reliable"] for f in c["frames"] if not f.get("scanned"))
        print("%s stopped CPU %d: on the %s %s%s" %
              ("PASS" if ok else "FAIL", n,
               "task stack (the NMI came from user mode)" if user else "NMI stack",
               " ".join(str(x) for x in names) or "nothing",
               "" if c["reliable"] else " (trace unreliable: %s)" % c["stop"]))
        failed += not ok
        if crash_bt is None:
            continue
        theirs = crash_bt.get(n)
        if theirs is None:
            print("SKIP stopped CPU %d: crash shows no NMI exception stack" % n)
            continue
        ours = [(int(f["sp"], 16) - 8, f["symbol"], int(f["ip"], 16))
                for f in nmi if not f.get("regs")]
        ok = ours == theirs
        print("%s stopped CPU %d: %d NMI-stack frames %s crash's bt -a (slot, symbol, return address)"
              % ("PASS" if ok else "FAIL", n, len(theirs), "equal" if ok else "differ from"))
        if not ok:
            failed += 1
            for a, b in zip(ours + [None] * len(theirs), theirs + [None] * len(ours)):
                if a is None and b is None:
                    break
                print("   %-60s | %s" % (a and "%x %s %x" % a, b and "%x %s %x" % b))
    return failed


def main():
    args = sys.argv[1:]
    min_pct = 90.0
    kdump = "--kdump" in args
    if kdump:
        args.remove("--kdump")
    crash_bt = None
    if "--crash-bt" in args:
        i = args.index("--crash-bt")
        crash_bt = parse_crash_bt(args[i + 1])
        del args[i:i + 2]
    if "--min-task-match" in args:
        i = args.index("--min-task-match")
        min_pct = float(args[i + 1])
        del args[i:i + 2]
    report = json.load(open(args[0]))
    blocks = parse_ref(args[1])
    # whether this kernel marks the task stack: any of its traces says
    task_markers = any(l in ("<TASK>", "</TASK>") for b in blocks for l in b["lines"])
    tasks = {t["pid"]: t for t in report["tasks"] if t["comm"] and t["pid"] > 0}
    panic_cpu = report["kernel"]["panic"]["cpu"]
    cpus = {c["cpu"]: c for c in report["cpus"]}
    failed = 0

    # The task list against sysrq-t's (every task it listed, same comm;
    # a sleeping task sleeps in the same state unless it ran since).
    listed = [b for b in blocks if b["kind"] == "task"]
    alltasks = {}
    for t in report["tasks"]:
        alltasks.setdefault(t["pid"], []).append(t)
    missing = [b["attrs"].get("pid") for b in listed
               if not any(t["comm"] == b["attrs"].get("comm")
                          for t in alltasks.get(int(b["attrs"].get("pid", -1)), []))]
    if listed:
        # a task whose task_struct the dump lacks (makedumpfile excluded
        # its page) cannot be listed; the report must say how many
        # (or no list reaches it): then the report must say the task list
        # is incomplete; a silently short list fails
        flagged = [w for w in report["kernel"].get("warnings", [])
                   if re.match(r"task list incomplete|\d+ task_structs could not be read", w)]
        ok = not missing or bool(flagged)
        print("%s task list: %d of %d tasks in sysrq-t found with the same pid and comm%s"
              % ("PASS" if ok else "FAIL", len(listed) - len(missing), len(listed),
                 "" if not missing else " (missing: %s; the report says: %s)"
                 % (" ".join(missing[:20]), "; ".join(flagged) or "nothing")))
        failed += not ok

    # sysrq-t tasks
    compared, matched, mismatches = match_sysrq(blocks, tasks, True, task_markers)
    if compared:
        pct = 100.0 * matched / compared
        ok = pct >= min_pct
        print("%s sysrq-t: %d of %d sleeping tasks match the kernel's trace exactly (%.0f%%, need %.0f%%)"
              % ("PASS" if ok else "FAIL", matched, compared, pct, min_pct))
        failed += not ok
        for pid, comm, ref, ours in mismatches[:8]:
            print("  pid %d (%s): kernel | orccrash\n%s" % (pid, comm, diff(ref, ours)))
    # oops / panic on the crashing CPU
    for b in blocks:
        if b["kind"] not in ("oops", "panic"):
            continue
        cpu = int(b["attrs"].get("cpu", panic_cpu if panic_cpu is not None else -1))
        c = cpus.get(cpu)
        if not c:
            print("FAIL %s: no CPU %d in the report" % (b["kind"], cpu))
            failed += 1
            continue
        ours = render(c["frames"], task_markers)
        i, j = anchored(b["lines"], ours, b["kind"])
        if i is None:
            print("SKIP %s on CPU %d: no anchor in the kernel's trace" % (b["kind"], cpu))
            continue
        ref_tail, our_tail = b["lines"][i:], (ours[j:] if j is not None else [])
        # The oops prints its RIP/RSP block before "Call Trace: <TASK>",
        # while a trace that continues above the fault (from the #DF or
        # the task stack) marks the stack change after the pt_regs frame.
        # Compare past the markers that follow RIP/RSP, and require both
        # to be on the same stack there.
        if b["kind"] == "oops" and j is not None:
            ref_tail, ref_stack = skip_markers(ref_tail, None)
            before = [l for l in ours[:j] if l.startswith("<") and not l.startswith("</")]
            our_tail, our_stack = skip_markers(our_tail, before[-1] if before else None)
            if ref_stack != our_stack:
                our_tail = our_tail + ["(on stack %s, kernel on %s)" % (our_stack, ref_stack)]
        ok = j is not None and ref_tail == our_tail
        print("%s %s on CPU %d: %d kernel lines from the anchor %s"
              % ("PASS" if ok else "FAIL", b["kind"], cpu, len(ref_tail),
                 "match" if ok else "differ"))
        if not ok:
            failed += 1
            print("  kernel | orccrash\n%s" % diff(b["lines"], ours))
    failed += check_frames(report)
    if kdump:
        failed += check_stopped(cpus, panic_cpu, crash_bt)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
