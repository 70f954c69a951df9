// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dump-only path: symbols from kallsyms, types from BTF and ORC
 * tables, all read from dump memory when no vmlinux is given.
 */
#include "kmodel.h"

struct oc_error *oc_kmodel_kallsyms(struct oc_kernel *k)
{
	return oc_error_format(OC_ERR_UNSUPPORTED,
			       "a vmlinux is needed: reading kallsyms from the dump is not implemented yet");
}

struct oc_error *oc_kmodel_btf_from_memory(struct oc_kernel *k)
{
	return oc_error_format(OC_ERR_UNSUPPORTED,
			       "the vmlinux has no .BTF section, and reading BTF from the dump is not implemented yet");
}

struct oc_error *oc_kmodel_orc_from_memory(struct oc_kernel *k)
{
	return oc_error_format(OC_ERR_UNSUPPORTED,
			       "reading ORC tables from the dump is not implemented yet");
}
