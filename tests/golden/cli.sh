#!/bin/bash
# The command line on the committed default sample (no vmlinux needed):
# usage errors (exit 2, what was wrong, one usage line), crash's argument
# order (VMLINUX VMCORE) taken for VMCORE VMLINUX, and the bash
# completion (completion/orccrash) driven as bash would.  PASS/FAIL/SKIP
# lines, then "N passed, N failed".
#   tests/golden/cli.sh [BUILD_DIR]
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init cli "${1:-build}"
ob=$O
cd "$top" || exit 1
dump=samples/default/vmcore
passed=0 failed=0
pass() { echo "PASS cli $*"; passed=$((passed + 1)); }
fail() { echo "FAIL cli $*"; failed=$((failed + 1)); }
check() {	# check NAME COMMAND...: pass if it succeeds
	local name=$1; shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

# --- usage errors: exit 2, a line saying what, one usage line ---------------
usage_line="usage: orccrash [OPTIONS] [VMCORE [VMLINUX]] (try 'orccrash --help')"
usage_case() {	# usage_case NAME WANT_FIRST_LINE_REGEX ARGS...
	local name=$1 want=$2; shift 2
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	local rc=$? n
	n=$(wc -l <"$tmp/err")
	if [ "$rc" -ne 2 ]; then
		fail "usage $name: exit $rc, not 2 ($(head -c 200 "$tmp/err"))"
	elif [ -s "$tmp/out" ]; then
		fail "usage $name: wrote to stdout"
	elif [ "$n" -ne 2 ] || ! head -n 1 "$tmp/err" | grep -Eq "$want" ||
	     [ "$(tail -n 1 "$tmp/err")" != "$usage_line" ]; then
		fail "usage $name: stderr is not the error and the usage line:"
		sed 's/^/  /' "$tmp/err" | head -n 5
	else
		pass "usage $name: exit 2, $(head -n 1 "$tmp/err")"
	fi
}
usage_case "unknown option" "unrecognized option '--no-such-option'" --no-such-option "$dump"
usage_case "missing argument" "requires an argument -- 'pid'|option '--pid' requires an argument" "$dump" --pid
usage_case "bad pid" "^orccrash: bad pid: x$" --pid x "$dump"
usage_case "bad state" "^orccrash: bad state Q" --state Q "$dump"
usage_case "bad --blocked-states" "^orccrash: --blocked-states takes D or DS$" --blocked-states S "$dump"
usage_case "--triage with --blocked-states" "^orccrash: --triage takes no other options" --triage --blocked-states DS "$dump"
usage_case "-e with --blocked-states" "^orccrash: -e and --shell take no report options" -e ps --blocked-states DS "$dump"
usage_case "too many files" "^orccrash: too many arguments: c$" a b c
usage_case "--triage without a dump" "^orccrash: --triage needs at least one DUMP$" --triage
usage_case "--triage with a report option" "^orccrash: --triage takes no other options" --triage --json "$dump"
usage_case "--dot with a selection" "^orccrash: --dot takes no report options" --dot --all-tasks "$dump"

"$bin" --help >"$tmp/help" 2>"$tmp/err"
rc=$?
check "--help: exit 0, the options on stdout ($(grep -c -- '--' "$tmp/help") lines), nothing on stderr" \
	test "$rc" -eq 0 -a ! -s "$tmp/err" -a "$(grep -c -- '--all-tasks' "$tmp/help")" -ge 1
"$bin" orc-dump >/dev/null 2>"$tmp/err"
rc=$?
check "orc-dump without FILE: exit 2 and a usage line" \
	test "$rc" -eq 2 -a "$(tail -n 1 "$tmp/err")" = "usage: orccrash orc-dump FILE (try 'orccrash --help')"

# --- crash's argument order ---------------------------------------------------
# A stand-in vmlinux: an x86-64 ELF executable header, nothing else (what
# the order is told by); opening it as the vmlinux then fails, naming it.
python3 - "$tmp/vmlinux" <<'EOF'
import struct, sys
eh = b"\x7fELF\x02\x01\x01" + b"\0" * 9 + struct.pack("<HHIQQQIHHHHHH",
     2, 62, 1, 0xffffffff81000000, 64, 0, 0, 64, 56, 0, 64, 0, 0)
open(sys.argv[1], "wb").write(eh)
EOF
"$bin" --active "$dump" "$tmp/vmlinux" >"$tmp/a.out" 2>"$tmp/a.err"
rca=$?
"$bin" --active "$tmp/vmlinux" "$dump" >"$tmp/b.out" 2>"$tmp/b.err"
rcb=$?
if [ "$rca" -eq 1 ] && [ "$rcb" -eq 1 ] && cmp -s "$tmp/a.err" "$tmp/b.err" &&
   grep -q "^orccrash: $tmp/vmlinux: " "$tmp/b.err"; then
	pass "VMLINUX VMCORE: read as VMCORE VMLINUX (the same error, naming the vmlinux: $(head -c 100 "$tmp/b.err"))"
else
	fail "VMLINUX VMCORE: exit $rcb, not read as VMCORE VMLINUX (exit $rca):"
	sed 's/^/  /' "$tmp/a.err" "$tmp/b.err" | head -n 6
fi
"$bin" --active "$dump" >"$tmp/ref.out" 2>&1
rcr=$?
"$bin" --active --no-vmlinux "$tmp/vmlinux" "$dump" >"$tmp/c.out" 2>&1
rcc=$?
if [ "$rcc" -eq "$rcr" ] && cmp -s "$tmp/ref.out" "$tmp/c.out"; then
	pass "--no-vmlinux VMLINUX VMCORE: the dump's report, as with VMCORE alone (exit $rcc)"
else
	fail "--no-vmlinux VMLINUX VMCORE: exit $rcc, not the report of VMCORE alone (exit $rcr)"
	diff "$tmp/ref.out" "$tmp/c.out" | head -n 5 | sed 's/^/  /'
fi
usage_case "a vmlinux alone" "is a kernel \(ELF executable\), not a dump" --active "$tmp/vmlinux"
# two dumps, or a dump and anything else: the order as given
"$bin" --active "$tmp/help" "$dump" >/dev/null 2>"$tmp/d.err"
rcd=$?
check "FILE VMCORE, FILE not a kernel: the order as given (exit $rcd: $(head -c 100 "$tmp/d.err"))" \
	grep -q "^orccrash: $tmp/help: " "$tmp/d.err"

# --- the selection: several --pid, --comm, unknown ones ------------------------
# The oracle is the --all-tasks JSON report: its tasks' pids and comms
# (Python's fnmatch for --comm's glob, the same rules as fnmatch(3) for
# these patterns).
"$bin" --json --all-tasks "$dump" >"$tmp/all.json" 2>/dev/null
order() {	# order ARGS...: the pids of the text report's task part, one line
	"$bin" --no-regs "$@" "$dump" 2>/dev/null |
		sed -n '/^Tasks:/,$ s/^PID: *\([0-9]*\) .*/\1/p' | tr '\n' ' '
}
jorder() {	# jorder ARGS...: the pids of the JSON report's tasks, one line
	"$bin" --json "$@" "$dump" 2>/dev/null |
		python3 -c 'import json,sys; print(" ".join(str(t["pid"]) for t in json.load(sys.stdin)["tasks"]), end=" ")' 2>/dev/null
}
ddpid=$(python3 -c 'import json,sys; print([t["pid"] for t in json.load(open(sys.argv[1]))["tasks"] if t["comm"] == "dd"][0])' "$tmp/all.json")
got=$(order --pid "$ddpid" --pid 1)
check "--pid $ddpid --pid 1: both tasks, in the order given ($got)" test "$got" = "$ddpid 1 "
got=$(jorder --pid "$ddpid" --pid 1 --pid "$ddpid")
check "--json --pid $ddpid --pid 1 --pid $ddpid: each task once, in the order given ($got)" \
	test "$got" = "$ddpid 1 "
want=$(python3 -c '
import fnmatch, json, sys
tasks = json.load(open(sys.argv[1]))["tasks"]
pids = [t["pid"] for t in tasks if fnmatch.fnmatchcase(t["comm"], "kworker/*")]
pids += [t["pid"] for t in tasks if t["comm"] == "init" and t["pid"] not in pids]
print(" ".join(map(str, pids)), end=" ")' "$tmp/all.json")
got=$(order --comm 'kworker/*' --comm init)
check "--comm 'kworker/*' --comm init: the $(echo "$want" | wc -w) tasks whose comm matches, pattern by pattern ($got)" \
	test -n "$got" -a "$got" = "$want" -a "$(echo "$got" | wc -w)" -ge 3
got=$(jorder --comm 'kworker/*' --comm init)
check "--json --comm 'kworker/*' --comm init: the same tasks in the same order" test "$got" = "$want"
got=$(order --comm init --pid 2 --comm 'kthr?add')
check "--comm init --pid 2 --comm 'kthr?add': init, then pid 2 once ($got)" test "$got" = "1 2 "
got=$(order --comm 'k*' --state I)
want=$(python3 -c '
import fnmatch, json, sys
print(" ".join(str(t["pid"]) for t in json.load(open(sys.argv[1]))["tasks"]
               if fnmatch.fnmatchcase(t["comm"], "k*") and t["state"] == "I"), end=" ")' "$tmp/all.json")
check "--comm 'k*' --state I: the k* tasks in state I only ($got)" test -n "$want" -a "$got" = "$want"
# the CPUs part: those running a selected task
got=$("$bin" --no-regs --pid "$ddpid" "$dump" 2>/dev/null | grep -c '^CPU ')
check "--pid $ddpid (running): its CPU and no other ($got CPU part)" test "$got" -eq 1

notfound() {	# notfound NAME WANT_LINE ARGS...: exit 1, nothing on stdout, one line
	local name=$1 want=$2; shift 2
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	local rc=$?
	if [ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "$want" ]; then
		pass "$name: exit 1, $want"
	else
		fail "$name: exit $rc, $(wc -c <"$tmp/out") bytes on stdout, stderr: $(head -c 300 "$tmp/err")"
	fi
}
notfound "--pid 99999" "orccrash: $dump: no task with pid 99999" --pid 99999 "$dump"
notfound "--pid 1 --pid 99999" "orccrash: $dump: no task with pid 99999" --pid 1 --pid 99999 "$dump"
notfound "--json --pid 99999" "orccrash: $dump: no task with pid 99999" --json --pid 99999 "$dump"
notfound "--comm 'nosuch*'" "orccrash: $dump: no task whose comm matches 'nosuch*'" --comm 'nosuch*' "$dump"
notfound "--comm with a control character" "orccrash: $dump: no task whose comm matches 'a\\x1bb'" --comm $'a\eb' "$dump"
notfound "--cpu 2 (of 2)" "orccrash: $dump: no CPU 2 (the dump has 2: 0-1)" --cpu 2 "$dump"
notfound "--json --all-tasks --cpu 7" "orccrash: $dump: no CPU 7 (the dump has 2: 0-1)" --json --all-tasks --cpu 7 "$dump"
notfound "--folded --pid 99999" \
	"orccrash: $dump: no task with pid 99999" --folded --pid 99999 "$dump"
# a state no task is in is an answer, not an error: the sample has no D task
"$bin" --state D "$dump" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--state D (no such task on the sample): exit $rc, an empty task part" \
	eval '[ "$rc" -eq 0 ] && grep -q "^Summary: 0 tasks" "$tmp/out"'

# --- --log, --no-header ---------------------------------------------------------
"$bin" --log "$dump" >"$tmp/log" 2>"$tmp/err"
rc=$?
"$bin" --active --log "$dump" >"$tmp/alog" 2>/dev/null
sed -n '/^Kernel log:$/,/^$/p' "$tmp/alog" | sed '1d;$d' >"$tmp/alog.part"
check "--log alone: exit $rc, only the kernel log ($(wc -l <"$tmp/log") lines, those of --active --log's 'Kernel log:'), no header, no trace" \
	eval '[ "$rc" -eq 0 ] && [ -s "$tmp/log" ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/log" "$tmp/alog.part" &&
	      ! grep -Eq "^ +(DUMP|RELEASE):|^CPU [0-9]|^Tasks:" "$tmp/log" && grep -q "^\[" "$tmp/log"'
BIN=$bin DUMP=$dump python3 - "$tmp/all.json" "$tmp/log" <<'PY' >"$tmp/logcheck" 2>&1
import json, subprocess, sys
# every record of the JSON log, in order, is a line of the text log
import os
doc = json.loads(subprocess.run([os.environ["BIN"], "--json", "--log", os.environ["DUMP"]],
                                capture_output=True, text=True).stdout)
text = open(sys.argv[2], encoding="utf-8", errors="replace").read()
pos = 0
for r in doc["log"]:
    first = r["text"].split("\n")[0]
    i = text.find(first, pos)
    if i < 0:
        print("record not found in order: %r" % first[:80]); sys.exit(1)
    pos = i + len(first)
print("%d records" % len(doc["log"]))
PY
rc=$?
check "--log alone: the JSON log's records, in order ($(cat "$tmp/logcheck"))" test "$rc" -eq 0
"$bin" --all-tasks "$dump" >"$tmp/full" 2>&1
rcf=$?
"$bin" --all-tasks --no-header "$dump" >"$tmp/nohdr" 2>"$tmp/nohdr.err"
rcn=$?
# the header: everything before the first CPU part
sed -n '/^CPU [0-9]/,$p' "$tmp/full" >"$tmp/full.body"
sed -n '/^CPU [0-9]/,$p' "$tmp/nohdr" >"$tmp/nohdr.body"
check "--no-header: the report without its header, from its first line on (exit $rcn as $rcf, the same traces)" \
	eval '[ "$rcn" -eq "$rcf" ] && [ -s "$tmp/nohdr.body" ] && cmp -s "$tmp/full.body" "$tmp/nohdr.body" &&
	      head -n 1 "$tmp/nohdr" | grep -q "^CPU 0" && [ ! -s "$tmp/nohdr.err" ]'

# --- --group --json ------------------------------------------------------------
# Each group against the ungrouped report (tests/json/groups.py): its count
# and pids are the tasks (in order) whose frames are the group's; the
# groups are distinct; and the text --group shows the same counts.
"$bin" --json --group --state S "$dump" >"$tmp/group.json" 2>/dev/null
rcg=$?
"$bin" --json --state S "$dump" >"$tmp/nogroup.json" 2>/dev/null
"$bin" --group --state S "$dump" >"$tmp/group.txt" 2>/dev/null
if python3 "$top/tests/json/groups.py" "--state S" "$tmp/group.json" "$tmp/nogroup.json" \
	"$tmp/group.txt" >"$tmp/gcheck" 2>&1; then
	pass "--json --group (exit $rcg): $(cat "$tmp/gcheck")"
else
	fail "--json --group (exit $rcg): $(tail -n 3 "$tmp/gcheck")"
fi
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$bin" --json --group --all-tasks --scan "$dump" >"$tmp/group-all.json" 2>/dev/null
"$bin" --json --group --active "$dump" >"$tmp/group-active.json" 2>/dev/null
"$bin" --json --pid "$ddpid" --pid 1 --comm 'k*' "$dump" >"$tmp/pids.json" 2>/dev/null
if "$py" "$top/tests/json/validate.py" "cli --json --group, --pid/--comm" "$tmp/group.json" \
	"$tmp/group-all.json" "$tmp/group-active.json" "$tmp/pids.json" >"$tmp/v" 2>&1; then
	pass "$(grep -c '^PASS' "$tmp/v") --group and --pid/--comm JSON documents validate against docs/json-schema.json"
else
	fail "--group JSON against docs/json-schema.json:"
	sed 's/^/  /' "$tmp/v" | head -n 12
fi

# --- the manual page ------------------------------------------------------------
# Its jq examples, run on the sample's report (--state S: the sample has
# no D task); its browser keys, those of ui/keys.h.
if ! command -v jq >/dev/null 2>&1; then
	echo "SKIP cli man page examples: no jq (apt-get install jq)"
else
	python3 - "$top/docs/orccrash.1" >"$tmp/jq-progs" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for block in re.findall(r"^\.nf\n(.*?)^\.fi", text, re.M | re.S):
    block = block.replace("\\-", "-").replace("\\e", "\\")
    m = re.search(r"^orccrash (.*?) \|\n\s*jq -r '(.*)'\s*$", block, re.M | re.S)
    if m:
        print(m.group(1) + "\t" + m.group(2).replace("\n", " "))
PY
	njq=0
	while IFS=$'\t' read -r args prog; do
		njq=$((njq + 1))
		args=${args/--state D/--state S}
		args=${args% vmcore vmlinux}
		# shellcheck disable=SC2086
		"$bin" $args "$dump" 2>/dev/null | jq -r "$prog" >"$tmp/jq.out" 2>"$tmp/jq.err"
		rc=${PIPESTATUS[1]}
		if [ "$rc" -eq 0 ] && [ -s "$tmp/jq.out" ]; then
			pass "man page jq example $njq (orccrash $args): $(wc -l <"$tmp/jq.out") lines, e.g. $(head -n 1 "$tmp/jq.out" | cut -c1-80)"
		else
			fail "man page jq example $njq (orccrash $args | jq -r '$prog'): exit $rc, $(head -c 200 "$tmp/jq.err")"
		fi
	done <"$tmp/jq-progs"
	check "man page: $njq jq examples found" test "$njq" -ge 2
fi
# every printable key of ui/keys.h's request list (OC_UI_REQUESTS) is in
# BROWSER KEYS as a .B/.BR word
keys=$(sed -n '/^#define OC_UI_REQUESTS/,/^[^\\]*$/p' "$top/ui/keys.h" |
	grep -o "'[^'\\]'" | tr -d "'" | grep -v '^ $' | tr -d '\n')
sed -n '/^\.SH BROWSER KEYS/,/^\.SH EXAMPLES/p' "$top/docs/orccrash.1" |
	grep -E '^\.BR? ' | sed -E 's/^\.BR? //; s/"//g; s/\\//g' | tr ' ' '\n' >"$tmp/manwords"
missing=
for ((i = 0; i < ${#keys}; i++)); do
	grep -qxF -- "${keys:i:1}" "$tmp/manwords" || missing="$missing ${keys:i:1}"
done
check "man page BROWSER KEYS: the ${#keys} character keys of ui/keys.h (${keys})${missing:+, missing:$missing}" \
	test -z "$missing" -a "${#keys}" -ge 15

# --- bash completion ----------------------------------------------------------
bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
	echo "SKIP cli completion: no $bc (apt-get install bash-completion)"
else
	# complete WORD...: the words of the command line, the last being
	# completed; COMPREPLY one per line, with $ob first on PATH
	complete_words() {
		# (a loaded machine must not turn the 3 s budget into a FAIL)
		PATH=$ob:$PATH ORCCRASH_COMPLETION_TIMEOUT=120 bash -c '
			source "$0"; source "$1"; shift
			COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
			_orccrash "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
			printf "%s\n" "${COMPREPLY[@]}"' "$bc" "$top/completion/orccrash" "$@" 2>&1
	}
	has() {	# has FILE WORD...: every WORD is a line of FILE
		local w
		for w in "${@:2}"; do grep -qxF -- "$w" "$1" || return 1; done
	}
	complete_words orccrash -- >"$tmp/c1"
	mapfile -t longopts < <(grep -oE -- '--[a-z][a-z-]+' "$tmp/help" | sort -u)
	check "completion: orccrash --<TAB> offers the ${#longopts[@]} long options of --help" \
		has "$tmp/c1" "${longopts[@]}"
	complete_words orccrash --sta >"$tmp/c2"
	check "completion: --sta<TAB> is --state" test "$(cat "$tmp/c2")" = --state
	complete_words orccrash --state '' >"$tmp/c3"
	check "completion: --state <TAB> offers the state letters" \
		test "$(tr '\n' ' ' <"$tmp/c3")" = "R S D T t X Z P I "
	# the sample's tasks (samples/default/kernel.txt: init is pid 1,
	# dd runs on a CPU)
	complete_words orccrash "$dump" --pid '' >"$tmp/c4"
	"$bin" --json --all-tasks "$dump" 2>/dev/null | python3 -c '
import json, sys
tasks = json.load(sys.stdin)["tasks"]
print("\n".join(str(p) for p in sorted({t["pid"] for t in tasks})))
print([t["pid"] for t in tasks if t["comm"] == "dd"][0], file=sys.stderr)' >"$tmp/pids" 2>"$tmp/ddpid"
	check "completion: --pid <TAB> on the sample offers the $(grep -c . "$tmp/pids") pids of its tasks (1 and dd's $(cat "$tmp/ddpid") among them)" \
		eval 'cmp -s "$tmp/c4" "$tmp/pids" && has "$tmp/c4" 1 "$(cat "$tmp/ddpid")"'
	complete_words orccrash --pid '' >"$tmp/c5"
	check "completion: --pid <TAB> with no dump named completes from the default sample" \
		cmp -s "$tmp/c4" "$tmp/c5"
	complete_words orccrash "$dump" --comm k >"$tmp/c6"
	only_k() { ! grep -qv '^k' "$1"; }
	check "completion: --comm k<TAB> offers the sample's kthreadd and kswapd0, and no name without k" \
		eval 'has "$tmp/c6" kthreadd kswapd0 && only_k "$tmp/c6"'
	complete_words orccrash "$dump" --cpu '' >"$tmp/c7"
	check "completion: --cpu <TAB> offers the sample's 2 CPUs" \
		test "$(tr '\n' ' ' <"$tmp/c7")" = "0 1 "
	complete_words orccrash orc-d >"$tmp/c8"
	check "completion: orc-d<TAB> is the orc-dump subcommand" grep -qx orc-dump "$tmp/c8"
	complete_words orccrash orc-dump samples/defaul >"$tmp/c9"
	check "completion: orc-dump FILE<TAB> completes files" grep -qx samples/default "$tmp/c9"
	complete_words orccrash --modules-dir samples/defaul >"$tmp/c10"
	check "completion: --modules-dir <TAB> completes directories" grep -qx samples/default "$tmp/c10"
	complete_words orccrash --json samples/default/vm >"$tmp/c11"
	check "completion: a VMCORE completes files" grep -qx samples/default/vmcore "$tmp/c11"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
