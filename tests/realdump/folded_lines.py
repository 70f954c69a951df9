"""The folded stacks of a file as the flame graph tools read them
(flamegraph.pl: a line is /^(.*)\\s+?(\\d+(?:\\.\\d*)?)$/, its stack split
at ';'), for folded.py and folded_speedscope.py."""
import collections
import re

LINE_RE = re.compile(r"^(.*)\s+?(\d+(?:\.\d*)?)$")


def read(path):
    """(Counter of stack -> count, the problems found: a control byte, a
    line that does not parse, a stack there twice)"""
    fails = []
    folded = collections.Counter()
    for n, line in enumerate(open(path, "rb").read().split(b"\n")[:-1], 1):
        if any(b < 0x20 or b == 0x7f for b in line):
            fails.append("line %d has a control byte" % n)
        m = LINE_RE.match(line.decode("utf-8", "replace"))
        if not m:
            fails.append("line %d does not parse as folded: %r" % (n, line[:80]))
            continue
        stack = m.group(1)
        if stack in folded:
            fails.append("line %d: the stack is there twice" % n)
        folded[stack] += int(m.group(2))
    return folded, fails
