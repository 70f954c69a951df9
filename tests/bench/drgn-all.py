# drgn's side of `make bench`: print prog.stack_trace(task) for every task.
# Run as: drgn -c VMCORE -s VMLINUX tests/bench/drgn-all.py
# (drgn's CLI runs this with `prog` defined).  A task drgn cannot read or
# unwind prints its error and counts: the comparison is about time, not
# verdicts.
import sys

from drgn.helpers.linux.pid import for_each_task

n = errors = 0
try:
    for task in for_each_task(prog):  # noqa: F821 (prog: from drgn's CLI)
        n += 1
        try:
            print("PID: %d COMM: %s" % (
                task.pid.value_(), task.comm.string_().decode(errors="replace")))
            print(prog.stack_trace(task))  # noqa: F821
        except Exception as e:  # drgn raises several types; all are data here
            errors += 1
            print("error: %s: %s" % (type(e).__name__, e))
        print()
except Exception as e:  # the task list itself cut short (an excluded page)
    print("error: task list: %s: %s" % (type(e).__name__, e))
    errors += 1
print("# drgn-all: %d tasks, %d errors" % (n, errors), file=sys.stderr)
