# tests/orcdump/orcdump.mk: lookup_check for tests/orcdump/run.sh
# (included by the top-level Makefile: its packages and libraries).
$(O)/tests/lookup_check: $(O)/tests/orcdump/lookup_check.o $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
