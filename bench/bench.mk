# bench/bench.mk - the benchmark suite; included by the main Makefile.
#
#   make bench           this library and raw MPI on 2 and 4 processes, then the
#                        analysis: results/<date>/summary.md and PNG plots (1-2 min)
#   make bench-compare   this library and the reference BLACS (Debian's ScaLAPACK),
#                        run alternately series by series and trial by trial (~4 min)
#   make bench-check     the suite's own tests (~20 s)
#
# Options, as make or environment variables (see bench/README.md):
#   NPROCS="2 4"  SERIES=all  SIZES=8,1K,16K,64K,256K,1M,8M  LAWN=1  TOPS=_ISH1F
#   TRIALS=3  RE_TRIALS=10  REPS=auto  TARGET_MS=10  DAXPY=10000,1000000
#   SCOPE=A  GRID=PxQ  RESULTS=results  BENCH_ARGS="more blacsbench options"

BENCH_B     := $(B)/bench
BENCH_FLAGS := $(CPPFLAGS) $(CFLAGS) $(STD) $(WARN) -Iblacs
BENCH_BINS  := $(BENCH_B)/blacsbench $(BENCH_B)/blacsbench-ref

# The program's sources (bench.h lists what each holds); pdgesv_lu.c is
# another program (make lu-compare).
BENCH_SRCS  := bench/blacsbench.c bench/options.c bench/series.c bench/engine.c bench/patterns.c \
               bench/comm.c bench/k_p2p.c bench/k_collective.c bench/k_matrix.c
BENCH_DEPS  := $(BENCH_SRCS) bench/bench.h blacs/blacs.h

# One set of sources, two binaries: on this library (found through the
# rpath, like the examples) and on the reference BLACS inside
# libscalapack-$(MPI).
$(BENCH_B)/blacsbench: $(BENCH_DEPS) $(SOLINK)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(MPICC) $(BENCH_FLAGS) -DBENCH_IMPL='"ours"' -DBENCH_EXTENSIONS $(LDFLAGS) -o $@ $(BENCH_SRCS) -L$(B) -l$(LIBNAME) -Wl,-rpath,'$$ORIGIN/..' -lblas -lm

$(BENCH_B)/blacsbench-ref: $(BENCH_DEPS)
	@mkdir -p $(dir $@)
	$(call say,CC-REF,$@)
	$(Q)$(MPICC) $(BENCH_FLAGS) -DBENCH_IMPL='"ref"' $(LDFLAGS) -o $@ $(BENCH_SRCS) $(SCALAPACK) -lblas -lm

# The analysis is bench/analyze.py (python3, standard library): nothing to build.

.PHONY: bench bench-compare bench-check bench-build

bench-build: $(BENCH_BINS)

bench: $(BENCH_B)/blacsbench $(IDLE_SO)
	@MPIRUN="$(MPIRUN)" BUILD=$(B) bash bench/run.sh

bench-compare: $(BENCH_B)/blacsbench $(BENCH_B)/blacsbench-ref $(IDLE_SO)
	@MPIRUN="$(MPIRUN)" BUILD=$(B) bash bench/compare.sh

bench-check: $(BENCH_BINS) $(IDLE_SO)
	@MPIRUN="$(MPIRUN)" BUILD=$(B) bash bench/check.sh
