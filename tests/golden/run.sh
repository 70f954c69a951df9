#!/bin/bash
# Golden-output tests: the text report on the committed default sample
# (samples/default/vmcore, read with no vmlinux) must not change without
# a reason; every JSON report must validate against docs/json-schema.json.
#   tests/golden/run.sh [BUILD_DIR]            compare
#   tests/golden/run.sh [BUILD_DIR] --update   rewrite the golden files
set -u
O=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
case $O in /*) bin=$O/orccrash ;; *) bin=$top/$O/orccrash ;; esac
cd "$top" || exit 1
dump=samples/default/vmcore
if [ ! -r "$dump" ]; then
	echo "FAIL golden: $dump is missing (it is committed: git checkout it)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name, then orccrash's arguments
cases=(
	"all-tasks|--all-tasks $dump"
	"active-scan|--active --scan $dump"
	"group-sleeping|--group --state S $dump"
	"pid-1|--pid 1 --no-regs $dump"
	"uninterruptible|--state D $dump"
	"running|--state R --json $dump"
)
for c in "${cases[@]}"; do
	name=${c%%|*}
	args=${c#*|}
	# shellcheck disable=SC2086
	"$bin" $args >"$tmp/$name.txt" 2>&1
	rc=$?
	echo "exit $rc" >>"$tmp/$name.txt"
	if [ "${2:-}" = --update ]; then
		cp "$tmp/$name.txt" "$here/$name.txt"
		echo "PASS golden $name: updated"
	elif diff -u "$here/$name.txt" "$tmp/$name.txt" >"$tmp/diff"; then
		echo "PASS golden $name: orccrash $args"
	else
		echo "FAIL golden $name: output differs from tests/golden/$name.txt"
		head -n 30 "$tmp/diff" | sed 's/^/  /'
	fi
done

# Every JSON report against the schema (docs/json-schema.json), with
# Debian's python3-jsonschema.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
jsons=()
for args in "--all-tasks --log" "--all-tasks --scan --no-regs" "--active" "--pid 1" \
	    "--cpu 1" "--state S --group" "--state D"; do
	f=$tmp/json-$(echo "$args" | tr -cd 'a-zA-Z0-9-').json
	# shellcheck disable=SC2086
	"$bin" --json $args "$dump" >"$f" 2>/dev/null
	jsons+=("$f")
done
"$py" "$top/tests/json/validate.py" --need-frames "golden --json --all-tasks --log" "${jsons[0]}"
"$py" "$top/tests/json/validate.py" "golden --json selections" "${jsons[@]:1}"

# The default sample against the kernel's own traces of the same crash
# (samples/default/kernel.txt, parsed from its serial console).
"$bin" --json --all-tasks --scan "$dump" >"$tmp/scan.json"
python3 "$top/tests/realdump/compare.py" "$tmp/scan.json" samples/default/kernel.txt |
	sed -E 's#^(PASS|FAIL|SKIP) #\1 default sample: #'
