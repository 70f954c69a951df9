#!/usr/bin/env python3
"""Check orccrash.so's output inside crash against orccrash's batch report.

usage: check.py NAME DIR [OUT]

OUT (in DIR; default crash.out) is crash -s -i crash.cmd's output, with
`echo @@@ SECTION` lines from crash's echo.so between the commands (see
run.sh), or drv.out, the same commands through crash-cmds without crash.
DIR also holds the batch
reports of the same dump, with source lines: active.txt (--active),
active-noregs.txt (--active --no-regs), all.txt (--all-tasks), scan.txt
(--scan --pid P), pid.json (--json --pid P), pids.json (--json --pid L
--pid 1, L the highest pid, in the file last), and without them
active-nolines.txt (--active --no-lines); for a dump with the test
module's .ko beside it active-mods.txt (--active --modules-dir); plus
panic_pid, pids and ref.txt (the dump's ref/kernel.txt, may be empty).  Prints PASS/FAIL/NOTE lines; exits 1 if
anything failed.

The text of orcbt is the batch report's, block for block: a block is a
"CPU n" or "PID:" line and its trace up to the next blank line.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from tstlib import marked_blocks  # noqa: E402 (tests/tstlib.py)

failed = 0
name = ""


def result(ok, msg, detail=None):
    global failed
    print("%s %s: %s" % ("PASS" if ok else "FAIL", name, msg))
    if not ok:
        failed += 1
        if detail:
            for line in detail.splitlines()[:40]:
                print("  " + line)


def sections(text):
    """crash.out split at the '@@@ NAME' lines that echo.so prints."""
    return {k: "\n".join(v) for k, v in marked_blocks(text, r"^@@@ (\S+)\s*$").items()}


def blocks(text):
    """{first line: block} and the order of the first lines."""
    found, order = {}, []
    for para in re.split(r"\n\s*\n", text):
        lines = [l for l in para.splitlines() if l.strip()]
        # skip anything crash printed before the first block
        while lines and not re.match(r"^(CPU \d+|PID: )", lines[0]):
            lines.pop(0)
        if not lines:
            continue
        found[lines[0]] = "\n".join(lines)
        order.append(lines[0])
    return found, order


def tasks_part(text):
    i = text.find("\nTasks:\n")
    j = text.find("\nSummary:")
    return text[i + 8:j if j >= 0 else None] if i >= 0 else ""


def diff(a, b):
    import difflib
    return "\n".join(difflib.unified_diff(a.splitlines(), b.splitlines(),
                                          "orccrash", "orcbt in crash",
                                          lineterm=""))


def same_blocks(label, ours, batch, want_order=True):
    ob, oo = blocks(ours)
    bb, bo = blocks(batch)
    if not bb:
        result(False, "%s: the batch report has no blocks" % label)
        return
    missing = [k for k in bo if k not in ob]
    extra = [k for k in oo if k not in bb]
    bad = [k for k in bo if k in ob and ob[k] != bb[k]]
    ok = not missing and not extra and not bad and (not want_order or oo == bo)
    nframes = sum(len(bb[k].splitlines()) - 1 for k in bo)
    detail = ""
    if missing:
        detail += "missing in crash: %s\n" % missing[:5]
    if extra:
        detail += "only in crash: %s\n" % extra[:5]
    for k in bad[:2]:
        detail += diff(bb[k], ob[k]) + "\n"
    if not detail and not ok:
        detail = "same blocks in another order"
    result(ok, "%s: %d block(s), %d trace lines %s" %
           (label, len(bo), nframes, "identical to the batch report" if ok else "differ"),
           detail)


def one_block(label, ours, batch_text, key_re):
    bb, bo = blocks(batch_text)
    keys = [k for k in bo if re.match(key_re, k)]
    if not keys:
        result(False, "%s: not in the batch report" % label)
        return
    same_blocks(label, ours, bb[keys[0]])


# Function names of a trace, for comparing crash's bt with the kernel.
def kernel_funcs(ref_lines):
    out = []
    for l in ref_lines:
        if l.startswith(("?", "<", "RIP ", "RSP ")) or l.startswith("0x"):
            continue
        out.append(re.sub(r"\+0x.*", "", l).split(".")[0])
    return out


def crash_bt_funcs(text):
    return [m.group(1).split(".")[0] for m in
            re.finditer(r"^\s*#\d+ \[[0-9a-f]+\] (\S+) at ", text, re.M)]


def orcbt_funcs(text):
    out = []
    for l in text.splitlines()[1:]:
        l = l.strip()
        if not l or l.startswith(("?", "<", "(", "0x")) or re.match(r"^[A-Z0-9_]+: ", l):
            continue
        out.append(re.sub(r"\+0x.*", "", l).split(".")[0])
    return out


def panic_ref(ref_path):
    if not os.path.getsize(ref_path):
        return None
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "realdump"))
    from compare import parse_ref
    for b in parse_ref(ref_path):
        if b["kind"] in ("panic", "oops"):
            return b
    return None


def from_anchor(funcs, anchor):
    return funcs[funcs.index(anchor) + 1:] if anchor in funcs else None


def main():
    global name
    name, d = sys.argv[1], sys.argv[2]
    outfile = sys.argv[3] if len(sys.argv) > 3 else "crash.out"
    in_crash = outfile == "crash.out"
    rd = lambda f: open(os.path.join(d, f), encoding="utf-8", errors="replace").read()
    s = sections(rd(outfile))
    panic_pid, panic_task, panic_cpu = rd("panic_pid").split()
    pids = rd("pids").split()
    all_txt = rd("all.txt")

    if "cur" not in s or "end" not in s:
        result(False, "every command ran (the last section marker is missing)",
               rd(outfile)[-3000:])
        return 1
    if in_crash:
        result("shared object loaded" in rd(outfile), "extend orccrash.so")
        # the vmlinux's mappings in crash: gdb's, + the model's, + the DWARF
        try:
            m = [int(re.search(r"^(\d+)$", s[k], re.M).group(1)) for k in
                 ("maps-before", "maps-extend", "maps-nolines", "maps-lines")]
        except (KeyError, AttributeError):
            m = None
        result(m is not None and m[0] == m[1] and m[3] > m[2],
               "the DWARF is mapped lazily (vmlinux mappings: %s before extend, after extend, "
               "after orcbt --no-lines, after the first orcbt with lines)" % (m,),
               "\n".join("%s: %r" % (k, s.get(k, "(missing)")[-200:]) for k in
                         ("maps-before", "maps-extend", "maps-nolines", "maps-lines")))
        same_blocks("orcbt -a -r --no-lines as the first command vs --active --no-lines",
                    s.get("nolines-first", ""), rd("active-nolines.txt"))
    # crash's current context at start is the panic task
    panic_key = r"^PID: .* TASK: %s\b" % panic_task
    one_block("orcbt -r (current context = panic task, pid %s)" % panic_pid, s["cur"],
              tasks_part(all_txt), panic_key)
    same_blocks("orcbt -a -r vs --active", s["a-r"], rd("active.txt"))
    # the lines are there (both sides without them would compare equal)
    nl = len(re.findall(r"^ \S.*  \S+:\d+$", s["t"], re.M))
    ninl = len(re.findall(r"^ \S+ \(inlined\)  \S+:\d+$", s["t"], re.M))
    result(nl > 0 and ninl > 0, "orcbt -t -r: %d frames with file:line, %d inlined frames" % (nl, ninl),
           s["t"][:2000])
    same_blocks("orcbt -a -r -L vs --active --no-lines", s["a-nolines"], rd("active-nolines.txt"))
    if "a-nolines" in s:
        result(not re.search(r"\(inlined\)|  \S+:\d+$", s["a-nolines"], re.M),
               "orcbt -L: no file:line, no inlined frames")
    if os.path.exists(os.path.join(d, "active-mods.txt")):
        same_blocks("orcbt -a -r --modules-dir vs --active --modules-dir", s.get("a-mods", ""),
                    rd("active-mods.txt"))
        if "[orccrash_test]" in rd("active-mods.txt"):
            result(re.search(r"orccrash_test\.c:\d+$", s.get("a-mods", ""), re.M) is not None,
                   "orcbt --modules-dir: the test module's frames have orccrash_test.c lines")
    same_blocks("orcbt -a vs --active --no-regs", s["a"], rd("active-noregs.txt"))
    one_block("orcbt -c 0 -r vs --active", s["c0"], rd("active.txt"), r"^CPU 0\b")
    for p in pids:
        one_block("orcbt -r %s vs --all-tasks" % p, s.get("pid-" + p, ""),
                  tasks_part(all_txt), r"^PID: %s\s" % p)
    same_blocks("orcbt -t -r vs --all-tasks (every task)", s["t"], tasks_part(all_txt))
    one_block("orcbt -s -r %s vs --scan --pid %s" % (panic_task, panic_pid), s["scan"],
              tasks_part(rd("scan.txt")), panic_key)
    try:
        ours = json.loads(s["json"])
        want = json.loads(rd("pid.json"))
        result(ours == want, "orcbt -j %s: the same JSON document as --json --pid %s"
               % (panic_task, panic_pid),
               diff(json.dumps(want, indent=1), json.dumps(ours, indent=1)))
    except ValueError as e:
        result(False, "orcbt -j %s: not JSON: %s" % (panic_task, e), s["json"][:2000])
    if os.path.exists(os.path.join(d, "pids.json")):
        last = rd("last").strip()
        try:
            ours = json.loads(s.get("json2", ""))
            want = json.loads(rd("pids.json"))
            order = [t["pid"] for t in ours["tasks"]]
            result(ours == want and order == [int(last), 1],
                   "orcbt -j %s 1: tasks %s, the same JSON document as --json --pid %s --pid 1"
                   % (last, order, last),
                   diff(json.dumps(want, indent=1), json.dumps(ours, indent=1)))
        except (ValueError, KeyError) as e:
            result(False, "orcbt -j %s 1: not the JSON document: %r" % (last, e),
                   s.get("json2", "")[:2000])

    # orcbt inside crash against the kernel's own traces
    ref = os.path.join(d, "ref.txt")
    try:
        json.loads(s["alljson"])
        alljson_ok = True
    except ValueError as e:
        result(False, "orcbt -t -s -j: not JSON: %s" % e, s["alljson"][:2000])
        alljson_ok = False
    if not alljson_ok:
        pass
    elif os.path.getsize(ref):
        with open(os.path.join(d, "orcbt-all.json"), "w") as f:
            f.write(s["alljson"])
        cmp = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "..",
                                                          "realdump", "compare.py"),
                              os.path.join(d, "orcbt-all.json"), ref],
                             stdout=subprocess.PIPE, universal_newlines=True)
        # NOTE lines, not PASS/FAIL: this JSON was checked equal to the
        # batch report's above, and whether the batch traces match the
        # kernel's is tests/realdump's verdict (the same compare.py);
        # counting it here too would only fail twice for one unwinder bug.
        for line in cmp.stdout.splitlines():
            m = re.match(r"^(PASS|FAIL|SKIP) (.*)", line)
            if m:
                print("NOTE %s: orcbt -t -s -j vs the kernel's traces: %s %s"
                      % (name, {"PASS": "agrees:", "FAIL": "DIFFERS:", "SKIP": "skipped:"}[m.group(1)],
                         m.group(2)))
    else:
        print("SKIP %s: no ref/kernel.txt to compare orcbt with the kernel" % name)

    pb = panic_ref(ref)

    # orcstack: the current task's sp at the crash is on the stack its
    # trace starts on; a pt_regs RSP in the <TASK> part is on its stack.
    st = s["stack"]
    m_addr = re.search(r"ADDRESS: ([0-9a-f]+)", st)
    m_bounds = re.search(r"BOUNDS: ([0-9a-f]+) - ([0-9a-f]+)", st)
    m_stack = re.search(r"STACK: (\S+) stack of (CPU \d+|PID \d+)", st)
    first_marker = re.search(r"^\s*<([A-Z#_0-9]+)>", s["cur"], re.M)
    ok = bool(m_addr and m_bounds and m_stack and first_marker)
    if ok:
        a, b, e = (int(x, 16) for x in (m_addr.group(1), m_bounds.group(1), m_bounds.group(2)))
        ok = b <= a < e and m_stack.group(1) == first_marker.group(1)
    result(ok, "orcstack: the current sp is on the %s stack the trace starts on, within its bounds"
           % (first_marker.group(1) if first_marker else "?"), st)
    # orcstack -c: the panic CPU's map has that stack with the same bounds
    # (when the sp was on one of the CPU's stacks, not another task's).
    if ok and m_stack.group(2) in ("CPU " + panic_cpu, "PID " + panic_pid):
        want = "%s %s - %s" % (m_stack.group(1), m_bounds.group(1), m_bounds.group(2))
        lines = [" ".join(l.split()[:4]) for l in s["stackmap"].splitlines()]
        result(want in lines, "orcstack -c %s lists the %s stack with the same bounds"
               % (panic_cpu, m_stack.group(1)), s["stackmap"])
    if "stack-task" in s:
        result(re.search(r"STACK: TASK stack of PID %s \(.*task %s" % (panic_pid, panic_task),
                         s["stack-task"]) is not None,
               "orcstack on a pt_regs RSP of the <TASK> part: the panic task's stack",
               s["stack-task"])
    out = rd(outfile)
    result(re.search(r"^orcbt: no CPU 99 \(the dump has \d+\)", s["badcpu"], re.M) is not None,
           "orcbt -c 99: an error naming the CPU count", s["badcpu"])
    result("orcbt: no task with pid 99999" in s["badpid"] and "badpid-after" in s,
           "orcbt 99999: an error message, and the next command runs")
    if not in_crash:
        return 1 if failed else 0
    result("orcbrowse needs a terminal" in out, "orcbrowse without a terminal: a polite error")
    result(re.search(r"^\s+orcbt - backtrace", s["help"], re.M) is not None and "SYNOPSIS" in s["help"],
           "help orcbt")
    # crash's readmem() and orccrash's own dump reader: the same output.
    if os.path.exists(os.path.join(d, "drv.out")):
        dv = sections(rd("drv.out"))
        secs = [k for k in dv if k not in ("badpid-after", "end")]
        bad = [k for k in secs if dv[k].strip() != s.get(k, "").strip()]
        result(not bad, "%d sections identical to crash-cmds' (orccrash's own dump reader)" % len(secs),
               "".join(diff(dv[k], s.get(k, "")) + "\n" for k in bad[:2]))

    # Where crash's own bt disagrees with the kernel: NOTE lines, not
    # failures (crash is not ours); orcbt's own agreement is checked above
    # through compare.py.
    if pb:
        kf = kernel_funcs(pb["lines"])
        kt, ct, ot = (from_anchor(kf, "panic"), from_anchor(crash_bt_funcs(s["crashbt"]), "panic"),
                      from_anchor(orcbt_funcs(s["cur"]), "panic"))
        if kt is not None:
            for who, seq in (("crash's bt", ct), ("orcbt", ot)):
                if seq is None:
                    print("NOTE %s: %s of the panic task has no panic frame" % (name, who))
                elif seq[:len(kt)] == kt:
                    print("NOTE %s: %s agrees with the kernel's trace after panic (%d frames)"
                          % (name, who, len(kt)))
                else:
                    i = next((i for i in range(min(len(kt), len(seq))) if kt[i] != seq[i]),
                             min(len(kt), len(seq)))
                    print("NOTE %s: %s disagrees with the kernel's trace at frame %d after panic: "
                          "kernel %s, %s %s" % (name, who, i, kt[i] if i < len(kt) else "(end)",
                                                who, seq[i] if i < len(seq) else "(end)"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
