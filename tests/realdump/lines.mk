# tests/realdump/lines.mk: the linescat driver for tests/realdump/lines.sh
# (to be included by the top-level Makefile, and $(O)/tests/linescat added
# to TEST_BIN).
$(O)/tests/linescat: $(O)/tests/realdump/linescat.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
