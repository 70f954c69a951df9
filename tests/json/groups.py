#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check a --json --group document against the same report ungrouped.

    groups.py NAME GROUPED.json UNGROUPED.json [GROUPED.txt]

The oracle is the ungrouped report of the same selection: its tasks,
keyed by their frames' ips and "?" flags and how the trace ended, must
be the groups, in the order of their first task, with the same pids in
the same order and count of them; "tasks" is empty and no two groups
share a stack.  GROUPED.txt, the text --group report, must give the same
counts.  One PASS or FAIL line; exit 1 on FAIL.
"""
import json
import re
import sys


def key(t):
    return (tuple((f["ip"], f["scanned"]) for f in t["frames"]), t["stop"], t["reliable"])


def check(grouped, ungrouped, text):
    if grouped["tasks"]:
        return "tasks is not empty with --group"
    want = {}
    for t in ungrouped["tasks"]:
        want.setdefault(key(t), []).append(t["pid"])
    got = [(key(g), g["pids"], g["count"]) for g in grouped["groups"]]
    if len({k for k, _, _ in got}) != len(got):
        return "two groups have one stack"
    if [k for k, _, _ in got] != list(want):
        return "the groups' stacks are not the ungrouped tasks' (%d groups, %d stacks)" % (
            len(got), len(want))
    if [p for _, p, _ in got] != list(want.values()):
        return "pids differ: %s, not %s" % ([p for _, p, _ in got][:5], list(want.values())[:5])
    if any(c != len(p) for _, p, c in got):
        return "a count is not the number of its pids"
    if any("variables" in f for g in grouped["groups"] for f in g["frames"]):
        return "a group's frame has --locals variables (each task's own)"
    if text is not None:
        counts = [int(c) for c in re.findall(r"^(\d+) tasks? with this stack:", text, re.M)]
        if counts != [c for _, _, c in got]:
            return "the text --group counts %s differ" % counts[:10]
    if not got:
        return "no group (nothing checked)"
    return None


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    name = argv[0]
    try:
        grouped, ungrouped = (json.load(open(p)) for p in argv[1:3])
        text = open(argv[3]).read() if len(argv) == 4 else None
        why = check(grouped, ungrouped, text)
    except (OSError, ValueError, KeyError, TypeError) as e:
        why = "unreadable: %r" % e
    if why:
        print("FAIL json groups %s: %s" % (name, why))
        return 1
    counts = [g["count"] for g in grouped["groups"]]
    print("PASS json groups %s: %d groups of %d tasks (largest %d), as the ungrouped report%s"
          % (name, len(counts), sum(counts), max(counts),
             " and the text" if text is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
