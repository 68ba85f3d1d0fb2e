# Makefile - builds the BLACS library, its tests, examples and benchmarks.
#
#   make                 build/libblacs-openmpi.so (+ soname links) and build/libblacs-openmpi.a,
#                        and the ILP64 library build/libblacs64-openmpi.so / .a (64-bit INTEGER)
#   make check           every test: lint, unit, MPI, exported names, ASan/UBSan, the official tester
#   make demo            build and run the demo on a 2 x 2 grid
#   make sim             broadcasts and combines on up to 1024 simulated processes (sim/README.md)
#   make install PREFIX=/usr/local DESTDIR=
#   make ... MPI=mpich   the same against MPICH, in build-mpich/ (Open MPI is the default)
#
# MPI=openmpi|mpich picks the compiler wrappers, the launcher, the build
# folder, the library's name (libblacs-openmpi, libblacs-mpich: both can be
# installed side by side) and the reference ScaLAPACK and testers the tests
# compare with; MPICC=... MPIFC=... MPIRUN=... override the programs.
# CPPFLAGS, CFLAGS, FFLAGS and LDFLAGS are honoured (Debian's hardening flags
# too).  WERROR=-Werror is the default in a git checkout (development, CI), and
# empty in a release tarball; `make WERROR=` builds a checkout without it.

# The version is written once, in blacs/blacs.h (BLACS_VERSION_MAJOR/MINOR/PATCH):
# the shared library's file name (libblacs-$(MPI).so.$(VERSION), soname .so.$(SOMAJOR)),
# pkg-config's and CMake's versions and Cblacs_version all come from it.
vpart    = $(shell sed -n 's/^\#define BLACS_VERSION_$(1) \([0-9]*\)$$/\1/p' blacs/blacs.h)
SOMAJOR  := $(call vpart,MAJOR)
VERSION  := $(SOMAJOR).$(call vpart,MINOR).$(call vpart,PATCH)
PREFIX   ?= /usr/local
LIBDIR   ?= $(PREFIX)/lib
INCDIR   ?= $(PREFIX)/include
BINDIR   ?= $(PREFIX)/bin
DESTDIR  ?=

MPI      ?= openmpi
# Open MPI's programs by their own names where Debian's alternatives give
# them one (mpicc.openmpi: mpicc may be MPICH's), else by the usual ones.
ompi      = $(if $(shell command -v $(1).openmpi 2>/dev/null),$(1).openmpi,$(1))
ifeq ($(MPI),openmpi)
MPICC    ?= $(call ompi,mpicc)
MPIFC    ?= $(call ompi,mpifort)
MPIRUN   ?= $(call ompi,mpirun)
B        ?= build
PC_MPI   ?= ompi-c
else ifeq ($(MPI),mpich)
MPICC    ?= mpicc.mpich
MPIFC    ?= mpif90.mpich
MPIRUN   ?= mpiexec.mpich
B        ?= build-mpich
PC_MPI   ?= mpich
else
$(error MPI=$(MPI): must be openmpi or mpich (an MPICH-derived MPI: MPI=mpich MPICC=... MPIFC=... MPIRUN=...))
endif
MPICC    := $(MPICC)
MPIFC    := $(MPIFC)
MPIRUN   := $(MPIRUN)
# Under MPICH, every launch of a test, the demo or the benchmarks preloads
# tools/ucx_idle.c, which lets processes sleep while they wait: MPICH 4.0
# never yields the CPU, and oversubscribed (more processes than cores) each
# message would wait for a time slice.  LAUNCH_PRELOAD= turns it off.
IDLE_SO  := $(if $(filter mpich,$(MPI)),$(B)/tools/ucx_idle.so)
LAUNCH_PRELOAD ?= $(if $(IDLE_SO),$(abspath $(IDLE_SO)))
export LAUNCH_PRELOAD
# Debian's reference ScaLAPACK (with the reference BLACS inside) and its BLACS
# testers, built for the same MPI.
SCALAPACK  ?= -lscalapack-$(MPI)
REFERENCE_BLACS ?= /usr/lib/x86_64-linux-gnu/libscalapack-$(MPI).so.2.2
TESTER_DIR ?= /usr/lib/x86_64-linux-gnu/scalapack/$(MPI)-tests

CC       ?= cc
CFLAGS   ?= -O2 -g
FFLAGS   ?= -O2 -g
CPPFLAGS ?=
LDFLAGS  ?=
WERROR   ?= $(if $(wildcard .git),-Werror)
WARN     := -Wall -Wextra $(WERROR) -Wshadow -Wstrict-prototypes -Wmissing-prototypes
FWARN    := -Wall $(WERROR)
STD      := -std=c11 -D_POSIX_C_SOURCE=200809L
# Where the library looks for a tuning file (blacs-tune's) when
# BLACS_MODEL_FILE is not set: fixed when the library is built.
SYSCONFDIR ?= $(PREFIX)/etc
MODEL_FILE := -DBLX_MODEL_FILE_DEFAULT='"$(SYSCONFDIR)/blacs/model"'
LIBFLAGS := $(STD) $(WARN) -fPIC -fvisibility=hidden -Iblacs $(MODEL_FILE)

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
# The library's name carries the MPI it is built for (as Debian's ScaLAPACK's
# does): libblacs-openmpi.so.1, libblacs-mpich.so.1, link with -lblacs-$(MPI).
LIBNAME  := blacs-$(MPI)
SONAME   := lib$(LIBNAME).so.$(SOMAJOR)
SOLIB    := $(B)/lib$(LIBNAME).so.$(VERSION)
SOLINK   := $(B)/lib$(LIBNAME).so
ALIB     := $(B)/lib$(LIBNAME).a

# The ILP64 library: the same sources compiled with -DBLACS_ILP64, where
# blacs_int (blacs.h) is int64_t, for programs whose Fortran INTEGER is 64-bit
# (gfortran -fdefault-integer-8).  Same exported names, its own file names:
# libblacs64-$(MPI).so.1, installed beside the LP64 one.
ILP64    := -DBLACS_ILP64
LIBOBJ64 := $(patsubst %.c,$(B)/obj64/%.o,$(LIBSRC))
LIBNAME64 := blacs64-$(MPI)
SONAME64 := lib$(LIBNAME64).so.$(SOMAJOR)
SOLIB64  := $(B)/lib$(LIBNAME64).so.$(VERSION)
SOLINK64 := $(B)/lib$(LIBNAME64).so
ALIB64   := $(B)/lib$(LIBNAME64).a

# The sanitizer build of the library, used by the ASan/UBSan test pass.
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_OBJ := $(patsubst %.c,$(B)/asan/%.o,$(LIBSRC))
ASAN_LIB := $(B)/asan/libblacs.a

.PHONY: FORCE all lib check unit mpi-tests abi-check asan-check valgrind-check conformance demo install \
        uninstall clean topo-table examples example-tests lu-compare install-check lint format mpi-flavour \
        mangling-check ilp64-tests man-check dist distcheck app-compare stress

all: lib $(B)/tools/blacs-tune
lib: $(SOLINK) $(ALIB) $(SOLINK64) $(ALIB64)

$(B)/tools/ucx_idle.so: tools/ucx_idle.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) -shared -fPIC -o $@ $< -ldl

# The wrappers must be the MPI that MPI= names: an Open MPI build of mpicc
# behind the name of an MPICH library (or the reverse) would install a
# library that fails at run time.  Checked once per build folder.
$(B)/mpi-flavour:
	@mkdir -p $(dir $@)
	@printf '#include <mpi.h>\n#ifdef OMPI_MAJOR_VERSION\nopenmpi\n#else\nnot-openmpi\n#endif\n' | \
	    $(MPICC) $(CPPFLAGS) -E -P -x c - 2>/dev/null | grep -x -E 'openmpi|not-openmpi' >$@.tmp || \
	    { echo "$(MPICC) cannot compile an MPI program (MPI=$(MPI); see README: Building)"; rm -f $@.tmp; exit 1; }
	@case "$(MPI):$$(cat $@.tmp)" in openmpi:openmpi | mpich:not-openmpi) mv $@.tmp $@ ;; \
	    *) echo "MPI=$(MPI) but $(MPICC)'s mpi.h is $$(cat $@.tmp): pass MPICC=, MPIFC= and MPIRUN= of $(MPI)"; \
	       rm -f $@.tmp; exit 1 ;; esac
mpi-flavour: $(B)/mpi-flavour

# The tuning file's place, compiled into blacs/machine.c and blacs-tune:
# rebuilt when SYSCONFDIR (or PREFIX) changes, so that `make install
# PREFIX=...` installs a library that looks under that prefix.
$(B)/sysconfdir: FORCE
	@mkdir -p $(dir $@)
	@echo '$(SYSCONFDIR)' | cmp -s - $@ 2>/dev/null || echo '$(SYSCONFDIR)' >$@
$(B)/obj/blacs/machine.o $(B)/obj64/blacs/machine.o $(B)/tools/blacs-tune: $(B)/sysconfdir
FORCE:

$(B)/obj/%.o: %.c $(HEADERS) | $(B)/mpi-flavour
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(CPPFLAGS) $(CFLAGS) $(OBJ_OPT) $(LIBFLAGS) -c $< -o $@

# The combine element loops (blacs/ops.c) are the library's only arithmetic:
# let the compiler vectorize them (-O2's cost model leaves them scalar).
# OBJ_OPT comes after CFLAGS, so that CFLAGS=... on the command line keeps it.
$(B)/obj/blacs/ops.o: OBJ_OPT := -O3

$(B)/obj64/%.o: %.c $(HEADERS) | $(B)/mpi-flavour
	@mkdir -p $(dir $@)
	$(call say,CC-64,$<)
	$(Q)$(MPICC) $(CPPFLAGS) $(ILP64) $(CFLAGS) $(OBJ_OPT) $(LIBFLAGS) -c $< -o $@
$(B)/obj64/blacs/ops.o: OBJ_OPT := -O3

$(SOLIB): $(LIBOBJ)
	$(call say,LD,$@)
	$(Q)$(MPICC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined -o $@ $^ -lm -ldl
$(SOLIB64): $(LIBOBJ64)
	$(call say,LD,$@)
	$(Q)$(MPICC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME64) -Wl,--no-undefined -o $@ $^ -lm -ldl

$(B)/$(SONAME): $(SOLIB)
	ln -sf $(notdir $<) $@
$(B)/$(SONAME64): $(SOLIB64)
	ln -sf $(notdir $<) $@

# The link names lib$(LIBNAME).so and lib$(LIBNAME64).so are GNU ld scripts:
# the library, and an object (link/keep.c) whose one reference to a name only
# this library defines keeps it needed under --as-needed, in a CMake or
# pkg-config link, whatever the program calls itself.
KEEP     := $(B)/lib$(LIBNAME)-keep.o
KEEP64   := $(B)/lib$(LIBNAME64)-keep.o
ld_script = printf '/* GNU ld script: the BLACS library, and an object that keeps it needed (link/keep.c) */\nINPUT(%s %s)\n'
$(KEEP): link/keep.c blacs/blacs.h | $(B)/mpi-flavour
	$(call say,CC,$<)
	$(Q)$(MPICC) $(CPPFLAGS) $(CFLAGS) $(LIBFLAGS) -c $< -o $@
$(KEEP64): link/keep.c blacs/blacs.h | $(B)/mpi-flavour
	$(call say,CC-64,$<)
	$(Q)$(MPICC) $(CPPFLAGS) $(ILP64) $(CFLAGS) $(LIBFLAGS) -c $< -o $@
$(SOLINK): $(B)/$(SONAME) $(KEEP)
	$(Q)rm -f $@ && $(ld_script) $(notdir $(KEEP)) $(SONAME) >$@
$(SOLINK64): $(B)/$(SONAME64) $(KEEP64)
	$(Q)rm -f $@ && $(ld_script) $(notdir $(KEEP64)) $(SONAME64) >$@

$(ALIB): $(LIBOBJ)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^
$(ALIB64): $(LIBOBJ64)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/asan/%.o: %.c $(HEADERS) | $(B)/mpi-flavour
	@mkdir -p $(dir $@)
	$(call say,CC-SAN,$<)
	$(Q)$(MPICC) $(CPPFLAGS) -O1 -g $(SANFLAGS) $(LIBFLAGS) -c $< -o $@

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
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(TESTFLAGS) $(LDFLAGS) -o $@ $< examples/distrib.c

# Unit tests call pure internal modules (msgid, packing, trees, element
# operations) from the static library; they never start MPI.
$(B)/test/unit/%: test/unit/%.c $(ALIB) $(HEADERS) test/check.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(CPPFLAGS) $(CFLAGS) $(TESTFLAGS) $(LDFLAGS) -o $@ $< $(ALIB) -lm

# MPI tests link the static library: they may look at internal state
# (buffer queue statistics) that the shared library does not export.
$(B)/test/mpi/%: test/mpi/%.c $(ALIB) test/check.h test/mpi/mpitest.h test/mpi/typed.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(CPPFLAGS) $(CFLAGS) $(TESTFLAGS) $(LDFLAGS) -pthread -o $@ $< $(ALIB) -lm

# t_residue looks for addresses of the library on the stack: it links the
# shared library, whose segments are apart from the test's own.
$(B)/test/mpi/t_residue: test/mpi/t_residue.c $(SOLINK) test/check.h test/mpi/mpitest.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(CPPFLAGS) $(CFLAGS) $(TESTFLAGS) $(LDFLAGS) -o $@ $< -L$(B) -l$(LIBNAME) \
	    -Wl,-rpath,$(abspath $(B))

$(B)/test/mpi/%: test/mpi/%.f90 $(ALIB)
	@mkdir -p $(dir $@)
	$(call say,FC,$<)
	$(Q)$(MPIFC) $(FFLAGS) $(FWARN) -J $(B)/test/mpi $(LDFLAGS) -o $@ $< $(ALIB) -lm

$(B)/asan/test/%: test/mpi/%.c $(ASAN_LIB) test/check.h test/mpi/mpitest.h test/mpi/typed.h
	@mkdir -p $(dir $@)
	$(call say,CC-SAN,$<)
	$(Q)$(MPICC) $(CPPFLAGS) -O1 -g $(SANFLAGS) $(TESTFLAGS) $(LDFLAGS) -o $@ $< $(ASAN_LIB) -lm

# ILP64 tests (test/ilp64-cases.sh): the Fortran MPI test compiled with
# -fdefault-integer-8 on the ILP64 library, t_big (values beyond 2^31) in C
# with -DBLACS_ILP64, and t_wide: a 64-bit-INTEGER program linked by mistake
# with the LP64 library, which must say so.
IL64      := $(B)/test/ilp64
ILP64_BIN := $(IL64)/t_fortran $(IL64)/t_big $(IL64)/t_wide
FINT8     := -fdefault-integer-8

$(IL64)/t_fortran: test/mpi/t_fortran.f90 $(ALIB64)
	@mkdir -p $(dir $@)
	$(call say,FC-64,$<)
	$(Q)$(MPIFC) $(FFLAGS) $(FWARN) $(FINT8) -J $(IL64) $(LDFLAGS) -o $@ $< $(ALIB64) -lm

$(IL64)/t_big: test/ilp64/t_big.c $(ALIB64) blacs/blacs.h blacs/blacs_ilp64.h
	@mkdir -p $(dir $@)
	$(call say,CC-64,$<)
	$(Q)$(MPICC) $(CPPFLAGS) $(CFLAGS) $(TESTFLAGS) $(LDFLAGS) -o $@ $< $(ALIB64) -lm

$(IL64)/t_wide: test/ilp64/t_wide.f90 $(ALIB)
	@mkdir -p $(dir $@)
	$(call say,FC-64,$<)
	$(Q)$(MPIFC) $(FFLAGS) $(FWARN) $(FINT8) -J $(IL64) $(LDFLAGS) -o $@ $< $(ALIB) -lm

ilp64-tests: $(ILP64_BIN) $(IDLE_SO)
	MPIRUN="$(MPIRUN)" MPI_CASES=test/ilp64-cases.sh bash test/run-mpi.sh $(IL64)

unit: $(UNIT_BIN)
	@for t in $(UNIT_BIN); do echo "== $$t"; $$t || exit 1; done

mpi-tests: $(MPIT_BIN) $(MPIT_FBIN) $(B)/tools/blacs-tune $(IDLE_SO)
	MPIRUN="$(MPIRUN)" bash test/run-mpi.sh $(B)/test/mpi

abi-check: lib
	REFERENCE_BLACS="$(REFERENCE_BLACS)" bash test/abi-check.sh $(B)/$(SONAME)
	REFERENCE_BLACS="$(REFERENCE_BLACS)" bash test/abi-check.sh $(B)/$(SONAME64)

# The Fortran entry points under every mangling (name_, name, name__, NAME),
# from a Fortran program built each way (test/mangling.sh).
mangling-check: lib $(IDLE_SO)
	MPIFC="$(MPIFC)" FFLAGS="$(FFLAGS)" FWARN="$(FWARN)" LDFLAGS="$(LDFLAGS)" MPIRUN="$(MPIRUN)" \
	    bash test/mangling.sh $(B) $(LIBNAME)

install-check: lib $(IDLE_SO)
	MPI="$(MPI)" MPICC="$(MPICC)" MPIRUN="$(MPIRUN)" B="$(B)" SCALAPACK="$(SCALAPACK)" \
	    bash test/install-check.sh

asan-check: $(ASAN_BIN) $(IDLE_SO)
	MPIRUN="$(MPIRUN)" SANITIZED=1 bash test/run-mpi.sh $(B)/asan/test

# memcheck on the unit tests (with leak checking) and on a few MPI tests
# (Open MPI's own start-up noise suppressed; see test/valgrind.supp).
VALGRIND := valgrind -q --error-exitcode=9 $(if $(filter openmpi,$(MPI)),\
            --suppressions=/usr/share/openmpi/openmpi-valgrind.supp) --suppressions=test/valgrind.supp
valgrind-check: $(UNIT_BIN) $(MPIT_BIN) $(IDLE_SO)
	@for t in $(UNIT_BIN); do echo "== valgrind $$t"; \
	    $(VALGRIND) --leak-check=full --errors-for-leak-kinds=definite $$t || exit 1; done
	MPIRUN="$(MPIRUN)" VALGRIND_CMD="$(VALGRIND)" VALGRIND=1 bash test/run-mpi.sh $(B)/test/mpi

# Layers and cycles, function length, formatting (tools/lint.sh).
lint: lib
	bash tools/lint.sh $(B)/obj

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

# The manual pages (man/): they render without a warning, every routine
# name has one, and their synopses are blacs.h's prototypes.
man-check: $(SOLIB)
	bash test/man-check.sh man $(SOLIB)

# The release tarball, libblacs-$(VERSION)/: in a git checkout what git
# holds at HEAD, in an unpacked tarball its files (no build folders, no
# tarballs).  Named after the version of what it holds (in a checkout,
# HEAD's blacs.h and NEWS, which may differ from the files being edited),
# -dev where NEWS's top section is Unreleased (make lint checks that NEWS
# and blacs.h agree; doc/release.md).  Written under a temporary name, so
# that a failure leaves no tarball.  distcheck builds it, unpacks it in a
# fresh folder and runs make check there.
dist_vpart = $(shell (if [ -e .git ]; then git show HEAD:blacs/blacs.h; else cat blacs/blacs.h; fi) | \
    sed -n 's/^\#define BLACS_VERSION_$(1) \([0-9]*\)$$/\1/p')
DIST = libblacs-$(call dist_vpart,MAJOR).$(call dist_vpart,MINOR).$(call dist_vpart,PATCH)$(shell \
    (if [ -e .git ]; then git show HEAD:NEWS; else cat NEWS; fi) | grep -m1 -x 'Unreleased' >/dev/null && echo -dev)
dist:
	@rm -f $(DIST).tar.gz $(DIST).tar.gz.tmp
	$(Q)if [ -e .git ]; then git archive --format=tar.gz --prefix=$(DIST)/ -o $(DIST).tar.gz.tmp HEAD; \
	else t=$$(mktemp) && tar -czf $$t --exclude=./build --exclude='./build-*' --exclude='./*.tar.gz' \
	    --exclude='./*.tar.gz.tmp' --transform 's,^\.,$(DIST),' . && chmod 644 $$t && mv $$t $(DIST).tar.gz.tmp || \
	    { rm -f $$t; false; }; fi && \
	mv $(DIST).tar.gz.tmp $(DIST).tar.gz || { rm -f $(DIST).tar.gz.tmp; exit 1; }
	@echo "dist: $(DIST).tar.gz ($$( [ -e .git ] && git rev-parse --short HEAD || echo 'from this folder'))"
distcheck: dist
	@dir=$$(mktemp -d) && tar -xzf $(DIST).tar.gz -C $$dir && \
	    $(MAKE) -C $$dir/$(DIST) check MPI=$(MPI) && rm -rf $$dir && \
	    echo "distcheck: $(DIST).tar.gz builds and passes make check in a fresh folder"

conformance: lib $(B)/tools/topo_table $(IDLE_SO)
	MPIRUN="$(MPIRUN)" BLACS_TESTER_DIR="$(TESTER_DIR)" \
	    bash test/conformance/run.sh $(B)/$(SONAME) $(B)/tools/topo_table

# ScaLAPACK 2.2.3's fix of P?LACON, preloaded where make stress needs it
# (tools/lacon_fix.c).
$(B)/tools/lacon_fix.so: tools/lacon_fix.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) -shared -fPIC -o $@ $< -ldl

# The suites under perturbed timings (test/stress.sh): ScaLAPACK's test
# programs, the BLACS tester, the library's MPI tests.  Options STRESS_*.
stress: lib $(MPIT_BIN) $(MPIT_FBIN) $(B)/tools/blacs-tune $(B)/tools/topo_table $(B)/tools/lacon_fix.so $(IDLE_SO)
	MPIRUN="$(MPIRUN)" BLACS_TESTER_DIR="$(TESTER_DIR)" \
	    bash test/stress.sh $(B)/$(SONAME) $(B)/tools/lacon_fix.so $(B)/test/mpi $(B)/tools/topo_table

# CHECK_SIM=no leaves out sim-check, which does not depend on the MPI (SMPI
# is its own): CI runs it with Open MPI's check only.
CHECK_SIM ?= yes
check: lib
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory lint && \
	$(MAKE) --no-print-directory unit && \
	$(MAKE) --no-print-directory abi-check && \
	$(MAKE) --no-print-directory install-check && \
	$(MAKE) --no-print-directory man-check && \
	$(MAKE) --no-print-directory mangling-check && \
	$(MAKE) --no-print-directory mpi-tests && \
	$(MAKE) --no-print-directory ilp64-tests && \
	$(MAKE) --no-print-directory asan-check && \
	$(MAKE) --no-print-directory valgrind-check && \
	$(MAKE) --no-print-directory conformance && \
	$(MAKE) --no-print-directory example-tests && \
	$(MAKE) --no-print-directory bench-check && \
	{ [ "$(CHECK_SIM)" = no ] || $(MAKE) --no-print-directory sim-check; } && \
	echo "make check: all passed in $$(( $$(date +%s) - start )) s ($(MPI), $(MPIRUN))"

# The measured broadcast schedule of every topology (LAWN 73 Table 9).
$(B)/tools/topo_table: tools/topo_table.c tools/explain.c tools/explain.h $(ALIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(CPPFLAGS) $(CFLAGS) $(TESTFLAGS) $(LDFLAGS) -o $@ $< tools/explain.c $(ALIB) -lm

# blacs-tune: measures the machine and writes a tuning file (doc/guide.md).
$(B)/tools/blacs-tune: tools/blacs_tune.c $(ALIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(CPPFLAGS) $(CFLAGS) $(TESTFLAGS) $(MODEL_FILE) $(LDFLAGS) -o $@ $< $(ALIB) -lm

topo-table: $(B)/tools/topo_table
	@$(B)/tools/topo_table 8 13

# ---------------------------------------------------------------------------
# Examples and the demo
# ---------------------------------------------------------------------------
# Examples link the shared library (found next to them through their rpath)
# and Debian's BLAS (the reference BLAS, with its CBLAS interface).
EX       := $(B)/examples
EXFLAGS  := $(CPPFLAGS) $(CFLAGS) $(STD) $(WARN) -Iblacs -Iexamples
EXLIBS   := $(LDFLAGS) -L$(B) -l$(LIBNAME) -Wl,-rpath,'$$ORIGIN/..' -lblas -lm
EXAMPLES := $(EX)/demo $(EX)/mvmult $(EX)/mvmult_f $(EX)/mvmult_f64 $(EX)/lu $(EX)/extensions $(EX)/extensions_f \
            $(EX)/extensions_f64
LAUNCH   := MPIRUN="$(MPIRUN)" bash tools/launcher.sh

$(EX)/demo $(EX)/mvmult $(EX)/extensions: $(EX)/%: examples/%.c $(SOLINK) blacs/blacs.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(EXFLAGS) -o $@ $< $(EXLIBS)

$(EX)/lu: examples/lu.c examples/distrib.c examples/distrib.h $(SOLINK) blacs/blacs.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(EXFLAGS) -o $@ examples/lu.c examples/distrib.c $(EXLIBS)

# The same source on the reference BLACS (Debian's ScaLAPACK holds it): the
# example uses nothing the reference lacks.
$(EX)/lu_ref: examples/lu.c examples/distrib.c examples/distrib.h blacs/blacs.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(EXFLAGS) $(LDFLAGS) -o $@ examples/lu.c examples/distrib.c $(SCALAPACK) -lblas -lm

# The HPL-style LU (look-ahead, HPL's modified rings, a fused pivot
# search), measured by lu-compare and, simulated, by sim-lu.
$(B)/bench/hpl_lu: bench/hpl_lu.c examples/distrib.c examples/distrib.h $(SOLINK) blacs/blacs.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(EXFLAGS) -o $@ bench/hpl_lu.c examples/distrib.c $(EXLIBS)

$(EX)/mvmult_f $(EX)/extensions_f: $(EX)/%_f: examples/%.f90 $(SOLINK)
	@mkdir -p $(dir $@)
	$(call say,FC,$<)
	$(Q)$(MPIFC) $(FFLAGS) $(FWARN) -J $(EX) -o $@ $< $(EXLIBS)

# The Fortran example with 64-bit INTEGER: the ILP64 library and Debian's
# 64-bit-integer reference BLAS (libblas64).
$(EX)/mvmult_f64: examples/mvmult.f90 $(SOLINK64)
	@mkdir -p $(dir $@)
	$(call say,FC-64,$<)
	$(Q)$(MPIFC) $(FFLAGS) $(FWARN) $(FINT8) -J $(EX) -o $@ $< $(LDFLAGS) -L$(B) -l$(LIBNAME64) \
	    -Wl,-rpath,'$$ORIGIN/..' -lblas64 -lm

# LAWN 73's extensions from Fortran with 64-bit INTEGER (its module apart).
$(EX)/extensions_f64: examples/extensions.f90 $(SOLINK64)
	@mkdir -p $(EX)/mod64
	$(call say,FC-64,$<)
	$(Q)$(MPIFC) $(FFLAGS) $(FWARN) $(FINT8) -J $(EX)/mod64 -o $@ $< $(LDFLAGS) -L$(B) -l$(LIBNAME64) \
	    -Wl,-rpath,'$$ORIGIN/..' -lm

examples: $(EXAMPLES)

# ScaLAPACK's PDGESV on the same problem, for lu-compare (links Debian's ScaLAPACK).
$(B)/bench/pdgesv_lu: bench/pdgesv_lu.c blacs/blacs.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(MPICC) $(EXFLAGS) $(LDFLAGS) -o $@ $< $(SCALAPACK) -llapack -lblas -lm

TRIALS ?= 5
LU_N ?= 2000
LU_NB ?= 64
LU_P ?= 2
LU_Q ?= 2
lu-compare: $(B)/bench/hpl_lu $(B)/bench/pdgesv_lu $(IDLE_SO)
	MPIRUN="$(MPIRUN)" BUILD=$(B) BLACS_LIB=$(B)/$(SONAME) LU_ARGS="$(LU_ARGS)" LU_BLAS_DIR="$(LU_BLAS_DIR)" \
	    bash bench/lu-compare.sh $(TRIALS) $(LU_N) $(LU_NB) $(LU_P) $(LU_Q)

# ScaLAPACK's own drivers, the binaries Debian ships in $(TESTER_DIR) (xdlu,
# xdllt, xdqr, xdsyevr, PBLAS/TIMING/dpb3tim), unchanged, on the reference
# BLACS and with this library preloaded, alternately, on OpenBLAS (serial);
# medians, ratios and the ref-vs-ref noise (bench/app-compare.sh).
APP_TRIALS ?= 5
APP_ORDER ?= ref-first
APP_NP ?= $(or $(NPROCS),2 4)
APP_DRIVERS ?= lu llt qr sepr gemm
APP_NB ?= 64
APP_LU_REPS ?= 20
APP_LLT_REPS ?= 200
APP_QR_REPS ?= 40
APP_SEPR_REPS ?= 1
APP_GEMM_REPS ?= 200
APP_LU_N ?= 800
APP_LLT_N ?= 500
APP_QR_N ?= 500
APP_SEPR_N ?= 1300
APP_GEMM_N ?= 400
OPENBLAS_DIR ?= /usr/lib/x86_64-linux-gnu/openblas-serial
app-compare: $(B)/$(SONAME) $(IDLE_SO)
	MPIRUN="$(MPIRUN)" BLACS_LIB=$(B)/$(SONAME) APP_DRIVER_DIR=$(TESTER_DIR) OPENBLAS_DIR=$(OPENBLAS_DIR) \
	    APP_TRIALS=$(APP_TRIALS) APP_ORDER=$(APP_ORDER) APP_NP="$(APP_NP)" APP_DRIVERS="$(APP_DRIVERS)" APP_NB=$(APP_NB) \
	    APP_LU_N="$(APP_LU_N)" APP_LLT_N="$(APP_LLT_N)" APP_QR_N="$(APP_QR_N)" APP_SEPR_N="$(APP_SEPR_N)" \
	    APP_GEMM_N="$(APP_GEMM_N)" APP_LU_REPS=$(APP_LU_REPS) APP_LLT_REPS=$(APP_LLT_REPS) \
	    APP_QR_REPS=$(APP_QR_REPS) APP_SEPR_REPS=$(APP_SEPR_REPS) APP_GEMM_REPS=$(APP_GEMM_REPS) \
	    bash bench/app-compare.sh

example-tests: $(EXAMPLES) $(EX)/lu_ref $(B)/bench/hpl_lu $(B)/tools/topo_table $(IDLE_SO)
	MPIRUN="$(MPIRUN)" bash test/examples.sh $(EX) $(B)/bench

demo: $(EXAMPLES) $(IDLE_SO)
	$(LAUNCH) 4 $(EX)/demo
	$(LAUNCH) 4 $(EX)/mvmult
	$(LAUNCH) 4 $(EX)/mvmult_f
	$(LAUNCH) 4 $(EX)/lu --n 2000 --nb 64 --p 2 --q 2

# ---------------------------------------------------------------------------
# Install
# ---------------------------------------------------------------------------
# Installed names: lib/libblacs-$(MPI).so.1 (+ .so.1.0.0, .so), lib/libblacs-$(MPI).a,
# lib/pkgconfig/blacs-$(MPI).pc, include/blacs.h (the same for every MPI): an
# Open MPI and an MPICH build install side by side under one PREFIX.  The
# ILP64 library beside it: lib/libblacs64-$(MPI).so.1 (.so.1.0.0, .so, .a),
# lib/pkgconfig/blacs64-$(MPI).pc (which adds -DBLACS_ILP64) and
# include/blacs_ilp64.h.  The unflavoured names lib/libblacs.so, lib/libblacs.a,
# lib/pkgconfig/blacs.pc (and libblacs64.so, libblacs64.a, blacs64.pc) are
# links to one flavour's: the Open MPI install makes them (UNFLAVOURED=yes
# is its default, no for MPICH), so the two installs never fight over them;
# `make install MPI=mpich UNFLAVOURED=yes` points them at MPICH instead.
UNFLAVOURED ?= $(if $(filter openmpi,$(MPI)),yes,no)
PCFILE := $(LIBNAME).pc
PCFILE64 := $(LIBNAME64).pc
# blacs-$(MPI).pc names its MPI: the MPI's own pkg-config module when
# pkg-config knows it (ompi-c, mpich; PC_MPI= to change), else the wrapper's flags.
PC_REQUIRES = $(shell pkg-config --exists $(PC_MPI) 2>/dev/null && echo $(PC_MPI))
PC_WRAP_CFLAGS = $(if $(PC_REQUIRES),,$(if $(filter openmpi,$(MPI)),$(shell $(MPICC) --showme:compile),\
                 $(filter -I% -D% -pthread,$(shell $(MPICC) -compile_info))))
PC_WRAP_LIBS = $(if $(PC_REQUIRES),,$(if $(filter openmpi,$(MPI)),$(shell $(MPICC) --showme:link),\
               $(filter -L% -l% -Wl% -pthread,$(shell $(MPICC) -link_info))))
MPINAME := $(if $(filter openmpi,$(MPI)),Open MPI,MPICH)
# The CMake package (lib/cmake/blacs): blacsConfig.cmake and its version
# file, the same for every flavour, and blacs-$(MPI)-targets.cmake; paths
# relative to where it is installed.  MPI's include folders and libraries
# as the wrapper gives them.
CMAKEDIR ?= $(LIBDIR)/cmake/blacs
MANDIR   ?= $(PREFIX)/share/man
MAN3DIR  := $(MANDIR)/man3
MAN1DIR  := $(MANDIR)/man1
semi = $(subst $(eval) ,;,$(strip $(1)))
MPI_INCDIRS = $(if $(filter openmpi,$(MPI)),$(shell $(MPICC) --showme:incdirs),\
              $(patsubst -I%,%,$(filter -I%,$(shell $(MPICC) -compile_info))))
MPI_LINK = $(if $(filter openmpi,$(MPI)),$(shell $(MPICC) --showme:link),\
           $(filter -L% -l% -pthread,$(shell $(MPICC) -link_info)))
CMAKE_SED = -e 's|@VERSION@|$(VERSION)|; s|@SOMAJOR@|$(SOMAJOR)|; s|@MPI@|$(MPI)|g; s|@MPINAME@|$(MPINAME)|' \
            -e 's|@INC_FROM_LIB@|$(shell realpath -m --relative-to=$(LIBDIR) $(INCDIR))|' \
            -e 's|@MPI_INCDIRS@|$(call semi,$(MPI_INCDIRS))|; s|@MPI_LIBS@|$(call semi,$(MPI_LINK))|' \
            -e 's|@UNFLAVOURED_CMAKE@|$(if $(filter yes,$(UNFLAVOURED)),TRUE,FALSE)|'

PC_SED = -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCDIR@|$(INCDIR)|; s|@VERSION@|$(VERSION)|' \
         -e 's|@MPINAME@|$(MPINAME)|; s|@REQUIRES@|$(PC_REQUIRES)|' \
         -e 's|@MPI_CFLAGS@|$(strip $(PC_WRAP_CFLAGS))|; s|@MPI_LIBS@|$(strip $(PC_WRAP_LIBS))|'
PC_LP64  = -e 's|@LIBNAME@|$(LIBNAME)|g; s|@INTEGERS@|LP64: 32-bit INTEGER|; s|@ILP64_CFLAGS@||'
PC_ILP64 = -e 's|@LIBNAME@|$(LIBNAME64)|g; s|@INTEGERS@|ILP64: 64-bit INTEGER|; s|@ILP64_CFLAGS@| -DBLACS_ILP64|'

# make install installs what make built and never rebuilds it with the
# install's flags (a packager's CFLAGS and LDFLAGS would be lost).  The one
# setting compiled in that an install names too is the tuning file's place,
# SYSCONFDIR (PREFIX/etc by default): where the build's differs, install
# stops before it copies anything.  Built nothing yet: install builds.
BUILT_SYSCONFDIR := $(if $(filter install,$(MAKECMDGOALS)),$(shell cat $(B)/sysconfdir 2>/dev/null))
ifneq ($(BUILT_SYSCONFDIR),)
ifneq ($(BUILT_SYSCONFDIR),$(SYSCONFDIR))
$(error make install: $(B)/ was built with SYSCONFDIR=$(BUILT_SYSCONFDIR) (its library reads \
$(BUILT_SYSCONFDIR)/blacs/model), this install has SYSCONFDIR=$(SYSCONFDIR) (from PREFIX=$(PREFIX)). \
make install does not rebuild: give make the install's PREFIX (and SYSCONFDIR) and your flags, then \
install, e.g. make PREFIX=/usr SYSCONFDIR=/etc CFLAGS=... LDFLAGS=... && make install PREFIX=/usr \
SYSCONFDIR=/etc DESTDIR=...)
endif
endif

install: lib $(B)/tools/blacs-tune
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(CMAKEDIR) \
	    $(DESTDIR)$(MAN3DIR) $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSCONFDIR)/blacs
	install -m 755 $(B)/tools/blacs-tune $(DESTDIR)$(BINDIR)/blacs-tune-$(MPI)
	install -m 755 $(SOLIB) $(SOLIB64) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SOLIB)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(notdir $(SOLIB64)) $(DESTDIR)$(LIBDIR)/$(SONAME64)
	install -m 644 $(KEEP) $(KEEP64) $(SOLINK) $(SOLINK64) $(DESTDIR)$(LIBDIR)/
	install -m 644 $(ALIB) $(ALIB64) $(DESTDIR)$(LIBDIR)/
	install -m 644 blacs/blacs.h blacs/blacs_ilp64.h $(DESTDIR)$(INCDIR)/
	sed $(PC_SED) $(PC_LP64) link/blacs.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/$(PCFILE)
	sed $(PC_SED) $(PC_ILP64) link/blacs.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/$(PCFILE64)
	sed $(CMAKE_SED) link/blacsConfig.cmake.in >$(DESTDIR)$(CMAKEDIR)/blacsConfig.cmake
	sed $(CMAKE_SED) link/blacsConfigVersion.cmake.in >$(DESTDIR)$(CMAKEDIR)/blacsConfigVersion.cmake
	sed $(CMAKE_SED) link/blacs-targets.cmake.in >$(DESTDIR)$(CMAKEDIR)/blacs-$(MPI)-targets.cmake
	install -m 644 man/*.3 $(DESTDIR)$(MAN3DIR)/
	sh tools/man-aliases.sh | while read -r name fam; do \
	    echo ".so man3/$$fam.3" >$(DESTDIR)$(MAN3DIR)/$$name.3; done
	install -m 644 man/*.1 $(DESTDIR)$(MAN1DIR)/
ifeq ($(UNFLAVOURED),yes)
	ln -sf lib$(LIBNAME).so $(DESTDIR)$(LIBDIR)/libblacs.so
	ln -sf lib$(LIBNAME).a $(DESTDIR)$(LIBDIR)/libblacs.a
	ln -sf $(PCFILE) $(DESTDIR)$(LIBDIR)/pkgconfig/blacs.pc
	ln -sf lib$(LIBNAME64).so $(DESTDIR)$(LIBDIR)/libblacs64.so
	ln -sf lib$(LIBNAME64).a $(DESTDIR)$(LIBDIR)/libblacs64.a
	ln -sf $(PCFILE64) $(DESTDIR)$(LIBDIR)/pkgconfig/blacs64.pc
	ln -sf blacs-tune-$(MPI) $(DESTDIR)$(BINDIR)/blacs-tune
endif

# Removes this flavour; the unflavoured links only if they point at it, the
# headers only if no other flavour is left.
uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/lib$(LIBNAME).so* $(DESTDIR)$(LIBDIR)/lib$(LIBNAME).a \
	      $(DESTDIR)$(LIBDIR)/pkgconfig/$(PCFILE) $(DESTDIR)$(LIBDIR)/lib$(LIBNAME64).so* \
	      $(DESTDIR)$(LIBDIR)/lib$(LIBNAME64).a $(DESTDIR)$(LIBDIR)/pkgconfig/$(PCFILE64) \
	      $(DESTDIR)$(LIBDIR)/lib$(LIBNAME)-keep.o $(DESTDIR)$(LIBDIR)/lib$(LIBNAME64)-keep.o \
	      $(DESTDIR)$(CMAKEDIR)/blacs-$(MPI)-targets.cmake $(DESTDIR)$(BINDIR)/blacs-tune-$(MPI)
	@[ "$$(readlink $(DESTDIR)$(BINDIR)/blacs-tune)" = blacs-tune-$(MPI) ] && \
	    rm -f $(DESTDIR)$(BINDIR)/blacs-tune || true
	@cd $(DESTDIR)$(LIBDIR) 2>/dev/null || exit 0; \
	for f in libblacs.so:lib$(LIBNAME).so libblacs.a:lib$(LIBNAME).a pkgconfig/blacs.pc:$(PCFILE) \
	         libblacs64.so:lib$(LIBNAME64).so libblacs64.a:lib$(LIBNAME64).a pkgconfig/blacs64.pc:$(PCFILE64); do \
	    [ "$$(readlink $${f%%:*})" = "$${f#*:}" ] && rm -f $${f%%:*}; done; \
	ls libblacs-*.so.$(SOMAJOR) >/dev/null 2>&1 || { rm -f $(DESTDIR)$(INCDIR)/blacs.h \
	    $(DESTDIR)$(INCDIR)/blacs_ilp64.h $(DESTDIR)$(CMAKEDIR)/blacsConfig*.cmake; \
	    for m in $(CURDIR)/man/*.3; do rm -f $(DESTDIR)$(MAN3DIR)/$${m##*/}; done; \
	    sh $(CURDIR)/tools/man-aliases.sh | while read -r n f; do rm -f $(DESTDIR)$(MAN3DIR)/$$n.3; done; \
	    for m in $(CURDIR)/man/*.1; do rm -f $(DESTDIR)$(MAN1DIR)/$${m##*/}; done; }

clean:
	rm -rf $(B)

include bench/bench.mk
include sim/sim.mk
