#!/usr/bin/python3
"""Check orccrash --locals against drgn and against what the test module did.

Usage:
  locals.py drgn REPORT.json VMLINUX VMCORE
      drgn (python3-drgn 0.0.22) as the oracle: for every task of the report
      (orccrash --json --all-tasks --locals), the frames both tools show
      (same pc, same function at each inline level), every variable we give
      a value (status "value", at most 8 bytes) that drgn has present must
      have drgn's value; an object we place in memory must be at drgn's
      address.  Prints "compared N vars, N equal, ..." and the counts of
      variables each tool shows.
  locals.py module REPORT.json SCENARIO
      invariants from samples/module/orccrash_test.c (module frames need
      --modules-dir): mod-overflow's orccrash_recurse(depth) frames, from
      the innermost down to orccrash_recurse(0), have depth N-1-i where
      available (at least one must be: the interrupted one has pt_regs);
      mod-timer's and kdump-timer's orccrash_timer_panic(in_irq) is 1 (a
      timer callback runs in softirq);
      mod-hrtimer's orccrash_hrtimer_panic(in_hardirq) is 1 (a hard
      hrtimer's callback runs in hard-IRQ context, on PREEMPT_RT too);
      mod-nmi's orccrash_nmi_panic(cpu) is the CPU it panics on.
  locals.py prev REPORT.json
      a sleeping task's __schedule / context_switch `prev`, when we give
      it a value, is the task's own task_struct.
  locals.py cfi REPORT.json
      the callee-saved registers recovered through .debug_frame CFI:
      some frames have them; the CFI's rbp never differs from ORC's
      ("cfi_note"); a value read from a callee's save slot is below the
      frame's sp (in a callee's frame); CFA disagreements are listed.

Prints PASS/FAIL/SKIP lines; exits 1 on a FAIL.
"""
import json
import sys


def levels(frame):
    """(function, variables) of a report frame, innermost level first."""
    out = []
    for inl in frame.get("inlines") or []:
        out.append((inl.get("function"), inl.get("variables") or []))
    out.append((frame.get("symbol"), frame.get("variables") or []))
    return out


def tasks(report):
    for t in report.get("tasks") or []:
        yield t


def mask(size):
    return (1 << (8 * size)) - 1 if size and size < 8 else (1 << 64) - 1


def drgn_value(obj):
    """An int for a scalar drgn object, else None."""
    import drgn
    kind = obj.type_.unqualified()
    while kind.kind == drgn.TypeKind.TYPEDEF:
        kind = kind.type.unqualified()
    if kind.kind in (drgn.TypeKind.INT, drgn.TypeKind.BOOL,
                     drgn.TypeKind.ENUM, drgn.TypeKind.POINTER):
        return int(obj.value_())
    return None


def is_cfi(v):
    """Whether the value is in a register the CFI recovered (framevars.c
    cfi_where())."""
    w = v.get("where") or ""
    return w.startswith("%") and ", " in w


def cmd_drgn(report_path, vmlinux, vmcore):
    import drgn
    report = json.load(open(report_path))
    prog = drgn.Program()
    prog.set_core_dump(vmcore)
    try:
        prog.load_debug_info([vmlinux])
    except drgn.MissingDebugInfoError:
        pass
    compared = equal = 0
    mem_compared = mem_equal = 0
    ours_shown = drgn_shown = both_frames = 0
    drgn_absent_ours_value = 0
    cfi_compared = 0
    bad = []
    unrelocated = []
    kaslr = int(report["kernel"]["kaslr_offset"], 16)
    for t in tasks(report):
        try:
            obj = drgn.Object(prog, "struct task_struct *",
                              value=int(t["task"], 16))
            trace = list(prog.stack_trace(obj))
        except Exception:
            continue
        # drgn's frames grouped by pc: one group per real frame, inline
        # frames first (innermost first), like ours
        groups = []
        for f in trace:
            if groups and groups[-1][0] == f.pc:
                groups[-1][1].append(f)
            else:
                groups.append((f.pc, [f]))
        gi = 0
        for fr in t.get("frames") or []:
            if fr.get("scanned") or "variables" not in fr:
                continue
            ip = int(fr["ip"], 16)
            k = gi
            while k < len(groups) and groups[k][0] != ip:
                k += 1
            if k == len(groups):
                continue
            gi = k + 1
            ours = levels(fr)
            theirs = groups[k][1]
            if len(ours) != len(theirs):
                continue
            for (fn, vars_), df in zip(ours, theirs):
                if fn != df.name:
                    continue
                both_frames += 1
                names = [v["name"] for v in vars_]
                try:
                    dl = df.locals()
                except Exception:
                    dl = []
                for name in dl:
                    try:
                        if not df[name].absent_:
                            drgn_shown += 1
                    except Exception:
                        pass
                for v in vars_:
                    if v["status"] in ("value", "in memory"):
                        ours_shown += 1
                    if names.count(v["name"]) != 1:
                        continue	# shadowed: drgn sees the innermost
                    try:
                        o = df[v["name"]]
                    except (KeyError, LookupError, Exception):
                        continue
                    if o.absent_:
                        if v["status"] == "value":
                            drgn_absent_ours_value += 1
                        continue
                    where = "pid %d %s %s" % (t["pid"], fn, v["name"])
                    if v["status"] == "value" and v.get("raw"):
                        try:
                            dv = drgn_value(o)
                        except Exception:
                            dv = None
                        if dv is None:
                            continue
                        compared += 1
                        if is_cfi(v):
                            cfi_compared += 1
                        ours_v = int(v["raw"], 16)
                        if (dv & mask(v.get("size") or 8)) == ours_v:
                            equal += 1
                        elif (kaslr and v.get("where") == "computed" and
                              (dv + kaslr) & mask(v.get("size") or 8) == ours_v):
                            # a DWARF expression's DW_OP_addr that drgn
                            # 0.0.22 left at the link address (5.10 kdump,
                            # KASLR on: ours is rcu_state, drgn's the
                            # vmlinux's address of it): the runtime value
                            # is the relocated one
                            unrelocated.append(where)
                        else:
                            bad.append("%s: ours %s (%s), drgn 0x%x" % (
                                where, v["raw"], v.get("where"),
                                dv & mask(v.get("size") or 8)))
                    elif v["status"] == "in memory" and v.get("address"):
                        addr = o.address_
                        if addr is None:
                            continue
                        mem_compared += 1
                        if addr == int(v["address"], 16):
                            mem_equal += 1
                        else:
                            bad.append("%s: ours at %s, drgn at 0x%x" % (
                                where, v["address"], addr))
    print("  frames both show: %d; variables shown: ours %d, drgn %d"
          % (both_frames, ours_shown, drgn_shown))
    print("  compared %d values, %d equal; %d objects in memory, %d at the same address; "
          "%d values drgn has absent" % (compared, equal, mem_compared,
                                         mem_equal, drgn_absent_ours_value))
    print("  %d of the values compared are in callee-saved registers "
          "recovered through CFI" % cfi_compared)
    for u in unrelocated[:5]:
        print("  note: %s: drgn's value is the link address, ours the same "
              "address relocated by KASLR (0x%x)" % (u, kaslr))
    for b in bad[:20]:
        print("  mismatch: " + b)
    if not both_frames:
        print("FAIL drgn: no frame in common")
        return 1
    if bad:
        print("FAIL drgn: %d of %d values differ" % (len(bad),
                                                     compared + mem_compared))
        return 1
    if not compared:
        print("FAIL drgn: no value to compare")
        return 1
    if not cfi_compared:
        print("FAIL drgn: no value recovered through CFI to compare")
        return 1
    print("PASS drgn: %d values (%d through CFI) and %d addresses equal "
          "(ours %d shown, drgn %d)"
          % (equal, cfi_compared, mem_equal, ours_shown, drgn_shown))
    return 0


def find_vars(report, function):
    """(task, frame index, vars) of every level named @function."""
    for t in tasks(report):
        for i, fr in enumerate(t.get("frames") or []):
            if fr.get("scanned") or "variables" not in fr:
                continue
            for fn, vars_ in levels(fr):
                if fn == function:
                    yield t, i, {v["name"]: v for v in vars_}


def value(v):
    if v and v["status"] == "value" and v.get("raw"):
        n = int(v["raw"], 16)
        size = v.get("size") or 8
        if n >> (8 * size - 1):
            n -= 1 << (8 * size)	# the module's ints are signed or small
        return n
    return None


def cmd_module(report_path, scenario):
    report = json.load(open(report_path))
    rc = 0
    if scenario == "mod-overflow":
        for t in tasks(report):
            depths = []
            for fr in t.get("frames") or []:
                if fr.get("scanned") or "variables" not in fr:
                    continue
                for fn, vars_ in levels(fr):
                    if fn == "orccrash_recurse":
                        d = [value(v) for v in vars_ if v["name"] == "depth"]
                        depths.append(d[0] if d else None)
            if not depths:
                continue
            known = [(i, d) for i, d in enumerate(depths) if d is not None]
            # innermost first, down to orccrash_recurse(0): frame i of N
            # has depth N - 1 - i
            n = len(depths)
            wrong = [(i, d) for i, d in known if d != n - 1 - i]
            if not known:
                print("FAIL recurse: pid %d: %d frames, no depth known"
                      % (t["pid"], n))
                rc = 1
            elif wrong:
                print("FAIL recurse: pid %d: %d frames, depths %s (frame, "
                      "depth) not N-1-frame" % (t["pid"], n, wrong[:3]))
                rc = 1
            else:
                print("PASS recurse: pid %d: %d of %d orccrash_recurse frames "
                      "have depth, each N-1-frame (%s)"
                      % (t["pid"], len(known), n,
                         ", ".join("#%d=%d" % k for k in known[:4])))
            return rc
        print("FAIL recurse: no orccrash_recurse frame")
        return 1
    if scenario in ("mod-timer", "kdump-timer", "mod-hrtimer"):
        fn, arg = (("orccrash_hrtimer_panic", "in_hardirq")
                   if scenario == "mod-hrtimer" else
                   ("orccrash_timer_panic", "in_irq"))
        seen = False
        for t, i, vs in find_vars(report, fn):
            seen = True
            v = value(vs.get(arg))
            if v is None:
                print("  note: %s %s" % (arg, (vs.get(arg) or {}).get("why")))
                continue
            if v != 1:
                print("FAIL timer: %s = %d, want 1" % (arg, v))
                return 1
            print("PASS timer: %s(%s = 1)" % (fn, arg))
            return 0
        print(("SKIP timer: %s unavailable" % arg if seen else
               "FAIL timer: no %s frame" % fn))
        return 0 if seen else 1
    if scenario == "mod-nmi":
        seen = False
        for t, i, vs in find_vars(report, "orccrash_nmi_panic"):
            seen = True
            v = value(vs.get("cpu"))
            cpu = t.get("cpu")
            if v is None:
                print("  note: cpu %s" % (vs.get("cpu") or {}).get("why"))
                continue
            if v != cpu:
                print("FAIL nmi: orccrash_nmi_panic(cpu = %d) on CPU %s"
                      % (v, cpu))
                return 1
            print("PASS nmi: orccrash_nmi_panic(cpu = %d) on CPU %d" % (v, cpu))
            return 0
        print(("SKIP nmi: cpu unavailable" if seen else
               "FAIL nmi: no orccrash_nmi_panic frame"))
        return 0 if seen else 1
    print("SKIP %s: no invariant" % scenario)
    return 0


def cmd_prev(report_path):
    report = json.load(open(report_path))
    checked = 0
    bad = []
    for t in tasks(report):
        if t.get("on_cpu"):
            continue
        for fr in (t.get("frames") or [])[:1]:
            for fn, vars_ in levels(fr):
                if fn not in ("__schedule", "context_switch"):
                    continue
                for v in vars_:
                    if v["name"] == "prev" and v["status"] == "value":
                        checked += 1
                        if int(v["raw"], 16) != int(t["task"], 16):
                            bad.append("pid %d %s: prev %s, task %s"
                                       % (t["pid"], fn, v["raw"], t["task"]))
    for b in bad[:10]:
        print("  " + b)
    if bad:
        print("FAIL prev: %d of %d wrong" % (len(bad), checked))
        return 1
    if not checked:
        print("SKIP prev: no sleeping task's prev has a value")
        return 0
    print("PASS prev: %d prev values (__schedule, context_switch) of sleeping tasks == the task" % checked)
    return 0


def cmd_cfi(report_path):
    report = json.load(open(report_path))
    frames = nvals = nslots = 0
    rbp_notes = []
    cfa_notes = []
    bad = []
    for t in tasks(report):
        for fr in t.get("frames") or []:
            if fr.get("scanned") or "variables" not in fr:
                continue
            note = fr.get("cfi_note")
            if note and note.startswith("CFI rbp"):
                rbp_notes.append("pid %d %s: %s" % (t["pid"], fr.get("symbol"), note))
            elif note:
                cfa_notes.append("pid %d %s: %s" % (t["pid"], fr.get("symbol"), note))
            if fr.get("cfi_registers"):
                frames += 1
            sp = int(fr["sp"], 16)
            for _, vars_ in levels(fr):
                for v in vars_:
                    if v["status"] != "value" or not is_cfi(v):
                        continue
                    nvals += 1
                    w = v["where"]
                    if ", saved by a callee at 0x" in w:
                        nslots += 1
                        slot = int(w.rsplit(" ", 1)[1], 16)
                        if not slot < sp:
                            bad.append("pid %d %s %s: slot 0x%x not below sp 0x%x"
                                       % (t["pid"], fr.get("symbol"), v["name"], slot, sp))
                    reg = w[1:].split(",")[0]
                    if reg not in (fr.get("cfi_registers") or []):
                        bad.append("pid %d %s %s: %s not in cfi_registers"
                                   % (t["pid"], fr.get("symbol"), v["name"], reg))
    for n in cfa_notes[:5]:
        print("  CFA disagreement (CFI stopped): " + n)
    for n in (rbp_notes + bad)[:10]:
        print("  " + n)
    if rbp_notes or bad:
        print("FAIL cfi: %d rbp disagreements with ORC, %d bad values"
              % (len(rbp_notes), len(bad)))
        return 1
    if not frames or not nvals:
        print("FAIL cfi: no frame with registers recovered through CFI")
        return 1
    print("PASS cfi: %d frames with CFI registers, %d values through them "
          "(%d from save slots, all below the frame's sp), rbp == ORC's, "
          "%d CFA disagreements" % (frames, nvals, nslots, len(cfa_notes)))
    return 0


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "drgn":
        return cmd_drgn(*sys.argv[2:5])
    if len(sys.argv) >= 4 and sys.argv[1] == "module":
        return cmd_module(sys.argv[2], sys.argv[3])
    if len(sys.argv) >= 3 and sys.argv[1] == "prev":
        return cmd_prev(sys.argv[2])
    if len(sys.argv) >= 3 and sys.argv[1] == "cfi":
        return cmd_cfi(sys.argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
