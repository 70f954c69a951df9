"""drgn's reading of wait queues, the oracle of tests/realdump/waitq.sh:
for each PID:HEAD argument, the wait_queue_entry objects among the PID's
stack frames' local variables (DWARF: ___wait_event()'s __wq_entry,
DEFINE_WAIT's; or a member of a struct local: a wait_page_queue's .wait,
do_wait()'s wait_opts.child_wait) whose private is the task and that is on a list, and
the private of every entry on the list of the wait_queue_head at HEAD
(none for a HEAD of 0).
One JSON object on stdout.  Run by drgn (Debian 12's 0.0.22 or sid's):
    drgn -q -c VMCORE -s VMLINUX waitq_drgn.py PID:HEAD...
"""
import sys, json
from drgn import Object, FaultError
from drgn.helpers.linux.pid import find_task
from drgn.helpers.linux.list import list_for_each_entry
out = {}
for arg in sys.argv[1:]:
    pid, head = arg.split(":")
    task = find_task(prog, int(pid))
    # the task's own wait_queue_entry among its frames' locals (DWARF)
    locals_ = []
    for frame in prog.stack_trace(task):
        try:
            names = frame.locals()
        except Exception:
            continue
        for n in names:
            try:
                o = frame[n]
            except Exception:
                continue
            t = o.type_
            while t.kind.name == "TYPEDEF":
                t = t.type
            tn = getattr(t, "tag", None)
            if t.kind.name != "STRUCT" or o.address_ is None:
                continue
            # the entry itself, or a member of a struct local that is one
            # (wait_page_queue.wait, do_wait()'s wait_opts.child_wait)
            cands = [o] if tn == "wait_queue_entry" else []
            for m in t.members or ():
                mt = m.type
                while mt.kind.name == "TYPEDEF":
                    mt = mt.type
                if m.name and mt.kind.name == "STRUCT" and getattr(mt, "tag", None) == "wait_queue_entry":
                    cands.append(o.member_(m.name))
            for e in cands:
                try:
                    # on a list: its entry not pointing to itself
                    if e.private.value_() == task.value_() and \
                            e.entry.next.value_() != e.entry.address_:
                        locals_.append(e.address_)
                except FaultError:
                    pass
    tasks = []
    if int(head, 16):   # 0: orccrash found none (only the locals asked)
        wq = Object(prog, "struct wait_queue_head *", value=int(head, 16))
        tasks = [e.private.value_() for e in list_for_each_entry(
            "struct wait_queue_entry", wq.head.address_of_(), "entry")]
    out[pid] = {"entries": sorted(set(locals_)), "privates": tasks}
print(json.dumps(out))
