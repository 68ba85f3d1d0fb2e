# sim/sim.mk - broadcasts and combines at scale, simulated with SimGrid's SMPI;
# included by the main Makefile.  See sim/README.md.
#
#   make sim         the library and MPI's collectives on p = 16, 64, 256 simulated
#                    processes of sim/cluster.xml, every TOP, 8 B .. 8 MiB; CSV, tables
#                    and plots in results/sim-<date>/ (about 10-15 min on 2 cores)
#   make sim-check   a p = 16 smoke run, the determinism check, a fault that must be
#                    caught, and the analysis (under a minute)
#
# Options, as make or environment variables:
#   SIM_P="16 64 256"  (add 1024 on request)   SIM_SIZES=8,64K,1M,8M
#   SIM_TOPS=_IDSMFH123456789T ('_' = the blank TOP)   SIM_OPS=bcast,allreduce,reduce
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

SIM_BINS := $(SIM_B)/simbench $(if $(SIM_REF_LIB),$(SIM_B)/simbench-ref)

.PHONY: sim sim-check sim-build

sim-build: $(SIM_BINS)

sim: $(SIM_BINS)
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" SIM_REF="$(if $(SIM_REF_LIB),$(SIM_B)/simbench-ref)" bash sim/run.sh

sim-check: $(SIM_B)/simbench
	@BUILD=$(B) SMPIRUN="$(SMPIRUN)" bash sim/check.sh
