#!/bin/bash
# Real-dump checks of parameters and locals (orccrash --locals,
# src/framevars.c):
#   tests/realdump/locals.sh [BUILD_DIR]
# For every release in ${ORCCRASH_CACHE:-~/.cache/orccrash}/dumps/index.tsv:
#  - the kdump-real dump (the one drgn 0.0.22 reads; it cannot translate
#    addresses in the QEMU ELF dumps nor open the makedumpfile-converted
#    ones): every value we show that drgn has present is drgn's value, every
#    object we place in memory is at drgn's address (locals.py drgn);
#  - every scenario: a sleeping task's __schedule / context_switch `prev`,
#    when we give it, is the task itself (locals.py prev); no variable says
#    "bad DWARF" or "bad location expression"; the text report with
#    --locals is the report without it plus variable lines; with --group
#    the shared stacks have no variables, in text and in JSON
#    (tests/json/groups.py against the ungrouped --locals document);
#  - every scenario: the callee-saved registers recovered through
#    .debug_frame CFI (locals.py cfi): some are, the CFI's rbp is ORC's,
#    save slots lie below the frame's sp;
#  - mod-overflow, mod-timer, kdump-timer, mod-nmi, mod-hrtimer with
#    --modules-dir on the dump's orccrash_test.ko: the values the test
#    module's source implies
#    (locals.py module);
#  - every kernel: our .debug_frame rows against readelf -wF's, row by row
#    (build/tests/test_dwarfcfi with ORCCRASH_CFI_VMLINUX).
# Prints PASS/FAIL/SKIP lines; SKIP when there are no dumps, no drgn.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init locals "${1:-build}"
py=/usr/bin/python3
tst_need_index
tst_need_exec "$bin" "run make"
have_drgn=true
"$py" -c 'import drgn' 2>/dev/null || have_drgn=false

# one line per (release, scenario): the first format listed, kdump-real
# preferred (drgn reads it)
rows=$(awk -F'\t' '{ k = $1 "\t" $2; if (!(k in seen) || $3 == "kdump-real") seen[k] = $0 }
	END { for (k in seen) print seen[k] }' "$index" | sort)

while IFS=$'\t' read -r rel scen fmt vmcore vmlinux kaslr; do
	[ -n "$rel" ] || continue
	name="$rel $scen"
	if [ ! -r "$vmcore" ] || [ ! -r "$vmlinux" ]; then
		skip "$name: sample not in the cache"
		continue
	fi
	dir=$(dirname "$vmcore")
	mods=()
	[ -e "$dir/orccrash_test.ko" ] && mods=(--modules-dir "$dir")
	json=$tmp/r.json
	"$bin" --json --all-tasks --locals "${mods[@]}" "$vmcore" "$vmlinux" \
		>"$json" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
		fail "$name: orccrash --json --locals exited $rc: $(head -n 3 "$tmp/err")"
		continue
	fi
	"$py" "$top/tests/json/validate.py" --need-frames "$name --locals" "$json"
	# the text report: without --locals, and with it minus its lines
	"$bin" --all-tasks "${mods[@]}" "$vmcore" "$vmlinux" >"$tmp/plain" 2>/dev/null
	"$bin" --all-tasks --locals "${mods[@]}" "$vmcore" "$vmlinux" \
		>"$tmp/locals" 2>/dev/null
	grep -Ev '^ *(param|local) |^ *\((variables |in .*, inlined\)$)' \
		"$tmp/locals" >"$tmp/stripped"
	nvars=$(grep -Ec '^ *(param|local) ' "$tmp/locals")
	if cmp -s "$tmp/plain" "$tmp/stripped" && [ "$nvars" -gt 0 ]; then
		pass "$name: --locals adds $nvars variable lines, the rest unchanged"
	else
		fail "$name: --locals changed the report ($nvars variable lines)"
		diff "$tmp/plain" "$tmp/stripped" | head -n 5
	fi
	# --group: a shared stack shows no variables (each task's own); the
	# CPUs, not grouped, keep theirs
	"$bin" --group --all-tasks "${mods[@]}" "$vmcore" "$vmlinux" >"$tmp/gplain" 2>/dev/null
	"$bin" --group --all-tasks --locals "${mods[@]}" "$vmcore" "$vmlinux" \
		>"$tmp/glocals" 2>/dev/null
	grep -Ev '^ *(param|local) |^ *\((variables |in .*, inlined\)$)' \
		"$tmp/glocals" >"$tmp/gstripped"
	ngvars=$(sed -n '/^Tasks:/,$p' "$tmp/glocals" | grep -Ec '^ *(param|local) ')
	if cmp -s "$tmp/gplain" "$tmp/gstripped" && [ "$ngvars" -eq 0 ]; then
		pass "$name: --group --locals: no variable in the groups, the CPUs' only"
	else
		fail "$name: --group --locals: $ngvars variable lines in the groups, or another report"
		diff "$tmp/gplain" "$tmp/gstripped" | head -n 5
	fi
	"$bin" --json --group --all-tasks --locals "${mods[@]}" "$vmcore" "$vmlinux" \
		>"$tmp/g.json" 2>/dev/null
	"$py" "$top/tests/json/validate.py" --need-frames "$name --group --locals" "$tmp/g.json"
	"$py" "$top/tests/json/groups.py" "$name --locals" "$tmp/g.json" "$json"
	nbad=$(grep -Ec 'bad DWARF|bad location expression' "$tmp/locals")
	if [ "$nbad" -eq 0 ]; then
		pass "$name: no variable with bad DWARF"
	else
		fail "$name: $nbad variables with bad DWARF"
		grep -E 'bad DWARF|bad location expression' "$tmp/locals" | sort | uniq -c | head -n 5
	fi
	"$py" "$here/locals.py" prev "$json" | sed "s/^\(PASS\|FAIL\|SKIP\) /\1 $name: /"
	"$py" "$here/locals.py" cfi "$json" | sed "s/^\(PASS\|FAIL\|SKIP\) /\1 $name: /"
	case $scen in
	mod-overflow|mod-timer|kdump-timer|mod-nmi|mod-hrtimer)
		if [ ${#mods[@]} -eq 0 ]; then
			skip "$name: no orccrash_test.ko in $dir"
		else
			"$py" "$here/locals.py" module "$json" "$scen" |
				sed "s/^\(PASS\|FAIL\|SKIP\) /\1 $name: /"
		fi
		;;
	esac
	if [ "$fmt" = kdump-real ]; then
		if $have_drgn; then
			timeout 600 "$py" "$here/locals.py" drgn "$json" "$vmlinux" "$vmcore" |
				sed "s/^\(PASS\|FAIL\|SKIP\) /\1 $name: /"
		else
			skip "$name: no python3-drgn"
		fi
	fi
done <<<"$rows"

# the CFI reader against readelf, over each kernel's whole .debug_frame
cfitest=$(dirname "$bin")/tests/test_dwarfcfi
kernels=$(cut -f5 "$index" | sort -u | while read -r v; do [ -r "$v" ] && printf '%s:' "$v"; done)
if [ ! -x "$cfitest" ]; then
	skip "cfi: no $cfitest (make $O/tests/test_dwarfcfi)"
elif [ -z "$kernels" ] || ! command -v readelf >/dev/null; then
	skip "cfi: no vmlinux in the cache or no readelf"
else
	ORCCRASH_CFI_VMLINUX=${kernels%:} "$cfitest" cfi_vmlinux_readelf >"$tmp/cfi" 2>&1
	grep '^  ' "$tmp/cfi"
	if grep -q '^PASS cfi_vmlinux_readelf' "$tmp/cfi"; then
		pass "cfi: every .debug_frame row of $(grep -c 'lookups checked' "$tmp/cfi") kernels equals readelf -wF's"
	else
		fail "cfi: .debug_frame rows differ from readelf -wF's"
	fi
fi
