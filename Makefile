# orccrash — one plain Makefile (STYLE.md 11)
# Install paths (GNU names): everything follows PREFIX, including where
# orccrash looks for the default sample (DATADIR, compiled in) and the
# crash extension (crash itself searches /usr/lib/crash/extensions and
# $CRASH_EXTENSIONS: with PREFIX=/usr `extend orccrash.so` finds it by
# name, else give crash the path).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
DATAROOTDIR ?= $(PREFIX)/share
DATADIR ?= $(DATAROOTDIR)/orccrash
MANDIR ?= $(DATAROOTDIR)/man
DOCDIR ?= $(DATAROOTDIR)/doc/orccrash
BASHCOMPDIR ?= $(DATAROOTDIR)/bash-completion/completions
CRASH_EXTDIR ?= $(LIBDIR)/crash/extensions
DESTDIR ?=
O ?= build

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := libkdumpfile libaddrxlat libelf libbpf ncursesw json-c libdeflate

CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes
ifeq ($(CI),true)
WARN += -Werror
endif
override CFLAGS += -std=gnu11 -D_GNU_SOURCE -fPIC $(WARN) -MMD -MP -Isrc -Iformats -Iui \
	$(shell $(PKG_CONFIG) --cflags $(PKGS)) -I/usr/include/libdwarf
# The SONAME of the shared library $(1) (libfoo.so) as linked against:
# formats/dl.h opens such a library with dlopen() on its first use
soname = $(shell objdump -p "$$($(CC) -print-file-name=$(1))" 2>/dev/null | \
	awk '$$1 == "SONAME" { print $$2 }')
# Opened with dlopen() on first use (formats/dl.h), by their SONAMEs
# (-DOC_<NAME>_SONAME): binutils-dev's libopcodes (formats/disasm.c; no
# .pc file) on the first disassembly (not in the crash extension, whose
# host has its own bfd and opcodes: src/crash/disasm_none.c); libkdumpfile
# (formats/dump.c) for the dumps our own readers leave to it; libsnappy,
# liblzo2 and libzstd (dump_kdump.c) on the first page so compressed;
# libedit (src/shell.c) for a shell on a terminal
OPCODES_SONAME := $(call soname,libopcodes.so)
KDUMPFILE_SONAME := $(call soname,libkdumpfile.so)
SNAPPY_SONAME := $(call soname,libsnappy.so)
LZO_SONAME := $(call soname,liblzo2.so)
ZSTD_SONAME := $(call soname,libzstd.so)
EDIT_SONAME := $(call soname,libedit.so)
DLOPEN := OPCODES KDUMPFILE SNAPPY LZO ZSTD EDIT
DLOPEN_SONAMES := $(foreach l,$(DLOPEN),$($(l)_SONAME))
override CFLAGS += $(foreach l,$(DLOPEN),\
	$(if $($(l)_SONAME),-DOC_$(l)_SONAME='"$($(l)_SONAME)"'))
# What orccrash links: not the libraries above, nor zlib (libdeflate reads
# the dumps' zlib pages); the tests' and tools'
# LDLIBS add them, for those that call them directly (oracles).
RUN_LDLIBS := $(shell $(PKG_CONFIG) --libs libelf libbpf ncursesw json-c libdeflate) \
	-ldwarf -lpthread -ldl
LDLIBS := $(RUN_LDLIBS) $(shell $(PKG_CONFIG) --libs libkdumpfile libaddrxlat) \
	-lsnappy -llzo2 -lzstd -lz

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2);
endif

# The line editor of --shell (libedit), for the orccrash binary only:
# the crash extension links the core, not the shell; opened with dlopen()
# when a shell starts on a terminal (src/shell.c)
EDIT_CFLAGS := $(shell $(PKG_CONFIG) --cflags libedit)

# The core: everything but the front ends.
FRONT_SRC := src/main.c src/shell.c src/heap.c
CORE_SRC := $(filter-out $(FRONT_SRC),$(wildcard src/*.c)) $(wildcard formats/*.c)
UI_SRC := $(wildcard ui/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(O)/%.o)
UI_OBJ := $(UI_SRC:%.c=$(O)/%.o)
LIB := $(O)/liborccrash.a
# The browser's objects: orccrash and the unit tests link them from here.
UI_LIB := $(O)/liborccrash-ui.a

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(O)/tests/%)

all: $(O)/orccrash

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$<)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(CORE_OBJ)
	$(call msg,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(UI_LIB): $(UI_OBJ)
	$(call msg,AR,$@)rm -f $@ && $(AR) rcs $@ $^

# The default sample's installed place is compiled into main.o: rebuilt
# when DATADIR changes (make install PREFIX=... after a plain make).
$(O)/datadir: FORCE
	@mkdir -p $(O)
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' >$@
$(O)/src/main.o: $(O)/datadir
$(O)/src/main.o: override CPPFLAGS += -DOC_DATADIR='"$(DATADIR)"'

$(O)/src/shell.o: override CFLAGS += $(EDIT_CFLAGS)

$(O)/orccrash: $(O)/src/main.o $(O)/src/shell.o $(O)/src/heap.o $(UI_LIB) $(LIB)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(RUN_LDLIBS)

$(O)/tests/%: $(O)/tests/unit/%.o $(O)/tests/unit/harness.o $(UI_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Unit tests only (synthetic inputs, no dumps): fast.
check-unit: $(UNIT_BIN) $(O)/orccrash
	$(Q)tests/run-tests.sh --unit $(O)

# Packages: build (deps) and tests (deps-test); installs only what is
# missing, with apt-get (as root).
deps:
	$(Q)tests/install-deps.sh build
deps-test:
	$(Q)tests/install-deps.sh test

# Everything: unit tests, then the real-dump tests over the samples,
# which `make samples` builds (a no-op when the cache is complete).  The
# sub-makes re-read pkg-config once the packages are there.
test: deps-test
	$(Q)$(MAKE) --no-print-directory all $(UNIT_BIN) $(TEST_BIN)
	$(Q)samples/make-samples.sh
	$(Q)tests/run-tests.sh --all $(O)
check: test

samples:
	$(Q)samples/make-samples.sh

# README command 1: build, make sure the default sample is there (it is
# committed; make-samples.sh makes it again if it was removed), open it.
# With no arguments orccrash opens samples/default/vmcore, needing no
# vmlinux (symbols, types and ORC come from the dump).
run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)test -r samples/default/vmcore || { tests/install-deps.sh test && samples/make-samples.sh; }
	$(Q)$(O)/orccrash || [ $$? -eq 3 ]	# 3: complete, some traces unreliable

# The sanitizers run the tiers that exercise orccrash's own code, on a
# few sample dumps of Debian 12's 6.1 cloud kernel (make test runs every
# kernel generation and every format): each scenario's kdump-compressed
# dump, the real kdumps, and the process scenario in every format (the
# readers of ELF and flattened files): CI's budget.  Left out: the tiers
# that build what they test their own way (the fuzz targets, sanitized
# already; the Debian package, with the distribution's flags), and those
# whose time goes to other programs (dump_check: crash and drgn reading
# every dump beside dumpcat; html: Chromium rendering the page).
ASAN_SAMPLES ?= ^6\.1\.0-[0-9]+-cloud-amd64/(process/.*|[^/]+/kdump(-real)?)$$
ASAN_SKIP ?= ^((fuzz|package)/run|realdump/(dump_check|html))\.sh$$
# check-asan-quick: the same build, the tiers that read hostile input and
# print the reports only (unit, golden, cli, orcdump, corrupt, realdump/
# run.sh): what .ci/run runs when make test left too little of CI's time.
ASAN_QUICK_SKIP := ^((fuzz|package|commands|screen|crash)/run|realdump/(dump_check|html|log_check|lines|locals|novmlinux|folded|chains|triage|triage_lines|waitq|xlat))\.sh$$
check-asan-quick:
	$(MAKE) --no-print-directory ASAN_SKIP='$(ASAN_QUICK_SKIP)' check-asan
check-asan:
	ORCCRASH_TEST_SAMPLES='$(ASAN_SAMPLES)' ORCCRASH_TEST_SKIP='$(ASAN_SKIP)' $(MAKE) O=build-asan CC=clang \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" test

# ThreadSanitizer over the reports made on several cores: tests/realdump/
# threads.sh (every report with four threads, byte for byte the report
# made with one) on the 6.1 cloud kernel's samples and the bench's large
# dumps where made, in a TSan build; a race ends orccrash with status 66,
# which the test names.  The unit tests are not built, so not run.
TSAN_SAMPLES ?= ^6\.1\.0-[0-9]+-cloud-amd64/
check-tsan:
	$(MAKE) --no-print-directory O=build-tsan \
		CFLAGS="-O1 -g -fsanitize=thread -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=thread" all build-tsan/tests/taskscheck
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" ORCCRASH_TEST_SAMPLES='$(TSAN_SAMPLES)' \
		ORCCRASH_TEST_ONLY='^realdump/threads\.sh$$' tests/run-tests.sh --all build-tsan

# make install / uninstall (PREFIX, DESTDIR, the *DIR above).  The crash
# extension needs crash's defs.h (Debian's crash package): installed when
# it is there, or always with WITH_CRASH=yes (debian/rules), never with
# WITH_CRASH=no.
CRASH_DEFS := $(firstword $(wildcard $(if $(CRASH_INCLUDE),$(CRASH_INCLUDE)/crash/defs.h) \
	/usr/include/crash/defs.h))
WITH_CRASH ?= $(if $(CRASH_DEFS),yes,no)
DOCS := README.md $(wildcard docs/*.md) $(wildcard docs/*.png) docs/json-schema.json docs/commands-schema.json
INSTALL_FILES := $(BINDIR)/orccrash $(MANDIR)/man1/orccrash.1 \
	$(DATADIR)/vmcore $(DOCDIR)/default-sample.txt $(BASHCOMPDIR)/orccrash \
	$(addprefix $(DOCDIR)/,$(notdir $(DOCS))) $(CRASH_EXTDIR)/orccrash.so

install: all $(if $(filter yes,$(WITH_CRASH)),$(O)/orccrash.so)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR) \
		$(DESTDIR)$(DOCDIR) $(DESTDIR)$(BASHCOMPDIR)
	install -m 755 $(O)/orccrash $(DESTDIR)$(BINDIR)/orccrash
	install -m 644 docs/orccrash.1 $(DESTDIR)$(MANDIR)/man1/orccrash.1
	install -m 644 samples/default/vmcore $(DESTDIR)$(DATADIR)/vmcore
	install -m 644 completion/orccrash $(DESTDIR)$(BASHCOMPDIR)/orccrash
	install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	install -m 644 samples/default/README $(DESTDIR)$(DOCDIR)/default-sample.txt
ifeq ($(WITH_CRASH),yes)
	install -d $(DESTDIR)$(CRASH_EXTDIR)
	install -m 644 $(O)/orccrash.so $(DESTDIR)$(CRASH_EXTDIR)/orccrash.so
else
	@echo "make install: no crash extension (no crash/defs.h: apt-get install crash, or WITH_CRASH=yes CRASH_INCLUDE=DIR)"
endif

# Removes what install put there (the same variables), and the
# directories of our own if empty.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALL_FILES))
	-rmdir $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR) 2>/dev/null

clean:
	rm -rf $(O) build-asan build-tsan

# The SONAMEs orccrash opens with dlopen(): debian/rules makes its
# Depends from them (debian/dlopen-depends)
print-dlopen-sonames:
	@$(if $(filter $(words $(DLOPEN)),$(words $(DLOPEN_SONAMES))),echo $(DLOPEN_SONAMES),\
		echo "Makefile: a SONAME not found (objdump -p; found: $(DLOPEN_SONAMES))" >&2; exit 1)

.PHONY: print-dlopen-sonames all test check check-unit check-asan check-asan-quick check-tsan samples install uninstall clean deps deps-test run FORCE
.SECONDARY:

# Fragments: the crash extension and the test drivers.
include src/crash/crash.mk tests/realdump/dump.mk tests/orcdump/orcdump.mk \
	tests/fuzz/fuzz.mk tests/bench/bench.mk
TEST_BIN := $(REALDUMP_BIN) $(O)/tests/lookup_check $(CRASH_TEST_BIN)

-include $(shell find $(O) -name '*.d' 2>/dev/null)
