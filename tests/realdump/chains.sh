#!/bin/bash
# What the blocked tasks wait on and the wait chains (src/waits.c,
# docs/triage.md) on the mod-blocked samples:
#   tests/realdump/chains.sh [BUILD_DIR]
# For every mod-blocked row of ${ORCCRASH_CACHE:-~/.cache/orccrash}/dumps/index.tsv
# (every format), with the vmlinux and the module's .ko (--modules-dir:
# the lock from the DWARF and from the wait list, "dwarf+waiter") and
# with --no-vmlinux (the wait list alone, "waiter"): orccrash --json
# --state D and the text report, held by tests/realdump/chains.py to the
# kernel's own sysrq-w traces on the console, to what the test module did
# (its holder kthread took orccrash_mutex, its "block" writer waits on it)
# and, on the dumps crash 8.0.2 opens (6.1's), to crash's reading of the
# symbols, mutex.owner and the two wait lists.  drgn 0.0.22 cannot read
# these QEMU ELF dumps (tests/realdump/locals.sh), so it is not used here.
# The JSON validates against docs/json-schema.json; the address, owner and
# chains are the same in every format and with or without the vmlinux.
# --dot: an edge from each waiter to its lock and from the lock to its
# owner, as the JSON has them, no other, red exactly those of the
# deadlock's tasks, and Graphviz's dot -Tsvg renders it.
# mod-deadlock (a scenario of samples/make-samples.sh; make it into a
# cache of its own with ORCCRASH_SCENARIOS=mod-deadlock and point
# ORCCRASH_CACHE there): the ABBA pair is one DEADLOCK, the down_read
# waiter an rwsem-read wait on the writer; mod-locks: a folio lock's
# waiter, an rwsem's writer waiting for its reader and on PREEMPT_RT a
# spinlock_t's waiter; see chains.py.
# Prints PASS/FAIL/SKIP lines; exits 1 if anything failed.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init chains "${1:-build}"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
tst_need_index
tst_need_exec "$bin" "run make"
have_crash=false
command -v crash >/dev/null 2>&1 && have_crash=true
have_dot=false
if command -v dot >/dev/null 2>&1; then
	have_dot=true
else
	skip "chains: no dot (apt-get install graphviz): the DOT is not rendered"
fi

# crash's view of one dump into $2 (empty when crash cannot open it):
# first the symbols and offsets, then the wait lists they give
crash_facts() {
	local core=$1 out=$2 vml=$3 scen=$4 mhead chead coff woff
	: >"$out"
	$have_crash || return
	if [ "$scen" = mod-locks ]; then
		# the module's orccrash_folio read as a word (crash's p needs
		# the module's debuginfo loaded); the spinlock exists on rt only
		cat >"$tmp/c1" <<'EOF'
sym orccrash_rdsem
sym orccrash_spin
sym orccrash_folio
rd orccrash_folio
struct spinlock orccrash_spin
quit
EOF
		timeout 300 crash -s -i "$tmp/c1" "$vml" "$core" </dev/null >"$out" 2>&1
		return
	fi
	if [ "$scen" = mod-deadlock ]; then
		# crash's echo is not ordered with the commands' output: each
		# owner after a marker of its own command's output (sym)
		cat >"$tmp/c1" <<'EOF'
sym orccrash_lock_a
sym orccrash_lock_b
sym orccrash_rwsem
struct mutex.owner orccrash_lock_a
struct mutex.owner orccrash_lock_b
struct rw_semaphore.owner orccrash_rwsem
quit
EOF
		timeout 300 crash -s -i "$tmp/c1" "$vml" "$core" </dev/null >"$tmp/c1.out" 2>&1
		# the three owners in the order asked
		awk 'BEGIN { split("orccrash_lock_a orccrash_lock_b orccrash_rwsem", n) }
		     /owner = \{/ { i++; printf "@OWNER %s\n", n[i] } { print }' "$tmp/c1.out" >"$out"
		return
	fi
	cat >"$tmp/c1" <<'EOF'
sym orccrash_mutex
sym orccrash_done
struct mutex.owner orccrash_mutex
struct mutex.wait_list -o orccrash_mutex
struct completion.wait -o orccrash_done
struct swait_queue_head -o

quit
EOF
	timeout 300 crash -s -i "$tmp/c1" "$vml" "$core" </dev/null >"$tmp/c1.out" 2>&1
	mhead=$(sed -n 's/^ *\[\([0-9a-f]*\)\] struct list_head wait_list;.*/\1/p' "$tmp/c1.out" | head -n 1)
	coff=$(sed -n 's/^ *\[\([0-9a-f]*\)\] struct swait_queue_head wait;.*/\1/p' "$tmp/c1.out" | head -n 1)
	woff=$(sed -n 's/^ *\[\([0-9]*\)\] struct list_head task_list;.*/\1/p' "$tmp/c1.out" | head -n 1)
	if [ -z "$mhead" ] || [ -z "$coff" ] || [ -z "$woff" ]; then
		cp "$tmp/c1.out" "$out"
		return
	fi
	chead=$(printf '%x' $((0x$coff + woff)))
	# the mutex's waiters with their ww_ctx too, to tell them apart
	# (crash's echo is not ordered with the lists' output)
	cat >"$tmp/c2" <<EOF
list -H $mhead -o mutex_waiter.list -s mutex_waiter.task,ww_ctx
list -H $chead -o swait_queue.task_list -s swait_queue.task
quit
EOF
	timeout 300 crash -s -i "$tmp/c2" "$vml" "$core" </dev/null >"$tmp/c2.out" 2>&1
	cat "$tmp/c1.out" "$tmp/c2.out" >"$out"
}

n=0
declare -A same
while IFS=$'\t' read -r rel scen fmt core vml _; do
	case $scen in mod-blocked | mod-deadlock | mod-locks) ;; *) continue ;; esac
	name="$rel $scen $fmt"
	if [ ! -r "$core" ] || [ ! -r "$vml" ]; then
		skip "$name: sample not in the cache"
		continue
	fi
	dir=$(dirname "$core")
	serial=$dir/serial.log
	co=
	if [ "$fmt" = elf ]; then
		crash_facts "$core" "$tmp/crash.out" "$vml" "$scen"
		if grep -q 'ww_ctx = \|@OWNER\|orccrash_folio \[' "$tmp/crash.out"; then
			co=$tmp/crash.out
		else
			skip "$name: crash cannot read it: $(grep -m1 -i 'crash:\|error' "$tmp/crash.out" | head -c 160)"
		fi
	fi
	for mode in vmlinux no-vmlinux; do
		if [ $mode = vmlinux ]; then
			args=(--modules-dir "$dir" "$core" "$vml")
			from=dwarf+waiter
		else
			args=(--no-vmlinux "$core")
			from=waiter
		fi
		"$bin" --json --state D "${args[@]}" >"$tmp/d.json" 2>"$tmp/err"
		rc=$?
		"$bin" --state D "${args[@]}" >"$tmp/d.txt" 2>/dev/null
		if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
			fail "$name $mode: orccrash exited $rc: $(head -c 300 "$tmp/err")"
			continue
		fi
		n=$((n + 1))
		"$py" "$top/tests/json/validate.py" --need-frames "chains $name $mode" "$tmp/d.json"
		# shellcheck disable=SC2086
		res=$("$py" "$here/chains.py" "$scen" "$tmp/d.json" "$tmp/d.txt" "$serial" "$from" $co)
		case $res in
		PASS*) pass "chains $name $mode: ${res#PASS }" ;;
		SKIP*) skip "chains $name $mode: ${res#SKIP }" ;;
		*) fail "chains $name $mode: ${res#FAIL }" ;;
		esac
		# --dot: Graphviz renders it; each waiter -> its lock -> the owner
		"$bin" --dot "${args[@]}" >"$tmp/d.dot" 2>/dev/null
		res=$("$py" - "$tmp/d.json" "$tmp/d.dot" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
dot = open(sys.argv[2]).read()
# the deadlock's tasks: their edges red, the others not
cyc = set()
for c in d["crash"]["chains"]:
    if c["deadlock"]:
        cyc |= set(c["pids"])
edges = set(re.findall(r"^  (\w+) -> (\w+) \[label=\"(waits for|held by)\"", dot, re.M))
red = set(re.findall(r"^  (\w+) -> (\w+) \[label=\"(?:waits for|held by)\", color=red", dot, re.M))
want_red = set()
want, n = set(), 0
for t in d["tasks"]:
    on = (t.get("blocked") or {}).get("on")
    if not on:
        continue
    n += 1
    lock = "l" + on["address"][2:]
    want.add(("t%d" % t["pid"], lock, "waits for"))
    if on["owner"] is not None:
        want.add((lock, "t%d" % on["owner"], "held by"))
        if t["pid"] in cyc and on["owner"] in cyc:
            want_red |= {("t%d" % t["pid"], lock), (lock, "t%d" % on["owner"])}
bad = []
if not dot.startswith("digraph waits {") or not n:
    bad.append("no graph or no waiter")
if edges != want:
    bad.append("edges %s, the report's %s" % (sorted(edges - want), sorted(want - edges)))
if red != want_red:
    bad.append("red edges %s, the deadlocks' %s" % (sorted(red), sorted(want_red)))
print("FAIL " + "; ".join(bad) if bad else "PASS %d edges for %d waiters, %d red (deadlock)" % (len(edges), n, len(red)))
EOF
)
		case $res in
		PASS*) pass "dot $name $mode: ${res#PASS }" ;;
		*) fail "dot $name $mode: ${res#FAIL }" ;;
		esac
		if $have_dot; then
			if dot -Tsvg "$tmp/d.dot" >"$tmp/d.svg" 2>"$tmp/dot.err" &&
			   grep -q '<svg' "$tmp/d.svg"; then
				pass "dot $name $mode: dot -Tsvg renders it"
			else
				fail "dot $name $mode: dot -Tsvg: $(head -c 300 "$tmp/dot.err")"
			fi
		fi
		# the same waits and chains in every format, with or without
		# the vmlinux (only "from" differs)
		key=$("$py" -c '
import json, sys
d = json.load(open(sys.argv[1]))
on = sorted((t["pid"], t["blocked"]["on"]["address"], t["blocked"]["on"]["owner"])
            for t in d["tasks"] if (t.get("blocked") or {}).get("on"))
print(json.dumps([on, d["crash"]["chains"]]))' "$tmp/d.json")
		if [ -z "${same[$rel/$scen]:-}" ]; then
			same[$rel/$scen]=$key
		elif [ "${same[$rel/$scen]}" != "$key" ]; then
			fail "chains $name $mode: waits or chains differ from the scenario's first dump"
		fi
	done
done <"$index"
[ $n -eq 0 ] && skip "chains: no mod-blocked dumps in $index"
[ "$nfail" -eq 0 ]
