// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dumpcat: a small driver over formats/dump.c for the real-dump checks
 * (tests/realdump/dump_check.sh).
 *   dumpcat info DUMP                 format, notes, OSRELEASE, page walk
 *   dumpcat vmcoreinfo DUMP [KEY]     the raw text, or one value
 *   dumpcat read DUMP VADDR LEN       hex bytes of kernel virtual memory
 *   dumpcat phys DUMP PADDR LEN       hex bytes of physical memory
 *   dumpcat rd64 DUMP VADDR COUNT     64-bit words, one per line (like crash rd -64)
 *   dumpcat v2p DUMP VADDR            the page walk's translation
 *   dumpcat xlat DUMP < VADDRS        each address (one per line) both
 *                                     ways: "vaddr ours libkdumpfile", a
 *                                     "-" where one fails (xlat.sh)
 *   dumpcat sum DUMP VADDR LEN        FNV-1a of a virtual range (unreadable
 *                                     pages hashed as their fault addresses)
 *   dumpcat pagesums DUMP VADDR LEN   the same per page: "vaddr hash|fault"
 *   dumpcat bench DUMP VADDR N        N 8-byte reads spread over 64 pages
 *   dumpcat flat FLATTENED OUT        reassemble like makedumpfile -R
 *   dumpcat checkloads DUMP           an ELF dump whose PT_LOADs carry kernel
 *                                     virtual addresses (QEMU -p, kdump): does
 *                                     our page walk give the same physical
 *                                     addresses as the segments?
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dump.h"
#include "flat.h"
#include "vmcoreinfo.h"

/* LeakSanitizer (make check-asan): libkdumpfile 0.5.1 leaks on some
 * error paths of kdump_open_fd(); not ours to fix. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libkdumpfile.so\n";
}

static int fail(struct oc_error *err)
{
	oc_error_fprint(stderr, err);
	fputc('\n', stderr);
	oc_error_destroy(err);
	return 1;
}

static void hex(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x%s", p[i], (i % 16 == 15 || i + 1 == n) ? "\n" : " ");
}

static int flat(const char *in, const char *out)
{
	struct oc_flat_index index;
	struct oc_error *err;
	struct stat st;
	int src = open(in, O_RDONLY), dst;

	if (src < 0 || fstat(src, &st) < 0) {
		perror(in);
		return 1;
	}
	dst = open(out, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (dst < 0) {
		perror(out);
		return 1;
	}
	err = oc_flat_index(oc_flat_read_fd, &src, st.st_size, &index);
	if (!err)
		err = oc_flat_reassemble(src, &index, dst);
	if (err)
		return fail(oc_error_set_path(err, in));
	printf("%zu records, %llu bytes\n", index.nr,
	       (unsigned long long)index.out_size);
	oc_flat_index_deinit(&index);
	close(src);
	close(dst);
	return 0;
}

/* Sample pages of every kernel-virtual PT_LOAD and compare translations. */
static int checkloads(struct oc_dump *dump, const char *path)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	unsigned long checked = 0, bad = 0, segs = 0;

	if (!f || fread(&eh, sizeof(eh), 1, f) != 1) {
		perror(path);
		return 1;
	}
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		uint64_t pages;

		if (fseek(f, eh.e_phoff + i * sizeof(ph), SEEK_SET) ||
		    fread(&ph, sizeof(ph), 1, f) != 1)
			break;
		if (ph.p_type != PT_LOAD || ph.p_vaddr < 0xffff800000000000ULL ||
		    ph.p_memsz < 4096)
			continue;
		segs++;
		pages = ph.p_memsz / 4096;
		/* every page, or 4097 spread over a huge segment */
		uint64_t samples = pages <= 65536 ? pages : 4097;

		for (uint64_t k = 0; k < samples; k++) {
			uint64_t pg = samples == pages ? k :
				      k == samples - 1 ? pages - 1 : pages * k / (samples - 1);
			uint64_t va = ph.p_vaddr + pg * 4096, pa = 0;
			struct oc_error *err = oc_dump_virt_to_phys(dump, va, &pa);

			checked++;
			if (err || pa != ph.p_paddr + pg * 4096) {
				if (bad++ < 5) {
					char msg[256];

					oc_error_string(err, msg, sizeof(msg));
					printf("mismatch: va %016" PRIx64 " segment pa %" PRIx64
					       " ours %" PRIx64 " %s\n", va,
					       ph.p_paddr + pg * 4096, pa, err ? msg : "");
				}
				oc_error_destroy(err);
			}
		}
	}
	fclose(f);
	printf("%lu kernel segments, %lu pages checked, %lu mismatched\n",
	       segs, checked, bad);
	return bad || !segs;
}

int main(int argc, char **argv)
{
	struct oc_dump *dump;
	struct oc_error *err;
	struct oc_mem mem;
	const char *cmd;
	int rc = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: dumpcat info|vmcoreinfo|read|phys|v2p|sum|bench DUMP ...\n");
		return 2;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "flat") && argc == 4)
		return flat(argv[2], argv[3]);
	err = oc_dump_open(argv[2], &dump);
	if (err)
		return fail(err);
	oc_dump_mem(dump, &mem);
	if (!strcmp(cmd, "info")) {
		const char *rel = "(none)";

		oc_ok(oc_vmcoreinfo_value(oc_dump_vmcoreinfo(dump), "OSRELEASE",
					  &rel));
		printf("format: %s\n", oc_dump_format_name(dump));
		printf("qemu: %s\n", oc_dump_is_qemu(dump) ? "yes" : "no");
		printf("osrelease: %s\n", rel);
		printf("page-walk: %s\n", oc_dump_has_page_walk(dump) ? "yes" : "no");
		printf("notes: %zu\n", oc_dump_nr_cpu_notes(dump));
		for (size_t i = 0; i < oc_dump_nr_cpu_notes(dump); i++) {
			const struct oc_prstatus *n = oc_dump_cpu_note(dump, i);

			printf("note %zu: pid %u ip %016" PRIx64 " sp %016" PRIx64
			       " bp %016" PRIx64 " cs %" PRIx64 " gs_base %016" PRIx64 "\n",
			       i, n->pid, n->regs.ip, n->regs.sp, n->regs.bp,
			       n->regs.cs, n->gs_base);
		}
	} else if (!strcmp(cmd, "vmcoreinfo")) {
		if (argc > 3) {
			uint64_t v;

			err = oc_vmcoreinfo_u64(oc_dump_vmcoreinfo(dump),
						argv[3], &v);
			if (err)
				rc = fail(err);
			else
				printf("0x%" PRIx64 "\n", v);
		} else {
			const struct oc_vmcoreinfo *vi = oc_dump_vmcoreinfo(dump);

			fputs(vi ? oc_vmcoreinfo_text(vi) : "", stdout);
		}
	} else if ((!strcmp(cmd, "read") || !strcmp(cmd, "phys")) && argc == 5) {
		uint64_t addr = strtoull(argv[3], NULL, 0);
		size_t len = strtoull(argv[4], NULL, 0);
		unsigned char *buf = malloc(len ? len : 1);

		if (!strcmp(cmd, "read"))
			err = oc_mem_read(&mem, addr, buf, len);
		else
			err = oc_dump_read_phys(dump, addr, buf, len);
		if (err)
			rc = fail(err);
		else
			hex(buf, len);
		free(buf);
	} else if (!strcmp(cmd, "rd64") && argc == 5) {
		uint64_t addr = strtoull(argv[3], NULL, 0);
		unsigned long count = strtoul(argv[4], NULL, 0);

		for (unsigned long i = 0; i < count; i++) {
			uint64_t v;

			err = oc_mem_read_u64(&mem, addr + i * 8, &v);
			if (err) {
				rc = fail(err);
				break;
			}
			printf("%016" PRIx64 "\n", v);
		}
	} else if (!strcmp(cmd, "checkloads")) {
		rc = checkloads(dump, argv[2]);
	} else if (!strcmp(cmd, "v2p") && argc == 4) {
		uint64_t pa;

		err = oc_dump_virt_to_phys(dump, strtoull(argv[3], NULL, 0), &pa);
		if (err)
			rc = fail(err);
		else
			printf("0x%" PRIx64 "\n", pa);
	} else if (!strcmp(cmd, "xlat") && argc == 3) {
		char line[64];

		while (fgets(line, sizeof(line), stdin)) {
			uint64_t va = strtoull(line, NULL, 0), ours, theirs;
			bool ok1 = oc_ok(oc_dump_virt_to_phys(dump, va, &ours));
			bool ok2 = oc_ok(oc_dump_virt_to_phys_kdump(dump, va,
								    &theirs));

			printf("0x%016" PRIx64, va);
			if (ok1)
				printf(" 0x%" PRIx64, ours);
			else
				printf(" -");
			if (ok2)
				printf(" 0x%" PRIx64 "\n", theirs);
			else
				printf(" -\n");
		}
	} else if (!strcmp(cmd, "pagesums") && argc == 5) {
		uint64_t addr = strtoull(argv[3], NULL, 0);
		uint64_t end = addr + strtoull(argv[4], NULL, 0);
		static unsigned char page[4096];

		for (; addr < end; addr += sizeof(page)) {
			uint64_t h = 0xcbf29ce484222325ULL;

			err = oc_mem_read(&mem, addr, page, sizeof(page));
			if (err) {
				printf("%016" PRIx64 " fault\n", addr);
				oc_error_destroy(err);
				continue;
			}
			for (size_t i = 0; i < sizeof(page); i++)
				h = (h ^ page[i]) * 0x100000001b3ULL;
			printf("%016" PRIx64 " %016" PRIx64 "\n", addr, h);
		}
	} else if (!strcmp(cmd, "sum") && argc == 5) {
		uint64_t addr = strtoull(argv[3], NULL, 0);
		uint64_t end = addr + strtoull(argv[4], NULL, 0);
		uint64_t h = 0xcbf29ce484222325ULL, faults = 0;
		static unsigned char page[4096];

		for (; addr < end; addr += sizeof(page)) {
			size_t n = end - addr < sizeof(page) ? end - addr : sizeof(page);

			err = oc_mem_read(&mem, addr, page, n);
			if (err) {
				faults++;
				memcpy(page, &err->address, 8);
				n = 8;
				oc_error_destroy(err);
			}
			for (size_t i = 0; i < n; i++)
				h = (h ^ page[i]) * 0x100000001b3ULL;
		}
		printf("%016" PRIx64 " faults %" PRIu64 "\n", h, faults);
	} else if (!strcmp(cmd, "bench") && argc == 5) {
		uint64_t addr = strtoull(argv[3], NULL, 0);
		unsigned long n = strtoul(argv[4], NULL, 0);
		struct timespec t0, t1;
		uint64_t v, sum = 0;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (unsigned long i = 0; i < n; i++) {
			err = oc_mem_read_u64(&mem, addr + (i * 4104) % (64 * 4096), &v);
			if (err) {
				rc = fail(err);
				break;
			}
			sum += v;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("%lu reads in %.3f s (%.0f ns/read), sum %" PRIx64 "\n", n,
		       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
		       ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / (n ? n : 1),
		       sum);
	} else {
		fprintf(stderr, "dumpcat: bad command or arguments\n");
		rc = 2;
	}
	oc_dump_close(dump);
	return rc;
}
