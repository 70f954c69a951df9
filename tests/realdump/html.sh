#!/bin/bash
# --html PAGE (src/report_html.c, docs/html.md) on one format of every
# sample scenario of every kernel:
#   tests/realdump/html.sh [BUILD_DIR]
# the page against the reports of the same dump (tests/realdump/html_check.py
# static: its title is the report's CRASH: line, its summary the report's
# header, its panic part the report's panic CPU, its icicle --folded=state's
# stacks, its log part the end of --log; nothing it links loads, its CSP
# forbids every fetch), then in headless Chromium (Debian's chromium): a
# screenshot of the page as a user opens it (a title at the top, the
# icicle's frames), and the DOM of a copy without its CSP and with a click
# on the widest frame appended (the zoom; Chromium's net log of that run
# has no request the page made).  Also --html - and the errors: an
# unwritable PAGE, a report option with --html.
# Prints PASS/FAIL/SKIP lines; exits 1 if anything failed.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init html "${1:-build}"
tst_need_exec "$bin" "run make"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
chromium=$(command -v chromium || true)
[ -n "$chromium" ] || skip "html: no chromium (apt-get install chromium): the pages are not rendered"
"$py" -c 'import PIL' 2>/dev/null || { chromium=; skip "html: no python3-pil: the pages are not rendered"; }

# a click on the widest frame below the states, as a user would
zoom_js='<script>(function(){var b=null;document.querySelectorAll("#flame g[data-d=\"2\"]").forEach(function(g){if(!b||+g.dataset.w>+b.dataset.w)b=g;});if(b)b.dispatchEvent(new MouseEvent("click"));})();</script>'

# the committed default sample (no vmlinux) first, then the sample cache's
samples() {
	printf 'default\tdefault\tkdump\t%s\t\t\n' "$top/samples/default/vmcore"
	[ -s "$index" ] && cat "$index"
}

while IFS=$'\t' read -r rel scen fmt core vml kaslr; do
	tst_first_of_scenario "$rel" "$scen" "$core" || continue
	name="$rel/$scen/$fmt"
	page=$tmp/page.html
	vml=(${vml:+"$vml"})
	rm -f "$page"
	"$bin" --html "$page" "$core" "${vml[@]}" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 3 ] || [ ! -s "$page" ] || [ -s "$tmp/out" ]; then
		fail "$name: --html exited $rc: $(head -c 200 "$tmp/err")"
		continue
	fi
	"$bin" "$core" "${vml[@]}" >"$tmp/text" 2>/dev/null
	"$bin" --folded=state "$core" "${vml[@]}" >"$tmp/folded" 2>/dev/null
	"$bin" --log "$core" "${vml[@]}" >"$tmp/log" 2>/dev/null
	"$py" "$here/html_check.py" static "$name" "$page" "$tmp/text" "$tmp/folded" "$tmp/log" ||
		fail "$name: html_check.py static exited $?"
	[ -n "$chromium" ] || continue
	rm -f "$tmp/shot.png"
	win=$("$py" "$here/html_check.py" size "$page")
	tst_chromium --window-size="$win" --screenshot="$tmp/shot.png" "file://$page" >/dev/null 2>"$tmp/cr.err"
	if [ ! -s "$tmp/shot.png" ]; then
		fail "$name: Chromium took no screenshot: $(grep -v dbus "$tmp/cr.err" | head -c 300)"
		continue
	fi
	"$py" "$here/html_check.py" png "$name" "$tmp/shot.png" ||
		fail "$name: html_check.py png exited $?"
	# (a script after </html> runs in the body, after the page's own)
	{ grep -v 'Content-Security-Policy' "$page"; printf '%s\n' "$zoom_js"; } >"$tmp/zoom.html"
	tst_chromium --log-net-log="$tmp/net.json" --dump-dom "file://$tmp/zoom.html" >"$tmp/dom.html" 2>"$tmp/cr.err"
	if [ ! -s "$tmp/dom.html" ] || [ ! -s "$tmp/net.json" ]; then
		fail "$name: Chromium gave no DOM or net log: $(grep -v dbus "$tmp/cr.err" | head -c 300)"
		continue
	fi
	"$py" "$here/html_check.py" dom "$name" "$tmp/dom.html" "$tmp/net.json" ||
		fail "$name: html_check.py dom exited $?"
done < <(samples)
[ -s "$index" ] || skip "html: no sample dumps ($index): the default sample only; run make samples"

# the options, on the default sample
core=$top/samples/default/vmcore
vml=()
"$bin" --html - "$core" "${vml[@]}" >"$tmp/stdout.html" 2>/dev/null
rc=$?
if { [ $rc -eq 0 ] || [ $rc -eq 3 ]; } && grep -q '^</html>$' "$tmp/stdout.html"; then
	pass "--html -: the page on stdout"
else
	fail "--html -: exit $rc, $(wc -c <"$tmp/stdout.html") bytes"
fi
tst_one_line_error "--html into a missing directory" "$tmp/no/such/page.html: No such file or directory" \
	"$bin" --html "$tmp/no/such/page.html" "$core" "${vml[@]}"
"$bin" --html "$tmp/p.html" --pid 1 "$core" "${vml[@]}" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q -- '--html takes no report options' "$tmp/err"; then
	pass "--html --pid 1: usage error (exit 2)"
else
	fail "--html --pid 1: exit $rc: $(head -c 200 "$tmp/err")"
fi
[ "$nfail" -eq 0 ]
