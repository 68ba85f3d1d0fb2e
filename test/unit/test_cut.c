/*
 * test/unit/test_cut.c - how messages are cut into pieces (buffers/bytes.h):
 * the pieces cover the message, the last is always shorter than the others,
 * and a receiver that expects another size than the sender sends always
 * meets a piece of another length, under the piece sizes the library
 * really plans (model.h: point-to-point, pipelined trees, combines, and
 * staggered chains, whose first piece is shorter).
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

/* A planner: the piece size wanted for n bytes, non-decreasing in n, and
 * the first piece's lead. */
typedef blx_plan (*planner)(size_t n);

static blx_model net, shm;
static blx_tree *chain16;
static blx_plan p2p_net(size_t n) { return blx_model_chain_plan(&net, 2, n, 1); }
static blx_plan p2p_shm(size_t n) { return blx_model_chain_plan(&shm, 2, n, 1); }
static blx_plan chain_net(size_t n) { return blx_model_chain_plan(&net, 255, n, 8); }
static blx_plan staggered_net(size_t n) { return blx_model_tree_plan(&net, chain16, n, 8); }
static blx_plan whole(size_t n) { return (blx_plan){n + 1, 1, 0}; } /* how a plan asks for one message */
static blx_plan big_only(size_t n)
{
    (void)n;
    return (blx_plan){BLX_MAX_MSG, 1, 0};
}

static void chain_shape(blx_tree *t, char key, int param)
{
    (void)key, (void)param;
    blx_tree_chain(t, 0, 1, t->np - 1, 1, 1);
}

static blx_cut cut_of(planner f, size_t n, size_t unit)
{
    blx_plan p = f(n);
    return blx_cut_make(n, p.piece, unit, p.lead);
}

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
        CHECK(len <= BLX_MAX_MSG && (c.k == 1 || i == c.k - 1 || len == c.s - (i == 0 ? c.lead : 0)),
              "%s: n=%zu piece %d of %zu", name, n, i, len);
        CHECK(len > 0 || i == c.k - 1, "%s: n=%zu piece %d is empty", name, n, i);
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
    chain16 = blx_tree_build(16, chain_shape, 'I', 0);
    CHECK(chain16 != NULL, "a chain of 16");
    if (chain16 == NULL)
        return 1;
    /* the staggered planner does stagger: a first piece shorter than the others */
    blx_cut led = cut_of(staggered_net, (size_t)1 << 20, 8);
    CHECK(led.k > 2 && led.lead > 0 && led.lead < led.s,
          "1 MiB along a chain of 16 on a network: %d pieces of %zu, lead %zu", led.k, led.s, led.lead);
    const struct {
        planner f;
        const char *name;
        size_t unit;
    } plans[] = {{p2p_net, "p2p (network)", 1},
                 {p2p_shm, "p2p (this machine)", 1},
                 {chain_net, "chain of 256 (network)", 8},
                 {staggered_net, "staggered chain of 16 (network)", 8},
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
                blx_cut c = blx_cut_make(n, want, u, want / 2);
                CHECK(c.s > 0 && (c.k == 1 || c.s % u == 0), "%zu bytes, want %zu, unit %zu: pieces of %zu",
                      n, want, u, c.s);
            }
    /* a message wanted whole is one message, not its elements and an empty piece */
    for (size_t u = 1; u <= 16; u *= 2)
        for (size_t n = 0; n <= 64 * u; n += u)
            CHECK(blx_cut_make(n, n + 1, u, n).k == 1, "%zu bytes in elements of %zu wanted whole: %d pieces",
                  n, u, blx_cut_make(n, n + 1, u, n).k);
    /* 1 GiB pieces: exactly 1 GiB needs an empty last piece, so 2 GiB does not pass as 1 GiB */
    blx_cut c = blx_cut_make((size_t)1 << 30, BLX_MAX_MSG, 1, 0);
    CHECK(c.k == 2, "1 GiB in %d pieces", c.k);
    CHECK(noticed(big_only, (size_t)2 << 30, (size_t)1 << 30, 1),
          "a receiver of 1 GiB misses a sender of 2 GiB");
    blx_tree_free(chain16);
    printf("test_cut: %s (%d failures)\n", check_failures() ? "FAILED" : "passed", check_failures());
    return check_failures() != 0;
}
