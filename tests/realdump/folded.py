#!/usr/bin/env python3
"""Hold `orccrash --folded=state,comm` to the JSON report of the same dump.
The folded format is flame graph tools' input (flamegraph.pl reads a line as
/^(.*)\\s+?(\\d+(?:\\.\\d*)?)$/, its stack split at ';'): every line must
parse so, each stack once, the counts must add up to the report's tasks,
and each task's stack (state, comm, then its frames outermost first, "?"
entries left out) must be one of the folded stacks, as often as tasks have it.
usage: folded.py NAME FOLDED JSON"""
import collections
import json
import sys

import folded_lines

name, folded_path, json_path = sys.argv[1:4]
folded, fails = folded_lines.read(folded_path)

r = json.load(open(json_path))


def frame(f):
    ip = int(f["ip"], 16)
    if ip < (1 << 63):
        return "[user]"
    if f.get("symbol") is None:
        return "[unknown]"
    return "%s [%s]" % (f["symbol"], f["module"]) if f.get("module") else f["symbol"]


want = collections.Counter()
for t in r["tasks"]:
    frames = [frame(f) for f in t.get("frames", []) if not f.get("scanned")]
    comm = "".join("_" if ord(c) < 0x20 or c in ";\x7f" else c for c in t["comm"]) or "[no comm]"
    want[";".join([t["state"], comm] + (frames[::-1] or ["[no frames]"]))] += 1

if sum(folded.values()) != len(r["tasks"]):
    fails.append("the counts add up to %d, the report has %d tasks" % (sum(folded.values()), len(r["tasks"])))
for stack in set(want) | set(folded):
    if want[stack] != folded[stack]:
        fails.append("%d tasks have %s…, the folded output says %d"
                     % (want[stack], stack[:100], folded[stack]))
        break
if fails:
    print("FAIL %s: --folded: %s" % (name, "; ".join(fails[:3])))
else:
    print("PASS %s: --folded: %d stacks of %d tasks, each as in the JSON report"
          % (name, len(folded), sum(folded.values())))
