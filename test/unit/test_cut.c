/*
 * test/unit/test_cut.c - how messages are cut into pieces (buffers/bytes.h):
 * the pieces cover the message, the last is always shorter than the others,
 * and a receiver that expects another size than the sender sends always
 * meets a piece of another length, under the piece sizes the library
 * really plans (model.h: point-to-point, pipelined trees, combines).
 *
 * The receiver posts its own pieces in order; MPI matches them with the
 * sender's in order.  Undetected would be: every piece the receiver posts
 * gets a piece of exactly its length (a silent prefix if the sender sends
 * more, a receive that waits forever if the sender sent fewer pieces).
 * No MPI.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../buffers/bytes.h"
#include "../../topologies/model.h"
#include "check.h"

/* A planner: the piece size wanted for n bytes, non-decreasing in n. */
typedef size_t (*planner)(size_t n);

static blx_model net, shm;
static size_t p2p_net(size_t n) { return blx_model_chain_plan(&net, 2, n, 1).piece; }
static size_t p2p_shm(size_t n) { return blx_model_chain_plan(&shm, 2, n, 1).piece; }
static size_t chain_net(size_t n) { return blx_model_chain_plan(&net, 255, n, 8).piece; }
static size_t whole(size_t n) { return n + 1; } /* how a plan asks for one message */
static size_t big_only(size_t n)
{
    (void)n;
    return BLX_MAX_MSG;
}

static blx_cut cut_of(planner f, size_t n, size_t unit) { return blx_cut_make(n, f(n), unit); }

/* Does a receiver of n2 notice a sender of n1? */
static int noticed(planner f, size_t n1, size_t n2, size_t unit)
{
    blx_cut s = cut_of(f, n1, unit), r = cut_of(f, n2, unit);
    for (int i = 0; i < r.k; i++) {
        if (i >= s.k)
            return 0; /* the receiver waits for a piece that never comes */
        size_t ls, lr;
        blx_cut_piece(&s, i, &ls);
        blx_cut_piece(&r, i, &lr);
        if (ls != lr)
            return 1; /* MPI truncates, or the count differs */
    }
    return s.k == r.k ? n1 == n2 : 0; /* all matched: fine only if equal */
}

static void check_cover(planner f, size_t n, size_t unit, const char *name)
{
    blx_cut c = cut_of(f, n, unit);
    size_t sum = 0, len;
    for (int i = 0; i < c.k; i++) {
        size_t off = blx_cut_piece(&c, i, &len);
        CHECK(off == sum, "%s: n=%zu piece %d at %zu, expected %zu", name, n, i, off, sum);
        CHECK(len <= BLX_MAX_MSG && (c.k == 1 || i == c.k - 1 || len == c.s), "%s: n=%zu piece %d of %zu",
              name, n, i, len);
        CHECK(len % unit == 0, "%s: n=%zu piece %d of %zu bytes cuts an element of %zu", name, n, i, len,
              unit);
        sum += len;
    }
    CHECK(sum == n, "%s: pieces of n=%zu add up to %zu", name, n, sum);
    blx_cut_piece(&c, c.k - 1, &len);
    CHECK(c.k == 1 || len < c.s, "%s: n=%zu: the last piece (%zu) is not shorter than the others (%zu)", name,
          n, len, c.s);
}

int main(void)
{
    net = shm = blx_model_default();
    CHECK(blx_model_parse("alpha=1e-6,beta=1e-10,gamma=0,window=1", &net) == 0, "network model");
    const struct {
        planner f;
        const char *name;
        size_t unit;
    } plans[] = {{p2p_net, "p2p (network)", 1},
                 {p2p_shm, "p2p (this machine)", 1},
                 {chain_net, "chain of 256 (network)", 8},
                 {whole, "whole, elements of 8", 8},
                 {big_only, "pieces of 1 GiB", 1}};
    int split = 0;
    for (size_t p = 0; p < sizeof plans / sizeof plans[0]; p++) {
        size_t u = plans[p].unit;
        /* every size around the sizes where the cut changes, and some */
        for (size_t n = 0; n <= (size_t)(3 << 20); n += n < 70000 ? 8 * u : 4093 * u)
            check_cover(plans[p].f, n, u, plans[p].name);
        for (size_t n1 = (size_t)1 << 20; n1 < ((size_t)1 << 20) + 4096 * u; n1 += 8 * u) {
            split += cut_of(plans[p].f, n1, u).k > 1;
            for (size_t d = u; d <= 96 * u; d += u) { /* the other side expects a little more or less */
                CHECK(noticed(plans[p].f, n1, n1 + d, u), "%s: a receiver of %zu misses a sender of %zu",
                      plans[p].name, n1 + d, n1);
                CHECK(noticed(plans[p].f, n1 + d, n1, u), "%s: a receiver of %zu misses a sender of %zu",
                      plans[p].name, n1, n1 + d);
            }
        }
        /* far apart, where the piece sizes differ */
        for (size_t n1 = 20000; n1 < ((size_t)8 << 20); n1 = n1 * 5 / 4 / u * u)
            for (size_t n2 = n1 / 3 / u * u; n2 < n1 * 3; n2 = n2 * 9 / 8 / u * u + u)
                CHECK(noticed(plans[p].f, n1, n2, u), "%s: a receiver of %zu misses a sender of %zu",
                      plans[p].name, n2, n1);
    }
    CHECK(split > 0, "no planner cut a 1 MiB message: the test tests nothing");
    /* no piece is empty but the last, whatever the wanted size */
    for (size_t u = 1; u <= 16; u *= 2)
        for (size_t want = 0; want <= 3 * u; want++)
            for (size_t n = 0; n <= 8 * u; n += u) {
                blx_cut c = blx_cut_make(n, want, u);
                CHECK(c.s > 0 && (c.k == 1 || c.s % u == 0), "%zu bytes, want %zu, unit %zu: pieces of %zu",
                      n, want, u, c.s);
            }
    /* a message wanted whole is one message, not its elements and an empty piece */
    for (size_t u = 1; u <= 16; u *= 2)
        for (size_t n = 0; n <= 64 * u; n += u)
            CHECK(blx_cut_make(n, n + 1, u).k == 1, "%zu bytes in elements of %zu wanted whole: %d pieces", n,
                  u, blx_cut_make(n, n + 1, u).k);
    /* 1 GiB pieces: exactly 1 GiB needs an empty last piece, so 2 GiB does not pass as 1 GiB */
    blx_cut c = blx_cut_make((size_t)1 << 30, BLX_MAX_MSG, 1);
    CHECK(c.k == 2, "1 GiB in %d pieces", c.k);
    CHECK(noticed(big_only, (size_t)2 << 30, (size_t)1 << 30, 1),
          "a receiver of 1 GiB misses a sender of 2 GiB");
    printf("test_cut: %s (%d failures)\n", check_failures() ? "FAILED" : "passed", check_failures());
    return check_failures() != 0;
}
