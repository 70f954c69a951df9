#!/bin/bash
# The wait queues tasks sleep on (src/waits.c: the wait_queue_entry on the
# sleeping frame's stack, its ring, the head) and the `waitq` command:
#   tests/realdump/waitq.sh [BUILD_DIR]
# On the real kdump of every release: `waitq -p PID` for every task in S
# or D, then, held to drgn (tests/realdump/waitq_drgn.py: Debian 12's drgn,
# sid's where that cannot read the dump, tests/bench/sid-chroot.sh): the
# entry orccrash found is a wait_queue_entry drgn finds among the task's
# frames' local variables (DWARF) where drgn has one, the tasks `waitq`
# lists on the head are the privates drgn reads on its list, and where
# orccrash finds none, drgn finds no such local on a list either; and
# the report's WAITS ON with --blocked-states DS names the same queues.
# crash 8.0.2's own waitq prints nothing for a queue with waiters on these
# kernels, so it is no oracle here.  Prints PASS/FAIL/SKIP lines.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init waitq "${1:-build}"
tst_need_index
tst_need_exec "$bin" "run make"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
sid=${SID_CHROOT:-$top/tests/bench/sid-chroot.sh}

declare -A done_rel
while IFS=$'\t' read -r rel scen fmt core vml kaslr; do
	[ "$fmt" = kdump-real ] && [ -r "$core" ] || continue
	[ -z "${done_rel[$rel]:-}" ] || continue
	name="$rel/$scen/$fmt"
	: >"$tmp/ours"
	for pid in $("$bin" -e ps "$core" "$vml" 2>/dev/null |
		     awk 'NR > 1 && $1 != ">" && ($5 == "S" || $5 == "D") { print $1 }'); do
		if "$bin" --json -e "waitq -p $pid" "$core" "$vml" >"$tmp/one" 2>/dev/null; then
			"$py" -c 'import json, sys
r = json.load(open(sys.argv[1]))["result"]
print(sys.argv[2], r["address"], " ".join("%s:%s" % (t["task"], t["entry"]) for t in r["tasks"]))' \
			"$tmp/one" "$pid" >>"$tmp/ours"
		else
			echo "$pid 0x0" >>"$tmp/ours"	# none found: drgn must find none either
		fi
	done
	if ! awk '$2 != "0x0" { f = 1 } END { exit !f }' "$tmp/ours"; then
		fail "$name: waitq -p found the wait queue of no task in S or D"
		continue
	fi
	args=$(awk '{ printf "%s:%s ", $1, $2 }' "$tmp/ours")
	# shellcheck disable=SC2086
	if ! drgn -q -c "$core" -s "$vml" "$here/waitq_drgn.py" $args >"$tmp/drgn" 2>"$tmp/drgn.err" ||
	   [ ! -s "$tmp/drgn" ]; then
		if "$sid" root >/dev/null 2>&1; then
			# shellcheck disable=SC2086
			"$sid" run drgn -q -c "$core" -s "$vml" "$here/waitq_drgn.py" $args \
				>"$tmp/drgn" 2>"$tmp/drgn.err" || : >"$tmp/drgn"
		fi
	fi
	if [ ! -s "$tmp/drgn" ]; then
		skip "$name: neither Debian 12's nor sid's drgn reads the dump: $(tail -n 1 "$tmp/drgn.err" | head -c 200)"
		continue
	fi
	done_rel[$rel]=1	# one real kdump of each release that drgn reads
	PYTHONPATH=$top/tests "$py" - "$name" "$tmp/ours" "$tmp/drgn" <<'PY'
import json, sys
from tstlib import verdict
name, ours_path, drgn_path = sys.argv[1:4]
drgn = json.loads(open(drgn_path).read().strip().splitlines()[-1])
fails, confirmed, n = [], 0, 0
for line in open(ours_path):
    f = line.split()
    pid, head, tasks = f[0], f[1], [t.split(":") for t in f[2:]]
    d = drgn.get(pid)
    if d is None:
        fails.append("pid %s: drgn has no answer" % pid)
        continue
    if int(head, 16) == 0:
        if d["entries"]:
            fails.append("pid %s: orccrash finds no wait queue, drgn's locals have %s on one"
                         % (pid, [hex(x) for x in d["entries"]]))
        continue
    n += 1
    ours_tasks = [int(t, 16) for t, _ in tasks]
    if ours_tasks != d["privates"]:
        fails.append("pid %s: the queue at %s: ours %s, drgn %s" %
                     (pid, head, [hex(x) for x in ours_tasks], [hex(x) for x in d["privates"]]))
    if d["entries"]:
        mine = [int(e, 16) for t, e in tasks]
        if not set(mine) & set(d["entries"]):
            fails.append("pid %s: its entry is none of drgn's locals %s" % (pid, [hex(x) for x in d["entries"]]))
        else:
            confirmed += 1
if not confirmed:
    fails.append("no entry confirmed by drgn's locals")
verdict(name, "waitq -p", fails, "waitq -p of %d tasks, their queues' lists as drgn reads them, "
        "%d entries drgn's locals" % (n, confirmed))
PY
	# the report's WAITS ON of tasks in S (--blocked-states DS) is the
	# same search: the queue of each task is the one waitq -p found
	# (held to drgn above), none where it found none; without the option
	# no task in S has "blocked"
	rc=0
	"$bin" --json --all-tasks --blocked-states DS "$core" "$vml" >"$tmp/ds.json" 2>"$tmp/ds.err" || rc=$?
	"$bin" --json --all-tasks "$core" "$vml" >"$tmp/d.json" 2>/dev/null || [ $? -eq 3 ] || rc=1
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		fail "$name: --blocked-states DS: orccrash exited $rc: $(head -c 200 "$tmp/ds.err")"
		continue
	fi
	PYTHONPATH=$top/tests "$py" - "$name" "$tmp/ours" "$tmp/ds.json" "$tmp/d.json" <<'PY'
import json, sys
from tstlib import verdict
name, ours_path, ds_path, d_path = sys.argv[1:5]
try:
    ds = {t["pid"]: t for t in json.load(open(ds_path))["tasks"]}
    d = {t["pid"]: t for t in json.load(open(d_path))["tasks"]}
except (ValueError, KeyError, TypeError) as e:
    print("FAIL %s: --blocked-states DS: the JSON reports do not load: %s" % (name, e))
    sys.exit(0)
fails, n, queues = [], 0, 0
for line in open(ours_path):
    f = line.split()
    pid, head = int(f[0]), int(f[1], 16)
    t = ds.get(pid)
    if t is None or t["state"] not in ("S", "D"):
        continue        # gone from the list, or a state -e ps read otherwise
    n += 1
    b = t.get("blocked")
    on = b and b["on"]
    if t["state"] == "S" and (b is None or b["seconds"] is None):
        fails.append("pid %d (S): no blocked, or no time off the CPU" % pid)
    if head:
        queues += 1
        if not on or on["kind"] not in ("waitqueue", "folio") or \
           int(on["queue"], 16) != head:
            fails.append("pid %d: waitq -p 0x%x, the report %s" % (pid, head, on))
    elif on and on["kind"] in ("waitqueue", "folio"):
        fails.append("pid %d: waitq -p finds no queue, the report %s" % (pid, on))
    if t["state"] == "S" and d.get(pid, {}).get("blocked") is not None:
        fails.append("pid %d (S): blocked without --blocked-states" % pid)
if not queues:
    fails.append("no task in S or D on a wait queue")
verdict(name, "--blocked-states DS", fails, "--blocked-states DS: the WAITS ON of %d tasks in S or D "
        "are waitq -p's (%d queues)" % (n, queues))
PY
done <"$index"
[ ${#done_rel[@]} -gt 0 ] || skip "waitq: no real kdump in $index that drgn reads"

# the errors, on the default sample
core=$top/samples/default/vmcore
tst_one_line_error "waitq -p of a running task" "waitq: pid 1 sleeps on no wait queue" \
	"$bin" -e "waitq -p 1" "$core"
tst_one_line_error "waitq of no symbol" "waitq: no symbol no_such_queue" \
	"$bin" -e "waitq no_such_queue" "$core"
"$bin" -e "waitq khugepaged_wait" "$core" >"$tmp/out" 2>&1
if grep -q '^wait queue "khugepaged_wait" ([0-9a-f]*) is empty$' "$tmp/out"; then
	pass "waitq khugepaged_wait: empty, as crash says it"
else
	fail "waitq khugepaged_wait: $(head -c 200 "$tmp/out")"
fi
[ "$nfail" -eq 0 ]
