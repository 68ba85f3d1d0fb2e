#!/usr/bin/env bash
# sim/platform.sh SEED DIR [PMIN PMAX] - a random cluster of multi-core
# nodes, drawn from SEED, for the sweeps of make sim-check and sim-nodes
# (sim/sweep.sh): nobody tuned the library for it.
#
# Writes DIR/platform.xml (SimGrid 3.32, one <cluster>, the shape of
# sim/nodes16.xml), DIR/hostfile (P processes placed by node or round robin)
# and DIR/platform.txt (one line, every drawn value); prints that line.
# Drawn, each from SEED alone (awk's generator, so the same SEED gives the
# same platform on every machine):
#   nodes 2-64 and cores 1-64 a node, log-uniform, at least PMIN (16) cores
#   in all; P between PMIN and min(PMAX (1024), nodes x cores), log-uniform,
#   a power of two one time in four (else any count); placement by node or
#   round robin; a card of 5-50 GB/s each way and 0.3-5 us each hop
#   (SPLITDUPLEX into a FATPIPE backbone: alpha twice the hop); a loopback
#   (the node's memory) of 1-8 times the card's bandwidth, 0.1-1 us; a
#   limiter of 1.5-4 times the card.
set -euo pipefail
seed=$1 dir=$2 pmin=${3:-16} pmax=${4:-1024}
mkdir -p "$dir"
awk -v seed="$seed" -v pmin="$pmin" -v pmax="$pmax" -v dir="$dir" '
function logu(lo, hi) { return exp(log(lo) + rand() * (log(hi) - log(lo))) }
function uni(lo, hi) { return lo + rand() * (hi - lo) }
BEGIN {
    srand(seed)
    do {
        nodes = int(logu(2, 65)); cores = int(logu(1, 65))
    } while (nodes * cores < pmin)
    most = nodes * cores < pmax ? nodes * cores : pmax
    if (rand() < 0.25) {
        for (p = 1; 2 * p <= most; p *= 2)
            ;
        if (p < pmin) p = most
    } else
        p = int(logu(pmin, most + 1))
    place = rand() < 0.5 ? "node" : "rr"
    bw = uni(5, 50); lat = uni(0.3, 5)
    lbw = bw * uni(1, 8); llat = uni(0.1, 1); lim = bw * uni(1.5, 4)
    desc = sprintf("seed=%d nodes=%d cores=%d p=%d place=%s card=%.1fGBps hop=%.2fus loopback=%.1fGBps,%.2fus limiter=%.1fGBps", \
        seed, nodes, cores, p, place, bw, lat, lbw, llat, lim)
    f = dir "/platform.xml"
    print "<?xml version=\x27" "1.0\x27?>" > f
    print "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">" > f
    print "<!-- sim/platform.sh: " desc " -->" > f
    print "<platform version=\"4.1\">" > f
    printf "  <cluster id=\"cluster\" prefix=\"node-\" suffix=\"\" radical=\"0-%d\" speed=\"1Gf\" core=\"%d\"\n", nodes - 1, cores > f
    printf "           bw=\"%.3fGBps\" lat=\"%.3fus\" sharing_policy=\"SPLITDUPLEX\"\n", bw, lat > f
    printf "           bb_bw=\"%.3fGBps\" bb_lat=\"0us\" bb_sharing_policy=\"FATPIPE\"\n", bw > f
    printf "           loopback_bw=\"%.3fGBps\" loopback_lat=\"%.3fus\" limiter_link=\"%.3fGBps\"/>\n", lbw, llat, lim > f
    print "</platform>" > f
    h = dir "/hostfile"
    for (r = 0; r < p; r++)
        print "node-" (place == "rr" ? r % nodes : int(r / cores)) > h
    print desc > (dir "/platform.txt")
    print desc
}'
