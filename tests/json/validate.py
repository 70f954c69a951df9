#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Validate orccrash --json documents against docs/json-schema.json.

    validate.py [--need-frames] [--schema SCHEMA] NAME FILE...

One PASS or FAIL line per file ("PASS json schema NAME: ..."), with up to
ten validation errors (where in the document, and what) under a FAIL.
Exit status 1 if any file fails.  Without python3-jsonschema (Debian 12:
4.10, JSON Schema draft 2020-12) it prints one SKIP line and exits 0.
--need-frames: a document with no task or no frame fails too (a report
that validates because it is empty proves nothing).
--schema: another schema (docs/commands-schema.json for orccrash -e --json).
"""
import json
import os
import sys

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "..", "..", "docs", "json-schema.json")


def where(err):
    return "$" + "".join("[%d]" % p if isinstance(p, int) else ".%s" % p
                         for p in err.absolute_path)


def sibling_schemas(schema):
    """The docs' other schemas, by their $id, for a "$ref" into one
    (docs/commands-schema.json's bt refers to docs/json-schema.json's
    cpu and task): jsonschema 4.18+ takes a referencing.Registry, older
    ones (Debian 12's 4.10) a RefResolver store."""
    docs = os.path.dirname(SCHEMA)
    others = {}
    for name in sorted(os.listdir(docs)):
        if name.endswith("schema.json"):
            with open(os.path.join(docs, name)) as f:
                s = json.load(f)
            if s.get("$id") and s.get("$id") != schema.get("$id"):
                others[s["$id"]] = s
    try:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
        return {"registry": Registry().with_resources(
            (i, Resource.from_contents(s, default_specification=DRAFT202012))
            for i, s in others.items())}
    except ImportError:
        import jsonschema
        return {"resolver": jsonschema.RefResolver.from_schema(schema, store=others)}


def main(argv):
    need_frames = False
    schema_path = SCHEMA
    while argv and argv[0] in ("--need-frames", "--schema"):
        if argv[0] == "--need-frames":
            need_frames = True
            argv = argv[1:]
        elif len(argv) > 1:
            schema_path = argv[1]
            argv = argv[2:]
        else:
            break
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    name, files = argv[0], argv[1:]
    try:
        import jsonschema
    except ImportError:
        print("SKIP json schema %s: no python3-jsonschema (apt-get install python3-jsonschema)"
              % name)
        return 0
    with open(schema_path) as f:
        schema = json.load(f)
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    validator = cls(schema, format_checker=None, **sibling_schemas(schema))
    failed = 0
    for path in files:
        label = "%s: %s" % (name, os.path.basename(path)) if len(files) > 1 else name
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print("FAIL json schema %s: not JSON: %s" % (label, e))
            failed += 1
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        ntasks = len(doc.get("tasks", [])) if isinstance(doc, dict) else 0
        nframes = 0
        if isinstance(doc, dict):
            # --group: the tasks are in "groups" (count of them each)
            groups = [g for g in doc.get("groups", []) if isinstance(g, dict)]
            ntasks += sum(g.get("count", 0) for g in groups
                          if isinstance(g.get("count"), int))
            for t in doc.get("cpus", []) + doc.get("tasks", []) + groups:
                nframes += len(t.get("frames", [])) if isinstance(t, dict) else 0
        if not errors and need_frames and (not ntasks or not nframes):
            print("FAIL json schema %s: valid but empty (%d tasks, %d frames)"
                  % (label, ntasks, nframes))
            failed += 1
        elif errors:
            print("FAIL json schema %s: %d errors against %s"
                  % (label, len(errors), os.path.basename(schema_path)))
            for e in errors[:10]:
                msg = e.message if len(e.message) < 300 else e.message[:300] + "..."
                print("  %s: %s" % (where(e), msg))
            failed += 1
        elif schema_path != SCHEMA:
            print("PASS json schema %s: version %s, command %s"
                  % (label, doc.get("version"), doc.get("command")))
        else:
            print("PASS json schema %s: version %s, %d cpus, %d tasks, %d frames"
                  % (label, doc.get("version"), len(doc.get("cpus", [])), ntasks, nframes))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
