#!/usr/bin/python3
"""Startup of two orccrash builds side by side (before/after a change).

Usage: startup_ab.py [--runs N] [--dump VMCORE[:VMLINUX]]... BEFORE AFTER

BEFORE and AFTER are orccrash binaries.  On each dump (default: one real
kdump and one QEMU ELF dump per kernel of the sample cache, and
samples/default/vmcore without a vmlinux) the two alternate N times (7):
the text report of every task (`--all-tasks`, to /dev/null) for its CPU
time (user + system of the child) and wall time, and the browser's first
screen (tests/bench/bench.py's first_screen: a 200x50 pty until the
header line is drawn).  Prints the medians as a markdown table, for
docs/benchmarks.md; timings are never asserted.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True	# no __pycache__ in the tree
sys.path.insert(0, HERE)
import bench  # noqa: E402  (first_screen, SCREEN_RE, CACHE)


def default_dumps():
    out = []
    idx = os.path.join(bench.CACHE, "dumps", "index.tsv")
    seen = set()
    if os.path.exists(idx):
        with open(idx) as f:
            rows = [line.rstrip("\n").split("\t") for line in f]
        for want_fmt, want_sc in (("kdump-real", "kdump"), ("elf", "process")):
            for rel, sc, fmt, core, vmlinux, _k in rows:
                if fmt == want_fmt and sc == want_sc and (rel, fmt) not in seen:
                    seen.add((rel, fmt))
                    out.append(("%s %s %s" % (rel, sc, fmt), core, vmlinux))
    out.append(("default sample, no vmlinux", os.path.join(TOP, "samples", "default", "vmcore"), None))
    return out


def text_run(exe, core, vmlinux):
    cmd = [exe, "--all-tasks", core] + ([vmlinux] if vmlinux else [])
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return cpu, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--dump", action="append", default=[],
                    help="VMCORE[:VMLINUX] (repeatable)")
    ap.add_argument("before")
    ap.add_argument("after")
    a = ap.parse_args()
    dumps = []
    for d in a.dump:
        core, _, vml = d.partition(":")
        dumps.append((os.path.basename(core), core, vml or None))
    dumps = dumps or default_dumps()
    load0 = "%.1f %.1f %.1f" % os.getloadavg()
    print("| dump | text CPU ms, before -> after | text wall ms | first screen ms (warm) |")
    print("|---|---|---|---|")
    for label, core, vmlinux in dumps:
        res = {"b": ([], [], []), "a": ([], [], [])}
        for _ in range(a.runs):
            for key, exe in (("b", a.before), ("a", a.after)):
                cpu, wall = text_run(exe, core, vmlinux)
                res[key][0].append(cpu)
                res[key][1].append(wall)
                fs = bench.first_screen([exe, core] + ([vmlinux] if vmlinux else []),
                                        bench.SCREEN_RE)
                if fs is not None:
                    res[key][2].append(fs)

        def med(v):
            return "%.0f" % (statistics.median(v) * 1000) if v else "-"

        print("| %s | %s -> %s | %s -> %s | %s -> %s |" % (
            label, med(res["b"][0]), med(res["a"][0]), med(res["b"][1]),
            med(res["a"][1]), med(res["b"][2]), med(res["a"][2])), flush=True)
    print()
    print("Medians of %d runs each, the two builds alternating; load average %s at the start, "
          "%.1f %.1f %.1f at the end (%d CPUs)." % ((a.runs, load0) + os.getloadavg() +
                                                    (os.cpu_count(),)))


if __name__ == "__main__":
    main()
