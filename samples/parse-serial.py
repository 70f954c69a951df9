#!/usr/bin/env python3
"""Extract the kernel's own stack traces from a serial console log.

Usage: parse-serial.py serial.log > ref/kernel.txt

The kernel unwinds with ORC when it prints a trace (sysrq-t task dumps,
sysrq-l NMI backtraces, oops, panic): those traces are the first oracle for
orccrash's unwinder. Output format (also in samples/README.md):

    # comment lines start with '#'
    @task pid=103 comm=sleep state=S        one sysrq-t / sysrq-w task
    @nmi cpu=1 pid=110 comm=dd              one sysrq-l "NMI backtrace for cpu"
    @oops cpu=0 pid=1 comm=sh               die(): BUG/Oops/stack overflow...
    @panic cpu=0 pid=1 comm=init            panic()'s own dump_stack
    @dump cpu=0 pid=1 comm=init             any other "CPU: ... PID: ..." dump
    title <text>                            the line(s) that announced it
    RIP <text after "RIP: ">                register lines, in order, also the
    RSP <text after "RSP: ">                ones of pt_regs frames inside traces
    <TASK>                                  frame lines and stack markers
    __schedule+0x34d/0xa00                  exactly as printed, leading blanks
    ? __hrtimer_init+0xe0/0xe0              and the timestamp removed
    </TASK>
    @end

Keys on an @ line are space-separated key=value; comm is the kernel's comm
with spaces replaced by '_' (rare). Blocks appear in log order.
Standard library only.
"""
import re
import sys

TS = re.compile(r"^\[\s*\d+\.\d+\]\s?")
FRAME = re.compile(
    r"^(\? )?([A-Za-z0-9_.$]+\+0x[0-9a-f]+/0x[0-9a-f]+( \[[A-Za-z0-9_]+\])?"
    r"|0x[0-9a-f]+)$")
MARKER = re.compile(r"^</?[A-Z#]+>$")
TASK = re.compile(r"^task:(.*?)\s+state:(\S+)(.*)$")
CPU = re.compile(r"^CPU: (\d+) (?:UID: \d+ )?PID: (\d+) Comm: (.*?) "
                 r"(?:Kdump: loaded )?(?:Not tainted|Tainted)")
NMI = re.compile(r"^NMI backtrace for cpu (\d+)")
PANIC = re.compile(r"^Kernel panic - not syncing: ")
OOPS = re.compile(r"^(BUG: |Oops: |general protection fault|kernel BUG at "
                  r"|stack guard page|.*: [0-9a-f]{4} \[#\d+\])")
# Lines that end a block: everything after them is not part of the trace.
END = re.compile(r"^(---\[ end |Modules linked in:|Kernel Offset:|sysrq: "
                 r"|Sending NMI from CPU|INFO: |Showing busy "
                 r"|Showing all locks|Mem-Info:)")


def clean(comm):
    return re.sub(r"\s", "_", comm.strip()) or "?"


class Parser:
    def __init__(self, out):
        self.out = out
        self.block = None      # list of output lines of the open block
        self.titles = []       # announcement lines since the last block
        self.nmi_cpu = None

    def close(self):
        if self.block is not None:
            self.out.extend(self.block)
            self.out.append("@end")
        self.block = None

    def open(self, head):
        self.close()
        self.block = [head] + ["title " + t for t in self.titles]
        self.titles = []

    def line(self, raw):
        raw = raw.rstrip("\r\n")
        ts = TS.match(raw)
        text = raw[ts.end():] if ts else raw
        s = text.strip()
        if not ts:
            # Not a kernel line: the guest's ORCCRASH markers (written
            # through the tty, so not ordered with printk) or noise.
            return
        m = TASK.match(s)
        if m:
            # "pid:1" (6.1+) or "pid:    1" (5.10's "pid:%5d",
            # kernel/sched/core.c sched_show_task())
            fields = dict(re.findall(r"(\w+):\s*(\S+)", m.group(3)))
            head = "@task pid=%s comm=%s state=%s" % (
                fields.get("pid", "?"), clean(m.group(1)), m.group(2))
            self.titles = []
            self.open(head)
            return
        m = NMI.match(s)
        if m:
            self.close()
            self.nmi_cpu = m.group(1)
            self.titles = [s]
            return
        if PANIC.match(s) or OOPS.match(s):
            self.close()
            if not self.titles or self.nmi_cpu is not None:
                self.titles = []
            self.nmi_cpu = None
            self.titles.append(s)
            return
        m = CPU.match(s)
        if m:
            kind = "dump"
            if self.titles:
                if NMI.match(self.titles[0]):
                    kind = "nmi"
                elif any(PANIC.match(t) for t in self.titles) and not any(
                        OOPS.match(t) for t in self.titles):
                    kind = "panic"
                else:
                    kind = "oops"
            self.nmi_cpu = None
            self.open("@%s cpu=%s pid=%s comm=%s" % (
                kind, m.group(1), m.group(2), clean(m.group(3))))
            return
        if END.match(s):
            self.close()
            self.titles = []
            return
        if self.block is None:
            # Title continuation lines of an oops (#PF: ..., PGD ...) are
            # not kept; only the lines matched above are titles.
            return
        if FRAME.match(s) or MARKER.match(s):
            self.block.append(s)
        elif s.startswith("RIP: "):
            self.block.append("RIP " + s[5:])
        elif s.startswith("RSP: "):
            self.block.append("RSP " + s[5:].split(" EFLAGS")[0])


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = []
    p = Parser(out)
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        for raw in f:
            p.line(raw)
    p.close()
    print("# orccrash ref/kernel.txt: kernel traces parsed from %s"
          % sys.argv[1].rsplit("/", 1)[-1])
    print("# format: samples/parse-serial.py, samples/README.md")
    for line in out:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
