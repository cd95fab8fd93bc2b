# OpenAssembler -- plain Makefile.  `make` builds ./openassembler and the
# static library; `make check` runs every test; SANITIZE=1 builds with
# ASan+UBSan into build/san.  Sources are found by directory, so a new
# file under src/ needs no Makefile edit.

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wshadow -Wstrict-prototypes
CPPFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc -Iinclude -MMD -MP

ifeq ($(SANITIZE),1)
BUILD   ?= build/san
CFLAGS  += -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else
BUILD   ?= build/rel
endif

LIBSRC  := $(sort $(shell find src -name '*.c' ! -path 'src/cli/*'))
CLISRC  := $(sort $(wildcard src/cli/*.c))
GPUSRC  := $(sort $(wildcard src/cli/gpucheck/*.c))
TESTSRC := $(sort $(wildcard tests/unit/*.c))
LIBOBJ  := $(LIBSRC:%.c=$(BUILD)/%.o)
GPUOBJ  := $(GPUSRC:%.c=$(BUILD)/%.o)
TESTOBJ := $(TESTSRC:%.c=$(BUILD)/%.o)

LIB      = $(BUILD)/libopenassembler.a
BIN      = $(BUILD)/openassembler
GPUBIN   = $(BUILD)/oa-gpucheck
UNIT     = $(BUILD)/unit-tests
ALLOCTEST = $(BUILD)/alloc-test

# openassembler is static (0.2 ms less start-up per process: no dynamic
# loader, fewer page faults); the sanitizers need a dynamic program.  The
# CUDA driver runner (gpucheck) dlopens libcuda, so it is a separate,
# dynamic program next to it.
#
# When musl-gcc is installed (Debian: musl-tools; tools/get-musl installs it
# where it can, once per build tree), openassembler is built
# and linked with musl, from its own objects in $(BUILD)/musl: glibc's
# static start-up probes the CPU with ~43 CPUID instructions, each a VM
# exit of 4-12 us on the machines we run on -- 0.27 ms of every process
# (docs/compile-speed.md).  The unit tests and gpucheck keep $(CC).
ifeq ($(SANITIZE),1)
STATIC  =
LAYOUT  =
MUSLCC  =
else
STATIC  = -static
# -z norelro: .init_array and the GOT on .data's page, not a page of their
# own below it (one page fault less per process); a static musl program
# never write-protects them anyway (no mprotect at start-up).
LAYOUT  = -Wl,-z,norelro -Wl,-z,noseparate-code -Wl,-z,max-page-size=0x200000 -Wl,-T,src/cli/layout.ld \
	  -Wl,-T,src/cli/text-order.ld
MUSLCC := $(shell test -e build/.musl-tried || { tools/get-musl >&2; mkdir -p build; touch build/.musl-tried; }; \
		  command -v musl-gcc 2>/dev/null)
endif
ifneq ($(MUSLCC),)
PROG     = $(BUILD)/musl
PROGLIB  = $(PROG)/libopenassembler.a
PROGCC   = $(MUSLCC)
else
PROG     = $(BUILD)
PROGLIB  = $(LIB)
PROGCC   = $(CC)
endif
CLIOBJ  := $(CLISRC:%.c=$(PROG)/%.o)

.PHONY: all check check-long demo bench clean oracle
all: openassembler

# Installed with one write: the page cache then holds the program in large
# (up to 2 MiB) folios that the kernel maps a whole folio at a time (with
# LAYOUT: a 2 MiB page for each 2 MiB of code and tables); the linker's own
# output, and a cp of it, sit in small ones -- ~0.1 ms more per compile in
# page faults (docs/compile-speed.md, "Session 7").
openassembler: $(BIN) $(GPUBIN)
	dd if=$(BIN) of=$@.tmp bs=64M status=none && chmod 755 $@.tmp && mv -f $@.tmp $@
	cp $(GPUBIN) oa-gpucheck

$(LIB): $(LIBOBJ)
	@rm -f $@
	ar rcs $@ $^

# -no-pie: the ISA tables hold ~45,000 pointers that a PIE relocates at
# every start (0.7 ms of each compile of a small kernel).
$(BIN): $(CLIOBJ) $(PROGLIB) src/cli/layout.ld src/cli/text-order.ld
	$(PROGCC) $(LDFLAGS) -no-pie $(STATIC) $(LAYOUT) -o $@ $(CLIOBJ) $(PROGLIB) -lm -ldl -lpthread
ifeq ($(MUSLCC)$(SANITIZE),)
	@echo "note: musl-gcc not found: openassembler is linked with glibc, whose static start-up" \
	      "costs ~0.3 ms more per process; apt-get install musl-tools for the faster one"
endif

$(GPUBIN): $(GPUOBJ) $(LIB)
	$(CC) $(LDFLAGS) -no-pie -o $@ $(GPUOBJ) $(LIB) -lm -ldl -lpthread

$(UNIT): $(TESTOBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(TESTOBJ) $(LIB) -lm -ldl -lpthread

# The program's allocator, linked as the program links it (tests/cli/alloc.sh).
$(ALLOCTEST): tests/alloc/alloc_test.c $(PROG)/src/cli/alloc.o
	$(PROGCC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) -no-pie $(STATIC) -o $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

ifneq ($(MUSLCC),)
$(PROGLIB): $(LIBSRC:%.c=$(PROG)/%.o)
	@rm -f $@
	ar rcs $@ $^

# -fno-pie: the program is linked -no-pie, so its tables of pointers are
# plain read-only data (.rodata, in the 2 MiB-mapped segment) instead of
# .data.rel.ro (0.75 MiB of private, page-at-a-time mappings).
# -ffunction-sections: src/cli/text-order.ld (tools/text-order) links the
# functions a compile runs first, in that order.
# -fno-align-*: a compile runs most of its code once, cold; the padding
# before functions, loops and branch targets only spreads it over more
# cache lines (and the NOPs run): ~4 % fewer distinct code lines and
# ~0.6 % fewer instructions per compile (docs/session16-ra.md).
# The objects depend on this Makefile: a change of these flags rebuilds them.
NOALIGN = -fno-align-functions -fno-align-jumps -fno-align-loops -fno-align-labels
$(PROG)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(MUSLCC) $(CPPFLAGS) $(CFLAGS) -fno-pie -ffunction-sections $(NOALIGN) $(WARN) -c -o $@ $<
endif

$(BUILD)/tests/unit/%.o: CPPFLAGS += -Itests/unit

check: $(BIN) $(GPUBIN) $(UNIT) $(ALLOCTEST)
	@tests/run $(BUILD)

check-long: $(BIN) $(GPUBIN) $(UNIT) $(ALLOCTEST)
	@OA_LONG=1 tests/run $(BUILD)

demo: openassembler
	@tools/demo

bench: openassembler
	@bench/run

oracle:
	tools/fetch-oracle

clean:
	rm -rf build openassembler oa-gpucheck

-include $(LIBOBJ:.o=.d) $(CLIOBJ:.o=.d) $(GPUOBJ:.o=.d) $(TESTOBJ:.o=.d)
ifneq ($(MUSLCC),)
-include $(LIBSRC:%.c=$(PROG)/%.d)
endif
