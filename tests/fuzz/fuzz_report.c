// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the text renderer of one trace (src/report.h:
 * oc_report_print_trace, oc_report_format_addr, oc_trace_stop_string)
 * fed arbitrary frames, stop reasons and symbol names, over a kernel
 * model that holds only a symbol table and one module.  Input:
 *   u8 nr_syms, nr_syms x { u64 addr, NUL-terminated name },
 *   u64 module text start, u64 end, NUL-terminated module name,
 *   u8 stop, u8 flags (1 reliable, 2 resynced, 4 print regs),
 *   u64 resync_addr, NUL-terminated message,
 *   frames until the input ends: { u64 ip, sp, bp, ip_addr, u8 stack,
 *   u8 flags (1 reliable, 2 scanned, 4 signal), u8 regs_kind,
 *   u64 regs_addr, struct oc_regs }.
 * Invariant: the text is printable ASCII and newlines: symbol
 * names come from dump memory in the dump-only mode (kallsyms) and for
 * modules, module names always.
 */
#include "fuzz_common.h"
#include "kernel.h"
#include "report.h"

enum { MAX_FRAMES = 512 };

static void check_text(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if ((c < 0x20 && c != '\n') || c > 0x7e) {
			fprintf(stderr, "control character 0x%02x at %zu: %.*s\n",
				c, i, (int)(len - i < 80 ? len - i : 80), text + i);
			FUZZ_ASSERT(!"control character in the report");
		}
	}
}

/*
 * The input's next string into @buf, control characters made '?': the
 * model never hands the renderer any, so neither may the fuzzer.
 */
static void take_printable(struct fuzz_in *in, char *buf, size_t size)
{
	char *s = fuzz_string(in);

	snprintf(buf, size, "%s", s);
	free(s);
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct oc_kernel *k = calloc(1, sizeof(*k));
	struct oc_module mod;
	struct oc_trace trace;
	unsigned int nr_syms;
	uint8_t flags;
	char *s, *text = NULL, buf[256];
	size_t text_len = 0;
	FILE *out;

	if (!k)
		abort();
	k->panic_cpu = -1;
	oc_symtab_init(&k->syms);
	oc_symtab_init(&k->percpu_syms);
	memset(&mod, 0, sizeof(mod));
	oc_symtab_init(&mod.syms);
	oc_orc_table_init(&mod.orc);

	nr_syms = fuzz_u8(&in);
	for (unsigned int i = 0; i < nr_syms; i++) {
		uint64_t addr = fuzz_u64(&in);

		s = fuzz_string(&in);
		/* every other one in the module */
		if (oc_symtab_add(i & 1 ? &mod.syms : &k->syms, s, addr, 't'))
			abort();
		free(s);
	}
	mod.text_start = fuzz_u64(&in);
	mod.text_end = fuzz_u64(&in);
	/* as src/kernel_modules.c reads it */
	take_printable(&in, mod.name, sizeof(mod.name));
	if (oc_symtab_finish(&k->syms) || oc_symtab_finish(&mod.syms))
		abort();
	k->modules = &mod;
	k->nr_modules = 1;

	oc_trace_init(&trace);
	trace.stop = (enum oc_stop_reason)(fuzz_u8(&in) % (OC_STOP_FRAME_LIMIT + 1));
	flags = fuzz_u8(&in);
	trace.reliable = flags & 1;
	trace.resynced = flags & 2;
	trace.resync_addr = fuzz_u64(&in);
	/* the walker writes the message itself, from numbers */
	take_printable(&in, trace.message, sizeof(trace.message));
	trace.frames = calloc(MAX_FRAMES, sizeof(*trace.frames));
	if (!trace.frames)
		abort();
	trace.cap = MAX_FRAMES;
	while (in.left && trace.nr < MAX_FRAMES) {
		struct oc_frame *f = &trace.frames[trace.nr++];
		uint8_t ff;

		f->ip = fuzz_u64(&in);
		f->sp = fuzz_u64(&in);
		f->bp = fuzz_u64(&in);
		f->ip_addr = fuzz_u64(&in);
		f->stack = (enum oc_stack_type)(fuzz_u8(&in) % OC_STACK_NR);
		ff = fuzz_u8(&in);
		f->reliable = ff & 1;
		f->scanned = ff & 2;
		f->signal = ff & 4;
		f->regs_kind = (enum oc_regs_kind)(fuzz_u8(&in) % 3);
		f->exact = !f->scanned && (f->signal || f->regs_kind);
		f->regs_addr = fuzz_u64(&in);
		fuzz_take(&in, &f->regs, sizeof(f->regs));
	}

	out = open_memstream(&text, &text_len);
	if (!out)
		abort();
	{
		struct oc_report_options ro;

		oc_report_options_init(&ro);
		ro.regs = flags & 4;
		oc_report_print_trace(k, &ro, &trace, " ", out);
	}
	for (size_t i = 0; i < trace.nr; i++) {
		oc_report_format_frame(k, &trace.frames[i], buf, sizeof(buf));
		fprintf(out, "%s\n", buf);
	}
	fprintf(out, "%s\n", oc_trace_stop_string(&trace, buf, sizeof(buf)));
	fclose(out);
	if (getenv("FUZZ_VERBOSE"))	/* checking a seed */
		fwrite(text, 1, text_len, stderr);
	check_text(text, text_len);
	free(text);

	oc_trace_deinit(&trace);
	oc_symtab_deinit(&mod.syms);
	oc_symtab_deinit(&k->syms);
	oc_symtab_deinit(&k->percpu_syms);
	free(k);
	return 0;
}
