#!/usr/bin/env python3
"""Hold orccrash's missing pages to the file and to drgn.  Every page a
report's WARNINGs name as "not in the dump" of a kdump-compressed file
must be left out by the file's own dump bitmap (makedumpfile's
diskdump_mod.h layout, read here apart from orccrash): a page the
bitmap has was misread (libkdumpfile 0.5.1 failed good reads after
reads of excluded pages, formats/dump.c fill_page()).  And each such
page is looked up by drgn (its
struct page's page_type, PGTY_slab from the kernel's own enum pagetype,
6.10+); when drgn finds slab pages among them, the report must say that
makedumpfile dropped slab pages, counting at least as many; when it finds
none, the report must not say so.  Without slab pages, the same for the
pages whose struct page's mapping has PAGE_MAPPING_ANON (what
makedumpfile's isAnon() takes for a user page: 7.2's task_struct pages,
Debian 12's makedumpfile).
usage: missing_pages.py NAME ORCCRASH_JSON VMCORE VMLINUX"""
import json
import re
import struct
import sys

name, path, core, vml = sys.argv[1:5]
r = json.load(open(path))
warnings = r["kernel"].get("warnings", [])
pfns = sorted({int(m, 16) >> 12 for w in warnings
               for m in re.findall(r"physical page (0x[0-9a-f]+) is not in the dump", w)})
said = [w for w in warnings if re.search(r"missing pages are slab pages", w)]


def kdump_has_pages(core, pfns):
    """The pfns of @pfns that the kdump-compressed file @core holds (its
    second bitmap's bit set); None if @core is not one."""
    with open(core, "rb") as f:
        hdr = f.read(464)
        if len(hdr) < 464 or hdr[:8] not in (b"KDUMP   ", b"DISKDUMP"):
            return None
        block_size, sub_hdr_size, bitmap_blocks = struct.unpack_from("<iiI", hdr, 428)
        half = bitmap_blocks * block_size // 2
        dump_bitmap = (1 + sub_hdr_size) * block_size + half
        held = []
        for pfn in pfns:
            if pfn // 8 >= half:
                continue
            f.seek(dump_bitmap + pfn // 8)
            byte = f.read(1)
            if byte and byte[0] & (1 << (pfn % 8)):
                held.append(pfn)
        return held


held = kdump_has_pages(core, pfns) if pfns else None
if held:
    print("FAIL %s: the report says %d pages are not in the dump that the file's bitmap holds: %s"
          % (name, len(held), ", ".join(hex(p << 12) for p in held[:4])))
elif held is not None:
    print("PASS %s: the %d pages the report says are not in the dump are left out by the file's bitmap"
          % (name, len(pfns)))
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
# Failing that, pages makedumpfile's isAnon() (mapping & PAGE_MAPPING_ANON)
# took for user pages: the report says so exactly when drgn sees the bit.
if not slab:
    said_anon = [w for w in warnings if "have PAGE_MAPPING_ANON" in w]
    anon = []
    try:
        off = drgn.offsetof(prog.type("struct page"), "mapping")
    except (LookupError, ValueError):
        off = None
    for pfn in pfns:
        if off is None:
            break
        try:
            if prog.read_u64(pfn_to_page(prog, pfn).value_() + off) & 1:
                anon.append(pfn)
        except drgn.FaultError:
            pass
    if anon and said_anon:
        print("PASS %s: the report says makedumpfile took the pages for user data (drgn: %d of the %d named have PAGE_MAPPING_ANON)"
              % (name, len(anon), len(pfns)))
    elif anon:
        print("FAIL %s: drgn finds PAGE_MAPPING_ANON on %d of the %d missing pages (%s), the report does not say so"
              % (name, len(anon), len(pfns), ", ".join(hex(p) for p in anon[:4])))
    elif said_anon:
        print("FAIL %s: the report says the missing pages have PAGE_MAPPING_ANON, drgn finds none of %d: %s"
              % (name, len(pfns), said_anon[0]))
