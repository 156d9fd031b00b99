/* The compiled double-dummy search: the algorithm of preflog/solver/search.py on machine ints.
 *
 * A card is suit * 8 + rank (0..31), a hand a 32-bit mask. The seats in play are 0..m-1 in play
 * order (m = 2 or 3); the declarer is one of them, every other seat is the other side. The search
 * answers "does the declarer take at least k tricks from here?" (null-window alpha-beta: a node of
 * the side that wants "yes" is an OR over its moves, the other side's an AND), and the value is found
 * by a run of tests on k (downwards for a trick contract, upwards for a misere). Speed comes from
 *   - a transposition table at trick starts: a fixed-size hash table of 4-entry buckets keyed on the
 *     hands by relative rank (each suit's remaining cards renumbered, so played cards drop out), the
 *     leader, the caps still to run and the deal's context, holding lower and upper bounds;
 *   - equivalent cards: cards of one hand with no remaining card between them are one move;
 *   - move ordering: on the lead a top card nobody can ruff, then a low card to the partner's top
 *     card; following, the cheapest card that wins, or the lowest when the partner wins (reversed for
 *     the declarer of a misere); and the card that cut last time at this trick start first;
 *   - quick bounds: the tricks the side on lead can cash at once (trick contracts), a run of top
 *     trumps in one hand, each a sure trick for its side (both goals), and a misere's safe suits
 *     (he escapes) and sure tricks (he is caught) (misere_bounds);
 *   - the last trick counted directly.
 * preflog/solver/position.py's check() refuses a position that cannot arise in play before it comes here;
 * this file still checks every argument it indexes or shifts with (read_ctx), so that no call of the
 * private entry, however wrong, reads or writes outside its arrays or its table: a ValueError instead.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint8_t COMP[256][256]; /* COMP[present][hand]: hand's cards renumbered among present ones */

static const uint32_t SUITM[4] = {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u};

#define MOST 0
#define FEWEST 1
#define BUCKET 3
#define DEFAULT_BUCKETS (1u << 14) /* 2^14 buckets of one 64-byte cache line: 1 MB */

/* An entry: a = compressed hands of seats 0 and 1; b = seat 2's (bits 0..31), the key's context
 * (bits 32..50), the tricks left (51..55), the bounds lo (56..59) and hi (60..63). b == 0: empty.
 * move: 1 + the relative card that answered last time (0: none); gen: the root call that wrote it. */
typedef struct {
    uint64_t a[BUCKET], b[BUCKET];
    uint8_t move[BUCKET], gen[BUCKET];
    uint8_t pad[64 - 18 * BUCKET];
} Bucket;
_Static_assert(sizeof(Bucket) == 64, "a bucket is one cache line");

#define KEY_MASK ((1ull << 51) - 1)

typedef struct {
    uint32_t h[3];
    int m, decl, trump, goal, must_trump, equivalence;
    uint32_t tmask;
    uint64_t ctx; /* decl, trump + 1, goal, must_trump, m: bits 0..8 of the key's context */
    Bucket *tt; /* NULL: no table */
    uint32_t tt_mask;
    uint8_t gen;
    unsigned long long nodes;
} Ctx;

static inline int top_bit(uint32_t x) { return 31 - __builtin_clz(x); }
static inline int popc(uint32_t x) { /* no popcnt instruction in the x86-64 baseline: SWAR */
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

static inline int beats(const Ctx *c, int card, int best) {
    if ((card >> 3) == (best >> 3)) return card > best;
    return (card >> 3) == c->trump;
}

static inline uint32_t legal_of(const Ctx *c, int i, int led) {
    uint32_t hand = c->h[i], x;
    if (led < 0) return hand;
    x = hand & SUITM[led];
    if (x) return x;
    if (c->must_trump) {
        x = hand & c->tmask;
        if (x) return x;
    }
    return hand;
}

static inline uint32_t present_of(const Ctx *c) {
    uint32_t p = 0;
    for (int j = 0; j < c->m; j++) p |= c->h[j];
    return p;
}

/* Whether a suit is safe for the declarer of a misere (see misere_bounds): his j-th lowest card of it
 * (ds) below the others' j-th lowest (es), for as many cards as both hold. */
static inline int suit_safe(uint32_t ds, uint32_t es) {
    while (ds && es) {
        if (__builtin_ctz(ds) > __builtin_ctz(es)) return 0;
        ds &= ds - 1;
        es &= es - 1;
    }
    return 1;
}

/* ------------------------------------------------------------------------------------ moves */
static int score(const Ctx *c, int i, int card, int led, int best, int bi, uint32_t present) {
    int rank = card & 7;
    int declarer = i == c->decl;
    if (led < 0) {
        int suit = card >> 3;
        int topcard = top_bit(present & SUITM[suit]);
        int top = topcard == card;
        if (c->goal == MOST) {
            int ruffable = 0, partner_top = 0;
            for (int j = 0; j < c->m; j++) {
                if (j == i) continue;
                int same_side = (j == c->decl) == declarer;
                if (!same_side && suit != c->trump && c->tmask && (c->h[j] & c->tmask) && !(c->h[j] & SUITM[suit]))
                    ruffable = 1;
                if (same_side && ((c->h[j] >> topcard) & 1)) partner_top = 1;
            }
            if (top) return (ruffable ? 50 : 0) - rank;
            if (partner_top && !ruffable) return 20 + rank;
            return 100 - rank;
        }
        if (declarer) {
            uint32_t es = present & ~c->h[i] & SUITM[suit];
            if (es && card < __builtin_ctz(es)) return 0 - rank; /* a sure loser, the highest first */
            return (es ? 50 : 100) + rank;
        }
        uint32_t ds = c->h[c->decl] & SUITM[suit];
        if (ds && !suit_safe(ds, present & ~c->h[c->decl] & SUITM[suit])) return rank; /* his weak suit, low */
        return (top ? 20 : 100) + rank;
    }
    int wins = beats(c, card, best);
    if (c->goal == MOST) {
        int mine = (bi == c->decl) == declarer;
        if (mine) return (wins ? 100 : 0) + rank;
        return (wins ? 0 : 100) + rank;
    }
    if (declarer) {
        if ((card >> 3) != led) { /* discarding: the top of a suit not safe for him first */
            uint32_t ds = c->h[i] & SUITM[card >> 3];
            return (suit_safe(ds, present & ~c->h[i] & SUITM[card >> 3]) ? 50 : 0) - rank;
        }
        return (wins ? 100 : 0) - rank;
    }
    if ((card >> 3) != led) /* a defender discarding: high cards of the declarer's suits first */
        return (c->h[c->decl] & SUITM[card >> 3] ? 0 : 50) - rank;
    if (bi == c->decl) return (wins ? 100 : 0) - rank;
    return rank;
}

/* The cards to search, one per class of equivalent cards (the lowest of it), best-looking first. */
static int moves_of(const Ctx *c, int i, uint32_t legal, int led, int best, int bi, uint32_t tcards, int *out,
                    int first) {
    uint32_t present = present_of(c) | tcards;
    int n = 0, sc[16];
    for (int s = 0; s < 4; s++) {
        uint32_t ls = legal & SUITM[s];
        int prev = -1;
        while (ls) {
            int card = top_bit(ls);
            ls ^= 1u << card;
            if (c->equivalence && prev >= 0 && !(present & ((1u << prev) - (1u << (card + 1)))))
                out[n - 1] = card;
            else
                out[n++] = card;
            prev = card;
        }
    }
    for (int j = 0; j < n; j++) sc[j] = score(c, i, out[j], led, best, bi, present);
    if (first >= 0) { /* the move that answered last time at this trick start goes first */
        for (int j = 0; j < n; j++)
            if (out[j] == first) {
                sc[j] = -1000;
                break;
            }
    }
    for (int a = 1; a < n; a++) { /* insertion sort, stable */
        int mv = out[a], s = sc[a], b = a - 1;
        while (b >= 0 && sc[b] > s) {
            out[b + 1] = out[b];
            sc[b + 1] = sc[b];
            b--;
        }
        out[b + 1] = mv;
        sc[b + 1] = s;
    }
    return n;
}

/* ------------------------------------------------------------------------------------ bounds */
static int quick_tricks(const Ctx *c, int i) {
    uint32_t hand = c->h[i], present = present_of(c);
    int total = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t hs = hand & SUITM[s], ps = present & SUITM[s];
        int top = 0;
        if (!hs) continue;
        while (ps) {
            int card = top_bit(ps);
            if (!((hs >> card) & 1)) break;
            top++;
            ps ^= 1u << card;
        }
        if (!top) continue;
        if (c->tmask && s != c->trump) {
            for (int j = 0; j < c->m; j++) {
                if (j != i && (c->h[j] & c->tmask)) {
                    int len = popc(c->h[j] & SUITM[s]);
                    if (len < top) top = len;
                }
            }
        }
        total += top;
    }
    return total;
}

/* The misere bounds at a trick start, no trump. In one suit let the declarer's cards be d1 < d2 < ...
 * < dk and the other seats' (together) e1 < e2 < ... < er; the suit is SAFE when dj < ej for every
 * j <= min(k, r). Safe suits stay safe when the declarer keeps to this play:
 *   (a) a card of the others goes (they follow, lead or discard): each ej can only rise, so dj < ej;
 *   (b) following to a lead e = ej of a safe suit, he plays his highest card dp below e (there is one,
 *       d1 < e1 <= e; p >= j as dj < ej). Afterwards his i-th card is di (i < p) or d(i+1) (i >= p),
 *       theirs ei (i < j) or at least e(i+1) (i >= j): for i < j, di < ei; for j <= i < p,
 *       di < dp < e = ej < e(i+1); for i >= p, d(i+1) < e(i+1). Still safe;
 *   (c) discarding (void in the suit led), he drops the highest card of a suit: dj < ej still holds for
 *       the cards left.
 * Playing so, with every suit safe and another seat on lead, the declarer takes no trick: the leader
 * leads a card e of a suit he holds, above all the cards the declarer can follow with (d1 < e1 <= e),
 * so the trick goes to the other side (no trump), which leads again, all suits still safe. As the
 * declarer of a misere wants the fewest tricks, the value is then 0 (hi = 0) whatever the caps.
 * The declarer on lead, every suit safe, in a suit s the others hold, leads his highest card dp below
 * e1: someone must follow above it, and his cards left, d(i+1) for i >= p, must stay below the others'
 * ei for i <= r - 1 (they lose at least one card of s, so their i-th card can only rise): then the
 * other side leads with every suit safe, value 0.
 * Sure tricks: call a suit HIGH when the declarer holds it and his lowest card of it tops all the
 * others' cards of it (or they hold none). Another seat on lead holding a high suit may lead it: the
 * declarer must follow and wins (lo >= 1; his cap is at least 1 at any node searched). The declarer on
 * lead with only high suits wins whatever he leads (no trump), and his suits stay high (his lowest of
 * a suit can only rise, their cards only go): he takes every trick left up to his cap, lo = min(dc, n),
 * which is also the most there is. */
static void misere_bounds(const Ctx *c, int i, int dcn, int *lo, int *hi) {
    uint32_t d = c->h[c->decl], e = present_of(c) & ~d;
    int lead = 0, all_high = 1, caught = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t ds = d & SUITM[s], es = e & SUITM[s];
        int high = ds && (!es || __builtin_ctz(ds) > top_bit(es));
        if (ds && !high) all_high = 0;
        if (high && (c->h[i] & SUITM[s])) caught = 1; /* i not the declarer: es holds i's cards */
    }
    if (i == c->decl ? all_high : caught) {
        int sure = i == c->decl ? dcn : 1;
        if (sure > *lo) *lo = sure;
    }
    for (int s = 0; s < 4; s++) {
        uint32_t ds = d & SUITM[s], es = e & SUITM[s];
        if (!ds || !es) continue;
        if (!suit_safe(ds, es)) return;
        if (!lead && i == c->decl) {
            uint32_t below = ds & ((1u << __builtin_ctz(es)) - 1); /* not empty: d1 < e1 */
            lead = suit_safe(ds ^ (1u << top_bit(below)), es ^ (1u << top_bit(es)));
        }
    }
    if (i != c->decl || lead) *hi = 0;
}

/* ------------------------------------------------------------------------------------ table */
static inline void make_key(const Ctx *c, int leader, int n, int dcn, int scn, uint64_t *a, uint64_t *b) {
    uint32_t present = present_of(c), k[3] = {0, 0, 0};
    for (int s = 0; s < 4; s++) {
        unsigned p = (present >> (8 * s)) & 255u;
        if (!p) continue;
        for (int j = 0; j < c->m; j++) k[j] |= (uint32_t)COMP[p][(c->h[j] >> (8 * s)) & 255u] << (8 * s);
    }
    *a = (uint64_t)k[0] | ((uint64_t)k[1] << 32);
    uint64_t meta = c->ctx | ((uint64_t)leader << 9) | ((uint64_t)dcn << 11) | ((uint64_t)scn << 15);
    *b = (uint64_t)k[2] | (meta << 32) | ((uint64_t)n << 51);
}

static inline uint32_t bucket_of(const Ctx *c, uint64_t a, uint64_t b) {
    uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b & KEY_MASK) * 0xC2B2AE3D27D4EB4Full;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return (uint32_t)x & c->tt_mask;
}

static inline int tt_find(const Bucket *e, uint64_t a, uint64_t b) {
    for (int j = 0; j < BUCKET; j++)
        if (e->a[j] == a && (e->b[j] & KEY_MASK) == (b & KEY_MASK) && e->b[j]) return j;
    return -1;
}

/* Store in the matching or an empty entry, else replace the oldest, of those the one with the fewest
 * tricks left (the cheapest to redo). */
static void tt_store(Ctx *c, Bucket *e, uint64_t a, uint64_t b, int lo, int hi, int n, int move) {
    int slot = -1, worst = -1;
    for (int j = 0; j < BUCKET; j++) {
        if (e->b[j] == 0 || (e->a[j] == a && (e->b[j] & KEY_MASK) == (b & KEY_MASK))) {
            slot = j;
            break;
        }
        int age = (uint8_t)(c->gen - e->gen[j]);
        int cost = (age ? 0 : 1 << 16) - (age << 5) + (int)((e->b[j] >> 51) & 31);
        if (slot < 0 || cost < worst) {
            worst = cost;
            slot = j;
        }
    }
    e->a[slot] = a;
    e->b[slot] = (b & ((1ull << 51) - 1)) | ((uint64_t)(n & 31) << 51) | ((uint64_t)lo << 56) | ((uint64_t)hi << 60);
    e->move[slot] = (uint8_t)(move < 0 ? 0 : move + 1);
    e->gen[slot] = c->gen;
}

/* A card as its suit and its rank among the present cards of the suit (the table's terms), and back. */
static inline int relative_of(uint32_t present, int card) {
    return (card & ~7) | popc(present & SUITM[card >> 3] & ((1u << card) - 1));
}

static inline int card_of_relative(uint32_t present, int rel) {
    uint32_t ps = present & SUITM[rel >> 3];
    for (int r = rel & 7; r > 0 && ps; r--) ps &= ps - 1;
    return ps ? __builtin_ctz(ps) : -1;
}

/* ------------------------------------------------------------------------------------ search */
static int node(Ctx *c, int i, int led, int best, int bi, int t, uint32_t tcards, int dc, int sc, int k);

static int after(Ctx *c, int i, int card, int led, int best, int bi, int t, uint32_t tcards, int dc, int sc,
                 int k) {
    uint32_t bit = 1u << card;
    int r;
    c->h[i] ^= bit;
    if (t == 0) {
        led = card >> 3;
        best = card;
        bi = i;
    } else if (beats(c, card, best)) {
        best = card;
        bi = i;
    }
    if (t + 1 < c->m)
        r = node(c, i + 1 < c->m ? i + 1 : 0, led, best, bi, t + 1, tcards | bit, dc, sc, k);
    else if (bi == c->decl)
        r = dc <= 1 ? k <= 1 : node(c, bi, -1, -1, -1, 0, 0, dc - 1, sc, k - 1);
    else
        r = sc <= 1 ? k <= 0 : node(c, bi, -1, -1, -1, 0, 0, dc, sc - 1, k);
    c->h[i] ^= bit;
    return r;
}

static int expand(Ctx *c, int i, int led, int best, int bi, int t, uint32_t tcards, int dc, int sc, int k,
                  int first, int *cut) {
    int mv[16];
    int is_or = (i == c->decl) == (c->goal == MOST);
    int n = moves_of(c, i, legal_of(c, i, led), led, best, bi, tcards, mv, first);
    for (int j = 0; j < n; j++) {
        if (after(c, i, mv[j], led, best, bi, t, tcards, dc, sc, k) == is_or) {
            *cut = mv[j];
            return is_or;
        }
    }
    *cut = -1;
    return !is_or;
}

static int node(Ctx *c, int i, int led, int best, int bi, int t, uint32_t tcards, int dc, int sc, int k) {
    int cut;
    c->nodes++;
    if (k <= 0) return 1;
    int n = popc(c->h[i]);
    if (k > (dc < n ? dc : n)) return 0;
    if (t) return expand(c, i, led, best, bi, t, tcards, dc, sc, k, -1, &cut);
    if (n == 1) { /* the last trick: count it */
        int w = i, wc = top_bit(c->h[i]), j = i;
        for (int x = 1; x < c->m; x++) {
            j = j + 1 < c->m ? j + 1 : 0;
            int cj = top_bit(c->h[j]);
            if (beats(c, cj, wc)) {
                w = j;
                wc = cj;
            }
        }
        return w == c->decl;
    }
    int dcn = dc < n ? dc : n, scn = sc < n ? sc : n;
    int lo = 0, hi = dcn, first = -1, result;
    uint64_t a = 0, b = 0;
    Bucket *bucket = NULL;
    if (c->tt) {
        make_key(c, i, n, dcn, scn, &a, &b);
        bucket = c->tt + bucket_of(c, a, b);
        int j = tt_find(bucket, a, b);
        if (j >= 0) {
            lo = (int)((bucket->b[j] >> 56) & 15);
            hi = (int)((bucket->b[j] >> 60) & 15);
            if (lo >= k) return 1;
            if (hi < k) return 0;
            uint8_t f = bucket->move[j];
            if (f) first = card_of_relative(present_of(c), f - 1);
        }
    }
    if (c->tmask) { /* a run of top trumps in one hand wins a trick each, whenever played */
        uint32_t tp = present_of(c) & c->tmask;
        int holder = -1, run = 0;
        while (tp) {
            int card = top_bit(tp);
            int j = 0;
            while (!((c->h[j] >> card) & 1)) j++;
            if (holder >= 0 && j != holder) break;
            holder = j;
            run++;
            tp ^= 1u << card;
        }
        if (holder == c->decl) {
            if (sc > n - run && (run < dcn ? run : dcn) > lo) lo = run < dcn ? run : dcn;
        } else if (holder >= 0 && n - run < hi) {
            hi = n - run;
        }
    }
    if (c->goal == FEWEST && !c->tmask) misere_bounds(c, i, dcn, &lo, &hi);
    if (c->goal == MOST) {
        int q = quick_tricks(c, i);
        if (i == c->decl) {
            int bq = q < dcn ? q : dcn;
            if (bq > lo) lo = bq;
        } else {
            int bq = q >= scn ? 0 : (dcn < n - q ? dcn : n - q);
            if (bq < hi) hi = bq;
        }
    }
    cut = -1;
    if (lo >= k)
        result = 1;
    else if (hi < k)
        result = 0;
    else
        result = expand(c, i, -1, -1, -1, 0, 0, dc, sc, k, first, &cut);
    if (result) {
        if (k > lo) lo = k;
    } else {
        if (k - 1 < hi) hi = k - 1;
    }
    if (c->tt) {
        if (cut < 0) cut = first;
        tt_store(c, bucket, a, b, lo, hi, n, cut < 0 ? -1 : relative_of(present_of(c), cut));
    }
    return result;
}

/* ------------------------------------------------------------------------------------ Python type */
typedef struct {
    PyObject_HEAD
    int transposition, equivalence;
    unsigned long long nodes;
    Bucket *tt;
    uint32_t buckets;
    uint8_t gen;
} SearchObject;

static void Search_dealloc(SearchObject *self) {
    free(self->tt);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"transposition", "equivalence", "buckets", NULL};
    int transposition = 1, equivalence = 1;
    unsigned int buckets = DEFAULT_BUCKETS;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|ppI", kwlist, &transposition, &equivalence, &buckets))
        return -1;
    if (buckets == 0 || (buckets & (buckets - 1))) {
        PyErr_SetString(PyExc_ValueError, "buckets must be a power of two");
        return -1;
    }
    self->transposition = transposition;
    self->equivalence = equivalence;
    self->nodes = 0;
    free(self->tt);
    self->tt = NULL;
    self->gen = 0;
    self->buckets = buckets;
    if (transposition) {
        self->tt = aligned_alloc(64, (size_t)buckets * sizeof(Bucket));
        if (self->tt) memset(self->tt, 0, (size_t)buckets * sizeof(Bucket));
        if (!self->tt) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static int refuse(const char *what) {
    PyErr_Format(PyExc_ValueError, "solver: %s", what);
    return -1;
}

#define MAX_CARDS 15 /* cards a hand: the table holds counts in 4 bits, the move lists 16 entries */

/* Whether the arguments describe a position the search can walk without leaving its arrays: 2 or 3
 * disjoint hands of at most MAX_CARDS cards, of equal size once the trick in progress is complete, every
 * index (declarer, seat on turn, winning seat, suit led, best card, trump) in its range, the goal one of
 * the two, the trick's cards apart from the hands and as many as the seats that played to it. */
static int check_ctx(const Ctx *c, int i, int led, int best, int bi, int t, unsigned long long tc, int dc, int sc) {
    int m = c->m;
    if (c->decl < 0 || c->decl >= m) return refuse("the declarer is not a seat in play");
    if (i < 0 || i >= m) return refuse("the seat on turn is not a seat in play");
    if (c->trump < -1 || c->trump > 3) return refuse("trump must be a suit 0..3 or -1");
    if (c->goal != MOST && c->goal != FEWEST) return refuse("goal must be 0 (most) or 1 (fewest)");
    if (dc < 0 || sc < 0) return refuse("the caps cannot be negative");
    if (t < 0 || t >= m) return refuse("a trick holds fewer cards than the seats in play");
    if (tc >> 32) return refuse("the trick's cards are not a set of the 32 cards");
    uint32_t seen = (uint32_t)tc;
    if (popc(seen) != t) return refuse("the trick's cards do not number its length");
    for (int j = 0; j < m; j++) {
        if (c->h[j] & seen) return refuse("a card is held twice");
        seen |= c->h[j];
    }
    int n = popc(c->h[i]);
    if (n > MAX_CARDS) return refuse("at most 15 cards a hand");
    for (int j = 0; j < m; j++) {
        int played = (j - (i - t) + 2 * m) % m < t; /* the t seats before the seat on turn played */
        if (popc(c->h[j]) != (played ? n - 1 : n)) return refuse("the hands are not of one size");
    }
    if (t == 0) {
        if (led != -1 || best != -1 || bi != -1) return refuse("no trick in progress: led, best and winner are -1");
    } else {
        if (led < 0 || led > 3 || !(tc & SUITM[led])) return refuse("the suit led is not a suit of the trick");
        if (best < 0 || best > 31 || !((tc >> best) & 1)) return refuse("the best card is not a card of the trick");
        if (bi < 0 || bi >= m || (bi - (i - t) + 2 * m) % m >= t) return refuse("the winning seat did not play");
    }
    return 0;
}

/* Read the common arguments: hands, decl, trump, goal, must_trump, i, led, best, bi, t, tcards, dc, sc. */
static int read_ctx(SearchObject *self, PyObject *args, Ctx *c, int *i, int *led, int *best, int *bi, int *t,
                    uint32_t *tcards, int *dc, int *sc, PyObject **extra) {
    PyObject *hands;
    unsigned long long tc;
    memset(c, 0, sizeof(*c));
    *extra = NULL;
    if (!PyArg_ParseTuple(args, "OiiipiiiiiKii|O", &hands, &c->decl, &c->trump, &c->goal, &c->must_trump, i, led,
                          best, bi, t, &tc, dc, sc, extra))
        return -1;
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence");
    if (!seq) return -1;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
    if (m < 2 || m > 3) {
        Py_DECREF(seq);
        return refuse("2 or 3 hands");
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, j));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v >> 32) {
            Py_DECREF(seq);
            return refuse("a hand is not a set of the 32 cards");
        }
        c->h[j] = (uint32_t)v;
    }
    Py_DECREF(seq);
    c->m = (int)m;
    if (check_ctx(c, *i, *led, *best, *bi, *t, tc, *dc, *sc) < 0) return -1;
    *tcards = (uint32_t)tc;
    if (*dc > 15) *dc = 15; /* more than the tricks there are: no cap (the table holds 4 bits) */
    if (*sc > 15) *sc = 15;
    c->tmask = c->trump >= 0 ? SUITM[c->trump] : 0;
    c->equivalence = self->equivalence;
    c->ctx = (uint64_t)c->decl | ((uint64_t)(c->trump + 1) << 2) | ((uint64_t)c->goal << 5) |
             ((uint64_t)(c->must_trump ? 1 : 0) << 6) | ((uint64_t)c->m << 7);
    c->tt = self->tt;
    c->tt_mask = self->buckets - 1;
    c->gen = ++self->gen;
    return 0;
}

/* Does the declarer take at least k tricks from here (card < 0) or after `card` is played now? */
static inline int test_k(Ctx *c, int i, int card, int led, int best, int bi, int t, uint32_t tcards, int dc, int sc,
                         int k) {
    if (card < 0) return node(c, i, led, best, bi, t, tcards, dc, sc, k);
    return after(c, i, card, led, best, bi, t, tcards, dc, sc, k);
}

/* The value, by a run of tests from the end the value is rarely at: a misère's (mostly 0 or 1) upwards
 * from 0, a trick contract's downwards from the tricks left (each failed test is cheap, and they fill
 * the table for the next). */
static int value_of(Ctx *c, int i, int card, int led, int best, int bi, int t, uint32_t tcards, int dc, int sc) {
    int lo = 0, hi = popc(c->h[i]);
    if (dc < hi) hi = dc;
    while (lo < hi) {
        int k = c->goal == FEWEST ? lo + 1 : hi;
        if (test_k(c, i, card, led, best, bi, t, tcards, dc, sc, k))
            lo = k;
        else
            hi = k - 1;
    }
    return lo;
}

static PyObject *Search_solve(SearchObject *self, PyObject *args) {
    Ctx c;
    int i, led, best, bi, t, dc, sc, v;
    uint32_t tcards;
    PyObject *extra;
    if (read_ctx(self, args, &c, &i, &led, &best, &bi, &t, &tcards, &dc, &sc, &extra) < 0) return NULL;
    /* the GIL stays held: one Search (its table) must not be searched by two threads at once */
    v = value_of(&c, i, -1, led, best, bi, t, tcards, dc, sc);
    self->nodes += c.nodes;
    return PyLong_FromLong(v);
}

static PyObject *Search_card_values(SearchObject *self, PyObject *args) {
    Ctx c;
    int i, led, best, bi, t, dc, sc;
    uint32_t tcards;
    PyObject *cards;
    if (read_ctx(self, args, &c, &i, &led, &best, &bi, &t, &tcards, &dc, &sc, &cards) < 0) return NULL;
    if (!cards) {
        PyErr_SetString(PyExc_TypeError, "card_values needs the cards to value");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(cards, "cards must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int list[32], vals[32];
    if (n > 32) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "solver: more cards to value than a hand holds");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, j));
        if ((v == -1 && PyErr_Occurred()) || v < 0 || v > 31 || !((legal_of(&c, i, led) >> v) & 1)) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "solver: a card the seat on turn cannot play");
            return NULL;
        }
        list[j] = (int)v;
    }
    Py_DECREF(seq);
    for (Py_ssize_t j = 0; j < n; j++) vals[j] = value_of(&c, i, list[j], led, best, bi, t, tcards, dc, sc);
    self->nodes += c.nodes;
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *key = PyLong_FromLong(list[j]), *val = PyLong_FromLong(vals[j]);
        if (!key || !val || PyDict_SetItem(out, key, val) < 0) {
            Py_XDECREF(key);
            Py_XDECREF(val);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(key);
        Py_DECREF(val);
    }
    return out;
}

static PyObject *Search_get_nodes(SearchObject *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->nodes);
}

static PyMethodDef Search_methods[] = {
    {"solve", (PyCFunction)Search_solve, METH_VARARGS, "The declarer's tricks from here."},
    {"card_values", (PyCFunction)Search_card_values, METH_VARARGS, "Each given card -> the declarer's tricks."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "nodes searched since creation", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "preflog.solver._dd.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The compiled double-dummy search with its transposition table.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef ddmodule = {
    PyModuleDef_HEAD_INIT, "_dd", "The compiled double-dummy search of preflog.solver.", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__dd(void) {
    for (int p = 0; p < 256; p++)
        for (int h = 0; h < 256; h++) {
            int out = 0, j = 0;
            if (h & ~p) continue;
            for (int r = 0; r < 8; r++)
                if ((p >> r) & 1) {
                    if ((h >> r) & 1) out |= 1 << j;
                    j++;
                }
            COMP[p][h] = (uint8_t)out;
        }
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *mod = PyModule_Create(&ddmodule);
    if (!mod) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(mod, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
