"""drgn's reading of wait queues, the oracle of tests/realdump/waitq.sh:
for each PID:HEAD argument, the wait_queue_entry objects among the PID's
stack frames' local variables (DWARF: ___wait_event()'s __wq_entry,
DEFINE_WAIT's, a wait_page_queue's .wait) whose private is the task, and
the private of every entry on the list of the wait_queue_head at HEAD.
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
            if t.kind.name == "STRUCT" and tn in ("wait_queue_entry", "wait_page_queue") and o.address_ is not None:
                e = o if tn == "wait_queue_entry" else o.wait
                try:
                    if e.private.value_() == task.value_():
                        locals_.append(e.address_)
                except FaultError:
                    pass
    wq = Object(prog, "struct wait_queue_head *", value=int(head, 16))
    tasks = [e.private.value_() for e in list_for_each_entry("struct wait_queue_entry", wq.head.address_of_(), "entry")]
    out[pid] = {"entries": sorted(set(locals_)), "privates": tasks}
print(json.dumps(out))
