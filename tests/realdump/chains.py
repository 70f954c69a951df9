#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hold orccrash's waits and wait chains (src/waits.c) on a mod-blocked
sample to the kernel and the test module.

    chains.py SCENARIO REPORT.json TEXT SERIAL_LOG FROM [CRASH_OUT]

REPORT.json is orccrash --json --state D, TEXT orccrash --state D on the
same dump; SERIAL_LOG the sample's console; FROM what "from" must be
("dwarf+waiter" with the vmlinux's and the module's DWARF, "waiter"
without).  The oracles:
  - the kernel's own sysrq-w ("Show Blocked State") traces on the console:
    the tasks whose trace has __mutex_lock are exactly the ones we say wait
    on a mutex, __wait_for_common exactly the ones on a completion;
  - the module (samples/module/orccrash_test.c): the mutex is orccrash_mutex
    and its owner the kthread orccrash_holder (it took the mutex, then
    sleeps in msleep), the completion orccrash_done, the wait queue
    orccrash_wq (its orccrash_wait kthread, no owner); the pid of its
    "command 'block' from pid N" line is one of the waiters;
  - crash (CRASH_OUT, when given: the output of tests/realdump/chains.sh's
    crash commands on the same dump): the symbols' addresses, mutex.owner,
    the tasks on the mutex's and the completion's wait lists.
On mod-deadlock (SCENARIO): the module's orccrash_ab holds orccrash_lock_a
and waits for orccrash_lock_b, orccrash_ba the other way round: one
DEADLOCK chain of the two, each naming the other as the owner; and
orccrash_reader waits in down_read for orccrash_rwsem, which
orccrash_writer holds (sleeping in msleep): an rwsem-read wait whose owner
is the writer, a chain ending in msleep; crash's mutex.owner and
rw_semaphore.owner of the three locks.  On PREEMPT_RT the mutexes and the
rwsem are rt_mutexes ("pi_blocked_on").
On mod-locks: orccrash_folio waits in folio_lock() on the folio
orccrash_fhold locked (the module printed its address, crash reads the
module's orccrash_folio): a "folio" wait, PG_locked, no owner;
orccrash_rwrite waits in down_write() for orccrash_rdsem, which
orccrash_rhold holds for reading: an rwsem-write wait held by 1 reader, no
owner (on PREEMPT_RT from the rt_mutex the writer owns: "dwarf+owner" /
"owner"); on PREEMPT_RT orccrash_spin waits in rt_spin_lock() (the
kernel's sysrq-t: rtlock_slowlock_locked) for the spinlock orccrash_spin,
which orccrash_shold holds: a "spinlock" wait, its owner crash's
orccrash_spin.lock.owner, a chain to the holder.
Prints one PASS, FAIL or SKIP line.
"""
import json
import re
import sys


def sysrq_w(serial, what="Show Blocked State"):
    """{pid: (comm, [functions])} of the last Show Blocked State (sysrq-w),
    or of @what ("Show State": sysrq-t)."""
    lines = [re.sub(r"^\[ *\d+\.\d+\] ", "", l.rstrip("\r"))
             for l in open(serial, errors="replace").read().splitlines()]
    starts = [i for i, l in enumerate(lines) if l.endswith("sysrq: " + what)]
    if not starts:
        return None, lines
    tasks, cur = {}, None
    for l in lines[starts[-1] + 1:]:
        if l.startswith(("Kernel panic", "sysrq:")):
            break
        m = re.match(r"task:(\S+)\s+state:(\S) .*? pid:(\d+)", l)
        if m:
            cur = int(m.group(3))
            tasks[cur] = (m.group(1), [])
            continue
        if cur is None:
            continue
        m = re.match(r"\s+([A-Za-z_][\w.]*)\+0x", l)
        if m:
            tasks[cur][1].append(m.group(1).split(".")[0])
        elif l.strip() == "</TASK>":
            cur = None
    return tasks, lines


def crash_syms(text, names):
    """{name: address} of the module's symbols crash's sym printed."""
    return {m.group(2): int(m.group(1), 16) for m in re.finditer(
        r"^([0-9a-f]{16}) \(.\) (%s) \[orccrash_test\]" % "|".join(names), text, re.M)}


def crash_facts(path):
    """What the crash commands printed (see chains.sh)."""
    text = open(path, errors="replace").read()
    f = {"sym": crash_syms(text, ("orccrash_mutex", "orccrash_done")), "owner": None,
         "mutex_waiters": set(), "compl_waiters": set(), "pids": {}}
    m = re.search(r"owner = \{\s*counter = (-?\d+)", text)
    if m:
        f["owner"] = int(m.group(1)) & (2**64 - 1)
    # list -s: the mutex's waiters print their ww_ctx after the task
    for m in re.finditer(r"task = (0x[0-9a-f]+),\n(\s+ww_ctx = )?", text):
        f["mutex_waiters" if m.group(2) else "compl_waiters"].add(int(m.group(1), 16))
    return f


class Inputs:
    """The arguments read, and the failures found so far."""

    def __init__(self, args):
        doc, text_path, serial, self.want_from = args[:4]
        self.serial = serial
        self.crash_out = args[4] if len(args) > 4 else None
        self.d = json.load(open(doc))
        self.text = open(text_path, errors="replace").read()
        self.blocked, self.lines = sysrq_w(serial)
        self.bad = []

    def want(self, ok, what):
        if not ok:
            self.bad.append(what)

    def sysrq_pids(self, *comms):
        """The pids of the kthreads named @comms in sysrq-w, in that order;
        None (and the FAIL line printed) when one is not there."""
        pid = {c: p for p, (c, fns) in self.blocked.items()}
        if any(c not in pid for c in comms):
            print("FAIL console: sysrq-w has %s, not all of %s" % (sorted(pid), comms))
            return None
        return [pid[c] for c in comms]

    def verdict(self, passed):
        """The FAIL line of the failures found, or the PASS line @passed:
        main()'s exit status."""
        if self.bad:
            print("FAIL " + "; ".join(self.bad[:6]))
            return 1
        print("PASS " + passed)
        return 0


def main(argv):
    inp = Inputs(argv[2:])
    if not inp.blocked:
        print("SKIP no sysrq-w (Show Blocked State) traces in the console log")
        return 0
    # the scenario's check, given the pids of the module's kthreads it names
    check, comms = {
        "mod-deadlock": (deadlock, ("orccrash_ab", "orccrash_ba", "orccrash_writer",
                                    "orccrash_reader")),
        "mod-locks": (locks, ("orccrash_fhold", "orccrash_folio", "orccrash_rhold",
                              "orccrash_rwrite")),
    }.get(argv[1], (blocked_waits, ()))
    pids = inp.sysrq_pids(*comms)
    if pids is None:
        return 1
    return check(inp, *pids)


def blocked_waits(inp):
    d, text, blocked, lines = inp.d, inp.text, inp.blocked, inp.lines
    want_from, crash_out, bad, want = inp.want_from, inp.crash_out, inp.bad, inp.want
    # a mutex waiter: __mutex_lock, or on PREEMPT_RT (a mutex is an
    # rt_mutex there) rt_mutex_slowlock_block under mutex_lock
    rt_mutex = {p for p, (c, fns) in blocked.items()
                if "rt_mutex_slowlock_block" in fns and "mutex_lock" in fns}
    k_mutex = {p for p, (c, fns) in blocked.items() if "__mutex_lock" in fns} | rt_mutex
    if rt_mutex:
        # the kernel's own pointer to the waiter (kernel/locking/rtmutex.c)
        want_from_mutex = "pi_blocked_on"
    else:
        want_from_mutex = want_from
    # __wait_for_common, or wait_for_completion where it is inlined (6.1 rt)
    k_compl = {p for p, (c, fns) in blocked.items()
               if "__wait_for_common" in fns or "wait_for_completion" in fns}
    holders = [p for p, (c, fns) in blocked.items() if c == "orccrash_holder"]
    want(len(k_mutex) >= 2 and len(holders) == 1,
         "console: mutex waiters %s, holders %s" % (sorted(k_mutex), holders))
    holder = holders[0] if holders else None
    block_pid = None
    for l in lines:
        m = re.search(r"orccrash: command 'block' from pid (\d+)", l)
        if m:
            block_pid = int(m.group(1))
    want(block_pid in k_mutex, "the 'block' writer pid %s is not a waiter %s"
         % (block_pid, sorted(k_mutex)))

    tasks = {t["pid"]: t for t in d["tasks"]}
    ours = {p: (t.get("blocked") or {}).get("on") for p, t in tasks.items()}
    o_mutex = {p for p, on in ours.items() if on and on["kind"] == "mutex"}
    o_compl = {p for p, on in ours.items() if on and on["kind"] == "completion"}
    want(o_mutex == k_mutex, "mutex waiters %s, the kernel's trace says %s"
         % (sorted(o_mutex), sorted(k_mutex)))
    want(o_compl == k_compl, "completion waiters %s, the kernel's trace says %s"
         % (sorted(o_compl), sorted(k_compl)))
    addrs = set()
    for p in sorted(o_mutex | o_compl):
        on = ours[p]
        sym = "orccrash_mutex" if on["kind"] == "mutex" else "orccrash_done"
        want(on["symbol"] == sym and on["module"] == "orccrash_test",
             "pid %d: symbol %s [%s], want %s [orccrash_test]"
             % (p, on["symbol"], on["module"], sym))
        want(on["reliable"] and on["why"] is None,
             "pid %d: unreliable: %s" % (p, on["why"]))
        wf = want_from_mutex if on["kind"] == "mutex" else want_from
        want(on["from"] == wf, "pid %d: from %s, want %s" % (p, on["from"], wf))
        addrs.add((sym, on["address"]))
        if on["kind"] == "mutex":
            want(on["owner"] == holder, "pid %d: owner %s, want orccrash_holder's pid %s"
                 % (p, on["owner"], holder))
            want(on["owner_task"] == tasks.get(holder, {}).get("task"),
                 "pid %d: owner_task %s is not pid %s's" % (p, on["owner_task"], holder))
        else:
            want(on["owner"] is None, "pid %d: a completion with an owner" % p)
    want(len(addrs) == 2, "one address per lock: %s" % sorted(addrs))

    # the wait queue: the module's orccrash_wait kthread sleeps in
    # orccrash_wait_event()'s wait_event(orccrash_wq, ...) (its console
    # trace has orccrash_wait_event); no other D task is on a wait queue
    k_wq = {p for p, (c, fns) in blocked.items()
            if c == "orccrash_wait" and "orccrash_wait_event" in fns}
    o_wq = {p for p, on in ours.items() if on and on["kind"] == "waitqueue"}
    want(len(k_wq) == 1 and o_wq == k_wq, "wait queue waiters %s, the kernel's trace says %s"
         % (sorted(o_wq), sorted(k_wq)))
    for p in sorted(o_wq):
        on = ours[p]
        want(on["symbol"] == "orccrash_wq" and on["module"] == "orccrash_test" and
             on["owner"] is None and on["from"] == "waiter" and on["reliable"],
             "pid %d: waitqueue %s [%s] owner %s from %s reliable %s, want orccrash_wq "
             "[orccrash_test], no owner, from the waiter" % (p, on["symbol"], on["module"],
                                                              on["owner"], on["from"], on["reliable"]))

    # the chains: each mutex waiter -> the holder, which sleeps in msleep
    # (the first function of the kernel's trace of it past the scheduler)
    hfns = blocked.get(holder, ("", []))[1]
    sleeps = next((f for f in hfns if not f.startswith(("__schedule", "schedule"))), None)
    want(sleeps == "msleep", "console: the holder sleeps in %s" % sleeps)
    chains = d["crash"]["chains"]
    by_head = {c["pids"][0]: c for c in chains}
    want(len(chains) == len(k_mutex), "%d chains, %d waiters" % (len(chains), len(k_mutex)))
    for p in sorted(k_mutex):
        c = by_head.get(p)
        if not c:
            bad.append("no chain from pid %d" % p)
            continue
        want(c["pids"] == [p, holder] and not c["deadlock"],
             "chain %s (deadlock %s), want [%d, %s]" % (c["pids"], c["deadlock"], p, holder))
        tail = "waits for mutex orccrash_mutex [orccrash_test] held by pid %s (orccrash_holder), which sleeps in %s" % (holder, sleeps)
        want(c["text"].endswith(tail), "chain text %r" % c["text"])
        want(("     CHAIN: " + c["text"]) in text.splitlines(),
             "the text report has no CHAIN line %r" % c["text"])
    # the text report: a WAITS ON line under each waiter
    for p in sorted(o_mutex | o_compl):
        blk = re.search(r"^PID: %d .*\n(?: BLOCKED: .*\n)? WAITS ON: (.*)$" % p, text, re.M)
        want(blk and ("orccrash_mutex" in blk.group(1) or "orccrash_done" in blk.group(1)),
             "pid %d: no WAITS ON line in the text report" % p)

    checked = "the kernel's sysrq-w, the module"
    if crash_out:
        f = crash_facts(crash_out)
        # crash 8.0.2 sees no task list on these dumps (its ps shows the
        # CPUs' tasks alone): the task addresses are mapped to pids by the
        # report's task list, which tests/commands holds to crash and drgn
        f["pids"] = {int(t["task"], 16): t["pid"] for t in d["tasks"]}
        if not f["sym"] or f["owner"] is None:
            print("SKIP crash printed too little (%s)" % crash_out)
        else:
            checked += ", crash"
            for sym, addr in addrs:
                want(f["sym"].get(sym) == int(addr, 16),
                     "%s at %s, crash says 0x%x" % (sym, addr, f["sym"].get(sym, 0)))
            owner = f["owner"] & ~7
            want(f["pids"].get(owner) == holder,
                 "crash: mutex.owner 0x%x is pid %s, we say %s" % (owner, f["pids"].get(owner), holder))
            cw = {f["pids"].get(t) for t in f["mutex_waiters"]}
            want(cw == o_mutex, "crash: the mutex's wait list has %s, we %s"
                 % (sorted(cw, key=str), sorted(o_mutex)))
            cc = {f["pids"].get(t) for t in f["compl_waiters"]}
            want(cc == o_compl, "crash: the completion's wait list has %s, we %s"
                 % (sorted(cc, key=str), sorted(o_compl)))
    return inp.verdict("%d mutex waiters on orccrash_mutex held by pid %s (sleeps in %s), "
                       "%d on orccrash_done, %d chains (%s)" % (len(o_mutex), holder, sleeps,
                                                                 len(o_compl), len(chains), checked))


def deadlock(inp, ab, ba, wr, rd):
    d, text, blocked = inp.d, inp.text, inp.blocked
    want_from, crash_out, bad, want = inp.want_from, inp.crash_out, inp.bad, inp.want
    # PREEMPT_RT: mutex_lock() and down_read() sleep in the rt_mutex's slow
    # path (kernel/locking/rtmutex_api.c, rwbase_rt.c), and say so in
    # task->pi_blocked_on
    rt = "__rt_mutex_slowlock_locked" in blocked[rd][1]
    if rt:
        want_from = "pi_blocked_on"
    want(all(("mutex_lock" if rt else "__mutex_lock") in blocked[p][1] for p in (ab, ba)),
         "console: the ABBA kthreads are not in mutex_lock")
    want(("__rwbase_read_lock" if rt else "rwsem_down_read_slowpath") in blocked[rd][1],
         "console: the reader is not in down_read's slow path")
    tasks = {t["pid"]: t for t in d["tasks"]}
    on = {p: (t.get("blocked") or {}).get("on") for p, t in tasks.items()}
    expect = {ab: ("mutex", "orccrash_lock_b", ba),
              ba: ("mutex", "orccrash_lock_a", ab),
              rd: ("rwsem-read", "orccrash_rwsem", wr)}
    addrs = {}
    for p, (kind, sym, owner) in expect.items():
        o = on.get(p)
        if not o:
            bad.append("pid %d: no wait" % p)
            continue
        want((o["kind"], o["symbol"], o["module"], o["owner"]) ==
             (kind, sym, "orccrash_test", owner),
             "pid %d: %s %s [%s] owner %s, want %s %s [orccrash_test] owner %s"
             % (p, o["kind"], o["symbol"], o["module"], o["owner"], kind, sym, owner))
        want(o["owner_task"] == tasks.get(owner, {}).get("task"),
             "pid %d: owner_task %s is not pid %s's" % (p, o["owner_task"], owner))
        want(o["reliable"] and o["from"] == want_from,
             "pid %d: reliable %s from %s (%s)" % (p, o["reliable"], o["from"], o["why"]))
        addrs[sym] = o["address"]
    others = sorted(p for p, o in on.items() if o and p not in expect)
    want(not others, "waits found for %s too" % others)
    chains = d["crash"]["chains"]
    dl = [c for c in chains if c["deadlock"]]
    want(len(dl) == 1 and sorted(dl[0]["pids"]) == sorted([ab, ba]),
         "deadlocks %s, want one of %d and %d" % ([c["pids"] for c in dl], ab, ba))
    if dl:
        want(dl[0]["text"].endswith(": deadlock") and
             ("  DEADLOCK: " + dl[0]["text"]) in text.splitlines(),
             "deadlock text %r, or no DEADLOCK line" % dl[0]["text"])
    rc = [c for c in chains if not c["deadlock"]]
    want(len(rc) == 1 and rc[0]["pids"] == [rd, wr] and rc[0]["text"].endswith(
        "waits for rwsem orccrash_rwsem [orccrash_test] held by pid %d "
        "(orccrash_writer), which sleeps in msleep" % wr),
         "chains %s" % [(c["pids"], c["text"]) for c in rc])
    checked = "the kernel's sysrq-w, the module"
    if crash_out:
        t = open(crash_out, errors="replace").read()
        sym = crash_syms(t, ("orccrash_lock_a", "orccrash_lock_b", "orccrash_rwsem"))
        own = {m.group(1): int(m.group(2)) & (2**64 - 1) for m in re.finditer(
            r"@OWNER (\w+)\s+owner = \{\s*counter = (-?\d+)", t)}
        if len(sym) != 3 or len(own) != 3:
            bad.append("crash printed too little: symbols %s, owners %s" % (sorted(sym), sorted(own)))
        else:
            checked += ", crash"
            for s_, a in addrs.items():
                want(sym[s_] == int(a, 16), "%s at %s, crash says 0x%x" % (s_, a, sym[s_]))
            # rt: rt_mutex_base.owner, RT_MUTEX_HAS_WAITERS in bit 0
            for s_, p, mask in (("orccrash_lock_a", ab, 1 if rt else 7),
                                ("orccrash_lock_b", ba, 1 if rt else 7),
                                ("orccrash_rwsem", wr, 1 if rt else 3)):
                want("0x%x" % (own[s_] & ~mask) == tasks[p]["task"],
                     "crash: %s.owner 0x%x is not pid %d's task %s" % (s_, own[s_], p, tasks[p]["task"]))
    return inp.verdict("deadlock %d <-> %d on orccrash_lock_a/b, %d reads orccrash_rwsem held by "
                       "writer %d (sleeps in msleep) (%s)" % (ab, ba, rd, wr, checked))


def locks(inp, fh, fo, rh, rw):
    d, text, blocked = inp.d, inp.text, inp.blocked
    want_from, crash_out, bad, want = inp.want_from, inp.crash_out, inp.bad, inp.want
    rt = "rwbase_write_lock" in blocked[rw][1]
    want("folio_wait_bit_common" in blocked[fo][1],
         "console: orccrash_folio is not in folio_wait_bit_common")
    want(rt or "rwsem_down_write_slowpath" in blocked[rw][1],
         "console: orccrash_rwrite is not in down_write's slow path")
    m = re.search(r"orccrash: folio ([0-9a-f]+) locked by pid (\d+)", "\n".join(inp.lines))
    want(m and int(m.group(2)) == fh, "console: no 'folio ... locked by pid %d' line" % fh)
    tasks = {t["pid"]: t for t in d["tasks"]}
    on = {p: (t.get("blocked") or {}).get("on") for p, t in tasks.items()}
    o = on.get(fo)
    if not o:
        bad.append("orccrash_folio (%d): no wait" % fo)
    else:
        want(m and (o["kind"], o["address"], o.get("bit"), o["symbol"], o["owner"], o["readers"]) ==
             ("folio", "0x" + m.group(1), "PG_locked", None, None, None),
             "orccrash_folio: %s %s %s symbol %s owner %s, want folio 0x%s PG_locked, no owner"
             % (o["kind"], o["address"], o.get("bit"), o["symbol"], o["owner"], m and m.group(1)))
        want(o["reliable"] and o["from"] == "waiter",
             "orccrash_folio: reliable %s from %s (%s)" % (o["reliable"], o["from"], o["why"]))
        line = " WAITS ON: folio %s (PG_locked) (from the wait list)" % o["address"]
        want(line in text.splitlines(), "the text report has no line %r" % line)
    o = on.get(rw)
    rw_from = want_from.replace("waiter", "owner") if rt else want_from
    if not o:
        bad.append("orccrash_rwrite (%d): no wait" % rw)
    else:
        want((o["kind"], o["symbol"], o["module"], o["owner"], o["owner_task"], o["readers"]) ==
             ("rwsem-write", "orccrash_rdsem", "orccrash_test", None, None, 1),
             "orccrash_rwrite: %s %s [%s] owner %s %s readers %s, want rwsem-write "
             "orccrash_rdsem [orccrash_test] held by 1 reader"
             % (o["kind"], o["symbol"], o["module"], o["owner"], o["owner_task"], o["readers"]))
        want(o["reliable"] and o["from"] == rw_from,
             "orccrash_rwrite: reliable %s from %s, want %s (%s)" % (o["reliable"], o["from"], rw_from, o["why"]))
        want(any(l.startswith(" WAITS ON: rwsem orccrash_rdsem [orccrash_test] at %s, held by 1 reader ("
                              % o["address"]) for l in text.splitlines()),
             "the text report has no WAITS ON line for orccrash_rwrite")
    # the holders sleep in msleep: no wait of their own
    want(not on.get(fh) and not on.get(rh), "the holders wait on %s, %s" % (on.get(fh), on.get(rh)))
    addrs = {"orccrash_rdsem": o and o["address"]}
    checked = "the kernel's sysrq-w, the module"
    sp = sh = None
    if rt:
        state, _ = sysrq_w(inp.serial, "Show State")
        spid = {c: p for p, (c, fns) in (state or {}).items()}
        sp, sh = spid.get("orccrash_spin"), spid.get("orccrash_shold")
        want(sp and sh and "rtlock_slowlock_locked" in state[sp][1] and "rt_spin_lock" in state[sp][1],
             "console: sysrq-t has no orccrash_spin in rtlock_slowlock_locked under rt_spin_lock")
        o = on.get(sp)
        if not o:
            bad.append("orccrash_spin (%s): no wait" % sp)
        else:
            want((o["kind"], o["symbol"], o["module"], o["owner"], o["from"]) ==
                 ("spinlock", "orccrash_spin", "orccrash_test", sh, "pi_blocked_on") and o["reliable"],
                 "orccrash_spin: %s %s [%s] owner %s from %s (%s), want spinlock orccrash_spin "
                 "[orccrash_test] owner %s from pi_blocked_on"
                 % (o["kind"], o["symbol"], o["module"], o["owner"], o["from"], o["why"], sh))
            addrs["orccrash_spin"] = o["address"]
        ch = [c for c in d["crash"]["chains"] if c["pids"] and c["pids"][0] == sp]
        want(len(ch) == 1 and ch[0]["pids"] == [sp, sh] and
             ("     CHAIN: " + ch[0]["text"]) in text.splitlines(),
             "chains from orccrash_spin: %s" % [(c["pids"], c["text"]) for c in ch])
        checked += ", sysrq-t"
    if crash_out:
        t = open(crash_out, errors="replace").read()
        sym = crash_syms(t, ("orccrash_rdsem", "orccrash_spin", "orccrash_folio"))
        # rd orccrash_folio: "ADDR:  VALUE ..."
        fp = "orccrash_folio" in sym and re.search(
            r"^%016x:\s+([0-9a-f]{16})" % sym["orccrash_folio"], t, re.M)
        if fp:
            fp = "0x" + fp.group(1)
        sown = re.search(r"^\s+owner = (0x[0-9a-f]+)", t, re.M)
        if "orccrash_rdsem" not in sym or not fp or (rt and (not sown or "orccrash_spin" not in sym)):
            bad.append("crash printed too little: %s" % re.sub(r"\s+", " ", t[:200]))
        else:
            checked += ", crash"
            for s_, a in addrs.items():
                want(a and sym.get(s_, 0) == int(a, 16),
                     "%s at %s, crash says 0x%x" % (s_, a, sym.get(s_, 0)))
            o = on.get(fo)
            want(o and int(fp, 16) == int(o["address"], 16),
                 "crash: orccrash_folio is %s, the wait's folio %s" % (fp, o and o["address"]))
            if rt:
                o = on.get(sp) or {}
                want("0x%x" % (int(sown.group(1), 16) & ~1) == o.get("owner_task"),
                     "crash: orccrash_spin's owner %s is not the wait's owner_task %s"
                     % (sown.group(1), o.get("owner_task")))
    return inp.verdict("%d waits on the folio pid %d locked (PG_locked), %d writes orccrash_rdsem held by "
                       "1 reader%s (%s)" % (fo, fh, rw, ", %s waits for orccrash_spin held by %s" % (sp, sh)
                                             if rt else "", checked))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
