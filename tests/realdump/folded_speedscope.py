#!/usr/bin/env python3
"""Load `orccrash --folded` output, unchanged, into speedscope (a flame graph
viewer that imports the folded stacks of flamegraph.pl as "collapsed
stacks") in headless Chromium, and hold speedscope's reading to the file:
the page must be the profile's (its title is the file's name: an import
that fails leaves speedscope's start page), and the sandwich view's table,
one row per function with its total and self weight, must list every
function of the file with the total of the stacks it is on (once a stack,
however deep its recursion) and the self of the stacks it ends.

usage: folded_speedscope.py NAME FOLDED INDEX_HTML TMPDIR -- CHROMIUM...
  INDEX_HTML  speedscope's dist/release/index.html (tests/lib.sh
              tst_speedscope);  CHROMIUM...  the command (tst_chromium's)
Prints PASS/FAIL lines."""
import base64
import collections
import html.parser
import json
import os
import re
import subprocess
import sys

import folded_lines

args = sys.argv[1:]
sep = args.index("--")
name, folded_path, index_html, tmp = args[:sep]
chromium = args[sep + 1:]

# the flame graph tools' parse (folded_lines.py)
stacks, fails = folded_lines.read(folded_path)
if fails:
    print("FAIL %s: speedscope: not folded stacks: %s" % (name, fails[0]))
    sys.exit(0)
total, self_w = collections.Counter(), collections.Counter()
for stack, count in stacks.items():
    frames = stack.split(";")
    for f in set(frames):
        total[f] += count
    self_w[frames[-1]] += count

# the speedscope CLI's way of opening a file: a script that hands the bytes
# to the page (bin/cli.mjs), named in the page's #localProfilePath
base = os.path.basename(folded_path)
js = os.path.join(tmp, "speedscope-profile.js")
with open(js, "w") as f:
    f.write("speedscope.loadFileFromBase64(%s, %s)" % (
        json.dumps(base), json.dumps(base64.b64encode(open(folded_path, "rb").read()).decode())))
# the table is virtual (rows drawn only where the window shows them): a
# window tall enough for every row, ~20 px each, within what Chromium draws
height = min(max(800, 24 * len(total) + 400), 16000)
url = "file://%s#localProfilePath=%s&view=sandwich" % (index_html, js)


class Rows(html.parser.HTMLParser):
    """The sandwich table's rows: the text of each <td>, row by row."""
    def __init__(self):
        super().__init__()
        self.title, self.rows, self.in_title, self.cell = "", [], False, None

    def handle_starttag(self, tag, attrs):
        if tag == "title":
            self.in_title = True
        elif tag == "tr":
            self.rows.append([])
        elif tag == "td" and self.rows:
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        elif tag == "td" and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data):
        if self.in_title:
            self.title += data
        if self.cell is not None:
            self.cell.append(data)


def weight(cell):
    """'1,234 (97%)' -> 1234"""
    m = re.match(r"^([\d,]+) \(", cell)
    return int(m.group(1).replace(",", "")) if m else None


def load(attempt):
    """speedscope's page after the import, parsed; each attempt with a
    profile directory of its own"""
    r = subprocess.run(chromium + ["--user-data-dir=%s/speedscope-profile-%d" % (tmp, attempt),
                                   "--allow-file-access-from-files",
                                   "--window-size=1400,%d" % height,
                                   "--virtual-time-budget=15000", "--dump-dom", url],
                       capture_output=True, text=True)
    p = Rows()
    p.feed(r.stdout)
    return r, p


# a row the virtual table has not drawn yet is not a misreading: on a
# loaded machine a dump can come before the table is whole, so up to
# three loads; a row drawn with other weights fails at once
for attempt in range(1, 4):
    r, p = load(attempt)
    if p.title.strip() != "%s - speedscope" % base:
        print("FAIL %s: speedscope did not load it (title %r; chromium exit %d: %s)" % (
            name, p.title.strip(), r.returncode, r.stderr.strip()[-200:]))
        sys.exit(0)
    got, bad = {}, []
    for row in p.rows:
        if len(row) != 3:
            continue
        t, s, fn = weight(row[0]), weight(row[1]), row[2]
        got[fn] = (t, s)
        if (t, s) != (total.get(fn), self_w.get(fn, 0)):
            bad.append("%s: speedscope %s/%s, the file %s/%s" % (fn, t, s, total.get(fn), self_w.get(fn, 0)))
    missing = [f for f in total if f not in got]
    if bad or not missing:
        break
if bad or missing:
    print("FAIL %s: speedscope reads it otherwise (total/self): %s%s" % (
        name, "; ".join(bad[:4]), "; %d of %d functions missing (%d loads): %s" % (
            len(missing), len(total), attempt, ", ".join(missing[:4])) if missing else ""))
else:
    print("PASS %s: %s loads it unchanged: %d functions, total and self as the file's%s" % (
        name, next((c for c in index_html.split("/") if c.startswith("speedscope-")), "speedscope"),
        len(got), " (load %d)" % attempt if attempt > 1 else ""))
