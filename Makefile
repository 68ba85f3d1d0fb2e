# Makefile - builds the BLACS library, its tests, examples and benchmarks.
#
#   make                 build/libblacs.so (+ soname links) and build/libblacs.a
#   make check           every test: lint, unit, MPI, exported names, ASan/UBSan, the official tester
#   make demo            build and run the demo on a 2 x 2 grid
#   make sim             broadcasts and combines on up to 1024 simulated processes (sim/README.md)
#   make install PREFIX=/usr/local DESTDIR=
#
# Compilers come from Open MPI's wrappers; override with MPICC=... MPIFC=...

VERSION  := 1.0.0
SOMAJOR  := 1
PREFIX   ?= /usr/local
LIBDIR   ?= $(PREFIX)/lib
INCDIR   ?= $(PREFIX)/include
DESTDIR  ?=

CC       ?= cc
MPICC    ?= mpicc
MPIFC    ?= mpifort
MPIRUN   ?= mpirun
CFLAGS   ?= -O2 -g
FFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
STD      := -std=c11 -D_POSIX_C_SOURCE=200809L
LIBFLAGS := $(STD) $(WARN) -fPIC -fvisibility=hidden -Iblacs

B        := build

# Quiet by default; V=1 shows the commands.
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-6s %s\n' $(1) $(2)
endif
LIBSRC   := $(wildcard base/*.c msgid/*.c buffers/*.c topologies/*.c blacs/*.c)
LIBOBJ   := $(patsubst %.c,$(B)/obj/%.o,$(LIBSRC))
HEADERS  := $(wildcard base/*.h msgid/*.h buffers/*.h topologies/*.h blacs/*.h)
SONAME   := libblacs.so.$(SOMAJOR)
SOLIB    := $(B)/libblacs.so.$(VERSION)
ALIB     := $(B)/libblacs.a

# The sanitizer build of the library, used by the ASan/UBSan test pass.
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_OBJ := $(patsubst %.c,$(B)/asan/%.o,$(LIBSRC))
ASAN_LIB := $(B)/asan/libblacs.a

.PHONY: all lib check unit mpi-tests abi-check asan-check valgrind-check conformance demo install \
        uninstall clean topo-table examples example-tests lu-compare install-check lint format

all: lib
lib: $(B)/libblacs.so $(ALIB)

$(B)/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(CFLAGS) $(LIBFLAGS) -c $< -o $@

# The combine element loops (blacs/ops.c) are the library's only arithmetic:
# let the compiler vectorize them (-O2's cost model leaves them scalar).
$(B)/obj/blacs/ops.o: CFLAGS += -O3

$(SOLIB): $(LIBOBJ)
	$(call say,LD,$@)
	$(Q)$(MPICC) $(CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined -o $@ $^ -lm

$(B)/$(SONAME): $(SOLIB)
	ln -sf $(notdir $<) $@
$(B)/libblacs.so: $(B)/$(SONAME)
	ln -sf $(notdir $<) $@

$(ALIB): $(LIBOBJ)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/asan/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(call say,CC-SAN,$<)
	$(Q)$(MPICC) -O1 -g $(SANFLAGS) $(LIBFLAGS) -c $< -o $@

$(ASAN_LIB): $(ASAN_OBJ)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------
UNIT_SRC  := $(wildcard test/unit/*.c)
UNIT_BIN  := $(patsubst test/unit/%.c,$(B)/test/unit/%,$(UNIT_SRC))

MPIT_SRC  := $(wildcard test/mpi/*.c)
MPIT_BIN  := $(patsubst test/mpi/%.c,$(B)/test/mpi/%,$(MPIT_SRC))
MPIT_FSRC := $(wildcard test/mpi/*.f90)
MPIT_FBIN := $(patsubst test/mpi/%.f90,$(B)/test/mpi/%,$(MPIT_FSRC))
ASAN_BIN  := $(patsubst test/mpi/%.c,$(B)/asan/test/%,$(MPIT_SRC))
TESTFLAGS := $(STD) $(WARN) -Wno-missing-prototypes -Iblacs -Itest

$(B)/test/unit/test_distrib: test/unit/test_distrib.c examples/distrib.c examples/distrib.h test/check.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CFLAGS) $(TESTFLAGS) -o $@ $< examples/distrib.c

# Unit tests call pure internal modules (msgid, packing, trees, element
# operations) from the static library; they never start MPI.
$(B)/test/unit/%: test/unit/%.c $(ALIB) $(HEADERS) test/check.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(CFLAGS) $(TESTFLAGS) -o $@ $< $(ALIB) -lm

# MPI tests link the static library: they may look at internal state
# (buffer queue statistics) that the shared library does not export.
$(B)/test/mpi/%: test/mpi/%.c $(ALIB) test/check.h test/mpi/mpitest.h test/mpi/typed.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(CFLAGS) $(TESTFLAGS) -o $@ $< $(ALIB) -lm

$(B)/test/mpi/%: test/mpi/%.f90 $(ALIB)
	@mkdir -p $(dir $@)
	$(call say,FC,$<)
	$(Q)$(MPIFC) $(FFLAGS) -Wall -Werror -J $(B)/test/mpi -o $@ $< $(ALIB) -lm

$(B)/asan/test/%: test/mpi/%.c $(ASAN_LIB) test/check.h test/mpi/mpitest.h test/mpi/typed.h
	@mkdir -p $(dir $@)
	$(call say,CC-SAN,$<)
	$(Q)$(MPICC) -O1 -g $(SANFLAGS) $(TESTFLAGS) -o $@ $< $(ASAN_LIB) -lm

unit: $(UNIT_BIN)
	@for t in $(UNIT_BIN); do echo "== $$t"; $$t || exit 1; done

mpi-tests: $(MPIT_BIN) $(MPIT_FBIN)
	MPIRUN="$(MPIRUN)" bash test/run-mpi.sh $(B)/test/mpi

abi-check: lib
	bash test/abi-check.sh $(B)/libblacs.so

install-check: lib
	bash test/install-check.sh

asan-check: $(ASAN_BIN)
	MPIRUN="$(MPIRUN)" SANITIZED=1 bash test/run-mpi.sh $(B)/asan/test

# memcheck on the unit tests (with leak checking) and on a few MPI tests
# (Open MPI's own start-up noise suppressed; see test/valgrind.supp).
VALGRIND := valgrind -q --error-exitcode=9 --suppressions=/usr/share/openmpi/openmpi-valgrind.supp \
            --suppressions=test/valgrind.supp
valgrind-check: $(UNIT_BIN) $(MPIT_BIN)
	@for t in $(UNIT_BIN); do echo "== valgrind $$t"; \
	    $(VALGRIND) --leak-check=full --errors-for-leak-kinds=definite $$t || exit 1; done
	MPIRUN="$(MPIRUN) $(VALGRIND)" VALGRIND=1 bash test/run-mpi.sh $(B)/test/mpi

# Layers and cycles, function length, formatting (tools/lint.sh).
lint: lib
	bash tools/lint.sh $(B)/obj

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

conformance: lib $(B)/tools/topo_table
	bash test/conformance/run.sh $(B)/libblacs.so $(B)/tools/topo_table

check: lib
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory lint && \
	$(MAKE) --no-print-directory unit && \
	$(MAKE) --no-print-directory abi-check && \
	$(MAKE) --no-print-directory install-check && \
	$(MAKE) --no-print-directory mpi-tests && \
	$(MAKE) --no-print-directory asan-check && \
	$(MAKE) --no-print-directory valgrind-check && \
	$(MAKE) --no-print-directory conformance && \
	$(MAKE) --no-print-directory example-tests && \
	$(MAKE) --no-print-directory bench-check && \
	$(MAKE) --no-print-directory sim-check && \
	echo "make check: all passed in $$(( $$(date +%s) - start )) s"

# The measured broadcast schedule of every topology (LAWN 73 Table 9).
$(B)/tools/topo_table: tools/topo_table.c $(ALIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(CFLAGS) $(TESTFLAGS) -o $@ $< $(ALIB) -lm

topo-table: $(B)/tools/topo_table
	@$(B)/tools/topo_table 8 13

# ---------------------------------------------------------------------------
# Examples and the demo
# ---------------------------------------------------------------------------
# Examples link the shared library (found next to them through their rpath)
# and Debian's BLAS (the reference BLAS, with its CBLAS interface).
EX       := $(B)/examples
EXFLAGS  := $(CFLAGS) $(STD) $(WARN) -Iblacs -Iexamples
EXLIBS   := -L$(B) -lblacs -Wl,-rpath,'$$ORIGIN/..' -lblas -lm
EXAMPLES := $(EX)/demo $(EX)/mvmult $(EX)/mvmult_f $(EX)/lu
MPIRUN_FLAGS := --oversubscribe $(shell [ "$$(id -u)" = 0 ] && echo --allow-run-as-root)

$(EX)/demo $(EX)/mvmult: $(EX)/%: examples/%.c $(B)/libblacs.so blacs/blacs.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(EXFLAGS) -o $@ $< $(EXLIBS)

$(EX)/lu: examples/lu.c examples/distrib.c examples/distrib.h $(B)/libblacs.so blacs/blacs.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(EXFLAGS) -o $@ examples/lu.c examples/distrib.c $(EXLIBS)

$(EX)/mvmult_f: examples/mvmult.f90 $(B)/libblacs.so
	@mkdir -p $(dir $@)
	$(call say,FC,$<)
	$(Q)$(MPIFC) $(FFLAGS) -Wall -Werror -J $(EX) -o $@ $< $(EXLIBS)

examples: $(EXAMPLES)

# ScaLAPACK's PDGESV on the same problem, for lu-compare (links Debian's ScaLAPACK).
$(B)/bench/pdgesv_lu: bench/pdgesv_lu.c blacs/blacs.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(EXFLAGS) -o $@ $< -lscalapack-openmpi -llapack -lblas -lm

TRIALS ?= 5
LU_N ?= 2000
LU_NB ?= 64
LU_P ?= 2
LU_Q ?= 2
lu-compare: $(EX)/lu $(B)/bench/pdgesv_lu
	bash bench/lu-compare.sh $(TRIALS) $(LU_N) $(LU_NB) $(LU_P) $(LU_Q)

example-tests: $(EXAMPLES) $(B)/tools/topo_table
	bash test/examples.sh $(EX)

demo: $(EXAMPLES)
	$(MPIRUN) $(MPIRUN_FLAGS) -np 4 $(EX)/demo
	$(MPIRUN) $(MPIRUN_FLAGS) -np 4 $(EX)/mvmult
	$(MPIRUN) $(MPIRUN_FLAGS) -np 4 $(EX)/mvmult_f
	$(MPIRUN) $(MPIRUN_FLAGS) -np 4 $(EX)/lu --n 2000 --nb 64 --p 2 --q 2

# ---------------------------------------------------------------------------
# Install
# ---------------------------------------------------------------------------
install: lib
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 755 $(SOLIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libblacs.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libblacs.so
	install -m 644 $(ALIB) $(DESTDIR)$(LIBDIR)/
	install -m 644 blacs/blacs.h $(DESTDIR)$(INCDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCDIR@|$(INCDIR)|; s|@VERSION@|$(VERSION)|' \
	    blacs/blacs.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/blacs.pc

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libblacs.so* $(DESTDIR)$(LIBDIR)/libblacs.a \
	      $(DESTDIR)$(INCDIR)/blacs.h $(DESTDIR)$(LIBDIR)/pkgconfig/blacs.pc

clean:
	rm -rf $(B)

include bench/bench.mk
include sim/sim.mk
