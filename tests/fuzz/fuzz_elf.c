// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the ELF readers (formats/elffile.h and
 * formats/orc_elf.h) on a memfd holding the input as a whole file: a
 * vmlinux or a .ko.  Everything a report takes from a vmlinux is asked
 * for: the symbol tables, the ORC sections, the build-id, a read of
 * linux_banner's address, and the ORC table parse of orc-dump.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "elffile.h"
#include "fuzz_common.h"
#include "orc.h"
#include "orc_elf.h"

static const char *const sections[] = {
	".orc_unwind", ".orc_unwind_ip", ".orc_header", ".rodata", ".text",
	".data..percpu", ".BTF", ".modinfo", ".note.gnu.build-id",
};

static void check_elf(const char *path)
{
	struct oc_elf *elf;
	struct oc_symtab syms, percpu;
	struct oc_elf_section sec;
	struct oc_error *err;
	size_t len;
	const struct oc_symbol *banner;
	char buf[64];

	err = oc_elf_open(path, &elf);
	if (err) {
		fuzz_check_error(err);
		return;
	}
	oc_symtab_init(&syms);
	oc_symtab_init(&percpu);
	err = oc_elf_symtab(elf, &syms);
	if (!err)
		err = oc_symtab_finish(&syms);
	if (!err) {
		fuzz_check_symtab(&syms);
		banner = oc_symtab_find(&syms, "linux_banner");
		if (banner)
			fuzz_check_error(oc_elf_read(elf, oc_symtab_addr(&syms, banner), buf,
						     sizeof(buf)));
	}
	fuzz_check_error(err);
	err = oc_elf_percpu_symtab(elf, &percpu);
	if (!err)
		err = oc_symtab_finish(&percpu);
	fuzz_check_error(err);
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		err = oc_elf_section(elf, sections[i], &sec);
		if (err) {
			fuzz_check_error(err);
			continue;
		}
		if (sec.data && sec.size) {
			/* the data must be all there */
			volatile uint8_t x = ((const uint8_t *)sec.data)[0];
			x = ((const uint8_t *)sec.data)[sec.size - 1];
			(void)x;
			fuzz_check_error(oc_elf_read(elf, sec.addr, buf,
						     sec.size < sizeof(buf) ?
						     sec.size : sizeof(buf)));
		}
	}
	(void)oc_elf_build_id(elf, &len);
	oc_symtab_deinit(&syms);
	oc_symtab_deinit(&percpu);
	oc_elf_close(elf);
}

/* what orc-dump does with a file */
static void check_orc_elf(const char *path)
{
	struct oc_orc_elf *e;
	const struct oc_orc_elf_info *info;
	struct oc_orc_table tab;
	enum oc_orc_version v = OC_ORC_V_UNKNOWN;
	struct oc_error *err;

	err = oc_orc_elf_open(path, &e);
	if (err) {
		fuzz_check_error(err);
		return;
	}
	info = oc_orc_elf_info(e);
	FUZZ_ASSERT(info && info->release);
	for (size_t i = 0; i < info->nr_rela && i < 16; i++) {
		const char *name;
		int64_t addend;

		fuzz_check_error(oc_orc_elf_rela(e, i, &name, &addend));
	}
	err = oc_orc_detect_version(info->header, info->header_len,
				    info->release, &v);
	if (err) {
		fuzz_check_error(err);
		v = OC_ORC_V_4_18;
	}
	oc_orc_table_init(&tab);
	fuzz_check_error(oc_orc_table_parse(&tab, v, info->ip_addr,
					    info->ip_data, info->ip_len,
					    info->orc_data, info->orc_len));
	oc_orc_table_deinit(&tab);
	oc_orc_elf_close(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = memfd_create("fuzz-elf", 0);

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	check_elf(path);
	check_orc_elf(path);
	close(fd);
	return 0;
}
