#!/usr/bin/python3
"""`make bench`: orccrash against crash and drgn on the real dumps.

Usage: bench.py --build DIR [--runs N] [--all] [--no-large] [--no-peers]
                [--out FILE] [--quick] [--only RE] [--keep] [--render JSON]

Peers, two generations side by side, each named by its version: Debian 12's
crash and drgn (on PATH), and Debian sid's (tests/bench/sid-chroot.sh run
...) when the sid chroot is made (make bench-sid).  A peer that cannot open
a dump says why (its own message), once.

Dumps: $ORCCRASH_CACHE/dumps/index.tsv (make samples), one file per
(release, scenario) -- the real kdump where there is one, else QEMU's kdump
(--all: every format) -- and $ORCCRASH_CACHE/bench/<release>/*/ (the large
dumps of tests/bench/make-large-dump.sh).

For each dump, in one run, alternating the tools (orccrash, a peer,
orccrash, the next peer, ... so that noise hits them alike):
  - all tasks' backtraces: orccrash --all-tasks (and --json); crash -s -i
    (foreach bt); drgn -c -s tests/bench/drgn-all.py.  Wall time, CPU time,
    time to the first byte of output, peak RSS (/usr/bin/time), traces
    printed.  The peers skip dumps of more than BENCH_PEER_MAX_TASKS tasks
    (20,000), and the large dumps' second format (the same workload).
  - startup: orccrash's browser until its first screen (in a pty), warm
    and cold (echo 3 > /proc/sys/vm/drop_caches); crash until it has read
    the dump and quits, drgn until its first line of output, warm.
  - "warm" means in the page cache: before each warm run of any tool the
    bench reads the files that run will read (the dump, the vmlinux, the
    tool's program and libraries, orccrash's caches of this vmlinux), the
    same way for every tool.  This machine's kernel pages out page cache
    that has not been touched for a minute (DAMON_RECLAIM), so without it a
    run after a long peer run found its files on disk (warm()).
  - in process (build/tests/ubench): unwinding frames/s, ORC lookups/s
    against a bare binary search, and the physical floor: distinct pages
    read, the cost of one page read and of one inflate.
Prints the tables (with ratios) and writes them into FILE (default
docs/benchmarks.md) between the "bench:begin" and "bench:end" markers.
Raw results: BUILD/bench/results.json, saved after every dump (--keep: add
to it, replacing the dumps measured again).  Timings are never asserted.
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
import threading
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
CACHE = os.environ.get("ORCCRASH_CACHE") or os.path.expanduser("~/.cache/orccrash")
BEGIN = "<!-- bench:begin (tests/bench/bench.py writes from here) -->"
END = "<!-- bench:end -->"
PEER_TIMEOUT = 900
# orccrash text and --json runs per dump, at least (see Bench.one())
ORC_RUNS = 5
SID = os.path.join(HERE, "sid-chroot.sh")


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
        self.tail = ""		# the last lines of stdout


def count_file(f, rx):
    """Matches of rx (compiled with re.M: C's speed) in the file f, read in
    blocks of whole lines."""
    n = 0
    buf = b""
    f.seek(0)
    while True:
        chunk = f.read(1 << 22)
        if not chunk:
            break
        buf += chunk
        cut = buf.rfind(b"\n")
        if cut >= 0:
            n += len(rx.findall(buf[:cut + 1]))
            buf = buf[cut + 1:]
    return n + len(rx.findall(buf))


def timed(cmd, count_re=None, err_re=None, stdin=subprocess.DEVNULL, timeout=PEER_TIMEOUT):
    """Run cmd under /usr/bin/time, its stdout into a file in /dev/shm
    (tmpfs: no disk), read and counted once it has exited, then deleted.

    What is timed is the tool writing its report to a file, as a user
    does.  Until 2026-12-07 the bench read stdout through a pipe and split
    it into lines as it came: for the 130,000 lines of a 10,000-task
    report that reader took ~0.07 s on this machine's two cores, longer
    than orccrash took to write them, so the bench measured its own reader
    (docs/benchmarks.md, "The bench's own reader").  The first byte's time
    (ttfb) is seen by a thread polling the file's size every 2 ms until it
    grows; the exit by a blocking wait() (Popen.wait(timeout=...) polls
    with a delay that doubles up to 50 ms: the exit seen that late), the
    timeout by a timer that kills."""
    r = Result()
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.NamedTemporaryFile("r") as tf, tempfile.TemporaryFile("w+") as ef, \
         tempfile.TemporaryFile("w+b", dir=shm) as of:
        full = ["/usr/bin/time", "-f", "%M %U %S", "-o", tf.name] + cmd
        t0 = time.monotonic()
        p = subprocess.Popen(full, stdin=stdin, stdout=of, stderr=ef)
        stop = threading.Event()

        def watch():
            while not stop.is_set():
                if os.fstat(of.fileno()).st_size:
                    r.ttfb = time.monotonic() - t0
                    return
                stop.wait(0.002)

        watcher = threading.Thread(target=watch, daemon=True)
        killer = threading.Timer(timeout, p.kill)
        watcher.start()
        killer.start()
        r.rc = p.wait()
        r.wall = time.monotonic() - t0
        killer.cancel()
        stop.set()
        watcher.join()
        size = os.fstat(of.fileno()).st_size
        if r.ttfb is None and size:
            r.ttfb = r.wall		# it wrote all at once, at its end
        if count_re:
            r.traces = count_file(of, count_re)
        if err_re:
            r.errors = count_file(of, err_re)
        of.seek(0)
        m = re.search(rb"^[ \t]*\S.*$", of.read(1 << 16), re.M)
        if m:
            r.first_line = m.group(0).strip().decode(errors="replace")[:120]
        of.seek(max(size - 4096, 0))
        r.tail = b"\n".join(of.read().split(b"\n")[-13:]).decode(errors="replace")[-2000:]
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


_WARM_BUF = bytearray(1 << 20)


def warm(paths):
    """Read every file of paths (directories: the files below them) into
    the page cache.  A warm run is one whose files are resident: this
    machine's kernel runs DAMON_RECLAIM (kdamond, action pageout, min age
    12 x 5 s), which drops page cache nobody touched for a minute, so a
    run that follows a 40-90 s peer run otherwise reads part of its
    program, libraries and caches from disk (measured 2026-12-07: the
    vmlinux's resident pages 24.8 -> 19.4 MB, orccrash's binary 2.4 ->
    1.0 MB after two idle minutes).  Done the same way before each warm
    run of every tool; the reading is not timed."""
    for p in paths:
        if os.path.isdir(p):
            warm(os.path.join(d, f) for d, _, fs in os.walk(p) for f in fs)
            continue
        try:
            with open(p, "rb", buffering=0) as f:
                while f.readinto(_WARM_BUF):
                    pass
        except OSError:
            pass


def elf_libs(exe, prefix=None):
    """exe's shared libraries, by ldd (for a sid program, prefix is the
    command that runs ldd in the chroot: the paths are the chroot's own)."""
    cmd = (prefix or []) + ["ldd", exe]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return re.findall(r"(/\S+) \(0x", out)


def orc_cache_root():
    """Where orccrash keeps its caches: oc_cache_path()'s rule
    (src/cachefile.c), which XDG_CACHE_HOME moves and CACHE (the samples')
    does not."""
    if os.environ.get("ORCCRASH_CACHE"):
        return os.environ["ORCCRASH_CACHE"]
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg.startswith("/"):
        return os.path.join(xdg, "orccrash")
    return os.path.expanduser("~/.cache/orccrash")


def build_id(vmlinux):
    try:
        out = subprocess.run(["readelf", "-n", vmlinux], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"Build ID: ([0-9a-f]+)", out)
    return m.group(1) if m else None


def dumps(all_formats, large):
    """[(label, release, vmcore, vmlinux, fmt, peers)]: peers False for a
    large dump's second format (the same workload, another boot)"""
    out = []
    idx = os.path.join(CACHE, "dumps", "index.tsv")
    rows = {}
    if os.path.exists(idx):
        with open(idx) as f:
            for line in f:
                rel, sc, fmt, core, vmlinux, _kaslr = line.rstrip("\n").split("\t")
                rows.setdefault((rel, sc), []).append((fmt, core, vmlinux))
    # the real kdump, else QEMU's ELF dump: the formats every peer opens
    # (drgn 0.0.22 and 0.3.0 cannot open QEMU's kdump-compressed files)
    pref = ["kdump-real", "elf", "kdump", "flat"]
    for (rel, sc), fl in sorted(rows.items()):
        fl.sort(key=lambda x: pref.index(x[0]) if x[0] in pref else 9)
        for fmt, core, vmlinux in (fl if all_formats else fl[:1]):
            out.append(("%s" % sc, rel, core, vmlinux, fmt, True))
    if large:
        bdir = os.path.join(CACHE, "bench")
        for rel in sorted(os.listdir(bdir)) if os.path.isdir(bdir) else []:
            for name in sorted(os.listdir(os.path.join(bdir, rel))):
                d = os.path.join(bdir, rel, name)
                if name.startswith(".") or not os.path.exists(os.path.join(d, "info")):
                    continue
                vmlinux = os.path.join(CACHE, "kernels", rel, "vmlinux")
                first = True
                for fmt in ("kdump-real", "kdump"):
                    core = os.path.join(d, "vmcore." + fmt)
                    if os.path.exists(core):
                        out.append((name, rel, core, vmlinux, fmt, first or all_formats))
                        first = False
    return out


PID_RE = re.compile(rb"^PID:", re.M)
DRGN_ERR_RE = re.compile(rb"^error:", re.M)
# the browser's header line, drawn with the first screen
SCREEN_RE = rb"\d+ CPUs, "


def crash_cmdfile(cmds):
    f = tempfile.NamedTemporaryFile("w", suffix=".crash", delete=False)
    f.write("\n".join(cmds + ["quit"]) + "\n")
    f.close()
    return f.name


def first_line_of(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        return ((p.stdout or "") + (p.stderr or "")).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "?"


class Peer:
    """One peer tool of one generation: crash or drgn, Debian 12 or sid."""

    def __init__(self, key, tool, gen, prefix, version):
        self.key, self.tool, self.gen = key, tool, gen
        self.prefix, self.version = prefix, version
        self.label = "%s %s" % (tool, version)
        self.files = []		# what warm() reads before its runs

    def to_json(self):
        return dict(key=self.key, tool=self.tool, gen=self.gen,
                    prefix=self.prefix, version=self.version)


def find_peers():
    """Debian 12's crash and drgn (PATH), then sid's (the chroot)."""
    peers = []
    crash = shutil.which("crash")
    if crash:
        m = re.search(r"crash (\S+)", first_line_of([crash, "--version"]))
        peers.append(Peer("crash-deb12", "crash", "Debian 12", [crash],
                          m.group(1) if m else "?"))
    drgn = shutil.which("drgn")
    if drgn:
        v = first_line_of(["/usr/bin/python3", "-c", "import drgn; print(drgn.__version__)"])
        peers.append(Peer("drgn-deb12", "drgn", "Debian 12", [drgn], v))
    if subprocess.run([SID, "root"], capture_output=True).returncode == 0:
        p = subprocess.run([SID, "versions"], capture_output=True, text=True)
        v = dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)
        peers.append(Peer("crash-sid", "crash", "sid", [SID, "run", "crash"],
                          v.get("crash", "?")))
        peers.append(Peer("drgn-sid", "drgn", "sid", [SID, "run", "drgn"],
                          v.get("drgn", "?")))
    else:
        log("no sid chroot (make bench-sid): Debian 12's peers only")
    for p in peers:
        p.files = peer_files(p)
    # crash, crash, drgn, drgn: each tool's generations side by side
    return sorted(peers, key=lambda p: (p.tool, p.gen != "Debian 12"))


def peer_files(peer):
    """The program files a peer's run reads: crash's binary, drgn's python
    with its standard library and drgn's package (Debian 12's on this
    system, sid's in the chroot), with their shared libraries."""
    sid = peer.gen == "sid"
    root = ""
    if sid:
        root = subprocess.run([SID, "root"], capture_output=True,
                              text=True).stdout.strip()
    run = [SID, "run"] if sid else []
    if peer.tool == "crash":
        exes = ["/usr/bin/crash"]
        mods = []
    else:
        exes = ["/usr/bin/python3"]
        try:
            out = subprocess.run(run + ["python3" if sid else "/usr/bin/python3", "-c",
                                        "import drgn, _drgn, os; print(drgn.__file__); "
                                        "print(_drgn.__file__); print(os.path.dirname(os.__file__))"],
                                 capture_output=True, text=True, timeout=120).stdout
        except (OSError, subprocess.TimeoutExpired):
            out = ""
        mods = out.split()
        exes += [m for m in mods if m.endswith(".so")]
        mods = [os.path.dirname(m) if m.endswith("__init__.py") else m for m in mods]
    files = []
    for e in exes:
        files += [e] + elf_libs(e, run)
    files += mods + (["/usr/bin/drgn"] if peer.tool == "drgn" else [])
    return [root + f if sid else f for f in dict.fromkeys(files)]


def peer_reason(r):
    """Why a peer printed no trace: its own last error line, shortened."""
    text = (r.tail or "") + "\n" + (r.stderr or "")
    lines = [l.strip() for l in text.splitlines() if l.strip()
             and not l.startswith("Command exited with")
             and not l.startswith("# drgn-all")
             and "error trace:" not in l and not l.strip().startswith("FILE:")]
    pick = None
    for l in lines:
        if re.search(r"(^crash: |error|Error|cannot|not supported|invalid|"
                     r"Exception|failed|No such)", l):
            pick = l
            if l.startswith("crash: "):
                break		# crash's first complaint is the cause
    if pick is None:
        pick = lines[-1] if lines else "exit %s, no output" % r.rc
    pick = re.sub(r"\s+", " ", pick).replace("|", "/")
    pick = pick.replace(CACHE, "$CACHE")
    return pick if len(pick) <= 90 else pick[:87] + "..."


class Bench:
    def __init__(self, args):
        self.a = args
        self.orccrash = os.path.join(args.build, "orccrash")
        self.ubench = os.path.join(args.build, "tests", "ubench")
        self.orc_files = [self.orccrash] + elf_libs(self.orccrash)
        self.dump_files = []	# this row's dump and vmlinux (one())
        self.cache_files = []	# orccrash's caches of this row's vmlinux
        self.peers = find_peers() if args.peers else []
        self.run_peers = list(self.peers)	# the tables may name more (--keep)
        self.foreach = crash_cmdfile(["foreach bt"])
        self.quit = crash_cmdfile([])
        self.cold_ok = None
        self.rows = []
        self.load0 = "%.1f %.1f %.1f" % os.getloadavg()
        self.started = time.time()
        self.max_tasks = int(os.environ.get("BENCH_PEER_MAX_TASKS", "20000"))
        self.sid_overhead = None
        # set when the peers' runs come from an earlier run (--keep --no-peers)
        self.peers_kept = None
        # the build measured: the tree's commit when the run starts
        self.commit = os.environ.get("BENCH_COMMIT") or \
            first_line_of(["git", "-C", TOP, "describe", "--always", "--dirty"])

    # -- one tool, one dump --------------------------------------------------
    def warm_orccrash(self):
        warm(self.dump_files + self.orc_files + self.cache_files)

    def warm_peer(self, peer):
        warm(self.dump_files + peer.files)

    def row_files(self, core, vmlinux):
        """The files every tool's run on this dump reads, and orccrash's
        caches made for its vmlinux (named by its build-id)."""
        self.dump_files = [core, vmlinux]
        bid = build_id(vmlinux)
        self.cache_files = []
        for d in ("syms", "cfi", "lines"):
            dd = os.path.join(orc_cache_root(), d)
            if bid and os.path.isdir(dd):
                self.cache_files += [os.path.join(dd, f) for f in sorted(os.listdir(dd))
                                     if f.startswith(bid)]

    def run_orccrash(self, core, vmlinux, json_=False):
        self.warm_orccrash()
        if json_:
            return timed([self.orccrash, "--all-tasks", "--json", core, vmlinux])
        return timed([self.orccrash, "--all-tasks", core, vmlinux], PID_RE)

    def run_peer(self, peer, core, vmlinux):
        self.warm_peer(peer)
        if peer.tool == "crash":
            return timed(peer.prefix + ["-s", "-i", self.foreach, vmlinux, core], PID_RE)
        return timed(peer.prefix + ["-q", "-c", core, "-s", vmlinux,
                                    os.path.join(HERE, "drgn-all.py")], PID_RE, DRGN_ERR_RE)

    def peer_startup(self, peer, core, vmlinux):
        self.warm_peer(peer)
        if peer.tool == "crash":
            r = timed(peer.prefix + ["-s", "-i", self.quit, vmlinux, core])
            return r.wall if r.rc == 0 else None
        r = timed(peer.prefix + ["-q", "-c", core, "-s", vmlinux,
                                 os.path.join(HERE, "drgn-first.py")])
        return r.ttfb if r.rc == 0 else None

    def browser(self, core, vmlinux, cold):
        if cold:
            ok = drop_caches()
            if self.cold_ok is None:
                self.cold_ok = ok
            if not ok:
                return None
        else:
            self.warm_orccrash()
        return first_screen([self.orccrash, core, vmlinux], SCREEN_RE)

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

    def measure_sid_overhead(self):
        """The chroot wrapper's own cost (unshare, mounts, chroot): `true`."""
        if not any(p.gen == "sid" for p in self.peers):
            return
        ts = [timed([SID, "run", "true"]).wall for _ in range(5)]
        self.sid_overhead = statistics.median(ts)

    def one(self, label, rel, core, vmlinux, fmt, with_peers):
        log("%s %s %s" % (rel, label, fmt))
        row = {"label": label, "rel": rel, "fmt": fmt, "core": core,
               "o": [], "j": [], "p": {}, "why": {}, "warm": {}, "cold": {}}
        self.row_files(core, vmlinux)
        first = self.run_orccrash(core, vmlinux)
        tasks = first.traces
        peers = self.run_peers
        if not with_peers:
            peers = []
            row["why"]["*"] = "not run (the same workload as the row above)"
        elif tasks > self.max_tasks:
            peers = []
            row["why"]["*"] = "not run (> %s tasks)" % "{:,}".format(self.max_tasks)
        done = {p.key: False for p in peers}
        for p in peers:
            row["p"][p.key] = []
        row["o"].append(first)
        row["j"].append(self.run_orccrash(core, vmlinux, json_=True))
        for _ in range(self.a.runs):
            for p in peers:
                if done[p.key]:
                    continue
                r = self.run_peer(p, core, vmlinux)
                row["p"][p.key].append(r)
                log("  %s: %.2f s, %d traces, exit %s" % (p.label, r.wall, r.traces, r.rc))
                if r.traces == 0:
                    done[p.key] = True	# cannot open: once is enough
                    row["why"][p.key] = peer_reason(r)
                row["o"].append(self.run_orccrash(core, vmlinux))
            row["j"].append(self.run_orccrash(core, vmlinux, json_=True))
        # orccrash's runs are cheap (at most ~2 s): at least ORC_RUNS of each,
        # so that a figure is a median of five, not of two or three (the
        # 100,000-task dumps' single runs spread over 1.03-1.30 s)
        while len(row["o"]) < ORC_RUNS:
            row["o"].append(self.run_orccrash(core, vmlinux))
        while len(row["j"]) < ORC_RUNS:
            row["j"].append(self.run_orccrash(core, vmlinux, json_=True))
        # startup: the browser warm (3 times) and cold; peers warm
        row["warm"]["orccrash"] = [self.browser(core, vmlinux, False) for _ in range(3)]
        if not self.a.quick:
            row["cold"]["orccrash"] = [self.browser(core, vmlinux, True)]
        for p in peers if self.a.peer_startup else []:
            if not done[p.key]:
                row["warm"][p.key] = [self.peer_startup(p, core, vmlinux)]
        row["micro"] = self.micro(core, vmlinux, tasks)
        self.rows.append(row)
        print(self.row_line(row), flush=True)

    # -- formatting ----------------------------------------------------------
    @staticmethod
    def med(rs, attr="wall"):
        v = [getattr(r, attr) for r in rs if getattr(r, attr) is not None]
        return statistics.median(v) if v else None

    @staticmethod
    def medv(v):
        v = [x for x in (v or []) if x is not None]
        return statistics.median(v) if v else None

    def peer_ok(self, row, p):
        """(results with traces, None) or (None, why)"""
        if p.key not in row["p"]:
            return None, row["why"].get("*", "not run")
        ok = [r for r in row["p"][p.key] if r.traces > 0]
        if not ok:
            rs = row["p"][p.key]
            return None, "cannot open: " + (peer_reason(rs[0]) if rs else row["why"].get(p.key, "?"))
        return ok, None

    def row_line(self, row):
        o = self.med(row["o"])
        parts = ["%-26s %-13s %-10s orccrash %.3fs json %.3fs" % (
            row["rel"], row["label"], row["fmt"], o, self.med(row["j"]) or 0)]
        for p in self.run_peers:
            ok, why = self.peer_ok(row, p)
            if ok:
                t = self.med(ok)
                parts.append("%s %.2fs (x%.0f)" % (p.label, t, t / o))
            else:
                parts.append("%s: %s" % (p.label, why))
        return "  ".join(parts)

    @staticmethod
    def short(rel):
        return rel.replace("-cloud-amd64", "")

    def tasks(self, row):
        return row["o"][0].traces

    def markdown(self):
        L = []
        cpu = ""
        try:
            with open("/proc/cpuinfo") as f:
                cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
        except (OSError, StopIteration):
            pass
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
        git = self.commit
        L.append("Measured %s by `make bench` (tests/bench/bench.py), orccrash %s, "
                 "in %.0f minutes." %
                 (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(self.started)), git,
                  (self.ended - self.started) / 60))
        L.append("")
        L.append("- Machine: %s, %d CPUs, %.0f GiB RAM, %s %s" %
                 (cpu, os.cpu_count(), mem, platform.system(), platform.release()))
        L.append("- orccrash built with `%s`" % first_line_of(["cc", "--version"]))
        if self.peers:
            L.append("- Peers: %s" % "; ".join(
                "%s (%s%s)" % (p.label, p.gen, ", in tests/bench/sid-chroot.sh's chroot"
                               if p.gen == "sid" else "") for p in self.peers))
        else:
            L.append("- Peers: not run")
        if self.peers_kept:
            pk = self.peers_kept
            L.append("- The peers' runs are kept from the run of %s (orccrash %s, load "
                     "average %s at its start); orccrash was measured again alone "
                     "(`bench.py --keep --no-peers`): the ratios set this run's orccrash "
                     "against those runs." %
                     (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(pk["started"])),
                      pk["commit"], pk["load0"]))
        if not self.a.peer_startup or not any(
                k != "orccrash" for r in self.rows for k in r["warm"]):
            L.append("- The peers' startup was not measured in this run "
                     "(BENCH_PEER_STARTUP=0): the startup table has orccrash only.")
        if self.sid_overhead is not None:
            L.append("- The sid chroot's wrapper (unshare, mounts, chroot) costs %.3f s "
                     "per run (`sid-chroot.sh run true`), included in the sid peers' "
                     "times." % self.sid_overhead)
        L.append("- Load average (1, 5, 15 min) at the start: %s, at the end: %s "
                 "(other work shared the machine; CPU seconds are less sensitive "
                 "to it than wall time)" % (self.load0, self.load1))
        L.append("- Runs per dump: %d of each peer, orccrash text after each peer run "
                 "and --json after each round, at least %d of each; figures are "
                 "medians." % (self.a.runs, ORC_RUNS))
        L.append("")
        self.md_ratios(L)
        self.md_detail(L)
        self.md_startup(L)
        self.md_floor(L)
        self.md_scaling(L)
        self.md_micro(L)
        L.append("### Targets, from the figures above")
        L.append("")
        L.append(self.targets())
        return "\n".join(L) + "\n"

    def partial(self, row, ok):
        """one tool traced far fewer tasks than the other: no comparison
        (orccrash missing tasks is an orccrash bug; a peer that stops
        early, e.g. drgn at an excluded page of the task list, did a
        fraction of the work)"""
        if not ok:
            return False
        n, t = self.tasks(row), ok[0].traces
        return t > 1.1 * n + 5 or n > 1.1 * t + 5

    def cell_ratio(self, row, p):
        ok, why = self.peer_ok(row, p)
        if not ok:
            return why if why.startswith("not run") else "n/a"
        if self.partial(row, ok):
            return "not compared: orccrash traced %d tasks, %s %d" % (
                self.tasks(row), p.label, ok[0].traces)
        o, oc = self.med(row["o"]), self.med(row["o"], "cpu")
        t, c = self.med(ok), self.med(ok, "cpu")
        return "**%.0fx**, %s CPU (%.2f s)" % (t / o, "%.0fx" % (c / oc) if c and oc else "-", t)

    def md_ratios(self, L):
        L.append("### All tasks' backtraces: orccrash against each peer")
        L.append("")
        L.append("`orccrash --all-tasks` against `crash -s -i` (`foreach bt`) and drgn "
                 "`prog.stack_trace(t)` for every task (tests/bench/drgn-all.py), each "
                 "peer in both generations.  A cell: how many times orccrash's wall "
                 "time the peer took, the same for CPU time (user + system), and the "
                 "peer's wall time; n/a: the peer cannot open the dump (why: in the "
                 "next table); not compared: one tool traced far fewer tasks than the "
                 "other (orccrash fewer: an orccrash bug, see the text above the "
                 "tables; the peer fewer: it stopped early, e.g. drgn at an excluded "
                 "page of the task list), left out of the targets.")
        L.append("")
        L.append("| release | dump | format | tasks | orccrash s | orccrash --json s | %s |" %
                 " | ".join(p.label for p in self.peers))
        L.append("|---|---|---|---|---|---|%s" % ("---|" * len(self.peers)))
        for row in self.rows:
            L.append("| %s | %s | %s | %s | %.3f | %.3f | %s |" % (
                self.short(row["rel"]), row["label"], row["fmt"],
                "{:,}".format(self.tasks(row)), self.med(row["o"]), self.med(row["j"]) or 0,
                " | ".join(self.cell_ratio(row, p) for p in self.peers)))
        L.append("")

    def md_detail(self, L):
        L.append("### All tasks' backtraces: every tool's run")
        L.append("")
        L.append("One line per tool and dump, naming the version that produced it. "
                 "Traces: how many tasks' traces it printed (drgn: failed ones in "
                 "brackets).  x: the tool's wall and CPU time over orccrash's.")
        L.append("")
        L.append("| release | dump | format | tool | traces | wall s | CPU s | peak RSS MB | x wall, CPU |")
        L.append("|---|---|---|---|---|---|---|---|---|")

        def mb(v):
            return "%.0f" % (v / 1024) if v else "-"
        for row in self.rows:
            o, oc = self.med(row["o"]), self.med(row["o"], "cpu")
            base = "| %s | %s | %s |" % (self.short(row["rel"]), row["label"], row["fmt"])
            L.append("%s orccrash | %d | %.3f | %.2f | %s | - |" % (
                base, self.tasks(row), o, oc or 0, mb(self.med(row["o"], "rss_kb"))))
            L.append("%s orccrash --json | - | %.3f | %.2f | %s | - |" % (
                base, self.med(row["j"]) or 0, self.med(row["j"], "cpu") or 0,
                mb(self.med(row["j"], "rss_kb"))))
            for p in self.peers:
                ok, why = self.peer_ok(row, p)
                if not ok:
                    if why.startswith("not run"):
                        continue
                    L.append("%s %s | 0 | %s | | | |" % (base, p.label, why))
                    continue
                t, c = self.med(ok), self.med(ok, "cpu")
                tr = "%d" % ok[0].traces
                if ok[0].errors:
                    tr += " (%d failed)" % ok[0].errors
                L.append("%s %s | %s | %.2f | %.2f | %s | %.0fx, %s |" % (
                    base, p.label, tr, t, c or 0, mb(self.med(ok, "rss_kb")), t / o,
                    "%.0fx" % (c / oc) if c and oc else "-"))
        L.append("")

    def md_startup(self, L):
        L.append("### Startup: time to the first screen and the first output")
        L.append("")
        L.append("orccrash: the browser (`orccrash VMCORE VMLINUX` in a 200x50 pty) until "
                 "its first screen is drawn (warm: median of 3), and `--all-tasks` until "
                 "its first byte of output; crash: `crash -s` with only `quit` (time to "
                 "its prompt); drgn: until a script's first line; the peers warm.")
        if self.cold_ok is False:
            L.append("Cold page cache: not measured (writing /proc/sys/vm/drop_caches "
                     "was not permitted).")
        else:
            L.append("Cold: `echo 3 > /proc/sys/vm/drop_caches` before the browser starts.")
        L.append("")
        L.append("| release | dump | format | tasks | browser warm s | browser cold s | "
                 "--all-tasks first byte s | %s |" % " | ".join(
                     "%s s (x browser)" % p.label for p in self.peers))
        L.append("|---|---|---|---|---|---|---|%s" % ("---|" * len(self.peers)))

        def f(v, nd=3):
            return ("%%.%df" % nd) % v if isinstance(v, (float, int)) else "n/a"
        for row in self.rows:
            bw = self.medv(row["warm"].get("orccrash"))
            cells = []
            for p in self.peers:
                t = self.medv(row["warm"].get(p.key))
                cells.append("%.2f (%.0fx)" % (t, t / bw) if t and bw else "-")
            L.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                self.short(row["rel"]), row["label"], row["fmt"], "{:,}".format(self.tasks(row)),
                f(bw), f(self.medv(row["cold"].get("orccrash"))),
                f(self.med(row["o"], "ttfb")), " | ".join(cells)))
        L.append("")

    @staticmethod
    def num(m, k):
        try:
            return float(m[k])
        except (KeyError, ValueError, TypeError):
            return None

    def floor(self, row):
        """(pages, frames, floor s with inflate, floor s with page reads)"""
        m = row.get("micro") or {}
        pages, frames = self.num(m, "pages_total"), self.num(m, "pages_frames")
        inflate, cold = self.num(m, "inflate_us"), self.num(m, "page_read_cold_us")
        look = self.num(m, "orc_find_per_s")
        if pages is None or frames is None or not look:
            return None
        lk = frames / look
        return (pages, frames, pages * (inflate or 0) / 1e6 + lk,
                pages * (cold or 0) / 1e6 + lk, lk)

    def md_floor(self, L):
        L.append("### The physical floor")
        L.append("")
        L.append("What a report cannot avoid: every distinct physical page that opening "
                 "the model (task list included) and one unwind of every task read "
                 "(tests/bench/ubench.c counts them through its memory reader), each "
                 "decompressed once, and one ORC lookup per frame.  inflate: the "
                 "cost of libdeflate's zlib inflate (formats/dump_kdump.c's) for one "
                 "4 KiB page (deflated at level 1, as makedumpfile -c writes it); "
                 "page read: one page through formats/dump.c "
                 "from a freshly opened dump (every read a miss), "
                 "decompression included; lookup: `oc_orc_table_find`.  CPU times, "
                 "one core.  Floor = pages x inflate + frames x lookup; "
                 "through libkdumpfile = pages x page read + frames x lookup.")
        L.append("")
        L.append("| release | dump | format | tasks | pages | pages per task | inflate us | "
                 "page read us | frames | lookup ns | floor s | through libkdumpfile s | "
                 "orccrash CPU s | orccrash / floor |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for row in self.rows:
            fl = self.floor(row)
            m = row.get("micro") or {}
            n = self.tasks(row)
            if not fl:
                L.append("| %s | %s | %s | %s | not measured: %s |" % (
                    self.short(row["rel"]), row["label"], row["fmt"], "{:,}".format(n),
                    m.get("error") or m.get("pages_note") or "ubench gave no page counts"))
                continue
            pages, frames, fs, fk, lk = fl
            oc = self.med(row["o"], "cpu")
            L.append("| %s | %s | %s | %s | %s | %.1f | %.1f | %.1f | %s | %.0f | %.3f | "
                     "%.3f | %.2f | %s |" % (
                         self.short(row["rel"]), row["label"], row["fmt"], "{:,}".format(n),
                         "{:,.0f}".format(pages), pages / n if n else 0,
                         self.num(m, "inflate_us") or 0, self.num(m, "page_read_cold_us") or 0,
                         "{:,.0f}".format(frames), 1e9 / self.num(m, "orc_find_per_s"),
                         fs, fk, oc or 0, "%.0fx" % (oc / fs) if oc and fs else "-"))
        L.append("")

    def md_scaling(self, L):
        L.append("### Scaling with the number of tasks")
        L.append("")
        L.append("Per release, the dumps in order of their task count; per task: "
                 "above the smallest dump of the release.")
        L.append("")
        L.append("| release | dump | format | tasks | text s | --json s | us per task | "
                 "peak RSS MB (text) | (--json) | KB per task (text) | (--json) |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|")
        by_rel = {}
        for row in self.rows:
            by_rel.setdefault(row["rel"], []).append(row)
        for rel, rs in sorted(by_rel.items()):
            rs = sorted(rs, key=self.tasks)
            base = rs[0]
            for row in rs:
                n = self.tasks(row)
                o, j = self.med(row["o"]), self.med(row["j"]) or 0
                rss = self.med(row["o"], "rss_kb") or 0
                jrss = self.med(row["j"], "rss_kb") or 0
                brss = self.med(base["o"], "rss_kb") or 0
                bjrss = self.med(base["j"], "rss_kb") or 0
                dn = n - self.tasks(base)
                L.append("| %s | %s | %s | %s | %.3f | %.3f | %.1f | %.0f | %.0f | %s | %s |" % (
                    self.short(rel), row["label"], row["fmt"], "{:,}".format(n), o, j,
                    1e6 * o / n if n else 0, rss / 1024, jrss / 1024,
                    "%.2f" % ((rss - brss) / dn) if dn > 0 else "-",
                    "%.2f" % ((jrss - bjrss) / dn) if dn > 0 else "-"))
        L.append("")

    def md_micro(self, L):
        L.append("### In process (tests/bench/ubench.c)")
        L.append("")
        L.append("The kernel model opened once; every task unwound N times "
                 "(`oc_kernel_unwind_task`); 5,000,000 lookups of random kernel text "
                 "addresses with `oc_orc_table_find` and with a bare binary search over "
                 "a sorted copy of the same ips (every answer compared: 0 mismatches "
                 "required).  CPU time of the thread.")
        L.append("")
        L.append("| release | dump | format | open s | tasks x N | frames/s | tasks/s "
                 "| ORC entries | oc_orc_table_find /s | bare bsearch /s | find time / bsearch time |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for row in self.rows:
            m = row["micro"]
            if m.get("rc"):
                L.append("| %s | %s | %s | ubench failed: %s |" % (
                    self.short(row["rel"]), row["label"], row["fmt"],
                    m.get("error", "").replace("|", "/")))
                continue

            def g(k):
                return self.num(m, k) or 0.0
            L.append("| %s | %s | %s | %.3f | %s x %s | %s | %s | %s | %s | %s | %.2f%s |" % (
                self.short(row["rel"]), row["label"], row["fmt"], g("open_s"), m.get("tasks", "?"),
                m.get("unwind_iters", "?"), "{:,.0f}".format(g("unwind_frames_per_s")),
                "{:,.0f}".format(g("unwind_tasks_per_s")), "{:,.0f}".format(g("orc_entries")),
                "{:,.0f}".format(g("orc_find_per_s")), "{:,.0f}".format(g("bsearch_per_s")),
                g("orc_find_vs_bsearch"),
                "" if m.get("orc_mismatches") == "0" else " (MISMATCHES %s)" % m.get("orc_mismatches")))
        L.append("")

    def ratio_target(self, tool, gen, want):
        ps = [p for p in self.peers if p.tool == tool and p.gen == gen]
        if not ps:
            return "- >= %dx faster than %s (%s): not measured (no such peer)" % (want, tool, gen)
        p = ps[0]
        rs = []
        for row in self.rows:
            ok, _ = self.peer_ok(row, p)
            if ok and not self.partial(row, ok):
                oc, c = self.med(row["o"], "cpu"), self.med(ok, "cpu")
                rs.append((self.med(ok) / self.med(row["o"]), c / oc if c and oc else 0,
                           "%s %s %s" % (self.short(row["rel"]), row["label"], row["fmt"])))
        if not rs:
            return "- >= %dx faster than %s: it opened none of the dumps" % (want, p.label)
        w = min(rs)
        cw = min(rs, key=lambda r: r[1])
        met = sum(1 for r in rs if r[0] >= want)
        cmet = sum(1 for r in rs if r[1] >= want)
        return ("- >= %dx faster than %s on every dump it opens: wall time %s (on %d of %d "
                "dumps; smallest %.1fx: %s); CPU time %s (on %d of %d; smallest %.1fx: %s)" % (
                    want, p.label, "met" if met == len(rs) else "NOT met", met, len(rs),
                    w[0], w[2], "met" if cmet == len(rs) else "NOT met", cmet, len(rs),
                    cw[1], cw[2]))

    def within(self, what, vals, limit=0.1):
        """One target line: the dumps' values against limit seconds."""
        vals = [x for x in vals if x[0] is not None]
        if not vals:
            return "- %s: not measured" % what
        m = max(vals, key=lambda x: x[0])
        return "- %s: %s in %d of %d; slowest %.3f s (%s %s %s, %s tasks)" % (
            what, "met" if m[0] <= limit else "NOT met",
            sum(1 for v in vals if v[0] <= limit), len(vals), m[0],
            self.short(m[1]["rel"]), m[1]["label"], m[1]["fmt"],
            "{:,}".format(self.tasks(m[1])))

    def targets(self):
        out = [self.ratio_target("drgn", "sid", 20), self.ratio_target("crash", "sid", 50),
               self.ratio_target("drgn", "Debian 12", 10),
               self.ratio_target("crash", "Debian 12", 20)]
        big = [r for r in self.rows if r["label"] == "large"]
        for what, key in (("text", "o"), ("JSON", "j")):
            if big:
                w = max(big, key=lambda r: self.med(r[key]) or 0)
                out.append("- the 10,000-task dumps in <= 0.5 s (%s): %s; slowest %.3f s (%s %s)" % (
                    what, "met" if (self.med(w[key]) or 99) <= 0.5 else "NOT met",
                    self.med(w[key]) or 0, self.short(w["rel"]), w["fmt"]))
        # the JSON report streamed: the text's cost, memory flat
        for r in big:
            o, j = self.med(r["o"]), self.med(r["j"])
            oc, jc = self.med(r["o"], "cpu"), self.med(r["j"], "cpu")
            jrss = self.med(r["j"], "rss_kb")
            if not (o and j and jrss):
                continue
            met = j / o <= 1.5 and jrss / 1024 <= 100
            out.append("- the 10,000-task dump's JSON within 1.5x the text's time and 100 MB "
                       "(%s %s): %s; %.2fx (%.3f s against %.3f; CPU %.2fx), %.0f MB" % (
                           self.short(r["rel"]), r["fmt"], "met" if met else "NOT met",
                           j / o, j, o, (jc / oc) if oc and jc else 0, jrss / 1024))
        out.append(self.within("first screen <= 0.1 s on every dump (warm)",
                               [(self.medv(r["warm"].get("orccrash")), r) for r in self.rows]))
        out.append(self.within("first output of --all-tasks <= 0.1 s on every dump",
                               [(self.med(r["o"], "ttfb"), r) for r in self.rows]))
        for h in [r for r in self.rows if r["label"] == "huge"]:
            ls = [r for r in self.rows if r["label"] == "large" and r["rel"] == h["rel"]
                  and r["fmt"] == h["fmt"]]
            if not ls:
                continue
            lg = ls[0]
            for what, key, attr in (("text time", "o", "wall"), ("text memory", "o", "rss_kb"),
                                    ("JSON time", "j", "wall"), ("JSON memory", "j", "rss_kb")):
                a, b = self.med(h[key], attr), self.med(lg[key], attr)
                if a and b:
                    out.append("- 100,000 tasks within 10x of 10,000 (%s, %s %s): %.1fx (%s)" % (
                        what, self.short(h["rel"]), h["fmt"], a / b,
                        "met" if a / b <= 10 else "NOT met"))
        ratios = [self.num(r["micro"], "orc_find_vs_bsearch") for r in self.rows]
        ratios = [r for r in ratios if r]
        if ratios:
            out.append("- ORC lookup within 4x of a bare binary search: oc_orc_table_find "
                       "takes %.2f-%.2f times the bare search's time" % (min(ratios), max(ratios)))
        return "\n".join(out)

    # -- raw results -----------------------------------------------------------
    def save(self, path):
        import json
        rows = []
        for row in self.rows:
            r = dict(row)
            r["o"] = [x.__dict__ for x in row["o"]]
            r["j"] = [x.__dict__ for x in row["j"]]
            r["p"] = {k: [x.__dict__ for x in v] for k, v in row["p"].items()}
            rows.append(r)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".tmp", "w") as f:
            json.dump({"rows": rows, "load0": self.load0, "cold_ok": self.cold_ok,
                       "runs": self.a.runs, "started": self.started,
                       "ended": time.time(), "load1": "%.1f %.1f %.1f" % os.getloadavg(),
                       "sid_overhead": self.sid_overhead, "commit": self.commit,
                       "peers_kept": self.peers_kept,
                       "peers": [p.to_json() for p in self.peers]}, f, indent=1)
        os.replace(path + ".tmp", path)

    def load(self, path):
        import json
        with open(path) as f:
            data = json.load(f)
        self.load0, self.cold_ok = data["load0"], data["cold_ok"]
        self.a.runs = data["runs"]
        self.started, self.ended = data.get("started", 0), data.get("ended", 0)
        self.load1 = data.get("load1", "?")
        self.sid_overhead = data.get("sid_overhead")
        self.commit = data.get("commit", self.commit)
        self.peers_kept = data.get("peers_kept")
        self.peers = [Peer(**p) for p in data.get("peers", [])]

        def res(x):
            o = Result()
            o.__dict__.update(x)
            return o
        for r in data["rows"]:
            r["o"] = [res(x) for x in r["o"]]
            r["j"] = [res(x) for x in r["j"]]
            r["p"] = {k: [res(x) for x in v] for k, v in r["p"].items()}
            self.rows.append(r)

    def write(self, path, text):
        write_section(path, text, BEGIN, END, "## Measured figures")
        log("wrote %s" % path)


def write_section(path, text, begin, end, heading):
    """Put @text between the markers @begin and @end of the file @path
    (docs/benchmarks.md), or append both under @heading when it has none."""
    old = ""
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    if begin in old and end in old:
        new = old[:old.index(begin) + len(begin)] + "\n" + text + old[old.index(end):]
    else:
        new = old + ("\n" if old else "") + heading + "\n\n" + begin + "\n" + text + end + "\n"
    with open(path, "w") as f:
        f.write(new)


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
    ap.add_argument("--no-peer-startup", dest="peer_startup", action="store_false",
                    default=os.environ.get("BENCH_PEER_STARTUP", "1") != "0",
                    help="no startup runs of the peers (they take as long as their "
                    "all-tasks runs on the samples)")
    ap.add_argument("--only", default=os.environ.get("BENCH_ONLY") or None,
                    help="regex over 'release scenario format' (BENCH_ONLY)")
    ap.add_argument("--keep", action="store_true",
                    help="add to BUILD/bench/results.json instead of starting afresh")
    ap.add_argument("--render", metavar="JSON",
                    help="only re-render the tables from a results.json")
    ap.add_argument("--out", default=os.environ.get("BENCH_OUT",
                                                    os.path.join(TOP, "docs", "benchmarks.md")))
    a = ap.parse_args()
    for exe in ("orccrash", os.path.join("tests", "ubench")):
        if not os.access(os.path.join(a.build, exe), os.X_OK):
            sys.exit("bench: %s/%s missing (make bench builds it)" % (a.build, exe))
    results = os.path.join(a.build, "bench", "results.json")
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
    kept = []
    old = None
    if a.keep and os.path.exists(results):
        old = Bench(a)
        old.load(results)
        again = {(d[1], d[0], d[4]) for d in ds}
        kept = [r for r in old.rows if (r["rel"], r["label"], r["fmt"]) not in again]
        if kept:	# the tables span both runs
            b.started = min(b.started, old.started or b.started)
            b.load0 = old.load0
        if old.commit != b.commit:
            log("results.json was measured on %s, this tree is %s" % (old.commit, b.commit))
        if not b.peers:		# --no-peers: the kept rows' peers stay named
            b.peers = old.peers	# (in the tables; b.run_peers stays empty)
            b.sid_overhead = old.sid_overhead
        log("keeping %d dumps' results from %s" % (len(kept), results))
    b.rows = kept
    # --keep --no-peers: orccrash measured again beside the peers' runs
    # kept from the earlier results (the peers do not change with
    # orccrash; the tables say which run each side comes from)
    old_rows = {}
    if a.keep and not b.run_peers and old is not None:
        old_rows = {(r["rel"], r["label"], r["fmt"]): r for r in old.rows}
        if old_rows:
            b.peers_kept = old.peers_kept or {
                "commit": old.commit,
                "started": old.started,
                "load0": old.load0}
    b.measure_sid_overhead()
    order = {(d[1], d[0], d[4]): i for i, d in enumerate(dumps(True, True))}
    try:
        for d in ds:
            b.one(*d)
            o = old_rows.get((d[1], d[0], d[4]))
            if o:
                new = b.rows[-1]
                for k, v in o["p"].items():
                    new["p"].setdefault(k, v)
                for k, v in o["why"].items():
                    if k != "*" or not o["p"]:
                        new["why"].setdefault(k, v)
                if o["p"]:
                    new["why"].pop("*", None)
                for k, v in o["warm"].items():
                    if k != "orccrash":
                        new["warm"].setdefault(k, v)
            b.rows.sort(key=lambda r: order.get((r["rel"], r["label"], r["fmt"]), 1 << 30))
            b.save(results)
    finally:
        for f in (b.foreach, b.quit):
            os.unlink(f)
    log("raw results in %s" % results)
    b.ended, b.load1 = time.time(), "%.1f %.1f %.1f" % os.getloadavg()
    text = b.markdown()
    print()
    print(text)
    b.write(a.out, text)


if __name__ == "__main__":
    main()
