# sim/sim.mk - broadcasts and combines at scale, simulated with SimGrid's SMPI;
# included by the main Makefile.  See sim/README.md.
#
#   make sim         the library and MPI's collectives on p = 16, 64, 256 simulated
#                    processes of sim/cluster.xml, every TOP, 8 B .. 8 MiB; CSV, tables
#                    and plots in results/sim-<date>/ (about 10-15 min on 2 cores)
#   make sim-nodes   the library as a user gets it (no BLACS_MODEL) on 16-core nodes:
#                    p = 256 on sim/nodes16.xml placed by node and round robin, TOPs
#                    ' ' I S M H T 1, 8 B .. 8 MiB, against the fastest of SMPI's ompi,
#                    mpich and mvapich2 collectives; results/sim-nodes-<date>/table.md
#                    (about 2 hours on 2 shared cores: 27 min by node, 82 round robin),
#                    then the whole of make sim-sweep
#   make sim-check   a p = 16 smoke run, the determinism check, a fault that must be
#                    caught, the analysis, a p = 32 run on nodes16, two random platforms
#                    with every algorithm forced in turn (sim/sweep.sh), a p = 16 run
#                    of the simulated lu (sim/lu-check.sh), BLACS_SET 15's sums on
#                    two networks (sim/repeat.sh), and ScaLAPACK's four drivers on
#                    32 processes on both BLACS (sim/scalapack/check.sh) (3-4 minutes)
#   make sim-sweep   every algorithm on 30 random platforms of 16-1024 processes:
#                    deadlock freedom and every element checked (sim/sweep.sh; hours)
#   make sim-sweep-times  the default TOP ' ' against the best of SMPI's ompi, mpich and
#                    mvapich2 collectives on 24 random platforms of 64-1024 processes,
#                    8 B .. 8 MiB (sim/sweep-times.sh; options SIM_TIMES_*; about 40 min
#                    here); results/sim-times-<date>/summary.md
#   make sim-lu      bench/hpl_lu.c at scale, its BLAS as simulated time (sim/lu.sh):
#                    p = 256 on the flat cluster and nodes16, every row TOP, look-ahead
#                    0 and 1 (options SIM_LU_*, sim/README.md; 10-20 min a run here)
#   make sim-lu-rates  one core's DGEMM GFLOP/s and DGER GB/s, sim-lu's rates
#   make sim-scalapack ScaLAPACK's PDGESV, PDPOTRF, PDGEQRF and PDGEMM (its own source,
#                    release 2.2.1) on its reference BLACS and on this library:
#                    p = 64 and 256 on the flat cluster and nodes16 (sim/scalapack/run.sh;
#                    options SIM_SL_*; results/sim-scalapack-<date>/table.md)
#
# Options, as make or environment variables:
#   SIM_P="16 64 256"  (add 1024 on request; sim-nodes: every core of the platform)
#   SIM_SIZES=8,64K,1M,8M (sim-nodes: 8,4K,64K,1M,8M)
#   SIM_TOPS=_IDSMFH123456789T ('_' = the blank TOP; sim-nodes: _ISMHT1)
#   SIM_OPS=bcast,allreduce,reduce
#   SIM_PLATFORM=flat|nodes16|nodes64   the simulated machine of make sim: sim/cluster.xml
#                          (flat, one process per host), sim/nodes16.xml, sim/nodes64.xml
#                          (16 hosts, 64 hosts, 16 processes per host)
#   SIM_PLACE=node|rr      ranks on a node platform's hosts: 16 consecutive ranks per
#                          host (node), or rank r on host r mod hosts (rr)
#   SIM_NODES="nodes16:node nodes16:rr"   make sim-nodes: the PLATFORM:PLACE runs
#                          (nodes64 on request: "nodes64:node nodes64:rr", p = 1024)
#   SIM_MODEL=none|alpha=...   BLACS_MODEL of the simulated processes; default on the
#                          flat cluster: its cost model; node platforms: none, always
#   SIM_SELECTORS="ompi mpich mvapich2"   SMPI collective selectors, the fastest is the
#                          MPI reference (default: ompi on flat, all three on nodes)
#   SIM_REF_LIB=/path/libblacs-ref.a   a reference BLACS built with smpicc: adds "ref" columns
#   SIM_PRIVATE_MAX=2G     p x bytes above this: vectors partially shared (edges checked)
#   SIM_SHARED_ABOVE=16G   p x bytes above this: the library's buffers are shared too
#                          (smpi/auto-shared-malloc-thresh; combines not checked)
#   RESULTS=results        SMPIRUN=smpirun  SMPICC=smpicc

SMPICC      ?= smpicc
SMPIRUN     ?= smpirun
SIM_B       := $(B)/sim
SIM_OBJ     := $(patsubst %.c,$(SIM_B)/obj/%.o,$(LIBSRC))
SIM_LIB     := $(SIM_B)/libblacs.a
SIM_FLAGS   := $(CFLAGS) $(STD) $(WARN) -Iblacs
SIM_REF_LIB ?=

# The library from the same sources and flags as build/libblacs.a, compiled
# by smpicc (which maps MPI onto SMPI and lets every simulated process have
# its own copy of the library's globals).  Computation takes no simulated
# time, so optimisation flags only change how long a simulation runs, never
# its results.
$(SIM_B)/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(call say,SMPICC,$<)
	$(Q)$(SMPICC) $(CFLAGS) $(LIBFLAGS) -c $< -o $@

# simbench fills and checks every element of every simulated process (all
# in one real process): let those loops vectorize.
$(SIM_B)/simbench $(SIM_B)/simbench-ref: SIM_FLAGS += -O3

$(SIM_B)/obj/blacs/machine.o $(SIM_B)/blacs-tune: $(B)/sysconfdir

$(SIM_LIB): $(SIM_OBJ)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(SIM_B)/simbench: sim/simbench.c blacs/blacs.h $(SIM_LIB)
	@mkdir -p $(dir $@)
	$(call say,SMPICC,$<)
	$(Q)$(SMPICC) $(SIM_FLAGS) -o $@ $< $(SIM_LIB)

# The same benchmark on a reference BLACS built with smpicc (sim/README.md).
$(SIM_B)/simbench-ref: sim/simbench.c blacs/blacs.h $(SIM_REF_LIB)
	@mkdir -p $(dir $@)
	$(call say,SMPICC,$<)
	$(Q)$(SMPICC) $(SIM_FLAGS) -DSIM_IMPL='"ref"' -o $@ $< $(SIM_REF_LIB)

# blacs-tune on the simulated machine: it must find the platform's values.
$(SIM_B)/blacs-tune: tools/blacs_tune.c $(HEADERS) $(SIM_LIB)
	@mkdir -p $(dir $@)
	$(call say,SMPICC,$<)
	$(Q)$(SMPICC) $(SIM_FLAGS) $(MODEL_FILE) -o $@ $< $(SIM_LIB) -lm

# repeatable sums on two platforms that measure differently (sim/repeat.sh)
$(SIM_B)/repeat: sim/repeat.c blacs/blacs.h $(HEADERS) $(SIM_LIB)
	@mkdir -p $(dir $@)
	$(call say,SMPICC,$<)
	$(Q)$(SMPICC) $(SIM_FLAGS) -o $@ $< $(SIM_LIB) -lm

# bench/hpl_lu.c with its BLAS as simulated time (sim/lu_simblas.h) and its
# large arrays in SMPI's shared memory, for make sim-lu (sim/lu.sh).
$(SIM_B)/lu: bench/hpl_lu.c examples/distrib.c examples/distrib.h sim/lu_simblas.h blacs/blacs.h $(SIM_LIB)
	@mkdir -p $(dir $@)
	$(call say,SMPICC,$<)
	$(Q)$(SMPICC) $(SIM_FLAGS) -DLU_SIM_FLOPS -Iexamples -Isim -o $@ bench/hpl_lu.c examples/distrib.c $(SIM_LIB) -lm

# ScaLAPACK's own drivers (PDGESV, PDPOTRF, PDGEQRF, PDGEMM) under SMPI, for
# make sim-scalapack (sim/scalapack/): ScaLAPACK's TOOLS, PBLAS, SRC and its
# reference BLACS compiled by smpicc and smpif90 from the files of release
# 2.2.1 these drivers need (sim/scalapack/scalapack-2.2.1-subset.tar.xz,
# made by sim/scalapack/vendor.sh), or from SCALAPACK_SRC, a whole source
# tree; linked once with the reference BLACS and once with this library,
# their BLAS as simulated time (sim/scalapack/simblas.c).
SL_B    := $(SIM_B)/scalapack
SL_TAR  := sim/scalapack/scalapack-2.2.1-subset.tar.xz
SCALAPACK_SRC ?=
SL_SRC  := $(or $(SCALAPACK_SRC),$(SL_B)/src)
SL_DRV  := sim/scalapack/driver.c sim/scalapack/simblas.c sim/scalapack/calls.c
# the BLACS routines that sim/scalapack/calls.c times (SIM_SL_CALLS)
SL_WRAPPED := $(foreach t,d i,$(foreach r,gebs2d gebr2d trbs2d trbr2d gesd2d gerv2d trsd2d trrv2d gsum2d gamx2d gamn2d,\
                $(t)$(r)_ C$(t)$(r))) blacs_barrier_ Cblacs_barrier
SL_LINK := $(foreach s,$(SL_WRAPPED),-Wl,--wrap=$(s)) -llapack -lgfortran -lm

$(SL_B)/src/LICENSE: $(SL_TAR)
	@rm -rf $(SL_B)/src && mkdir -p $(SL_B)/src
	$(call say,UNTAR,$<)
	$(Q)tar -xJf $< -C $(SL_B)/src && touch $@

$(SL_B)/libs.stamp: $(if $(SCALAPACK_SRC),,$(SL_B)/src/LICENSE) sim/scalapack/build.sh sim/scalapack/match_size.h
	$(call say,SCALAPACK,$(SL_SRC))
	$(Q)bash sim/scalapack/build.sh $(SL_SRC) $(SL_B) >/dev/null
	$(Q)echo "$(if $(SCALAPACK_SRC),$(SCALAPACK_SRC),release 2.2.1 (commit 1cad194; $(SL_TAR)))" >$(SL_B)/source.txt
	@touch $@

$(SL_B)/driver-ref: $(SL_DRV) sim/scalapack/calls.h sim/lu_simblas.h $(SL_B)/libs.stamp
	$(call say,SMPICC,$@)
	$(Q)$(SMPICC) $(SIM_FLAGS) -Isim -o $@ $(SL_DRV) $(SL_B)/libscalapack-sim.a $(SL_B)/libblacs-ref-sim.a $(SL_LINK)

$(SL_B)/driver-ours: $(SL_DRV) sim/scalapack/calls.h sim/lu_simblas.h $(SL_B)/libs.stamp $(SIM_LIB)
	$(call say,SMPICC,$@)
	$(Q)$(SMPICC) $(SIM_FLAGS) -Isim -o $@ $(SL_DRV) $(SL_B)/libscalapack-sim.a $(SIM_LIB) $(SL_LINK)

SIM_BINS := $(SIM_B)/simbench $(if $(SIM_REF_LIB),$(SIM_B)/simbench-ref)

.PHONY: sim sim-nodes sim-check sim-build sim-lu sim-lu-rates sim-sweep sim-sweep-times sim-scalapack

sim-build: $(SIM_BINS)

sim: $(SIM_BINS)
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" SIM_REF="$(if $(SIM_REF_LIB),$(SIM_B)/simbench-ref)" bash sim/run.sh

sim-nodes: $(SIM_BINS) $(B)/tools/topo_table
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" SIM_REF="$(if $(SIM_REF_LIB),$(SIM_B)/simbench-ref)" bash sim/nodes.sh
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" bash sim/sweep.sh

sim-check: $(SIM_B)/simbench $(SIM_B)/blacs-tune $(SIM_B)/lu $(SIM_B)/repeat $(B)/tools/topo_table \
           $(SL_B)/driver-ref $(SL_B)/driver-ours
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" bash sim/check.sh
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" bash sim/repeat.sh
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" bash sim/lu-check.sh
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" bash sim/scalapack/check.sh

# every algorithm on random platforms (sim/sweep.sh; options SIM_SWEEP_*)
sim-sweep: $(SIM_B)/simbench $(B)/tools/topo_table
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" bash sim/sweep.sh

# ' ' against MPI's collectives on random platforms (sim/sweep-times.sh;
# options SIM_TIMES_*)
sim-sweep-times: $(SIM_B)/simbench
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" bash sim/sweep-times.sh

# bench/hpl_lu.c at scale (sim/lu.sh; options SIM_LU_*, sim/README.md)
sim-lu: $(SIM_B)/lu
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" bash sim/lu.sh

# ScaLAPACK's drivers at scale, on both BLACS (sim/scalapack/run.sh; options
# SIM_SL_*, sim/README.md)
sim-scalapack: $(SL_B)/driver-ref $(SL_B)/driver-ours
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" bash sim/scalapack/run.sh

# one core's DGEMM and memory rates, the defaults of sim-lu (sim/lu_rates.c)
LU_RATES_BLAS ?= /usr/lib/x86_64-linux-gnu/openblas-serial/libopenblas.so.0
$(SIM_B)/lu_rates: sim/lu_rates.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CFLAGS) $(STD) $(WARN) -o $@ $< $(LU_RATES_BLAS)

sim-lu-rates: $(SIM_B)/lu_rates
	OPENBLAS_NUM_THREADS=1 $(SIM_B)/lu_rates $(or $(SIM_LU_NB),64)
