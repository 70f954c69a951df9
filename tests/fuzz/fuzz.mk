# libFuzzer targets (docs/hardening.md), included from the top Makefile,
# whose packages (PKGS), core sources (CORE_SRC), warnings (WARN, without
# -Werror: clang warns where gcc does not) and libraries (LDLIBS) they
# build with:
#   make fuzz-smoke                         every target a few seconds
#   make fuzz FUZZ_SECONDS=600
#   make fuzz FUZZ_TARGETS="orc unwind"     only these
# Needs clang 14 with its runtime (Debian: clang, libclang-rt-14-dev);
# without them the rules print SKIP and succeed.
FUZZ_O ?= build/fuzz
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
FUZZ_SMOKE_SECONDS ?= 5
FUZZ_TARGETS ?= orc unwind log kallsyms flat elf dump report dwexpr cfi lineprog strutil model symcache typememo lines
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer $(FUZZ_SAN) \
	-std=gnu11 -D_GNU_SOURCE $(filter-out -Werror,$(WARN)) \
	-Isrc -Iformats -Iui -Itests/fuzz \
	$(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null) -I/usr/include/libdwarf
FUZZ_LDLIBS := $(LDLIBS)

FUZZ_LIB_OBJ := $(CORE_SRC:%.c=$(FUZZ_O)/%.o)
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_O)/fuzz_%)
FUZZ_HAVE := $(shell printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' | \
	$(FUZZ_CC) -x c -fsanitize=fuzzer,address,undefined -o /dev/null - 2>/dev/null && echo yes)

# objects: coverage and sanitizers, without libFuzzer's main()
$(FUZZ_O)/%.o: %.c
	@mkdir -p $(dir $@)
	@printf '  %-6s %s\n' FUZZCC $<
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_O)/fuzz_%: $(FUZZ_O)/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJ)
	@printf '  %-6s %s\n' FUZZLD $@
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LDLIBS)

# fuzz_dump: libkdumpfile mallocs whatever a header asks for (44 GB for
# a bad ELF string table) and reports the failure cleanly; let malloc
# fail there instead of calling it a crash.
# Run each target: over the committed seeds (tests/fuzz/corpus/NAME, read
# only) and a scratch corpus that keeps what it finds: $(FUZZ_O)/corpus/NAME
# for `fuzz` (grows from run to run), a fresh $(FUZZ_O)/smoke/NAME for
# `fuzz-smoke` (bounded time whatever ran before); crashes go to
# $(FUZZ_O)/artifacts/.  One job: 2 shared cores.
define fuzz_run
	@$(if $(filter smoke,$(3)),rm -rf $(FUZZ_O)/$(3)/$(1) &&) mkdir -p $(FUZZ_O)/$(3)/$(1) $(FUZZ_O)/artifacts
	@echo "== fuzz_$(1): $(2)s"
	@$(if $(filter dump,$(1)),ASAN_OPTIONS=allocator_may_return_null=1) \
	$(FUZZ_O)/fuzz_$(1) -max_total_time=$(2) -timeout=10 -rss_limit_mb=2048 \
		$(if $(filter dump,$(1)),-malloc_limit_mb=1048576) \
		-max_len=$(if $(filter elf dump,$(1)),262144,65536) -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_O)/artifacts/$(1)- \
		$(FUZZ_O)/$(3)/$(1) tests/fuzz/corpus/$(1) \
		>$(FUZZ_O)/fuzz_$(1)-$(3).log 2>&1 || \
		{ echo "FAIL fuzz_$(1): see $(FUZZ_O)/fuzz_$(1)-$(3).log"; \
		  grep -E 'ERROR|SUMMARY|invariant|Test unit written' $(FUZZ_O)/fuzz_$(1)-$(3).log | head -n 8; exit 1; }
	@grep -E '^stat::(number_of_executed_units|peak_rss_mb)|cov: [0-9]+' $(FUZZ_O)/fuzz_$(1)-$(3).log | \
		tail -n 3 | tr '\n' ' '; echo
	@echo "PASS fuzz_$(1)"

endef

ifeq ($(FUZZ_HAVE),yes)
fuzz-build: $(FUZZ_BINS)
fuzz: fuzz-build
	$(foreach t,$(FUZZ_TARGETS),$(call fuzz_run,$(t),$(FUZZ_SECONDS),corpus))
fuzz-smoke: fuzz-build
	$(foreach t,$(FUZZ_TARGETS),$(call fuzz_run,$(t),$(FUZZ_SMOKE_SECONDS),smoke))
else
fuzz-build fuzz fuzz-smoke:
	@echo "SKIP fuzz: $(FUZZ_CC) cannot link -fsanitize=fuzzer (apt-get install clang libclang-rt-14-dev)"
endif

fuzz-clean:
	rm -rf $(FUZZ_O)

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-clean
.SECONDARY:

-include $(shell find $(FUZZ_O) -name '*.d' 2>/dev/null)
