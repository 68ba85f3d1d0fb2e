/*
 * test/unit/test_msgid.c - message IDs from counters (msgid/), without MPI.
 *
 * For many grids and ranges: every ID lies in [lo, hi]; point-to-point and
 * scoped IDs never meet, nor do two scopes; when the range allows, every
 * source and every root owns its own subrange (no overlap), and otherwise
 * they share one; sender and receiver compute the same ID for the same
 * message; a source's or root's IDs cycle with period span; ranges below the
 * minimum are refused.
 */
#include <stdlib.h>
#include <string.h>

#include "../../msgid/msgid.h"
#include "check.h"

/* An ID the library produced must lie in [lo, hi] (an int overflow shows as
 * an ID below lo). */
static int in_range(long long id, long long lo, long long hi) { return id >= lo && id <= hi; }
#define CHECK_ID(id, lo, hi, what, ...)                                                                 \
    CHECK(in_range(id, lo, hi), "ID %lld outside [%lld,%lld]: " what, (long long)(id), (long long)(lo), \
          (long long)(hi), __VA_ARGS__)

/* Marks every ID of [base, base + span) with 'who' in owner[]; an ID
 * already owned by another subrange is an overlap. */
static void claim(int *owner, int lo, int hi, int base, int span, int who, int may_share)
{
    for (int k = 0; k < span; k++) {
        long long id = (long long)base + k;
        CHECK_ID(id, lo, hi, "subrange %d", who);
        if (id < lo || id > hi)
            break;
        CHECK(owner[id - lo] == 0 || (may_share && owner[id - lo] == -who), "ID %lld claimed twice (%d, %d)",
              id, owner[id - lo], who);
        owner[id - lo] = may_share ? -who : who;
    }
}

/* Any range size (only the ends of each subrange are computed, in long
 * long): the first, last and wrapped-around ID of every source's and every
 * root's subrange, from the library, are those its layout describes; the
 * subranges lie in [lo, hi], one kind after the other (point-to-point, row,
 * column, all scopes: the kinds never meet). */
static void check_bounds(const blx_idlayout *L, int lo, int hi, int ng, const int *members)
{
    long long prev_end = (long long)lo - 1; /* last ID of the kinds before */
    for (int kind = -1; kind < BLX_NSCOPE; kind++) {
        int n = kind < 0 ? ng : members[kind];
        long long base = kind < 0 ? L->p2p_base : L->scope_base[kind];
        long long span = kind < 0 ? L->p2p_span : L->scope_span[kind];
        long long stride = kind < 0 ? L->p2p_stride : L->scope_stride[kind];
        long long end = prev_end;
        for (int v = 0; v < n; v++) {
            long long first = base + v * stride, last = first + span - 1;
            long long got[3];
            const unsigned counts[3] = {0, (unsigned)(span - 1), (unsigned)span};
            for (int c = 0; c < 3; c++) {
                got[c] = kind < 0 ? blx_msgid_p2p(L, v, counts[c]) : blx_msgid_scoped(L, kind, v, counts[c]);
                CHECK_ID(got[c], lo, hi, "kind %d subrange %d count %u", kind, v, counts[c]);
            }
            CHECK(got[0] == first && got[1] == last && got[2] == first,
                  "[%d,%d] kind %d subrange %d: IDs %lld..%lld, then %lld; the layout says %lld..%lld", lo,
                  hi, kind, v, got[0], got[1], got[2], first, last);
            CHECK(first > prev_end && last <= hi, "[%d,%d] kind %d subrange %d is [%lld,%lld], after %lld",
                  lo, hi, kind, v, first, last, prev_end);
            end = last > end ? last : end;
        }
        prev_end = end;
    }
}

static void check_layout(int lo, int hi, int p, int q)
{
    blx_idlayout L;
    int rc = blx_idlayout_init(&L, lo, hi, p, q);
    if ((long long)hi - lo + 1 < BLX_MSGID_MIN_RANGE) {
        CHECK(rc == -1, "range [%d,%d] too small but accepted", lo, hi);
        return;
    }
    CHECK(rc == 0, "range [%d,%d] refused for %dx%d", lo, hi, p, q);
    if (rc != 0)
        return;
    int ng = p * q, members[3] = {q, p, ng};
    CHECK(L.p2p_span >= 1 && (L.p2p_stride == L.p2p_span || L.p2p_stride == 0), "p2p span %d stride %d",
          L.p2p_span, L.p2p_stride);
    /* own subranges whenever there is room for them */
    CHECK((L.p2p_stride == 0) == (((long long)hi - lo + 1) / 2 < ng), "p2p sharing when not needed");
    for (int s = 0; s < BLX_NSCOPE; s++)
        CHECK(L.scope_span[s] >= 1 && (L.scope_stride[s] == L.scope_span[s] || L.scope_stride[s] == 0),
              "scope %d span %d stride %d", s, L.scope_span[s], L.scope_stride[s]);
    check_bounds(&L, lo, hi, ng, members);

    if ((long long)hi - lo > 2000000) /* the overlap map below, ID by ID, is for small ranges */
        return;
    int *owner = calloc((size_t)(hi - lo + 1), sizeof *owner);
    for (int v = 0; v < ng; v++)
        claim(owner, lo, hi, blx_msgid_p2p(&L, v, 0), L.p2p_span, 1 + (L.p2p_stride ? v : 0),
              L.p2p_stride == 0);
    int who = 1 + ng;
    for (int s = 0; s < BLX_NSCOPE; s++, who += ng)
        for (int m = 0; m < members[s]; m++)
            claim(owner, lo, hi, blx_msgid_scoped(&L, s, m, 0), L.scope_span[s],
                  who + (L.scope_stride[s] ? m : 0), L.scope_stride[s] == 0);
    free(owner);
}

/* Two processes of a grid exchange messages: the IDs the sender computes must
 * be those the receiver expects, message after message. */
static void check_pair_agreement(void)
{
    blx_msgids a, b;
    CHECK(blx_msgids_init(&a, 0, 2147483647, 2, 3) == 0, "init a");
    CHECK(blx_msgids_init(&b, 0, 2147483647, 2, 3) == 0, "init b");
    int va = 1, vb = 4;
    int prev = -1;
    for (int k = 0; k < 1000; k++) {
        int s = blx_msgid_next_send(&a, va, vb);
        int r = blx_msgid_next_recv(&b, va);
        CHECK(s == r, "message %d: sender ID %d, receiver ID %d", k, s, r);
        CHECK(s != prev, "message %d repeats ID %d", k, s);
        CHECK(s == blx_msgid_p2p(&a.layout, va, (unsigned)k),
              "message %d: ID %d is not count %d of source %d", k, s, k, va);
        CHECK_ID(s, 0, 2147483647, "message %d", k);
        prev = s;
    }
    /* b -> a is counted independently: it starts at count 0 of b's subrange
     * after a's 1000 messages, and the two directions interleave without
     * disturbing each other */
    for (int k = 0; k < 5; k++) {
        int s = blx_msgid_next_send(&b, vb, va), r = blx_msgid_next_recv(&a, vb);
        CHECK(s == r && s == blx_msgid_p2p(&b.layout, vb, (unsigned)k),
              "reverse message %d: sender ID %d, receiver ID %d, want count %d of source %d (%d)", k, s, r, k,
              vb, blx_msgid_p2p(&b.layout, vb, (unsigned)k));
        s = blx_msgid_next_send(&a, va, vb);
        r = blx_msgid_next_recv(&b, va);
        CHECK(s == r && s == blx_msgid_p2p(&a.layout, va, 1000u + (unsigned)k),
              "forward message %d after a reverse one: sender ID %d, receiver ID %d", 1000 + k, s, r);
    }
    /* a different source uses a different subrange */
    CHECK(blx_msgid_p2p(&a.layout, 0, 0) != blx_msgid_p2p(&a.layout, 1, 0), "sources collide");
    blx_msgids_free(&a);
    blx_msgids_free(&b);
}

/* Scoped IDs: every member advancing the same root's counter agrees; roots
 * and scopes are separate; the counter wraps inside its subrange. */
static void check_scoped(void)
{
    enum { P = 3, Q = 4 };
    blx_msgids m[P * Q];
    for (int v = 0; v < P * Q; v++)
        CHECK(blx_msgids_init(&m[v], 100, 100 + 999, P, Q) == 0, "init %d", v);
    const blx_idlayout *L = &m[0].layout;
    for (int op = 0; op < 3 * L->scope_span[BLX_SCOPE_ALL]; op++) {
        int root = op % (P * Q), id0 = -1;
        for (int v = 0; v < P * Q; v++) {
            int id = blx_msgid_next_scoped(&m[v], BLX_SCOPE_ALL, root);
            CHECK_ID(id, 100, 1099, "op %d member %d", op, v);
            if (v == 0)
                id0 = id;
            CHECK(id == id0, "op %d: member %d computes %d, member 0 %d", op, v, id, id0);
        }
        int base = L->scope_base[BLX_SCOPE_ALL] + root * L->scope_span[BLX_SCOPE_ALL];
        CHECK(id0 >= base && id0 < base + L->scope_span[BLX_SCOPE_ALL], "op %d: ID %d outside", op, id0);
    }
    /* one root's IDs stay in its subrange and wrap after exactly span operations */
    {
        int span = L->scope_span[BLX_SCOPE_COL], base = L->scope_base[BLX_SCOPE_COL] + span;
        int first = blx_msgid_scoped(L, BLX_SCOPE_COL, 1, 0);
        for (unsigned k = 0; k < 2u * (unsigned)span + 3; k++) {
            int id = blx_msgid_scoped(L, BLX_SCOPE_COL, 1, k);
            CHECK(id >= base && id < base + span, "count %u: ID %d outside [%d,%d)", k, id, base,
                  base + span);
            CHECK((id == first) == (k % (unsigned)span == 0), "count %u: ID %d, wrap at span %d", k, id,
                  span);
        }
        int p2 = L->p2p_span;
        CHECK(blx_msgid_p2p(L, 3, (unsigned)p2) == blx_msgid_p2p(L, 3, 0), "p2p wrap");
        CHECK(blx_msgid_p2p(L, 3, (unsigned)p2 - 1) == L->p2p_base + 4 * p2 - 1, "p2p last ID");
    }
    /* consecutive operations with one root differ */
    int a = blx_msgid_next_scoped(&m[0], BLX_SCOPE_ROW, 2);
    int b = blx_msgid_next_scoped(&m[0], BLX_SCOPE_ROW, 2);
    CHECK(a != b, "consecutive row operations share ID %d", a);
    CHECK_ID(a, 100, 1099, "row op %d", 0);
    CHECK_ID(b, 100, 1099, "row op %d", 1);
    CHECK(blx_msgid_scoped(L, BLX_SCOPE_ROW, 0, 0) != blx_msgid_scoped(L, BLX_SCOPE_COL, 0, 0),
          "row and column scopes collide");
    for (int v = 0; v < P * Q; v++)
        blx_msgids_free(&m[v]);
}

int main(void)
{
    const int grids[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2},  {2, 3},
                            {3, 3}, {1, 8}, {8, 1}, {4, 16}, {64, 64}};
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        int p = grids[g][0], q = grids[g][1];
        check_layout(0, 2147483647, p, q);
        check_layout(1000, 2147483647, p, q);
        check_layout(0, 32767, p, q);
        check_layout(7, 7 + BLX_MSGID_MIN_RANGE - 1, p, q); /* the smallest: shared subranges */
        check_layout(7, 7 + BLX_MSGID_MIN_RANGE - 2, p, q); /* one short */
        check_layout(0, 10000, p, q);
        check_layout(3, 3 + 12 * p * q + 5, p, q);
    }
    blx_idlayout L;
    CHECK(blx_idlayout_init(&L, 10, 5, 1, 1) == -1, "hi < lo accepted");
    CHECK(blx_idlayout_init(&L, -1, 100, 1, 1) == -1, "negative lo accepted");
    /* a grid too large for its own subranges in a 32768-ID range shares them */
    CHECK(blx_idlayout_init(&L, 0, 32767, 100, 200) == 0 && L.p2p_stride == 0 && L.scope_stride[2] == 0 &&
              L.scope_stride[0] > 0,
          "20000 processes in 32768 IDs");
    check_pair_agreement();
    check_scoped();
    printf("test_msgid: %s (%d failures)\n", check_failures() ? "FAILED" : "passed", check_failures());
    return check_failures() != 0;
}
