#!/usr/bin/python3
"""`make bench-dwarf`: the DWARF libraries and the cost of source lines.

Usage: dwarf.py --build DIR [--runs N] [--out FILE]

For each release of the sample cache ($ORCCRASH_CACHE/dumps/index.tsv):
  - build/tests/dwarfbench (libdwarf, and ours: formats/dwarflines.c) and
    build/tests/dwarfbench-libdw (elfutils' libdw, when libdw-dev was
    installed at build time), one measurement per process: open, every CU
    DIE, every DIE, one address's line and inline chain; seconds and peak
    RSS.  The vmlinux is in the page cache (read once before).
  - `orccrash --all-tasks` (text) on the release's `process` dump (else the
    first dump listed): --no-lines, lines with an empty cache (cold) and
    lines with the cache that run left (warm), N runs each, alternating.
    The target (docs/benchmarks.md, "DWARF"): warm <= 1.5x --no-lines.
Prints a markdown section and writes it into FILE (default
docs/benchmarks.md) between the "dwarf:begin" and "dwarf:end" markers.
Timings are never asserted.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True	# no __pycache__ in the tree
import bench  # noqa: E402  (write_section)

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
CACHE = os.environ.get("ORCCRASH_CACHE") or os.path.expanduser("~/.cache/orccrash")
BEGIN = "<!-- dwarf:begin (tests/bench/dwarf.py writes from here) -->"
END = "<!-- dwarf:end -->"
MODES = [
    ("libdwarf-open", "libdwarf 20210528: `dwarf_init_path()`"),
    ("libdwarf-cus", "libdwarf: open + every CU DIE"),
    ("libdwarf-dies", "libdwarf: open + every DIE"),
    ("libdw-open", "libdw 0.188: `dwarf_begin()`"),
    ("libdw-cus", "libdw: open + every CU DIE"),
    ("libdw-dies", "libdw: open + every DIE"),
    ("libdw-lookup", "libdw: open + line and scopes of one address"),
    ("ours-open", "ours (libdwarf, mapped): open"),
    ("ours-lookup", "ours: open + line and inline chain of one address"),
]


def log(msg):
    print("[bench-dwarf %s] %s" % (time.strftime("%H:%M:%S"), msg), file=sys.stderr, flush=True)


def releases():
    """release -> (vmlinux, dump) from the sample index."""
    out = {}
    path = os.path.join(CACHE, "dumps", "index.tsv")
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            rel, scen, fmt, core, vml = line.rstrip("\n").split("\t")[:5]
            if not (os.path.exists(core) and os.path.exists(vml)):
                continue
            best = out.get(rel)
            if best is None or (scen == "process" and fmt == "kdump"):
                out[rel] = (vml, core)
    return out


def symbol(vmlinux, name):
    r = subprocess.run(["nm", vmlinux], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == name:
            return int(f[0], 16)
    return None


def run_mode(build, mode, vmlinux, addr):
    exe = os.path.join(build, "tests", "dwarfbench-libdw" if mode.startswith("libdw-")
                       else "dwarfbench")
    if not os.access(exe, os.X_OK):
        return None
    env = dict(os.environ, DWARFBENCH_ADDR="0x%x" % addr)
    r = subprocess.run([exe, mode, vmlinux], capture_output=True, text=True, env=env)
    if r.returncode:
        log("%s %s: %s" % (mode, vmlinux, r.stderr.strip()))
        return None
    f = r.stdout.split()
    return float(f[1]), int(f[3]) / 1024.0, int(f[5])


def timed(cmd, env):
    t0 = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    t = time.monotonic() - t0
    if r.returncode not in (0, 3):
        log("%s: exit %d: %s" % (" ".join(cmd), r.returncode, r.stderr.decode()[-300:]))
        return None
    return t


def report_runs(build, vmlinux, core, runs):
    exe = os.path.join(build, "orccrash")
    out = {"nolines": [], "cold": [], "warm": []}
    for _ in range(runs):
        tmp = tempfile.mkdtemp(prefix="orccrash-bench-dwarf.")
        try:
            env = dict(os.environ, ORCCRASH_CACHE=tmp)
            for key, args in (("nolines", ["--no-lines"]), ("cold", []), ("warm", [])):
                t = timed([exe, "--all-tasks"] + args + [core, vmlinux], env)
                if t is not None:
                    out[key].append(t)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return {k: statistics.median(v) if v else None for k, v in out.items()}


def markdown(results, runs):
    L = ["Measured %s by `make bench-dwarf` (tests/bench/dwarf.py), "
         "median of %d runs, vmlinux in the page cache." % (
             time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), runs), ""]
    try:
        L.append("Load average at the end: %s." % " ".join(
            open("/proc/loadavg").read().split()[:3]))
        L.append("")
    except OSError:
        pass
    rels = sorted(results)
    L.append("| | " + " | ".join("%s (%s MB vmlinux)" % (
        r, results[r]["size"]) for r in rels) + " |")
    L.append("|---|" + "---|" * len(rels))
    for mode, label in MODES:
        cells = []
        for r in rels:
            m = results[r]["modes"].get(mode)
            if not m:
                cells.append("n/a")
                continue
            s, mb, items = m
            extra = ""
            if mode.endswith("-cus"):
                extra = ", %s CUs" % "{:,}".format(items)
            elif mode.endswith("-dies"):
                extra = ", %s DIEs" % "{:,}".format(items)
            cells.append("%s s, %.0f MB%s" % (("%.4f" % s) if s < 0.01 else ("%.3f" % s),
                                               mb, extra))
        L.append("| %s | %s |" % (label, " | ".join(cells)))
    for key, label in (("nolines", "`orccrash --all-tasks --no-lines` (process dump)"),
                       ("cold", "`orccrash --all-tasks`, lines, empty cache"),
                       ("warm", "`orccrash --all-tasks`, lines, warm cache")):
        cells = []
        for r in rels:
            rep = results[r]["report"]
            v = rep.get(key)
            if v is None:
                cells.append("n/a")
                continue
            ratio = ""
            if key != "nolines" and rep.get("nolines"):
                ratio = " (%.2fx)" % (v / rep["nolines"])
            cells.append("%.3f s%s" % (v, ratio))
        L.append("| %s | %s |" % (label, " | ".join(cells)))
    L.append("")
    return "\n".join(L) + "\n"


def write(path, text):
    bench.write_section(path, text, BEGIN, END, "## DWARF: libdwarf, libdw and ours")
    log("wrote %s" % path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", "3")))
    ap.add_argument("--out", default=os.environ.get("BENCH_OUT",
                                                    os.path.join(TOP, "docs", "benchmarks.md")))
    a = ap.parse_args()
    rels = releases()
    if not rels:
        sys.exit("bench-dwarf: no sample dumps in %s (make samples)" % CACHE)
    results = {}
    for rel, (vml, core) in sorted(rels.items()):
        log("%s: %s" % (rel, vml))
        subprocess.run(["cat", vml], stdout=subprocess.DEVNULL)	# page cache
        addr = symbol(vml, "panic")
        res = {"size": os.path.getsize(vml) // (1 << 20), "modes": {}}
        for mode, _ in MODES:
            got = [run_mode(a.build, mode, vml, addr + 0x10) for _ in range(a.runs)]
            got = [g for g in got if g]
            if got:
                res["modes"][mode] = (statistics.median(g[0] for g in got),
                                      statistics.median(g[1] for g in got), got[0][2])
        res["report"] = report_runs(a.build, vml, core, a.runs)
        results[rel] = res
    text = markdown(results, a.runs)
    print(text)
    write(a.out, text)


if __name__ == "__main__":
    main()
