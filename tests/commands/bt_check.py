#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hold `bt`'s traces (orccrash --json -e 'bt -s S' ...) to the kernel's
own sysrq-t traces of the same tasks (ref/kernel.txt, made by
samples/parse-serial.py from the serial log), the rule of
tests/realdump/compare.py: a task asleep at sysrq-t time that did not run
before the crash has the same stack, line for line ("?" entries too), so
at least 90% of the comparable tasks must match; the mismatches are shown.
Without --scan the kernel's "?" lines (stack words it only guessed at)
are left out of its trace before comparing.

    bt_check.py [--scan] NAME REF_KERNEL_TXT BT_JSON...

Each BT_JSON holds one or more concatenated `bt` documents.
"""
import os
import sys

from jsondocs import docs

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "realdump"))
from compare import diff, match_sysrq, parse_ref  # noqa: E402

args = sys.argv[1:]
scan = args[:1] == ["--scan"]
if scan:
    args = args[1:]
name, ref = args[0], args[1]
tasks = {}
for path in args[2:]:
    for doc in docs(open(path).read()):
        for t in doc["result"]["tasks"] or []:
            tasks[t["pid"]] = t
compared, matched, bad = match_sysrq(parse_ref(ref), tasks, scan)
if not compared:
    print("FAIL %s: bt: no task of sysrq-t in bt's output (%d tasks)" % (name, len(tasks)))
    sys.exit(1)
pct = 100.0 * matched / compared
print("%s %s: bt%s: %d of %d sleeping tasks' traces are sysrq-t's, line for line (%.0f%%, need 90%%)"
      % ("PASS" if pct >= 90 else "FAIL", name, " --scan" if scan else "", matched, compared, pct))
for pid, comm, r, ours in bad[:5]:
    print("  pid %d (%s): kernel | bt\n%s" % (pid, comm, diff(r, ours)))
sys.exit(0 if pct >= 90 else 1)
