#!/bin/bash
# orccrash --triage DUMP... (JSON Lines, docs/json.md) over every sample
# dump, the committed default sample and a missing file:
#   tests/realdump/triage_lines.sh [BUILD_DIR]
#  - one line per dump, in argument order, each valid JSON against
#    docs/json-schema.json's triageLine (tests/json/triage_lines.py);
#  - exit 1 with the missing file (its line has the one-line error), 0 or
#    3 without;
#  - the lines read in parallel are the lines of each dump read alone;
#  - on the mod-blocked dumps, the blocked counts and the wait chains are
#    the dump-only JSON report's (orccrash --json --state D --no-vmlinux),
#    the crash summary's kind and signature too.
# Prints PASS/FAIL/SKIP lines; exits 1 if anything failed.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init triage_lines "${1:-build}"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
tst_need_exec "$bin" "run make"

dumps=()
if [ -s "$index" ]; then
	while IFS=$'\t' read -r _ _ _ core _ _; do
		[ -r "$core" ] && dumps+=("$core")
	done <"$index"
else
	skip "triage_lines: no sample dumps ($index): the default sample only"
fi
dumps+=("$top/samples/default/vmcore")

"$bin" --triage "${dumps[@]}" "$tmp/missing" >"$tmp/all.jsonl" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ]; then
	pass "triage_lines: exit 1 with a missing dump"
else
	fail "triage_lines: exit $rc with a missing dump: $(head -c 300 "$tmp/err")"
fi
"$py" "$top/tests/json/triage_lines.py" "${#dumps[@]} dumps and a missing one" \
	"$tmp/all.jsonl" "${dumps[@]}" "$tmp/missing" || nfail=$((nfail + 1))
if tail -n 1 "$tmp/all.jsonl" | grep -q '"error":".*missing: cannot open'; then
	pass "triage_lines: the missing dump's line says why"
else
	fail "triage_lines: the missing dump's line: $(tail -n 1 "$tmp/all.jsonl")"
fi

# in parallel as read alone, one by one
: >"$tmp/one.jsonl"
for d in "${dumps[@]}"; do
	"$bin" --triage "$d" >>"$tmp/one.jsonl" 2>/dev/null
	r=$?
	[ $r -eq 0 ] || [ $r -eq 3 ] || fail "triage_lines: $d alone: exit $r"
done
if head -n "${#dumps[@]}" "$tmp/all.jsonl" | cmp -s - "$tmp/one.jsonl"; then
	pass "triage_lines: ${#dumps[@]} dumps in parallel give the lines of each read alone"
else
	fail "triage_lines: the parallel lines differ from the dumps read alone"
fi
"$bin" --triage "${dumps[@]}" >/dev/null 2>&1
r=$?
if [ $r -eq 0 ] || [ $r -eq 3 ]; then
	pass "triage_lines: exit $r without the missing dump"
else
	fail "triage_lines: exit $r without the missing dump"
fi

# mod-blocked: the counts and chains of the report
i=0
for d in "${dumps[@]}"; do
	i=$((i + 1))
	case $d in */mod-blocked/*) ;; *) continue ;; esac
	sed -n "${i}p" "$tmp/all.jsonl" >"$tmp/line.json"
	"$bin" --json --state D --no-vmlinux "$d" >"$tmp/rep.json" 2>/dev/null
	res=$("$py" - "$tmp/line.json" "$tmp/rep.json" <<'EOF'
import json, sys
l = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))
bad = []
d = [t for t in r["tasks"] if t["state"] == "D"]
known = [t for t in d if (t.get("blocked") or {}).get("on")]
if l["blocked"]["count"] != len(d):
    bad.append("count %d, the report has %d D tasks" % (l["blocked"]["count"], len(d)))
if l["blocked"]["waiting_on_known"] != len(known):
    bad.append("waiting_on_known %d, the report %d" % (l["blocked"]["waiting_on_known"], len(known)))
if l["chains_total"] != len(r["crash"]["chains"]) or l["crash"]["chains"] != r["crash"]["chains"][:5]:
    bad.append("chains differ from the report's")
if not l["crash"]["chains"]:
    bad.append("no chains")
for k in ("kind", "signature", "title"):
    if l["crash"][k] != r["crash"][k]:
        bad.append("%s %r, the report's %r" % (k, l["crash"][k], r["crash"][k]))
secs = [t["blocked"]["seconds"] for t in d if t.get("blocked") and t["blocked"]["seconds"] is not None]
if secs and l["blocked"]["longest_seconds"] != max(secs):
    bad.append("longest %s, the report's %s" % (l["blocked"]["longest_seconds"], max(secs)))
print("FAIL " + "; ".join(bad) if bad else
      "PASS %d D tasks, %d waiting on a known lock, %d chains: the report's" % (len(d), len(known), l["chains_total"]))
EOF
)
	case $res in
	PASS*) pass "triage_lines $d: ${res#PASS }" ;;
	*) fail "triage_lines $d: ${res#FAIL }" ;;
	esac
done
[ "$nfail" -eq 0 ]
