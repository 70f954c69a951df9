#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Validate orccrash --triage output (JSON Lines) against the triageLine
definition of docs/json-schema.json.

    triage_lines.py NAME FILE DUMP...

FILE is what orccrash --triage DUMP... printed: one line per DUMP, in
their order ("file" is the argument), each a JSON object valid against
#/$defs/triageLine.  One PASS or FAIL line; exit 1 on FAIL.  Without
python3-jsonschema: one SKIP line, exit 0.
"""
import json
import os
import sys

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "..", "..", "docs", "json-schema.json")


def main(argv):
    name, path, dumps = argv[1], argv[2], argv[3:]
    try:
        import jsonschema
    except ImportError:
        print("SKIP json triage %s: no python3-jsonschema" % name)
        return 0
    schema = json.load(open(SCHEMA))
    line_schema = {"$schema": schema["$schema"], "$defs": schema["$defs"],
                   "$ref": "#/$defs/triageLine"}
    v = jsonschema.Draft202012Validator(line_schema)
    bad = []
    raw = open(path, "rb").read()
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    else:
        bad.append("the output does not end with a newline")
    if len(lines) != len(dumps):
        bad.append("%d lines for %d dumps" % (len(lines), len(dumps)))
    errors = 0
    for i, l in enumerate(lines):
        try:
            o = json.loads(l.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            bad.append("line %d: not JSON: %s" % (i + 1, e))
            continue
        for e in v.iter_errors(o):
            errors += 1
            if errors <= 5:
                bad.append("line %d: %s: %s" % (i + 1, "/".join(map(str, e.absolute_path)), e.message[:200]))
        if i < len(dumps) and o.get("file") != dumps[i]:
            bad.append("line %d is %r, argument %d is %r" % (i + 1, o.get("file"), i + 1, dumps[i]))
    if bad:
        print("FAIL json triage %s: %s" % (name, "; ".join(bad[:8])))
        return 1
    nerr = sum(1 for l in lines if json.loads(l).get("error"))
    print("PASS json triage %s: %d lines in argument order, valid (%d errors)" % (name, len(lines), nerr))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
