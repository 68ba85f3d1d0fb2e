# test/mpi-cases.sh - the MPI test cases, sourced by run-mpi.sh.
# pass NP PROG [ARGS] / warn, fail, abort NP REGEX PROG [ARGS]; see run-mpi.sh.
# SANITIZED=1 (the ASan/UBSan build) runs a shorter list; VALGRIND=1 a few
# programs on 2 processes under memcheck, and nothing else.

if [ "${VALGRIND:-0}" = 1 ]; then
    pass 2 t_support
    pass 2 t_p2p
    pass 2 t_exchange
    pass 2 t_bcast quick
    pass 2 t_combine quick
    return 0
fi

if [ "${SANITIZED:-0}" = 0 ]; then
    for np in 1 2 3 4 5 6 7 8; do pass $np t_support; done
    for np in 1 2 3 4 6 8; do pass $np t_p2p; done
    pass 2 t_direct
    pass 2 t_direct crowded
    for np in 2 3 4; do pass $np t_detach; done
    pass 3 t_detach crowded
    pass 3 t_detach network
    # how waits wait (BLACS_WAIT): counted between the library and MPI
    for mode in block yield auto; do pass 2 t_wait $mode; done
    pass 4 t_wait auto # yields on 2 or 3 processors, blocks on more: the test knows
    # Open MPI's own waits spinning on an oversubscribed node: ours yield (MPICH ignores the setting)
    MPI_ENV="OMPI_MCA_mpi_yield_when_idle=0" pass 4 t_wait auto
else
    pass 4 t_support
    pass 6 t_p2p
    pass 2 t_direct
    pass 3 t_detach
fi

if [ "${SANITIZED:-0}" = 0 ]; then
    pass 2 t_exchange
    pass 4 t_exchange
else
    pass 2 t_exchange
fi

if [ "${SANITIZED:-0}" = 0 ]; then
    pass 4 t_gridcycle
    # no address of the library left on the stack (ASan's frames are its
    # own; the loader's lazy binding leaves its own: bound at start-up)
    for np in 2 4 6; do MPI_ENV="LD_BIND_NOW=1" pass $np t_residue; done
    # every algorithm forced by name, in random use against an oracle, under
    # the testing aid's perturbed timings (a seed per process count)
    for np in 3 4 5 6 8; do MPI_ENV="BLACS_PERTURB=$np" pass $np t_property $np 40; done
    # and with MPI's blocking waits, which a machine of 2 cores leaves to
    # runs of 2 processes unless asked (BLACS_WAIT)
    MPI_ENV="BLACS_PERTURB=12 BLACS_WAIT=block" pass 4 t_property 4 20
else
    MPI_ENV="BLACS_PERTURB=4" pass 4 t_property 4 12
fi

# Bad input: a clear error naming the routine, the argument and the process.
who='from \{-?[0-9]+,-?[0-9]+\}, pnum=[0-9]+, Contxt=-?[0-9]+'
err() { fail 4 "$1 && $who" t_errors "$2"; }
err "BLACS ERROR 'Cdgesd2d: invalid context ConTxt = 99: no such grid" invalid_ctx
fail 5 "Cdgesd2d: invalid context ConTxt = -1: no such grid on this process \(-1 is what BLACS_GRIDINIT gives processes outside the grid\) && $who" t_errors outside_ctx
err "Cdgerv2d: invalid context ConTxt = 0: that grid has been exited" exited_ctx
err "Cdgesd2d: RDEST = 5 is outside the 2 x 2 grid && from \{0,1\}" dest_outside
err "Cigerv2d: CSRC = -1 is outside the 2 x 2 grid" src_outside
err "Czgesd2d: M = -1 must not be negative" m_negative
err "Cstrrv2d: N = -3 must not be negative" n_negative
err "Cdtrsd2d: UPLO = 'X' must be 'U' or 'L'" bad_uplo
err "Cctrsd2d: DIAG = 'q' must be 'U' or 'N'" bad_diag
err "DGESD2D: CDEST = 7 is outside the 2 x 2 grid" fortran_dest
err "Cdgerv2d: the message from process \{0,0\} is longer than the 24 bytes" size_mismatch
err "BLACS_GRIDINIT: Illegal grid \(3 x 3\), #procs=4" grid_too_big
err "BLACS_GRIDINIT: Illegal grid \(0 x 2\)" grid_zero
err "BLACS_GRIDINIT: BLACS_NODES='3:round' is not a split of the 4 processes into nodes" bad_nodes
err "BLACS_GRIDINIT: BLACS_MODEL='alpha=1e-6,net.beta=1e-10,node.speed=2' is not a cost model" bad_model_level
err "BLACS_GRIDINIT: BLACS_MODEL_FILE='[^']*/t_errors.model', line 3: 'node.alpha=1e-6 beta=2e-10' is not a cost model" bad_model_file
err "BLACS_GRIDINIT: BLACS_MODEL_FILE='/nonexistent/blacs-model' cannot be read: No such file or directory" missing_model_file
fail 2 "BLACS_WAIT: 'sometimes' is not one of: auto, block, yield && $who" t_wait sometimes
MPI_ENV="BLACS_PERTURB=7:x" fail 2 "BLACS_PERTURB: '7:x' is not SEED or SEED:MAX_US && $who" t_property 1 1
err "BLACS_GRIDMAP: USERMAP\(1,2\) = 1: rank 1 is placed twice" gridmap_twice
err "No system context corresponding to BLACS system context handle 55" bad_syshandle
err "BLACS_GRIDEXIT: Trying to exit an already freed context" gridexit_twice
err "BLACS_GRIDEXIT: Trying to exit non-existent context" gridexit_bad
err "No system context corresponding to BLACS system context handle 1" stale_syshandle
err "Cdgesd2d: BLACS out of buffer space" buffer_limit
err "Cdgerva2d: RSRC = -2 must be -1 \(any row\) or a row of the 2 x 2 grid \(0..1\)" any_src
err "Cstrrva2d: CSRC = 2 must be -1 \(any column\) or a column of the 2 x 2 grid \(0..1\)" any_col
err "Cdgerva2d: the message from process \{1,1\} is shorter than the 40 bytes this call expects" any_size
err "Cdtuop2d: UPLO = 'T' must be 'G', 'U' or 'L'" uop_uplo
err "Cztuop2d: OP is a null pointer && from \{0,1\}" uop_null
warn 4 "BLACS WARNING 'BLACS_EXIT: still waiting after 1 s for 1 buffered sends \(1048576 bytes\)" t_errors late_receiver
abort 4 "\{0,2\}, pnum=2, Contxt=0, killed other procs, exiting with error #-1" t_abort
abort 7 "\{0,3\}, pnum=3, Contxt=0, killed other procs, exiting with error #-1" t_abort

if [ "${SANITIZED:-0}" = 0 ]; then
    for np in 1 2 4 5; do pass $np t_fortran; done
fi

# Broadcasts and combines: the full sweeps on 1-8 processes; the sanitized
# build runs them on 6 processes in their quick form.
if [ "${SANITIZED:-0}" = 0 ]; then
    for np in 1 2 3 4 6 8; do pass $np t_bcast; done
    for np in 1 2 3 4 6 8; do pass $np t_combine; done
else
    pass 6 t_bcast quick
    pass 6 t_combine quick
fi

if [ "${SANITIZED:-0}" = 0 ]; then
    err "Cdgebs2d: Unknown scope 'Q': SCOPE must be 'R', 'C' or 'A'" bcast_scope
    err "Czgebr2d: Unknown topology 'x'" bcast_top
    err "Csgsum2d: Unknown topology '0'" combine_top
    err "IGAMX2D: Unknown scope 'z'" combine_scope
    err "Cdgebr2d: the source \{0,1\} is this process" bcast_self
    err "Cdgebs2d: Unknown topology \\\\x00" empty_top
    err "Cdgamx2d: RA \(with LDIA != -1\) is a null pointer" null_ra
    err "Cigamx2d: CDEST = 4 is outside the 2 x 2 grid" combine_dest
    err "Cdgebr2d: the message from process \{0,0\} is longer than" bcast_size
fi

# The long-message algorithms of the default TOP
if [ "${SANITIZED:-0}" = 0 ]; then
    # (the default model's choices on 2, 3 and 5 processes; 4 and 8, the
    # powers of two, under the network's model below, where more of the long
    # algorithms are chosen: each case moves up to 4 MiB on every scope)
    for np in 2 3 5; do pass $np t_longmsg; done
    # the same under a network's model, where every long algorithm is chosen
    for np in 3 4 5 8; do pass $np t_longmsg network; done
    # two trees' streams: a process forwarding in both does not wait for one to send the other
    for np in 8 12; do pass $np t_streams; done
    # scopes over nodes (BLACS_NODES) and the two-level algorithms
    for np in 4 5 6 7; do pass $np t_nodes; done
    # a tuning file is every grid's model; blacs-tune writes one the library reads back
    for np in 2 4; do pass $np t_tuning; done
    # MPI's own collectives, forced and weighed from a tuning file
    for np in 2 3 4 5; do pass $np t_mpicoll; done
    tuned=$log/tuned.model
    MPI_ENV=BLACS_NODES=2 warn 4 "blacs-tune: wrote $tuned \\(4 processes, 2 nodes\\)" ../../tools/blacs-tune -o "$tuned"
    # an output it cannot write fails at once, cleanly, saying what to do (it crashed, after measuring)
    fail 2 "blacs-tune: cannot write '/nonexistent/blacs/model': No such file or directory \\(make its folder first: mkdir -p /nonexistent/blacs\\)" \
        ../../tools/blacs-tune -o /nonexistent/blacs/model
    pass 4 t_tuning "$tuned"
else
    pass 4 t_nodes
    pass 2 t_tuning
    pass 4 t_mpicoll
    pass 3 t_longmsg network
fi

# A receiver expecting another size than the sender sends, on every path
# where messages travel in pieces, both ways: the same clear error, never a
# prefix nor a hang.
if [ "${SANITIZED:-0}" = 0 ]; then
    mismatch="the message from process \{[0-9]+,[0-9]+\} is (longer|shorter) than the [0-9]+ bytes this call expects && $who"
    for path in p2p p2pstraight ring ringsum rsag; do
        for way in more less; do fail 4 "$mismatch" t_mismatch $path $way; done
    done
    # on 4 processes a staggered chain beats scatter + allgather at 128 KiB
    for path in twotree twotreesum scatter; do
        for way in more less; do fail 8 "$mismatch" t_mismatch $path $way; done
    done
fi

# The debug levels (BLACS_DEBUG) on the mistakes users make most: each ends
# with a message naming what went wrong, never a hang.
if [ "${SANITIZED:-0}" = 0 ]; then
    fail 4 "Cdgsum2d: the processes of scope 'A' disagree on leaving the result on all \(1\) or on one \(0\): \{0,0\} passes 1, \{0,1\} passes 0 && $who" t_debug allvsone 3
    fail 4 "BLACS HANG REPORT: process \{0,[0-3]\} has waited [0-9]+ s && receiving a broadcast of a 8 x 1 double matrix from \{0,0\} && $who" t_debug allvsone 2
    fail 4 "disagree on the source or destination: \{0,0\} passes \{0,0\}, \{0,1\} passes \{0,3\} && $who" t_debug wrongsource 3
    fail 4 "BLACS HANG REPORT && pnum 1 \{0,1\}: Cdgebr2d \(context 0, scope 'A', TOP ' '\): receiving a broadcast of a 8 x 1 double matrix from \{0,3\} && $who" t_debug wrongsource 2
    # the default level reports a hang too, and waits on (or ends the job)
    hang 4 12 "BLACS HANG REPORT: process \{0,1\} has waited [0-9]+ s && pnum 1 \{0,1\}: Cdgebr2d \(context 0, scope 'A', TOP ' '\): receiving a broadcast of a 8 x 1 double matrix from \{0,3\}, message ID [0-9]+, for [0-9.]+ s" t_debug wrongsource 1
    MPI_ENV=BLACS_HANG_ACTION=abort fail 4 "BLACS HANG REPORT && pnum 1 \{0,1\}: Cdgebr2d && $who" t_debug wrongsource 1
    # at level 1 every waiting process reports itself (its wait blocks in MPI); level 2 finds the cycle
    MPI_ENV=BLACS_DEBUG=1 hang 4 12 "$(for r in 0 1 2 3; do printf 'BLACS HANG REPORT: process \\{0,%d\\} has waited [0-9]+ s \\(BLACS_HANG_TIMEOUT\\) in Cdgerv2d \\(context 0\\): receiving a 8 x 1 double matrix from \\{0,%d\\} && ' $r $(((r + 1) % 4)); done)every process that waits this long reports itself" t_debug deadlock
    fail 4 "BLACS_GRIDINIT: the processes of the system context set different message-ID ranges \(BLACS_SET code 1\) && $who" t_debug idrange
    fail 2 "Cdgerv2d: receiving from this process itself \(\{0,1\}\) with no matching send made before && $who" t_debug selfrecv
    fail 4 "BLACS_BARRIER: Unknown scope 'D': SCOPE must be 'R', 'C' or 'A' && $who" t_debug barrierscope
    fail 2 "a deadlock: each of these receives from the next, which is receiving too: \{0,0\} <- \{0,1\} <- \{0,0\} && $who" t_debug deadlock
    fail 4 "a deadlock: each of these receives from the next, which is receiving too: \{0,0\} <- \{0,1\} <- \{0,2\} <- \{0,3\} <- \{0,0\} && $who" t_debug deadlock
    fail 2 "BLACS HANG REPORT && pnum 1 \{0,1\}: Cdgerva2d \(context 0\): receiving a 8 x 1 double matrix from any process && $who" t_debug anyhang
    MPI_ENV=BLACS_DEBUG=1 hang 2 12 "BLACS HANG REPORT: process \{0,1\} has waited [0-9]+ s \(BLACS_HANG_TIMEOUT\) in Cdgerva2d \(context 0\): receiving a 8 x 1 double matrix from any process" t_debug anyhang
    MPI_ENV=BLACS_DEBUG=1 fail 2 "Cdgerv2d: receiving from this process itself \(\{0,1\}\) with no matching send made before && $who" t_debug selfrecv
    fail 2 "Csgerv2d: process \{0,0\} sends a 8 x 1 double matrix \(64 bytes\), this call receives a 4 x 4 real matrix \(64 bytes\) && $who" t_debug p2psize
    pass 4 t_debug limit 64M
    fail 4 "BLACS_BUFFER_LIMIT: 'abc' is not a size && $who" t_debug limit abc
    fail 4 "BLACS_BUFFER_LIMIT: '-1' is not a size && $who" t_debug limit -1
    pass 4 t_debug stats "$log/stats.csv"
    warn 2 "BLACS statistics of process 1 \(libblacs [0-9]+\.[0-9]+\.[0-9]+, BLACS_STATS=yes\) && \| 1 \| combine sum \| 'I' \| ring \| 3 \| 64 \|" t_debug statsprint yes
    warn 2 "BLACS statistics of process 0 \(libblacs [0-9.]+, BLACS_STATS=on\) && \| 0 \| broadcast send \| ' ' \| general_tree \| 1 \|" t_debug statsfinal on
    fail 2 "BLACS_STATS: 'maybe' is neither a switch \(1, yes, true, on; 0, no, false, off\) nor a file's path && $who" t_debug statsprint maybe
    pass 4 t_debug statscall on
    pass 3 t_debug statscall off
    MPI_ENV=BLACS_DEBUG=3 fail 4 "Cdtuop2d: process \{0,[0-3]\}: the result of this combine to all \(64 bytes, along hypercube\) differs between the members of the all scope \(found at BLACS_DEBUG=3\) && $who" t_mpicoll incoherent
fi

# LAWN 73's extensions: the receive from any process, the user-defined
# combine (the sweep; long vectors under a network's model, where the
# default may split them only between columns).
for np in 1 2 3 4 6 8; do pass $np t_wildcard; done
if [ "${SANITIZED:-0}" = 0 ]; then
    for np in 1 2 3 4 6 8; do pass $np t_uop; done
    for np in 3 4 8; do pass $np t_uop network; done
else
    pass 6 t_uop quick
fi

# Threads (doc/guide.md, "Threads"): two threads per process on grids of their own,
# taking turns, every element checked; both inside at once: a clear error.
pass 2 t_threads turns
if [ "${SANITIZED:-0}" = 0 ]; then
    pass 4 t_threads turns
    fail 2 "Cdgsum2d: called while another thread of this process is inside Cdgerv2d && $who" t_threads overlap
fi
