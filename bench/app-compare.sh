#!/usr/bin/env bash
# bench/app-compare.sh - `make app-compare`: ScaLAPACK's own test and timing
# drivers, the binaries Debian ships (scalapack-mpi-test), unchanged, on the
# reference BLACS inside libscalapack ("ref") and on this library ("ours":
# the same binary with it preloaded), alternated run by run:
#
#   lu    xdlu                   PDGETRF + PDGETRS   LU.dat
#   llt   xdllt                  PDPOTRF + PDPOTRS   LLT.dat
#   qr    xdqr                   PDGEQRF             QR.dat
#   sepr  xdsyevr                PDSYEVR             SEPR.dat
#   gemm  PBLAS/TIMING/dpb3tim   PDGEMM              PDBLAS3TIM.dat
#
# Each driver reads its .dat from the current folder: this script writes
# them (RUN/dat/CASE-npNP/), one problem size repeated REPS times in one run,
# on a P x Q grid (2: 1 x 2, 4: 2 x 2, the squarest).  Every run uses
# OpenBLAS, serial (Debian's libopenblas0-serial, through LD_LIBRARY_PATH:
# the system's BLAS alternative is left alone), OPENBLAS_NUM_THREADS=1.
#
#   1. LD_DEBUG=bindings on one run of each side: with the library preloaded
#      every BLACS call of the driver and of ScaLAPACK binds to it, without
#      it to ScaLAPACK's own BLACS; dgemm_ binds to OpenBLAS in both.
#   2. trial 0 (not timed): ref, then ours with BLACS_STATS=RUN/stats/CASE-npNP.csv
#      (where the time inside the BLACS goes; also proves each driver ran on it).
#   3. trials 1..APP_TRIALS: for each process count and driver, ref then ours
#      (APP_ORDER=alternate: ours then ref in the even trials).
#   4. bench/app_compare.py report: medians, ratios, the ref-vs-ref noise,
#      the statistics, RUN/summary.md and RUN/app-compare.png.
#
# Every run's residual checks must pass and every problem must give its
# result, else the script stops with the log's tail (exit 1).
#
# Environment (make app-compare sets it; see bench/README.md):
#   BLACS_LIB       the library to preload (build/libblacs-openmpi.so.1)
#   APP_DRIVER_DIR  the drivers (/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests)
#   APP_TRIALS=5  APP_NP="2 4"  APP_DRIVERS="lu llt qr sepr gemm"  APP_NB=64
#   APP_LU_N=800  APP_LLT_N=500  APP_QR_N=500  APP_SEPR_N=1300  APP_GEMM_N=400 (lists allowed)
#   APP_LU_REPS=20  APP_LLT_REPS=200  APP_QR_REPS=40  APP_SEPR_REPS=1  APP_GEMM_REPS=200
#                   problems per run (1 to 20 or a multiple of 20 up to 400; sepr 1 to 50)
#   APP_ORDER=ref-first|alternate  APP_TIMEOUT=600 (s, one run)
#   OPENBLAS_DIR=/usr/lib/x86_64-linux-gnu/openblas-serial
#   RESULTS=results  MPIRUN=mpirun
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/common.sh
. bench/common.sh # launch, RESULTS, NPROCS, MPIRUN, LAUNCHER_VERSION

trials=${APP_TRIALS:-5}
nps=${APP_NP:-$NPROCS}
drivers=${APP_DRIVERS:-lu llt qr sepr gemm}
nb=${APP_NB:-64}
order=${APP_ORDER:-ref-first}
driver_dir=${APP_DRIVER_DIR:-/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests}
blas_dir=${OPENBLAS_DIR:-/usr/lib/x86_64-linux-gnu/openblas-serial}
declare -A sizes=([lu]=${APP_LU_N:-800} [llt]=${APP_LLT_N:-500} [qr]=${APP_QR_N:-500}
    [sepr]=${APP_SEPR_N:-1300} [gemm]=${APP_GEMM_N:-400})
declare -A reps=([lu]=${APP_LU_REPS:-20} [llt]=${APP_LLT_REPS:-200} [qr]=${APP_QR_REPS:-40}
    [sepr]=${APP_SEPR_REPS:-1} [gemm]=${APP_GEMM_REPS:-200})
declare -A bin=([lu]=xdlu [llt]=xdllt [qr]=xdqr [sepr]=xdsyevr [gemm]=PBLAS/TIMING/dpb3tim)
declare -A datfile=([lu]=LU.dat [llt]=LLT.dat [qr]=QR.dat [sepr]=SEPR.dat [gemm]=PDBLAS3TIM.dat)
declare -A routine=([lu]=PDGETRF+PDGETRS [llt]=PDPOTRF+PDPOTRS [qr]=PDGEQRF [sepr]=PDSYEVR [gemm]=PDGEMM)

die() {
    echo "app-compare: $*" >&2
    exit 1
}

# --- what the comparison needs -------------------------------------------
lib=$(readlink -f "${BLACS_LIB:?the library to preload (make app-compare sets it)}")
[ -f "$lib" ] || die "$BLACS_LIB is missing (make lib)"
if [ ! -e "$blas_dir/libblas.so.3" ] || [ ! -e "$blas_dir/liblapack.so.3" ]; then
    die "no serial OpenBLAS in $blas_dir (libblas.so.3, liblapack.so.3): apt-get install libopenblas0-serial" \
        "(tools/install-deps.sh installs it), or OPENBLAS_DIR=a folder that holds both"
fi
blas_dir=$(readlink -f "$blas_dir")
for d in $drivers; do
    [ -n "${bin[$d]:-}" ] || die "APP_DRIVERS: unknown driver '$d' (lu llt qr sepr gemm)"
    [ -x "$driver_dir/${bin[$d]}" ] ||
        die "$driver_dir/${bin[$d]} is missing: apt-get install scalapack-mpi-test (tools/install-deps.sh)"
    r=${reps[$d]} v=APP_${d^^}_REPS
    if [ "$d" = sepr ]; then # matrices of one test (50 at most)
        if ! [[ $r =~ ^[0-9]+$ ]] || ((r < 1 || r > 50)); then die "$v=$r: 1 to 50"; fi
    elif ! [[ $r =~ ^[0-9]+$ ]] || ((r < 1 || r > 400 || (r > 20 && r % 20 != 0))); then
        die "$v=$r: 1 to 20, or a multiple of 20 up to 400 (the drivers take 20 sizes and 20 grids at most)"
    fi
done
command -v python3 >/dev/null || die "python3 is missing (the parsing and the analysis need it)"
[[ $trials =~ ^[0-9]+$ ]] || die "APP_TRIALS=$trials: a number"
case $order in ref-first | alternate) ;; *) die "APP_ORDER=$order: ref-first or alternate" ;; esac

# grid NP: the squarest P x Q, P <= Q
grid() {
    local np=$1 p
    for ((p = 1; p * p <= np; p++)); do ((np % p == 0)) && g_p=$p; done
    g_q=$((np / g_p))
}
rep() { # COUNT WORD: WORD repeated
    local i out=
    for ((i = 0; i < $1; i++)); do out+="$2 "; done
    echo "$out"
}

# --- the input files: one size N, NB, a P x Q grid, S sizes x G grids = the problems of a run
dat_lu() { # N NB P Q S G
    cat <<EOF
'SCALAPACK, LU factorization input file'
'make app-compare'
'LU.out'            output file name (if any)
6                   device out
$5                  number of problems sizes
$(rep "$5" "$1")    values of M
$(rep "$5" "$1")    values of N
1                   number of NB's
$2                  values of NB
1                   number of NRHS's
1                   values of NRHS
1                   Number of NBRHS's
1                   values of NBRHS
$6                  number of process grids (ordered pairs of P & Q)
$(rep "$6" "$3")    values of P
$(rep "$6" "$4")    values of Q
1.0                 threshold
F                   (T or F) Test Cond. Est. and Iter. Ref. Routines
EOF
}
dat_llt() {
    cat <<EOF
'ScaLAPACK, LLt factorization input file'
'make app-compare'
'LLT.out'           output file name (if any)
6                   device out
'L'                 define Lower or Upper
$5                  number of problems sizes
$(rep "$5" "$1")    values of N
1                   number of NB's
$2                  values of NB
1                   number of NRHS's
1                   values of NRHS
1                   number of NBRHS's
1                   values of NBRHS
$6                  number of process grids (ordered pairs P & Q)
$(rep "$6" "$3")    values of P
$(rep "$6" "$4")    values of Q
3.0                 threshold
F                   (T or F) Test Cond. Est. and Iter. Ref. Routines
EOF
}
dat_qr() {
    cat <<EOF
'ScaLAPACK, Orthogonal factorizations input file'
'make app-compare'
'QR.out'            output file name (if any)
6                   device out
1                   number of factorizations
'QR'                factorizations: QR, QL, LQ, RQ, QP, TZ
$5                  number of problems sizes
$(rep "$5" "$1")    values of M
$(rep "$5" "$1")    values of N
1                   number of blocking sizes
$2                  values of MB
$2                  values of NB
$6                  number of process grids (ordered pairs P & Q)
$(rep "$6" "$3")    values of P
$(rep "$6" "$4")    values of Q
5.0                 threshold
EOF
}
dat_gemm() { # PDGEMM only: C = A B + C, all N x N, NB x NB blocks
    local r=$5 v
    cat <<EOF
'Level 3 PBLAS, Timing input file'
'make app-compare'
'PDBLAS3TIM.SUMM'   output file name (if any)
6                   device out
$2                  value of the logical computational blocksize NB
$6                  number of process grids (ordered pairs of P & Q)
$(rep "$6" "$3")    values of P
$(rep "$6" "$4")    values of Q
1.0D0               value of ALPHA
1.0D0               value of BETA
$r                  number of tests problems
$(rep "$r" "'N'")   values of DIAG
$(rep "$r" "'L'")   values of SIDE
$(rep "$r" "'N'")   values of TRANSA
$(rep "$r" "'N'")   values of TRANSB
$(rep "$r" "'U'")   values of UPLO
EOF
    for v in M N K; do echo "$(rep "$r" "$1")    values of $v"; done
    for v in A B C; do
        echo "$(rep "$r" "$1")    values of M_$v"
        echo "$(rep "$r" "$1")    values of N_$v"
        echo "$(rep "$r" "$2")    values of IMB_$v"
        echo "$(rep "$r" "$2")    values of INB_$v"
        echo "$(rep "$r" "$2")    values of MB_$v"
        echo "$(rep "$r" "$2")    values of NB_$v"
        echo "$(rep "$r" 0)    values of RSRC_$v"
        echo "$(rep "$r" 0)    values of CSRC_$v"
        echo "$(rep "$r" 1)    values of I$v"
        echo "$(rep "$r" 1)    values of J$v"
    done
    echo "PDGEMM  T           put F for no test in the same column"
    for v in PDSYMM PDSYRK PDSYR2K PDTRMM PDTRSM PDGEADD PDTRADD; do
        printf '%-7s F           put F for no test in the same column\n' "$v"
    done
}
dat_sepr() { # N NB P Q R: R matrices of type 8 (U' D U, D evenly spaced), all eigenpairs, no subset tests
    cat <<EOF
'ScaLAPACK Symmetric Eigensolver Test File'
'make app-compare'
'SEPR.out'          output file name (if any)
6                   device out
$(($3 * $4))        maximum number of processes
'N'                 heterogeneous (Y/N)
' '
'make app-compare: PDSYEVR, N=$1, NB=$2, $3 x $4, $5 matrices'
$5                  number of matrices
$(rep "$5" "$1")    matrix sizes
1                   number of uplo choices
'L'                 uplo choices
1                   number of processor configurations (P, Q, NB)
$3                  values of P (NPROW)
$4                  values of Q (NPCOL)
$2                  values of NB
1                   number of matrix types
8                   matrix types (see pdseprtst.f)
'N'                 perform subset tests?
80.0                threshold (bench/app_compare.py: SEPR_THRESH)
-1                  absolute tolerance
' '
'End of tests'
-1
EOF
}

# --- the run folder --------------------------------------------------------
stamp=$(date +%Y%m%d-%H%M%S)
out=$RESULTS/app-compare-$stamp
[ -e "$out" ] && out=$out-$$
mkdir -p "$out/dat" "$out/logs" "$out/stats" "$out/bindings"
ln -sfn "$(basename "$out")" "$RESULTS/app-compare-latest"
out=$(readlink -f "$out")

cases=() # CASE = DRIVER-nN
declare -A c_driver c_n c_reps
for d in $drivers; do
    for n in ${sizes[$d]}; do
        [[ $n =~ ^[0-9]+$ ]] || die "size '$n' of $d: a number"
        c="$d-n$n"
        cases+=("$c")
        c_driver[$c]=$d c_n[$c]=$n c_reps[$c]=${reps[$d]}
    done
done
for np in $nps; do
    grid "$np"
    for c in "${cases[@]}"; do
        d=${c_driver[$c]} r=${c_reps[$c]}
        mkdir -p "$out/dat/$c-np$np"
        if [ "$d" = sepr ]; then
            dat_sepr "${c_n[$c]}" "$nb" "$g_p" "$g_q" "$r"
        else # S sizes (or test problems) x G grids
            s=$((r < 20 ? r : 20))
            "dat_$d" "${c_n[$c]}" "$nb" "$g_p" "$g_q" "$s" $((r / s))
        fi >"$out/dat/$c-np$np/${datfile[$d]}"
    done
done

{
    echo "make app-compare (bench/app-compare.sh): ScaLAPACK's drivers, ref BLACS and ours alternately"
    echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "host:      $(uname -n) ($(uname -sr)), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    echo "load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) at the start"
    echo "mpi:       $LAUNCHER_VERSION${LAUNCH_PRELOAD:+ (preloaded: $LAUNCH_PRELOAD)}"
    echo "commit:    $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
    echo "drivers:   $driver_dir ($(dpkg-query -W -f '${Package} ${Version}' scalapack-mpi-test 2>/dev/null || echo '?'))"
    first=${drivers%% *}
    echo "ref:       the BLACS inside" \
        "$(ldd "$driver_dir/${bin[$first]}" 2>/dev/null | awk '/libscalapack/ {print $3}' | head -1)"
    echo "ours:      LD_PRELOAD=$lib"
    echo "blas:      $blas_dir ($(readlink -f "$blas_dir/libblas.so.3" | xargs basename)," \
        "$(dpkg-query -W -f '${Package} ${Version}' libopenblas0-serial 2>/dev/null || echo '?')), OPENBLAS_NUM_THREADS=1"
    echo "options:   trials $trials ($order); processes $nps; NB $nb; cases ${cases[*]}"
    echo "problems:  per run: $(for d in $drivers; do printf '%s %s  ' "$d" "${reps[$d]}"; done)"
} >"$out/meta.txt"

echo "run,case,driver,routine,n,nb,np,grid,side,trial,seconds,gflops,verdict,problems,wall_s,log,load1" >"$out/runs.csv"
nrun=0

# run_one CASE NP SIDE TRIAL [VAR=VALUE...]: one launch of the driver in its
# folder, its row in runs.csv; stops the script on a failure
run_one() {
    local c=$1 np=$2 side=$3 trial=$4 d st=0 t0 wall row log load
    shift 4
    d=${c_driver[$c]}
    log=logs/$c-np$np-$side-t$trial.out
    local vars="LD_LIBRARY_PATH=$blas_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} OPENBLAS_NUM_THREADS=1"
    [ "${side#ours}" != "$side" ] && vars+=" LD_PRELOAD=$lib"
    [ $# -gt 0 ] && vars+=" $*"
    load=$(cut -d' ' -f1 /proc/loadavg)
    t0=$EPOCHREALTIME
    (cd "$out/dat/$c-np$np" && LAUNCH_ENV=$vars LAUNCH_TIMEOUT=${APP_TIMEOUT:-600} launch "$np" \
        "$driver_dir/${bin[$d]}") >"$out/$log" 2>&1 || st=$?
    wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
    grid "$np"
    nrun=$((nrun + 1))
    local head="$nrun,$c,$d,${routine[$d]},${c_n[$c]},$nb,$np,${g_p}x$g_q,$side,$trial" pst=0
    row=$(python3 bench/app_compare.py parse "$d" "${c_n[$c]}" "${c_reps[$c]}" "$out/$log") || pst=$?
    if [ "$st" = 0 ] && [ "$pst" = 0 ]; then
        echo "$head,$row,$wall,$log,$load" >>"$out/runs.csv"
        last=$row
        case $row in *,FAILED-VLVU,*)
            echo "app-compare: note: $c on $np processes ($side, trial $trial): xdsyevr says FAILED, its" \
                "residuals pass, and the one check that can fail so is its comparison of VL and VU, which it" \
                "never sets (bench/README.md): counted as FAILED-VLVU, not a failure; $out/$log" >&2
            ;;
        esac
        return 0
    fi
    if [ -n "$row" ]; then
        echo "$head,$row,$wall,$log,$load"
    else
        echo "$head,,,$([ "$st" = 0 ] && echo missing || echo "exit-$st"),,$wall,$log,$load"
    fi >>"$out/runs.csv"
    tail -20 "$out/$log" | sed 's/^/  | /' >&2
    [ "$pst" = 3 ] && die "$c on $np processes ($side, trial $trial): a residual check FAILED: $out/$log"
    [ "$st" = 0 ] || die "$c on $np processes ($side, trial $trial): the run exited with status $st: $out/$log"
    die "$c on $np processes ($side, trial $trial): results missing: $out/$log"
}
show() { # the parsed row of the last run, short
    IFS=, read -r s g v _ <<<"$last"
    printf '%8.4f s %7s GF %-9s' "$s" "${g:--}" "$v"
}

echo "app-compare: results in $out"
echo "app-compare: ${cases[*]} on $nps processes, $trials trials; ref = the reference BLACS, ours = LD_PRELOAD=$lib"
echo "app-compare: BLAS $blas_dir, OPENBLAS_NUM_THREADS=1"
t_start=$SECONDS

# 1. the bindings, once: the first case on the first process count (rows
# ref-bindings, ours-bindings of trial 0: LD_DEBUG slows them, never timed)
# shellcheck disable=SC2086 # the list of process counts, split
set -- $nps
c=${cases[0]}
echo "== 1. LD_DEBUG=bindings: $c on $1 processes, ref and ours"
for side in ref ours; do
    run_one "$c" "$1" "$side-bindings" 0 LD_DEBUG=bindings "LD_DEBUG_OUTPUT=$out/bindings/$side"
done
python3 bench/app_compare.py bindings "$lib" "$blas_dir" "$out/bindings" | tee "$out/bindings.txt" ||
    die "the BLACS calls do not go where they should (LD_DEBUG output kept in $out/bindings)"
rm -f "$out/bindings"/ref.* "$out/bindings"/ours.*

# 2. trial 0: every case once on each side, ours with BLACS_STATS
echo "== 2. trial 0 (not timed): ref, then ours with BLACS_STATS=$out/stats/CASE-npNP.csv"
for np in $nps; do
    for c in "${cases[@]}"; do
        run_one "$c" "$np" ref-warmup 0
        printf '   np=%s %-12s ref %s' "$np" "$c" "$(show)"
        run_one "$c" "$np" ours-stats 0 "BLACS_STATS=$out/stats/$c-np$np.csv"
        printf '| ours+stats %s\n' "$(show)"
        [ -s "$out/stats/$c-np$np.csv" ] || die "no BLACS_STATS output from $c on $np processes: not on this library?"
    done
done

# 3. the trials, pair by pair: ref then ours (APP_ORDER=alternate: ours
# first in the even trials, to see whether going second costs or helps)
echo "== 3. $trials trials, $([ "$order" = ref-first ] && echo "ref then ours" ||
    echo "ref then ours in odd trials, ours then ref in even ones")" \
    "(seconds: the driver's timed sections summed over the problems)"
for ((t = 1; t <= trials; t++)); do
    sides="ref ours"
    [ "$order" = alternate ] && ((t % 2 == 0)) && sides="ours ref"
    for np in $nps; do
        for c in "${cases[@]}"; do
            printf '   t%d np=%s %-12s' "$t" "$np" "$c"
            for side in $sides; do
                run_one "$c" "$np" "$side" "$t"
                printf '%s %s ' "$([ "$side" = "${sides%% *}" ] || echo '|')" "$side $(show)"
            done
            echo
        done
    done
done
echo "app-compare: $nrun runs in $((SECONDS - t_start)) s; load now $(cut -d' ' -f1-3 /proc/loadavg)"
echo "load end:  $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min), $((SECONDS - t_start)) s" >>"$out/meta.txt"

# 4. the analysis
echo
python3 bench/app_compare.py report "$out"
