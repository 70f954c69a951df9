#!/usr/bin/env python3
"""Why an orccrash --json report of a real kdump would exit 3: the first
unreliable traces ("CPU n: stop"), else "memory missing: <warning>" when
only a warning about memory the dump lacks remains, else nothing.
usage: kdump_status.py ORCCRASH_JSON"""
import json
import sys

r = json.load(open(sys.argv[1]))
bad = ["CPU %d: %s" % (c["cpu"], c["stop"]) for c in r["cpus"] if not c["reliable"]]
bad += ["pid %d: %s" % (t["pid"], t["stop"]) for t in r["tasks"] if not t["reliable"]]
missing = [w for w in r["kernel"].get("warnings", [])
           if "not in the dump" in w or "could not be read" in w]
if bad:
    print("; ".join(bad[:4]))
elif missing:
    print("memory missing: " + missing[-1])
