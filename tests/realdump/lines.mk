# tests/realdump/lines.mk: the linescat driver for tests/realdump/lines.sh
# (included by the top-level Makefile, whose TEST_BIN has it).
$(O)/tests/linescat: $(O)/tests/realdump/linescat.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
