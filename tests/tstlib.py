# SPDX-License-Identifier: GPL-2.0-or-later
"""What the drivers' Python checks share (tests/lib.sh is the shell's).
A script finds it with tests/ on its path: sys.path.insert() of its
directory's parent, or PYTHONPATH="$top/tests" for a here-document."""


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
