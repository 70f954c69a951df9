#!/usr/bin/env python3
"""Hold orccrash's explanation of missing pages to drgn: every page a
report's WARNINGs name as "not in the dump" is looked up by drgn (its
struct page's page_type, PGTY_slab from the kernel's own enum pagetype,
6.10+); when drgn finds slab pages among them, the report must say that
makedumpfile dropped slab pages, counting at least as many; when it finds
none, the report must not say so.
usage: missing_pages.py NAME ORCCRASH_JSON VMCORE VMLINUX"""
import json
import re
import sys

name, path, core, vml = sys.argv[1:5]
r = json.load(open(path))
warnings = r["kernel"].get("warnings", [])
pfns = sorted({int(m, 16) >> 12 for w in warnings
               for m in re.findall(r"physical page (0x[0-9a-f]+) is not in the dump", w)})
said = [w for w in warnings if re.search(r"missing pages are slab pages", w)]
if not pfns:
    if said:
        print("FAIL %s: a slab-page explanation with no missing page named: %s" % (name, said[0]))
    sys.exit(0)
try:
    import drgn
    from drgn.helpers.linux.mm import pfn_to_page
    prog = drgn.Program()
    prog.set_core_dump(core)
    prog.load_debug_info([vml], default=False, main=False)
except Exception as e:  # noqa: BLE001 - any drgn failure is a skip
    print("SKIP %s: drgn cannot open the dump to check the missing pages: %s" % (name, e))
    sys.exit(0)
try:
    slab_type = prog.constant("PGTY_slab").value_()
except LookupError:
    slab_type = None        # before 6.10: PG_slab, makedumpfile keeps slab
slab = []
for pfn in pfns:
    if slab_type is None:
        break
    try:
        if (prog.read_u32(pfn_to_page(prog, pfn).page_type.address_) >> 24) == slab_type:
            slab.append(pfn)
    except drgn.FaultError:
        pass
if slab:
    m = re.search(r"(\d+) of the (\d+) missing pages are slab pages", said[0]) if said else None
    if m and int(m.group(1)) >= len(slab):
        print("PASS %s: the report says makedumpfile dropped slab pages (%s; drgn: %d of the %d named are slab)"
              % (name, m.group(0), len(slab), len(pfns)))
    else:
        print("FAIL %s: drgn finds %d slab pages among the %d missing (%s), the report %s"
              % (name, len(slab), len(pfns), ", ".join(hex(p) for p in slab[:4]),
                 "says " + said[0] if said else "does not say why"))
elif said:
    print("FAIL %s: the report says slab pages are missing, drgn finds none of %d: %s"
          % (name, len(pfns), said[0]))
else:
    print("PASS %s: none of the %d missing pages is a slab page, and the report does not say so"
          % (name, len(pfns)))
