#!/usr/bin/python3
"""Print drgn's stack trace of every task of a vmcore (ref/drgn.txt).

Usage: drgn-ref.py VMLINUX VMCORE

Run with Debian's python3 (python3-drgn). Output:
    @crashed pid=N comm=X     prog.crashed_thread(), then its trace
    @cpu cpu=N pid=N comm=X   the task current on each online CPU
    @task pid=N comm=X state=S
    <str(prog.stack_trace(task))>, or "error: ..." if drgn failed
    #pc PC...                 each frame's pc, in the trace's order
    @end
"""
import sys

import drgn
from drgn.helpers.linux.cpumask import for_each_online_cpu
from drgn.helpers.linux.pid import for_each_task
from drgn.helpers.linux.percpu import per_cpu
from drgn.helpers.linux.sched import task_state_to_char


def cpu_curr(prog, cpu):
    # drgn 0.0.22 has no cpu_curr helper
    return per_cpu(prog["runqueues"], cpu).curr


def comm(task):
    return task.comm.string_().decode(errors="replace").replace(" ", "_") or "?"


def trace(prog, what):
    try:
        t = prog.stack_trace(what)
        print(t)
        # each frame's pc (a return address but in the first frame and
        # after an interrupt), for a test to tell aliases apart
        print("#pc " + " ".join("0x%x" % f.pc for f in t))
    except Exception as e:  # drgn raises several types; all are data here
        print("error: %s: %s" % (type(e).__name__, e))


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    prog = drgn.Program()
    prog.set_core_dump(sys.argv[2])
    try:
        prog.load_debug_info([sys.argv[1]])
    except drgn.MissingDebugInfoError as e:
        print("# warning: %s" % e)
    try:
        thread = prog.crashed_thread()
        print("@crashed pid=%d comm=%s" % (thread.tid, comm(thread.object)))
        trace(prog, thread.object)
        print("@end")
    except Exception as e:
        print("# crashed_thread: %s: %s" % (type(e).__name__, e))
    try:
        for cpu in for_each_online_cpu(prog):
            task = cpu_curr(prog, cpu)
            print("@cpu cpu=%d pid=%d comm=%s" % (cpu, task.pid, comm(task)))
            trace(prog, task)
            print("@end")
    except Exception as e:
        print("# per-cpu: %s: %s" % (type(e).__name__, e))
    try:
        for task in for_each_task(prog):
            try:
                state = task_state_to_char(task)
            except Exception:
                state = "?"
            print("@task pid=%d comm=%s state=%s"
                  % (task.pid, comm(task), state))
            trace(prog, task)
            print("@end")
    except Exception as e:
        # The task list walk itself failed: what was printed stands.
        print("# for_each_task: %s: %s" % (type(e).__name__, e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
