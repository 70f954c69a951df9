# SPDX-License-Identifier: GPL-2.0-or-later
"""What the drivers' Python checks share (tests/lib.sh is the shell's).
A script finds it with tests/ on its path: sys.path.insert() of its
directory's parent, or PYTHONPATH="$top/tests" for a here-document."""
import re


def marked_blocks(text, marker, keep=lambda line: True):
    """{key: [lines]} of TEXT cut at the lines matching the regular
    expression MARKER (its group 1 is the key): what crash printed after
    each of the echo extension's markers.  The lines before the first
    marker are left out, and so is each line KEEP(line) refuses."""
    out, key = {}, None
    for line in text.splitlines():
        m = re.match(marker, line)
        if m:
            key = m.group(1)
            out[key] = []
        elif key is not None and keep(line):
            out[key].append(line)
    return out


def verdict(name, what, fails, passed, most=8):
    """The line tests/run-tests.sh counts: "PASS NAME: PASSED" without
    FAILS, else "FAIL NAME: WHAT" and the first MOST of FAILS indented
    under it."""
    if fails:
        print("FAIL %s: %s" % (name, what))
        for f in fails[:most]:
            print("    %s" % f)
    else:
        print("PASS %s: %s" % (name, passed))
