#!/usr/bin/python3
"""`make bench`: orccrash against crash and drgn on the real dumps.

Usage: bench.py --build DIR [--runs N] [--all] [--no-large] [--no-peers]
                [--out FILE] [--quick]

Dumps: $ORCCRASH_CACHE/dumps/index.tsv (make samples), one file per
(release, scenario) -- the real kdump where there is one, else QEMU's kdump
(--all: every format) -- and $ORCCRASH_CACHE/bench/<release>/*/ (the large
dumps of tests/bench/make-large-dump.sh).

For each dump, in one run, alternating the tools (orccrash, crash, orccrash,
drgn, orccrash, ... so that noise hits them alike):
  - all tasks' backtraces: orccrash --all-tasks; crash -s -i (foreach bt);
    drgn -c -s tests/bench/drgn-all.py.  Wall time, time to the first byte
    of output, peak RSS (/usr/bin/time), traces printed.
  - startup: orccrash's browser until its first screen (in a pty), crash
    until it has read the dump and quits, drgn until its first line of
    output; with a cold (echo 3 > /proc/sys/vm/drop_caches) and a warm
    page cache.
  - in process (build/tests/ubench): unwinding frames/s, ORC lookups/s
    against a bare binary search.
Prints the tables (with ratios) and writes them into FILE (default
docs/benchmarks.md) between the "bench:begin" and "bench:end" markers.
Timings are never asserted.
"""
import argparse
import os
import platform
import re
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
CACHE = os.environ.get("ORCCRASH_CACHE") or os.path.expanduser("~/.cache/orccrash")
BEGIN = "<!-- bench:begin (tests/bench/bench.py writes from here) -->"
END = "<!-- bench:end -->"
PEER_TIMEOUT = 900


def log(msg):
    print("[bench %s] %s" % (time.strftime("%H:%M:%S"), msg), file=sys.stderr, flush=True)


class Result:
    def __init__(self):
        self.wall = self.ttfb = None
        self.rss_kb = None
        self.cpu = None		# user + system seconds
        self.rc = None
        self.traces = 0
        self.errors = 0
        self.first_line = ""
        self.stderr = ""


def timed(cmd, count_re=None, err_re=None, stdin=subprocess.DEVNULL, timeout=PEER_TIMEOUT):
    """Run cmd under /usr/bin/time; stdout is read (and counted), not kept."""
    r = Result()
    with tempfile.NamedTemporaryFile("r") as tf, tempfile.TemporaryFile("w+") as ef:
        full = ["/usr/bin/time", "-f", "%M %U %S", "-o", tf.name] + cmd
        t0 = time.monotonic()
        p = subprocess.Popen(full, stdin=stdin, stdout=subprocess.PIPE, stderr=ef)
        buf = b""
        deadline = t0 + timeout
        while True:
            if time.monotonic() > deadline:
                p.kill()
                break
            ready, _, _ = select.select([p.stdout], [], [], 1.0)
            if not ready:
                continue
            chunk = os.read(p.stdout.fileno(), 1 << 16)
            if not chunk:
                break
            if r.ttfb is None:
                r.ttfb = time.monotonic() - t0
            buf += chunk
            lines = buf.split(b"\n")
            buf = lines.pop()
            for line in lines:
                if not r.first_line and line.strip():
                    r.first_line = line.decode(errors="replace")[:120]
                if count_re and count_re.match(line):
                    r.traces += 1
                if err_re and err_re.match(line):
                    r.errors += 1
        r.rc = p.wait()
        r.wall = time.monotonic() - t0
        ef.seek(0)
        r.stderr = ef.read()[-2000:]
        try:
            rss, user, sys_ = tf.read().strip().splitlines()[-1].split()
            r.rss_kb, r.cpu = int(rss), float(user) + float(sys_)
        except (ValueError, IndexError):
            pass
        # /usr/bin/time reports the command's status in its own
        if "Command exited with non-zero status" in r.stderr:
            m = re.search(r"Command exited with non-zero status (\d+)", r.stderr)
            r.rc = int(m.group(1)) if m else r.rc
    return r


def first_screen(cmd, pattern, timeout=60):
    """Seconds until the pty output of cmd matches pattern, then 'Q'."""
    import fcntl
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    env = dict(os.environ, TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, env=env,
                         start_new_session=True)
    os.close(slave)
    out = b""
    found = None
    while time.monotonic() - t0 < timeout:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            if re.search(pattern, out):
                found = time.monotonic() - t0
                break
        if p.poll() is not None:
            break
    try:
        os.write(master, b"Q")
    except OSError:
        pass
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    # drain, so that the child never blocks on a full pty
    os.close(master)
    return found


def drop_caches():
    try:
        subprocess.run(["sync"], check=False)
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
        return True
    except OSError:
        return False


def dumps(all_formats, large):
    """[(label, release, vmcore, vmlinux, fmt)]"""
    out = []
    idx = os.path.join(CACHE, "dumps", "index.tsv")
    rows = {}
    if os.path.exists(idx):
        with open(idx) as f:
            for line in f:
                rel, sc, fmt, core, vmlinux, _kaslr = line.rstrip("\n").split("\t")
                rows.setdefault((rel, sc), []).append((fmt, core, vmlinux))
    pref = ["kdump-real", "kdump", "flat", "elf"]
    for (rel, sc), fl in sorted(rows.items()):
        fl.sort(key=lambda x: pref.index(x[0]) if x[0] in pref else 9)
        for fmt, core, vmlinux in (fl if all_formats else fl[:1]):
            out.append(("%s" % sc, rel, core, vmlinux, fmt))
    if large:
        bdir = os.path.join(CACHE, "bench")
        for rel in sorted(os.listdir(bdir)) if os.path.isdir(bdir) else []:
            for name in sorted(os.listdir(os.path.join(bdir, rel))):
                d = os.path.join(bdir, rel, name)
                if name.startswith(".") or not os.path.exists(os.path.join(d, "info")):
                    continue
                vmlinux = os.path.join(CACHE, "kernels", rel, "vmlinux")
                for fmt in ("kdump-real", "kdump"):
                    core = os.path.join(d, "vmcore." + fmt)
                    if os.path.exists(core):
                        out.append((name, rel, core, vmlinux, fmt))
    return out


PID_RE = re.compile(rb"^PID:")
DRGN_ERR_RE = re.compile(rb"^error:")


def crash_cmdfile(cmds):
    f = tempfile.NamedTemporaryFile("w", suffix=".crash", delete=False)
    f.write("\n".join(cmds + ["quit"]) + "\n")
    f.close()
    return f.name


class Bench:
    def __init__(self, args):
        self.a = args
        self.orccrash = os.path.join(args.build, "orccrash")
        self.ubench = os.path.join(args.build, "tests", "ubench")
        self.crash = shutil.which("crash") if args.peers else None
        self.drgn = shutil.which("drgn") if args.peers else None
        self.foreach = crash_cmdfile(["foreach bt"])
        self.quit = crash_cmdfile([])
        self.cold_ok = None
        self.rows = []
        self.load0 = "%.1f %.1f %.1f" % os.getloadavg()

    # -- one tool, one dump --------------------------------------------------
    def run_orccrash(self, core, vmlinux):
        return timed([self.orccrash, "--all-tasks", core, vmlinux], PID_RE)

    def run_crash(self, core, vmlinux):
        return timed([self.crash, "-s", "-i", self.foreach, vmlinux, core], PID_RE)

    def run_drgn(self, core, vmlinux):
        return timed([self.drgn, "-q", "-c", core, "-s", vmlinux,
                      os.path.join(HERE, "drgn-all.py")], PID_RE, DRGN_ERR_RE)

    def startup(self, core, vmlinux, cold):
        """{tool: seconds or None}"""
        res = {}
        for tool in ("orccrash", "crash", "drgn"):
            if tool != "orccrash" and not getattr(self, tool):
                continue
            if cold:
                ok = drop_caches()
                if self.cold_ok is None:
                    self.cold_ok = ok
                if not ok:
                    return None
            if tool == "orccrash":
                res[tool] = first_screen([self.orccrash, core, vmlinux],
                                         rb"\d+ tasks, traces \d+/\d+")
            elif tool == "crash":
                r = timed([self.crash, "-s", "-i", self.quit, vmlinux, core])
                res[tool] = r.wall if r.rc == 0 else None
            else:
                r = timed([self.drgn, "-q", "-c", core, "-s", vmlinux,
                           os.path.join(HERE, "drgn-first.py")])
                res[tool] = r.ttfb if r.rc == 0 else None
        return res

    def micro(self, core, vmlinux, tasks):
        iters = max(1, min(200, 20000 // max(tasks, 1)))
        p = subprocess.run([self.ubench, "-n", str(iters), "-l", "5000000", core, vmlinux],
                           capture_output=True, text=True)
        out = {}
        for line in p.stdout.splitlines():
            k, _, v = line.partition(" ")
            out[k] = v
        out["rc"] = p.returncode
        if p.returncode:
            out["error"] = (p.stderr or "").strip()[-200:]
        return out

    def one(self, label, rel, core, vmlinux, fmt):
        log("%s %s %s" % (rel, label, fmt))
        row = {"label": label, "rel": rel, "fmt": fmt, "core": core,
               "o": [], "c": [], "d": []}
        peers_done = {"c": not self.crash, "d": not self.drgn}
        for _ in range(self.a.runs):
            row["o"].append(self.run_orccrash(core, vmlinux))
            if not peers_done["c"]:
                r = self.run_crash(core, vmlinux)
                row["c"].append(r)
                if r.rc != 0 or r.traces == 0:
                    peers_done["c"] = True	# cannot open: once is enough
            row["o"].append(self.run_orccrash(core, vmlinux))
            if not peers_done["d"]:
                r = self.run_drgn(core, vmlinux)
                row["d"].append(r)
                if r.rc != 0 or r.traces == 0:
                    peers_done["d"] = True
            row["o"].append(self.run_orccrash(core, vmlinux))
        row["warm"] = self.startup(core, vmlinux, cold=False)
        if not self.a.quick:
            row["cold"] = self.startup(core, vmlinux, cold=True)
        tasks = row["o"][0].traces
        row["micro"] = self.micro(core, vmlinux, tasks)
        self.rows.append(row)
        print(self.row_line(row), flush=True)

    # -- formatting ----------------------------------------------------------
    @staticmethod
    def med(rs, attr="wall"):
        v = [getattr(r, attr) for r in rs if getattr(r, attr) is not None]
        return statistics.median(v) if v else None

    def peer_cell(self, row, key, tool):
        rs = row[key]
        if not rs:
            return None, "not run"
        ok = [r for r in rs if r.rc == 0 and r.traces > 0]
        if not ok:
            r = rs[0]
            why = "cannot open" if r.traces == 0 else "exit %s" % r.rc
            if tool == "crash" and row["rel"].startswith("6.12"):
                why = "crash cannot open"
            elif tool == "drgn" and row["fmt"] != "kdump-real":
                why = "drgn cannot open QEMU kdump"
            elif tool == "drgn":
                why = "drgn: exit %s" % r.rc
            return None, "n/a: " + why
        return ok, None

    def row_line(self, row):
        o = self.med(row["o"])
        parts = ["%-26s %-13s %-10s orccrash %.3fs" % (row["rel"], row["label"], row["fmt"], o)]
        for key, tool in (("c", "crash"), ("d", "drgn")):
            ok, why = self.peer_cell(row, key, tool)
            if ok:
                t = self.med(ok)
                parts.append("%s %.2fs (x%.0f)" % (tool, t, t / o))
            else:
                parts.append("%s %s" % (tool, why))
        return "  ".join(parts)

    def markdown(self):
        L = []
        cpu = ""
        try:
            with open("/proc/cpuinfo") as f:
                cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
        except (OSError, StopIteration):
            pass
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30

        def ver(cmd):
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
                return (p.stdout + p.stderr).strip().splitlines()[0]
            except (OSError, IndexError, subprocess.TimeoutExpired):
                return "?"

        git = os.environ.get("BENCH_COMMIT") or \
            ver(["git", "-C", TOP, "describe", "--always", "--dirty"])
        L.append("Measured %s by `make bench` (tests/bench/bench.py), orccrash %s." %
                 (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), git))
        L.append("")
        L.append("- Machine: %s, %d CPUs, %.0f GiB RAM, %s %s" %
                 (cpu, os.cpu_count(), mem, platform.system(), platform.release()))
        L.append("- Peers: %s; drgn %s (Debian python3-drgn); orccrash built with `%s`" %
                 (ver(["crash", "--version"]) if self.crash else "crash not run",
                  ver(["/usr/bin/python3", "-c", "import drgn; print(drgn.__version__)"])
                  if self.drgn else "not run",
                  ver(["cc", "--version"])))
        L.append("- Load average (1, 5, 15 min) at the start: %s, at the end: %s "
                 "(other work shared the machine; CPU seconds are less sensitive "
                 "to it than wall time)" % (self.load0, "%.1f %.1f %.1f" % os.getloadavg()))
        L.append("- Runs per dump: %d of each peer, %d of orccrash, interleaved; "
                 "figures are medians." % (self.a.runs, 3 * self.a.runs))
        L.append("")
        L.append("### All tasks' backtraces")
        L.append("")
        L.append("`orccrash --all-tasks` vs `crash -s -i` (`foreach bt`) vs drgn "
                 "`prog.stack_trace(t)` for every task (tests/bench/drgn-all.py). "
                 "Traces: how many tasks' traces each printed. x: the peer's time "
                 "over orccrash's.")
        L.append("")
        L.append("| release | dump | format | traces o/c/d | orccrash s (CPU s) | crash s (CPU s) "
                 "| drgn s (CPU s) | crash / orccrash: wall, CPU | drgn / orccrash: wall, CPU "
                 "| peak RSS MB o/c/d |")
        L.append("|---|---|---|---|---|---|---|---|---|---|")
        for row in self.rows:
            o = self.med(row["o"])
            cells = {}
            for key, tool in (("c", "crash"), ("d", "drgn")):
                ok, why = self.peer_cell(row, key, tool)
                if ok:
                    t = self.med(ok)
                    c = self.med(ok, "cpu")
                    oc = self.med(row["o"], "cpu")
                    tr = "%d" % ok[0].traces
                    if ok[0].errors:
                        tr += " (%d failed)" % ok[0].errors
                    cells[key] = ("%.2f (%.2f)" % (t, c or 0),
                                  "**%.0fx**, %s" % (t / o, "%.0fx" % (c / oc) if c and oc else "-"),
                                  self.med(ok, "rss_kb"), tr)
                else:
                    cells[key] = (why, "-", None, "-")

            def mb(v):
                return "%.0f" % (v / 1024) if v else "-"
            L.append("| %s | %s | %s | %d/%s/%s | %.3f (%.2f) | %s | %s | %s | %s | %s/%s/%s |" % (
                row["rel"], row["label"], row["fmt"], row["o"][0].traces,
                cells["c"][3], cells["d"][3], o, self.med(row["o"], "cpu") or 0,
                cells["c"][0], cells["d"][0],
                cells["c"][1], cells["d"][1], mb(self.med(row["o"], "rss_kb")),
                mb(cells["c"][2]), mb(cells["d"][2])))
        L.append("")
        L.append("### Startup: time to first screen / first output")
        L.append("")
        L.append("orccrash: the browser (`orccrash VMCORE VMLINUX` in a 200x50 pty) until "
                 "its first screen is drawn, and `--all-tasks` until its first byte of "
                 "output; crash: `crash -s` with only `quit` (time to its prompt); "
                 "drgn: until a script's first line.")
        if self.cold_ok is False:
            L.append("Cold page cache: not measured (writing /proc/sys/vm/drop_caches "
                     "was not permitted).")
        else:
            L.append("Cold: `echo 3 > /proc/sys/vm/drop_caches` before each tool's start.")
        L.append("")
        L.append("| release | dump | format | browser warm s | browser cold s | --all-tasks "
                 "first byte s | crash warm / cold s | drgn warm / cold s | crash / browser (warm) "
                 "| drgn / browser (warm) |")
        L.append("|---|---|---|---|---|---|---|---|---|---|")

        def f(v, nd=3):
            return ("%%.%df" % nd) % v if isinstance(v, float) else "n/a"
        for row in self.rows:
            w = row.get("warm") or {}
            c = row.get("cold") or {}
            bw = w.get("orccrash")
            ratio_c = "%.0fx" % (w["crash"] / bw) if bw and w.get("crash") else "-"
            ratio_d = "%.0fx" % (w["drgn"] / bw) if bw and w.get("drgn") else "-"
            L.append("| %s | %s | %s | %s | %s | %s | %s / %s | %s / %s | %s | %s |" % (
                row["rel"], row["label"], row["fmt"], f(bw), f(c.get("orccrash")),
                f(self.med(row["o"], "ttfb")), f(w.get("crash"), 2), f(c.get("crash"), 2),
                f(w.get("drgn"), 2), f(c.get("drgn"), 2), ratio_c, ratio_d))
        L.append("")
        L.append("### In process (tests/bench/ubench.c)")
        L.append("")
        L.append("The kernel model opened once; every task unwound N times "
                 "(`oc_kernel_unwind_task`); 5,000,000 lookups of random kernel text "
                 "addresses with `oc_orc_table_find` and with a bare binary search over "
                 "a sorted copy of the same ips (every answer compared: 0 mismatches "
                 "required).")
        L.append("")
        L.append("| release | dump | format | open s | tasks x N | frames/s | tasks/s "
                 "| ORC entries | oc_orc_table_find /s | bare bsearch /s | find time / bsearch time |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for row in self.rows:
            m = row["micro"]
            if m.get("rc"):
                L.append("| %s | %s | %s | ubench failed: %s |" % (row["rel"], row["label"],
                                                                   row["fmt"], m.get("error", "")))
                continue

            def g(k):
                try:
                    return float(m[k])
                except (KeyError, ValueError):
                    return 0.0
            L.append("| %s | %s | %s | %.3f | %s x %s | %s | %s | %s | %s | %s | %.2f%s |" % (
                row["rel"], row["label"], row["fmt"], g("open_s"), m.get("tasks", "?"),
                m.get("unwind_iters", "?"), "{:,.0f}".format(g("unwind_frames_per_s")),
                "{:,.0f}".format(g("unwind_tasks_per_s")), "{:,.0f}".format(g("orc_entries")),
                "{:,.0f}".format(g("orc_find_per_s")), "{:,.0f}".format(g("bsearch_per_s")),
                g("orc_find_vs_bsearch"),
                "" if m.get("orc_mismatches") == "0" else " (MISMATCHES %s)" % m.get("orc_mismatches")))
        L.append("")
        L.append("### Scaling with the number of tasks")
        L.append("")
        L.append("| release | dump | format | tasks | orccrash s | ms per 1000 tasks | peak RSS MB "
                 "| KB per task above the smallest dump |")
        L.append("|---|---|---|---|---|---|---|---|")
        by_rel = {}
        for row in self.rows:
            by_rel.setdefault(row["rel"], []).append(row)
        for rel, rs in sorted(by_rel.items()):
            rs = sorted(rs, key=lambda r: r["o"][0].traces)
            base = rs[0]
            for row in rs:
                n = row["o"][0].traces
                o = self.med(row["o"])
                rss = self.med(row["o"], "rss_kb") or 0
                brss = self.med(base["o"], "rss_kb") or 0
                dn = n - base["o"][0].traces
                L.append("| %s | %s | %s | %d | %.3f | %.1f | %.0f | %s |" % (
                    rel, row["label"], row["fmt"], n, o, 1e6 * o / n if n else 0,
                    rss / 1024, "%.1f" % ((rss - brss) / dn) if dn > 0 else "-"))
        L.append("")
        L.append("### Targets, from the figures above")
        L.append("")
        L.append(self.targets())
        return "\n".join(L) + "\n"

    def targets(self):
        out = []
        for key, tool, want in (("c", "crash", 20), ("d", "drgn", 10)):
            rs = []
            for row in self.rows:
                ok, _ = self.peer_cell(row, key, tool)
                if ok:
                    o, oc = self.med(row["o"]), self.med(row["o"], "cpu")
                    c = self.med(ok, "cpu")
                    rs.append((self.med(ok) / o, c / oc if c and oc else None,
                               "%s %s %s" % (row["rel"].split("-")[0], row["label"], row["fmt"])))
            if not rs:
                out.append("- all tasks >= %dx faster than %s: not measured" % (want, tool))
                continue
            w = min(rs)
            cp = [r for r in rs if r[1] is not None]
            c = min(cp, key=lambda r: r[1]) if cp else None
            out.append("- all tasks >= %dx faster than %s: smallest wall-time ratio %.1fx (%s)%s; "
                       "%s: >= %dx in %d of %d dumps" % (
                           want, tool, w[0], w[2],
                           ", smallest CPU-time ratio %.1fx (%s)" % (c[1], c[2]) if c else "",
                           "met" if w[0] >= want else "not met everywhere", want,
                           sum(1 for r in rs if r[0] >= want), len(rs)))
        fs = [(row["warm"]["orccrash"], row["label"], row["rel"].split("-")[0])
              for row in self.rows if (row.get("warm") or {}).get("orccrash") is not None
              and row["o"][0].traces < 1000]
        if fs:
            m = max(fs)
            out.append("- browser's first screen < 0.2 s on the samples (warm): slowest %.3f s "
                       "(%s %s); under 0.2 s in %d of %d" % (
                           m[0], m[2], m[1], sum(1 for f in fs if f[0] < 0.2), len(fs)))
        ratios = []
        for row in self.rows:
            try:
                ratios.append(float(row["micro"]["orc_find_vs_bsearch"]))
            except (KeyError, ValueError):
                pass
        if ratios:
            out.append("- ORC lookup within 4x of a bare binary search: oc_orc_table_find "
                       "takes %.2f-%.2f times the bare search's time" % (min(ratios), max(ratios)))
        return "\n".join(out)

    def save(self, path):
        import json
        rows = []
        for row in self.rows:
            r = dict(row)
            for k in ("o", "c", "d"):
                r[k] = [x.__dict__ for x in row[k]]
            rows.append(r)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump({"rows": rows, "load0": self.load0, "cold_ok": self.cold_ok,
                       "runs": self.a.runs}, f, indent=1)
        log("raw results in %s" % path)

    def load(self, path):
        import json
        with open(path) as f:
            data = json.load(f)
        self.load0, self.cold_ok = data["load0"], data["cold_ok"]
        self.a.runs = data["runs"]
        for r in data["rows"]:
            for k in ("o", "c", "d"):
                objs = []
                for x in r[k]:
                    o = Result()
                    o.__dict__.update(x)
                    objs.append(o)
                r[k] = objs
            self.rows.append(r)

    def write(self, path, text):
        old = ""
        if os.path.exists(path):
            with open(path) as f:
                old = f.read()
        if BEGIN in old and END in old:
            new = old[:old.index(BEGIN) + len(BEGIN)] + "\n" + text + old[old.index(END):]
        else:
            new = old + ("\n" if old else "") + "## Measured figures\n\n" + BEGIN + "\n" + \
                text + END + "\n"
        with open(path, "w") as f:
            f.write(new)
        log("wrote %s" % path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", "1")))
    ap.add_argument("--all", action="store_true", default=os.environ.get("BENCH_ALL") == "1")
    ap.add_argument("--no-large", dest="large", action="store_false",
                    default=os.environ.get("BENCH_LARGE", "1") != "0")
    ap.add_argument("--no-peers", dest="peers", action="store_false",
                    default=os.environ.get("BENCH_PEERS", "1") != "0")
    ap.add_argument("--quick", action="store_true", help="no cold-cache runs")
    ap.add_argument("--only", help="regex over 'release scenario format'")
    ap.add_argument("--render", metavar="JSON",
                    help="only re-render the tables from a results.json")
    ap.add_argument("--out", default=os.environ.get("BENCH_OUT",
                                                    os.path.join(TOP, "docs", "benchmarks.md")))
    a = ap.parse_args()
    for exe in ("orccrash", os.path.join("tests", "ubench")):
        if not os.access(os.path.join(a.build, exe), os.X_OK):
            sys.exit("bench: %s/%s missing (make bench builds it)" % (a.build, exe))
    if a.render:
        b = Bench(a)
        b.load(a.render)
        for f in (b.foreach, b.quit):
            os.unlink(f)
        text = b.markdown()
        print(text)
        b.write(a.out, text)
        return
    ds = dumps(a.all, a.large)
    if a.only:
        ds = [d for d in ds if re.search(a.only, "%s %s %s" % (d[1], d[0], d[4]))]
    if not ds:
        sys.exit("bench: no dumps: run make samples (and tests/bench/make-large-dump.sh)")
    b = Bench(a)
    try:
        for d in ds:
            b.one(*d)
    finally:
        for f in (b.foreach, b.quit):
            os.unlink(f)
    b.save(os.path.join(a.build, "bench", "results.json"))
    text = b.markdown()
    print()
    print(text)
    b.write(a.out, text)


if __name__ == "__main__":
    main()
