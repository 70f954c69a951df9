/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Struct layouts from the kernel's BTF, read with libbpf's BTF API:
 * from the vmlinux .BTF section or from dump memory
 * (__start_BTF..__stop_BTF).  Only this file's .c includes libbpf.
 */
#ifndef OC_FORMATS_BTF_H
#define OC_FORMATS_BTF_H

#include <stddef.h>

#include "error.h"
#include "types.h"

/*
 * @data is copied; the caller may free it afterwards.  Names and paths
 * as in types.h, plus "TYPE *" (a pointer: size 8) and array indexes in
 * paths ("ist[1]").  A bit field's member has offset = the byte holding
 * its first bit, bit_offset = that bit within it, size = the bytes to
 * read to cover it (read size bytes, shift by bit_offset, mask
 * bit_size bits).
 */
struct oc_error *oc_btf_types_create(const void *data, size_t len,
				     struct oc_types **ret);

/*
 * A module's split BTF (its type ids and string offsets continue
 * @base's, as the kernel's btf_parse_module() and libbpf's
 * btf__new_split() read it) over @base, a backend of
 * oc_btf_types_create(), which must outlive it: lookups see the base's
 * types too.  @data is copied.
 */
/* An address inside the BTF library (libbpf), whose build names its
 * reading of BTF: for the types memo's key (src/typecache.c). */
const void *oc_btf_library_address(void);

struct oc_error *oc_btf_types_create_split(const void *data, size_t len,
					   const struct oc_types *base,
					   struct oc_types **ret);

#endif /* OC_FORMATS_BTF_H */
