#!/usr/bin/python3
"""Where orccrash's time goes: perf over one run, split into its phases.

Usage: profile.py [--build DIR] [--mode text|json|browser] [--runs N]
                  [--top N] VMCORE [VMLINUX]

Runs `orccrash --all-tasks` (--mode json: with --json; --mode browser: the
browser in a 200x50 pty until its first screen, then Q) N times under
`perf stat` for its CPU time, then once under `perf record --call-graph
dwarf`, and prints each phase's inclusive share of the samples and that
share of the median CPU time.  The phases are functions of the model
(src/kernel*.c), the formats, the reports and the libraries under them
(formats/dump.c's fill_page, zlib's inflate, libbpf's btf__new, the kernel's
page-fault path); inclusive shares overlap (fill_page is inside the task
list, the task list inside oc_kernel_open).  A build with frame pointers
and little inlining names the static functions:
  make O=build-prof CFLAGS="-O2 -g -fno-omit-frame-pointer \\
      -fno-inline-functions-called-once -fno-inline-small-functions"
Needs perf (Debian: linux-perf).  For docs/benchmarks.md, "where the time
goes"; timings are never asserted.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True	# no __pycache__ in the tree
sys.path.insert(0, HERE)
import bench  # noqa: E402  (first_screen)

# (label, symbols: the first one found counts), in the order of a run
PHASES = [
    ("dynamic linking (ld.so)", ["_dl_start"]),
    ("oc_kernel_open: the whole model", ["oc_kernel_open"]),
    ("  dump open (libkdumpfile, VMCOREINFO)", ["oc_dump_open"]),
    ("  vmlinux symbols", ["read_vmlinux"]),
    ("    .symtab read (oc_symtab_add)", ["read_symtab"]),
    ("    symbol sort (oc_symtab_finish)", ["oc_symtab_finish"]),
    ("  vmlinux banner check", ["check_match"]),
    ("  no vmlinux: kallsyms from memory", ["oc_kmodel_kallsyms"]),
    ("  BTF (libbpf btf__new)", ["read_btf"]),
    ("  no vmlinux: BTF from memory", ["oc_kmodel_btf_from_memory"]),
    ("  ORC tables", ["read_vmlinux_orc", "oc_kmodel_orc_from_memory"]),
    ("    parse + decode (oc_orc_table_parse)", ["oc_orc_table_parse"]),
    ("    lookup index (oc_orc_table_build_lookup)", ["oc_orc_table_build_lookup"]),
    ("    relocate (oc_orc_table_relocate)", ["oc_orc_table_relocate"]),
    ("  CPUs", ["oc_kmodel_read_cpus"]),
    ("  stacks", ["oc_kmodel_read_stacks"]),
    ("  task list (every task_struct)", ["oc_kmodel_read_tasks"]),
    ("  modules (ORC and symbols from memory)", ["oc_kmodel_read_modules"]),
    ("lines cache / DWARF lines", ["open_lines"]),
    ("report: text", ["oc_report_text"]),
    ("report: JSON", ["oc_report_json"]),
    ("  unwinding (tasks)", ["oc_kernel_unwind_task"]),
    ("  unwinding (CPUs)", ["oc_kernel_unwind_cpu"]),
    ("  the log buffer", ["oc_kernel_read_log"]),
    ("  json-c: building the tree", ["json_object_object_add"]),
    ("  json-c: serialising", ["json_object_to_json_string_ext", "json_object_to_fd"]),
    ("browser (oc_ui_run)", ["oc_ui_run"]),
    ("lines cache written (oc_lines_close)", ["oc_lines_close"]),
    ("model freed (oc_kernel_close)", ["oc_kernel_close"]),
    ("across phases: page reads (fill_page)", ["fill_page"]),
    ("across phases: zlib inflate", ["inflate"]),
    ("across phases: page faults", ["asm_exc_page_fault"]),
    ("across phases: qsort", ["__GI___qsort_r", "qsort_r"]),
    ("across phases: malloc/realloc/free", ["__GI___libc_malloc", "__GI___libc_realloc",
                                            "__GI___libc_free"]),
]


def cpu_seconds(cmd, runs):
    """Median task-clock of `perf stat` over runs, in seconds."""
    vals = []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile("r") as f:
            subprocess.run(["perf", "stat", "-x,", "-e", "task-clock", "-o", f.name] + cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for line in f.read().splitlines():
                parts = line.split(",")
                if len(parts) > 2 and parts[2].startswith("task-clock"):
                    vals.append(float(parts[0]) / 1000)
    return statistics.median(vals) if vals else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(bench.TOP, "build-prof"))
    ap.add_argument("--mode", choices=("text", "json", "browser"), default="text")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--top", type=int, default=0, help="also the N top self-time symbols")
    ap.add_argument("core")
    ap.add_argument("vmlinux", nargs="?")
    a = ap.parse_args()
    exe = os.path.join(a.build, "orccrash")
    args = [a.core] + ([a.vmlinux] if a.vmlinux else [])
    data = tempfile.mktemp(suffix=".perf")
    rec = ["perf", "record", "-q", "-F", "10000", "--call-graph", "dwarf,32768", "-o", data, "--"]
    if a.mode == "browser":
        # the pty's first screen, then Q; CPU time from the recorded run
        cpu = None
        t = bench.first_screen(rec + [exe] + args, bench.SCREEN_RE)
        print("first screen under perf: %s s" % ("%.3f" % t if t else "not seen"))
    else:
        cmd = [exe, "--all-tasks"] + (["--json"] if a.mode == "json" else []) + args
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm
        cpu = cpu_seconds(cmd, a.runs)
        subprocess.run(rec + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rep = subprocess.run(["perf", "report", "-i", data, "--children", "--sort", "sym",
                          "-g", "none", "--stdio", "--percent-limit", "0"],
                         capture_output=True, text=True).stdout
    incl, self_ = {}, {}
    total = None
    for line in rep.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+([\d.]+)%\s+\[[.k]\]\s+(.*?)(\s+\(inlined\))?\s*$", line)
        if m:
            sym = m.group(3)
            incl[sym] = max(incl.get(sym, 0), float(m.group(1)))
            self_[sym] = self_.get(sym, 0) + float(m.group(2))
        m = re.match(r"# Samples: (\d+K?)", line)
        if m and total is None:
            total = m.group(1)
    os.unlink(data)
    print("%s %s: %s samples%s" % (a.mode, " ".join(os.path.basename(x) for x in args),
                                   total, ", CPU %.3f s (median of %d, perf stat)" % (cpu, a.runs)
                                   if cpu else ""))
    for label, syms in PHASES:
        pct = next((incl[s] for s in syms if s in incl), None)
        if pct is None or pct < 0.5:
            continue
        print("  %-48s %5.1f%%%s" % (label, pct, "  %6.1f ms" % (pct * cpu * 10) if cpu else ""))
    if a.top:
        print("  top self time:")
        for sym, pct in sorted(self_.items(), key=lambda x: -x[1])[:a.top]:
            print("    %-46s %5.1f%%" % (sym[:46], pct))


if __name__ == "__main__":
    main()
