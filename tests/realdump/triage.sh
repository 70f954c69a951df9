#!/bin/bash
# The crash summary (docs/triage.md) on every sample dump:
#   tests/realdump/triage.sh [BUILD_DIR]
# For each row of ${ORCCRASH_CACHE:-~/.cache/orccrash}/dumps/index.tsv
# (release scenario format vmcore vmlinux kaslr), orccrash --json --active
# VMCORE VMLINUX must give, in "crash":
#   - the kind and guilty function of the scenario's row in the table
#     below, and a title naming them;
#   - what the kernel's own console (serial.log next to the dump, the
#     first panic in it) says: "BUG: kernel NULL pointer dereference,
#     address: X" / "BUG: unable to handle page fault for address: X"
#     exactly for the page fault kinds, with the same address, error code
#     and "#PF:" decoding; "stack guard page was hit" exactly for
#     stack-overflow; the "Kernel panic - not syncing: MSG" message; the
#     guilty function (with its module) in a frame of the kernel's trace;
#     the taint letters of its "Tainted:" line (plus D after an oops:
#     oops_end() adds TAINT_DIE after __die() printed the line); an
#     uptime near the panic line's timestamp;
#   - a signature the same in every format of one dump, the same for the
#     scenarios that are one bug (the "bug" column), different between
#     bugs (per release).
# On mod-blocked, each D task's time off the CPU agrees with the log's
# timestamps; the bug table's BUG()/WARN() sites agree with addr2line.  And the text report starts with its CRASH: line, which --no-header
# leaves out.  Prints PASS/FAIL/SKIP lines; exits 1 if anything failed.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init triage "${1:-build}"
tst_need_index
tst_need_exec "$bin" "run make"

# scenario  kind  guilty function  bug (scenarios with one bug share it)
cat >"$tmp/expected.tsv" <<'EOF'
process	sysrq	sysrq_handle_crash	sysrq-write
kdump	sysrq	sysrq_handle_crash	sysrq-write
hardirq	sysrq	sysrq_handle_crash	sysrq-keyboard
mod-blocked	panic	orccrash_panic	panic-requested
mod-deadlock	panic	orccrash_panic	panic-requested
mod-locks	panic	orccrash_panic	panic-requested
mod-nmi	panic	orccrash_nmi_panic	panic-in-nmi
mod-oops	null-deref	orccrash_oops_deref	null-deref
mod-overflow	stack-overflow	orccrash_recurse	recursion
mod-timer	panic	orccrash_timer_panic	panic-in-timer
kdump-timer	panic	orccrash_timer_panic	panic-in-timer
mod-hrtimer	panic	orccrash_hrtimer_panic	panic-in-hrtimer
EOF

cat >"$tmp/check.py" <<'EOF'
import json, re, sys

doc, serial, kind, guilty, out = sys.argv[1:6]
c = json.load(open(doc))["crash"]
bad = []
def want(ok, what):
    if not ok:
        bad.append(what)

lines = open(serial, errors="replace").read().splitlines()
lines = [re.sub(r"^\[ *\d+\.\d+\] ", "", l.rstrip("\r")) for l in lines]
# the first panic; the lines before it are this crash's (a kdump's
# capture kernel boots after it)
end = next((i for i, l in enumerate(lines) if l.startswith("Kernel panic - not syncing: ")), None)
if end is None:
    print("SKIP no panic line in serial.log")
    sys.exit(0)
msg = lines[end][len("Kernel panic - not syncing: "):]
# the oops, if any: from its first line on, within the 200 lines before
# the panic (an earlier sysrq-t or sysrq-l dump has "Tainted:" lines too)
near = range(max(0, end - 200), end)
start = min([i for i in near if lines[i].startswith(("BUG: ", "Oops", "general protection"))] or [end])
crash = lines[start:end + 1]

want(c["kind"] == kind, "kind %r, want %r" % (c["kind"], kind))
g = c["guilty"] or {}
want(g.get("symbol") == guilty, "guilty %r, want %r" % (g.get("symbol"), guilty))
# syzkaller's titles: a panic() by its message, the others by the
# guilty function
if kind in ("panic", "sysrq"):
    want(c["title"] == "kernel panic: " + msg, "title %r, want the panic message %r" % (c["title"], msg))
else:
    want(guilty in c["title"], "title %r does not name %s" % (c["title"], guilty))
want(c["message"] == msg, "message %r, the log's %r" % (c["message"], msg))
# the guilty frame in the kernel's own trace of the panic (or its RIP line)
mod = " [%s]" % g["module"] if g.get("module") else ""
pat = re.compile(r"(^|[ :])%s(\.[a-z]+(\.\d+)?)*\+0x[0-9a-f]+/0x[0-9a-f]+(?![0-9a-f])%s" % (re.escape(guilty), re.escape(mod) if mod else r"(?! \[)"))
want(any(pat.search(l) for l in lines[:end + 40]), "guilty %s%s in no frame of the kernel's trace" % (guilty, mod))
# page faults: the kernel's show_fault_oops() lines
nul = [l for l in crash if l.startswith("BUG: kernel NULL pointer dereference, address: ")]
pf = [l for l in crash if l.startswith("BUG: unable to handle page fault for address: ")]
want(bool(nul) == (kind == "null-deref") and bool(pf) == (kind == "page-fault"),
     "page fault lines in the log: %d NULL, %d other; kind %s" % (len(nul), len(pf), kind))
if nul or pf:
    addr = int((nul or pf)[-1].rsplit(" ", 1)[1], 16)
    want(c["address"] and int(c["address"]["value"], 16) == addr,
         "address %r, the log's 0x%x" % (c["address"], addr))
    ec = [l for l in crash if l.startswith("#PF: error_code(")]
    acc = [l for l in crash if l.startswith("#PF: ") and (" access " in l or " fetch " in l)]
    e = c["error_code"] or {}
    if ec:
        m = re.match(r"#PF: error_code\((0x[0-9a-f]+)\) - (.*)", ec[-1])
        want(e and int(e["value"], 16) == int(m.group(1), 16) and e["reason"] == m.group(2),
             "error code %r, the log's %r" % (e, ec[-1]))
    if acc:
        want(e and "#PF: " + e["access"] == acc[-1], "access %r, the log's %r" % (e.get("access"), acc[-1]))
guard = any("stack guard page was hit" in l for l in crash)
want(guard == (kind == "stack-overflow"), "guard page line %s, kind %s" % (guard, kind))
# taint: the last Tainted: line of the crash
# (print_tainted(): "Tainted: G           OE      6.1.0-...", not 6.12's
# "Tainted: [O]=OOT_MODULE, ..." line under it)
tre = re.compile(r"Tainted: ([A-Z ]+?)\s+\d")
tl = [l for l in lines[:end] if tre.search(l)]
if tl:
    letters = set(tre.search(tl[-1]).group(1).replace(" ", "")) - {"G"}
    t = c["taint"] or {}
    have = set(t.get("letters", ""))
    die = kind in ("null-deref", "page-fault", "general-protection", "bug", "stack-overflow", "double-fault")
    want(have - {"D"} == letters - {"D"} and ("D" in have) == (die or "D" in letters),
         "taint %r, the log's %r%s" % (t.get("letters"), tl[-1].split("Tainted: ")[1], " + D" if die else ""))
    for f in t.get("flags", []):
        if f["flag"] in "OE":
            want(f["modules"] == ["orccrash_test"], "taint %s set by %r, want the test module" % (f["flag"], f["modules"]))
# uptime: the scheduler clock when the CPUs stopped, near the panic line
# (a tick before it at the earliest; after it while panic()'s CPU ticks
# on until the dump is taken)
raw = open(serial, errors="replace").read().splitlines()
pts = [float(m.group(1)) for m in (re.match(r"\[ *(\d+\.\d+)\] Kernel panic - not syncing", l) for l in raw) if m]
up = c["uptime"]
want(up is not None and pts and pts[0] - 0.05 <= up <= pts[0] + 2,
     "uptime %r, the panic line at %r" % (up, pts[:1]))
want(c["signature"] and re.fullmatch(r"[0-9a-f]{16}", c["signature"]), "signature %r" % c["signature"])
open(out, "w").write("%s\n" % c["signature"])
if bad:
    print("FAIL " + "; ".join(bad))
    sys.exit(1)
print("PASS %s: %s; signature %s" % (c["kind"], c["title"], c["signature"]))
EOF

# mod-blocked: each D task's time off the CPU against the log's
# timestamps (the same clock): each was last put on a CPU after the
# module's "command 'blocked'" line (the first of its commands) and before
# sysrq-w's "Show Blocked State" listed it in D (how long after its own
# command line a task last ran depends on the scheduler: sh ran again
# 0.8 ms after its "command 'block'" line on one sample); "now" (since +
# seconds) is the scheduler clock when the CPUs stopped, between the
# panic line and its end line
cat >"$tmp/blocked.py" <<'EOF'
import json, re, sys

doc, serial = sys.argv[1:3]
tasks = [t for t in json.load(open(doc))["tasks"] if t["state"] == "D"]
ts = {}
for l in open(serial, errors="replace"):
    m = re.match(r"\[ *(\d+\.\d+)\] (.*)", l.rstrip("\r\n"))
    if not m:
        continue
    t, text = float(m.group(1)), m.group(2)
    for key, pat in (("blocked", "orccrash: command 'blocked'"), ("sysrq-w", "sysrq: Show Blocked State"),
                     ("panic", "Kernel panic - not syncing"), ("end", "---[ end Kernel panic")):
        if text.startswith(pat) and key not in ts:
            ts[key] = t
if set(ts) != {"blocked", "sysrq-w", "panic", "end"}:
    print("SKIP the log lacks %s" % sorted({"blocked", "sysrq-w", "panic", "end"} - set(ts)))
    sys.exit(0)
bad = []
for t in tasks:
    b = t.get("blocked")
    if not b:
        bad.append("pid %d (%s): no blocked time" % (t["pid"], t["comm"]))
        continue
    since = b["since_ns"] / 1e9
    now = since + b["seconds"]
    hi = ts["sysrq-w"]
    if not ts["blocked"] - 0.001 <= since <= hi:
        bad.append("pid %d (%s): last on a CPU at %.6f, not in [%.6f, %.6f]" % (t["pid"], t["comm"], since, ts["blocked"], hi))
    if not ts["panic"] - 0.05 <= now <= ts["end"] + 0.05:
        bad.append("pid %d (%s): clock at the crash %.6f, not near the panic [%.6f, %.6f]" % (t["pid"], t["comm"], now, ts["panic"], ts["end"]))
mods = [t for t in tasks if t["comm"].startswith("orccrash_")]
if len(mods) < 4:
    bad.append("%d of the module's 4 D kthreads" % len(mods))
if bad:
    print("FAIL " + "; ".join(bad[:4]))
    sys.exit(1)
print("PASS %d D tasks blocked %.3f-%.3f s, as the log's timestamps say (%.3f s from 'blocked' to the panic)"
      % (len(tasks), min(t["blocked"]["seconds"] for t in tasks), max(t["blocked"]["seconds"] for t in tasks),
         ts["panic"] - ts["blocked"]))
EOF

# The bug table (oc_triage_bug_site(), for a BUG()'s or WARN()'s file:line)
# against the vmlinux's DWARF: every 4th ud2 instruction objdump finds in
# the first 8 MiB of text, looked up by tests/bugcat in the dump's memory,
# and by addr2line.  The file must be the same; the line too, but where a
# multi-line macro (a trace event's) expands, __LINE__ and the DWARF line
# can differ: 99% of them.  Once per release.
bug_table_check() {
	local name=$1 core=$2 vml=$3 st
	if ! command -v objdump >/dev/null || ! command -v addr2line >/dev/null; then
		skip "$name: bug table: no objdump/addr2line (binutils)"
		return
	fi
	if ! make -s -C "$top" O="$O" "$O/tests/bugcat" >/dev/null; then
		fail "$name: bug table: cannot build tests/bugcat"
		return
	fi
	st=$(nm "$vml" | awk '$3 == "_stext" { print $1 }')
	objdump -d --no-show-raw-insn --start-address=0x"$st" \
		--stop-address="$(printf '0x%x' $((0x$st + 0x800000)))" "$vml" |
		awk '$2 == "ud2" { sub(":", "", $1); if (n++ % 4 == 0) print $1 }' >"$tmp/ud2"
	"$O/tests/bugcat" "$core" "$vml" <"$tmp/ud2" | awk '$2 != "-"' >"$tmp/bugs"
	cut -d' ' -f1 "$tmp/bugs" | addr2line -e "$vml" >"$tmp/a2l"
	res=$(paste -d' ' "$tmp/bugs" "$tmp/a2l" | awk -v ud2="$(wc -l <"$tmp/ud2")" '
		{ split($5, a, ":"); f = a[1]; l = a[2]
		  if (substr(f, length(f) - length($2) + 1) != $2) { badf++; if (!ex) ex = $0 }
		  else if (l == $3) ok++ }
		END { n = NR; printf "%d %d %d %d %s\n", ud2, n, ok, badf, ex }')
	read -r nud2 nfound nok nbadf ex <<<"$res"
	if [ "$nfound" -ge 500 ] && [ "$nbadf" -eq 0 ] && [ $((nok * 100)) -ge $((nfound * 99)) ]; then
		pass "$name: bug table: $nfound of $nud2 ud2 sites found, file as addr2line's for all, line for $nok"
	else
		fail "$name: bug table: $nfound of $nud2 ud2 found, $nbadf with another file, line as addr2line's for $nok; $ex"
	fi
}
declare -A bug_done

pyd=/usr/bin/python3
[ -x "$pyd" ] || pyd=python3
declare -A sig bugsig validated
n=0
while tst_next_dump -v; do
	row=$(grep -P "^\Q$scen\E\t" "$tmp/expected.tsv")
	if [ -z "$row" ]; then
		fail "$name: scenario $scen is not in the table of tests/realdump/triage.sh"
		continue
	fi
	IFS=$'\t' read -r _ kind guilty bug <<<"$row"
	serial=$(dirname "$core")/serial.log
	if [ ! -r "$serial" ]; then
		skip "$name: no serial.log"
		continue
	fi
	n=$((n + 1))
	if ! tst_report "$tmp/c.json" "$tmp/err" --json --active "$core" "$vml"; then
		fail "$name: orccrash exited $rc: $(head -c 200 "$tmp/err")"
		continue
	fi
	if [ -z "${validated[$rel/$scen]:-}" ]; then
		validated[$rel/$scen]=1
		"$pyd" "$top/tests/json/validate.py" "$name: triage" "$tmp/c.json"
	fi
	res=$(python3 "$tmp/check.py" "$tmp/c.json" "$serial" "$kind" "$guilty" "$tmp/sig")
	case $res in
	PASS*) pass "$name: ${res#PASS }" ;;
	SKIP*) skip "$name: ${res#SKIP }"; continue ;;
	*) fail "$name: ${res#FAIL }"; continue ;;
	esac
	s=$(cat "$tmp/sig")
	# one dump, every format: one signature
	if [ -z "${sig[$rel/$scen]:-}" ]; then
		sig[$rel/$scen]=$s
	elif [ "${sig[$rel/$scen]}" = "$s" ]; then
		pass "$name: signature $s as in the other formats"
	else
		fail "$name: signature $s, ${sig[$rel/$scen]} in another format"
	fi
	# one bug, one signature; another bug, another one
	if [ -z "${bugsig[$rel/$bug]:-}" ]; then
		bugsig[$rel/$bug]=$s
	elif [ "${bugsig[$rel/$bug]}" != "$s" ]; then
		fail "$name: signature $s, ${bugsig[$rel/$bug]} for another scenario of bug $bug"
	fi
	for k in "${!bugsig[@]}"; do
		[ "${k%%/*}" = "$rel" ] || continue
		if [ "$k" != "$rel/$bug" ] && [ "${bugsig[$k]}" = "$s" ]; then
			fail "$name: signature $s is also bug ${k#*/}'s"
		fi
	done
	if [ "$fmt" = elf ] && [ -z "${bug_done[$rel]:-}" ]; then
		bug_done[$rel]=1
		bug_table_check "$rel" "$core" "$vml"
	fi
	if [ "$scen" = mod-blocked ]; then
		"$bin" --json --state D "$core" "$vml" >"$tmp/d.json" 2>/dev/null
		res=$(python3 "$tmp/blocked.py" "$tmp/d.json" "$serial")
		case $res in
		PASS*) pass "$name: ${res#PASS }" ;;
		SKIP*) skip "$name: ${res#SKIP }" ;;
		*) fail "$name: ${res#FAIL }" ;;
		esac
	fi
	# the text report: CRASH first, not with --no-header
	"$bin" --active "$core" "$vml" 2>/dev/null >"$tmp/t.txt"
	"$bin" --active --no-header "$core" "$vml" 2>/dev/null >"$tmp/n.txt"
	if head -n 1 "$tmp/t.txt" | grep -q '^ *CRASH: ' &&
	   grep -q "^ SIGNATURE: $s\$" "$tmp/t.txt" && ! grep -q 'CRASH:\|SIGNATURE:' "$tmp/n.txt"; then
		[ "$fmt" = elf ] && pass "$name: text report starts with CRASH:, not with --no-header"
	else
		fail "$name: text report: $(head -n 1 "$tmp/t.txt")"
	fi
done <"$index"

# every bug of a release has its own signature, and every bug was seen
cut -f1 "$index" | sort -u >"$tmp/releases"
while read -r rel; do
	nb=0
	for k in "${!bugsig[@]}"; do [ "${k%%/*}" = "$rel" ] && nb=$((nb + 1)); done
	ns=$(for k in "${!bugsig[@]}"; do [ "${k%%/*}" = "$rel" ] && echo "${bugsig[$k]}"; done | sort -u | wc -l)
	if [ "$nb" -gt 1 ] && [ "$nb" -eq "$ns" ]; then
		pass "$rel: $nb bugs, $ns distinct signatures"
	elif [ "$nb" -eq 1 ]; then
		# ORCCRASH_TEST_SAMPLES chose the dumps of one bug
		skip "$rel: one bug among the dumps tested: no signatures to tell apart"
	elif [ "$nb" -gt 0 ]; then
		fail "$rel: $nb bugs but $ns distinct signatures"
	fi
done <"$tmp/releases"
[ $n -eq 0 ] && skip "triage: no readable dumps in $index"
[ "$nfail" -eq 0 ]
