# The crash utility extension orccrash.so (docs/crash-extension.md).
# Included from the top Makefile: make crash-extension.
#
# Only src/crash/ext.c includes crash's defs.h (Debian's crash package
# ships it as /usr/include/crash/defs.h; CRASH_INCLUDE points at the
# directory holding crash/defs.h for a crash built from source).  defs.h
# is read as a system header there, so its own warnings stay out of our
# -Werror build.

CRASH_INCLUDE ?=
CRASH_EXT_SRC := $(wildcard src/crash/*.c)
CRASH_EXT_OBJ := $(CRASH_EXT_SRC:%.c=$(O)/%.o)
CRASH_EXT := $(O)/orccrash.so

$(CRASH_EXT_OBJ): override CFLAGS += -DX86_64 -Isrc/crash \
	$(if $(CRASH_INCLUDE),-isystem $(CRASH_INCLUDE))

# Everything of ours is hidden (src/crash/orccrash.map): crash exports
# thousands of names and recent versions load extensions RTLD_GLOBAL; the
# commands are found through register_extension(), not by name.
$(CRASH_EXT): $(CRASH_EXT_OBJ) $(UI_LIB) $(LIB) src/crash/orccrash.map
	$(call msg,LINK,$@)$(CC) -shared $(CFLAGS) $(LDFLAGS) \
		-Wl,--version-script=src/crash/orccrash.map -Wl,--exclude-libs,ALL \
		-o $@ $(CRASH_EXT_OBJ) $(UI_LIB) $(LIB) $(LDLIBS)

# crash-cmds: the commands without crash, over orccrash's own dump
# reader (tests/crash/cmdsdrv.c); tests/crash/run.sh compares it with
# crash and runs it under the sanitizers, which crash cannot load.
CRASH_DRV := $(O)/tests/crash-cmds
# What `make test` should build for tests/crash/run.sh.
CRASH_TEST_BIN := $(CRASH_EXT) $(CRASH_DRV)

$(O)/tests/crash/cmdsdrv.o: override CFLAGS += -Isrc/crash

$(CRASH_DRV): $(O)/tests/crash/cmdsdrv.o $(O)/src/crash/cmds.o $(UI_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

crash-extension: $(CRASH_EXT)

install-crash-extension: $(CRASH_EXT)
	install -d $(DESTDIR)$(CRASH_EXTDIR)
	install -m 644 $(CRASH_EXT) $(DESTDIR)$(CRASH_EXTDIR)/orccrash.so

# Needs Debian's crash and the sample dumps; SKIPs without them.
check-crash: $(CRASH_TEST_BIN) $(O)/orccrash
	$(Q)tests/crash/run.sh $(O)

.PHONY: crash-extension install-crash-extension check-crash
