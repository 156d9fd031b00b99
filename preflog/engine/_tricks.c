/* The compiled card loop of the trick-play kernel: preflog/engine/tricks.py (TrickPlay.play_cards) is the
 * reference, and the pure-Python path when this module is not built or PREFLOG_PURE is set.
 *
 *   run(codes, players, cards, i, end, hands, tricks, winners, next, card_code, setup, state)
 *
 * plays the card rows i:end of the columns (codes, players, cards: lists of ints, the form of
 * preflog.model.columns.RowColumns) as TrickPlay.play_cards does, on the play state passed in: the lists
 * `hands` and `tricks` are updated in place (a seat's item replaced only when it changes), each completed
 * trick's winner is appended to `winners`, `next` is the seat after each seat. The play's scalars come as
 * two 64-bit words, packed by TrickPlay._play_compiled (one int each instead of twenty boxed arguments;
 * seats, suits and cards are biased to be non-negative). Their layout is one table, LAYOUT in
 * preflog/engine/cardloop_layout.py; _tricks_layout.h is generated from it (a getter and a setter macro per
 * field), and tests/engine/test_card_loop_layout.py holds the packer and this loop to the same table:
 *
 *   setup  trump, must trump, trick length, talon tricks, talon owner, third lead to the winner, stops,
 *          stop seat, declarer cap, side cap, first hand, the talon's cards
 *   state  seat to play, suit led, best card, best seat, tricks completed, cards in the open trick,
 *          the talon's order (first, second; -2 while it is not known)
 *
 * It stops at the first row that is not a card, at the first card that is not plainly legal (the caller's
 * step then names the rule), and when play is over (10 tricks, or a stop cap reached). It returns
 *
 *   (j, start, out)
 *
 * j the first row not played, start the first row of the trick still open (i when none completed in this
 * run), and `out` the state word after the run with bit 19 meaning play is over (bits 19-20 of `state`
 * are not needed back: `start` tells the open trick). Lists are read as 64-bit ints; a list item that is
 * not an int raises TypeError, a seat off the lists IndexError (the reference's list indexing, negative
 * seats counting from the end as Python's do).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "_tricks_layout.h"

#define N_TRICKS 10
#define NO_SEAT (-1)

static inline int64_t suit_mask(int64_t suit) {
    /* SUIT_MASKS[suit] of preflog.model.cards, with Python's indexing of a 4-tuple (-1 = the last suit) */
    if (suit < 0) suit += 4;
    return (int64_t)0xFF << (8 * suit);
}

static inline int64_t bit_length(uint64_t x) {
    return x ? 64 - __builtin_clzll(x) : 0;
}

/* An int as an int64: 0, with *fits = 0 when it does not fit (an int far off any card or seat); -1 with
 * TypeError when it is not an int. A one-digit int is read straight from its digit (CPython before 3.12,
 * whose int layout this is); any other through the C API. */
static inline int as_i64(PyObject *o, int64_t *out, int *fits) {
#if PY_VERSION_HEX < 0x030C0000
    if (PyLong_CheckExact(o)) {
        Py_ssize_t size = Py_SIZE(o);
        if (size >= -1 && size <= 1) {
            *out = size == 0 ? 0 : size * (int64_t)((PyLongObject *)o)->ob_digit[0];
            *fits = 1;
            return 0;
        }
    }
#endif
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "an int was expected, not %.50s", Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    *fits = !overflow;
    *out = overflow ? 0 : (int64_t)v;
    return 0;
}

static inline int item(PyObject *list, Py_ssize_t k, int64_t *out, int *fits) {
    return as_i64(PyList_GET_ITEM(list, k), out, fits);
}

/* A seat as a list index (Python's: negative from the end); -1 with IndexError when off the list. */
static inline Py_ssize_t seat_index(int64_t seat, Py_ssize_t n) {
    int64_t k = seat < 0 ? seat + n : seat;
    if (k < 0 || k >= n) {
        PyErr_SetString(PyExc_IndexError, "list index out of range");
        return -1;
    }
    return (Py_ssize_t)k;
}

static int64_t arg(PyObject *const *args, int k, int *err) {
    int64_t v = 0;
    int fits = 1;
    if (as_i64(args[k], &v, &fits) < 0) {
        *err = 1;
    } else if (!fits) {
        PyErr_SetString(PyExc_OverflowError, "a play state value does not fit 64 bits");
        *err = 1;
    }
    return v;
}

#define MAX_SEATS 4

static PyObject *run(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 12) {
        PyErr_Format(PyExc_TypeError, "run() takes 12 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *codes = args[0], *players = args[1], *cards = args[2];
    PyObject *hands_l = args[5], *tricks_l = args[6], *winners = args[7], *next_l = args[8];
    if (!PyList_Check(codes) || !PyList_Check(players) || !PyList_Check(cards) || !PyList_Check(hands_l) ||
        !PyList_Check(tricks_l) || !PyList_Check(winners) || !PyList_Check(next_l)) {
        PyErr_SetString(PyExc_TypeError, "run() takes lists of ints");
        return NULL;
    }
    int err = 0;
    int64_t i = arg(args, 3, &err), end = arg(args, 4, &err), card_code = arg(args, 9, &err);
    int64_t setup = arg(args, 10, &err), state = arg(args, 11, &err);
    int64_t trump = SETUP_TRUMP(setup);
    int64_t tmask = SETUP_MUST_TRUMP(setup) ? suit_mask(trump) : 0;
    int64_t tlen = SETUP_TRICK_LEN(setup), talon_n = SETUP_TALON_TRICKS(setup), owner = SETUP_TALON_OWNER(setup);
    int64_t third_lead_winner = SETUP_THIRD_LEAD_WINNER(setup), stops = SETUP_STOPS(setup);
    int64_t stop_seat = SETUP_STOP_SEAT(setup), declarer_cap = SETUP_DECLARER_CAP(setup);
    int64_t side_cap = SETUP_SIDE_CAP(setup), first_hand = SETUP_FIRST_HAND(setup), talon = SETUP_TALON(setup);
    int64_t seat = STATE_TO_PLAY(state), led = STATE_LED(state), best = STATE_BEST(state);
    int64_t bseat = STATE_BEST_SEAT(state), completed = STATE_COMPLETED(state), k = STATE_IN_TRICK(state);
    int64_t order[2] = {STATE_ORDER_FIRST(state), STATE_ORDER_SECOND(state)};
    if (err) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(hands_l);
    if (n > MAX_SEATS || PyList_GET_SIZE(tricks_l) != n || PyList_GET_SIZE(next_l) != n) {
        PyErr_SetString(PyExc_ValueError, "run() plays 1 to 4 seats");
        return NULL;
    }
    Py_ssize_t rows = PyList_GET_SIZE(codes);
    if (PyList_GET_SIZE(players) != rows || PyList_GET_SIZE(cards) != rows) {
        PyErr_SetString(PyExc_ValueError, "run() takes columns of one length");
        return NULL;
    }
    if (end > rows) end = rows;
    if (i < 0) i = 0;
    int64_t hand0[MAX_SEATS], hands[MAX_SEATS], tricks0[MAX_SEATS], tricks[MAX_SEATS], nxt[MAX_SEATS];
    int fits = 1;
    for (Py_ssize_t s = 0; s < n; s++) {
        if (item(hands_l, s, &hands[s], &fits) < 0 || item(tricks_l, s, &tricks[s], &fits) < 0 ||
            item(next_l, s, &nxt[s], &fits) < 0)
            return NULL;
        hand0[s] = hands[s];
        tricks0[s] = tricks[s];
    }
    int64_t j = i, start = i, played = 0;
    int done = 0;
    int64_t code, player, c;
    Py_ssize_t at;
#define TAKE_OFF()                                              \
    do {                                                        \
        if (played)                                             \
            for (Py_ssize_t s_ = 0; s_ < n; s_++) hands[s_] &= ~played; \
        played = 0;                                             \
    } while (0)
#define LEAD_TALON_CARD()                                                   \
    do {                                                                    \
        if (order[0] == -2 || completed < 0 || completed > 1) {             \
            PyErr_SetString(PyExc_AssertionError, "no talon card to lead");  \
            return NULL;                                                    \
        }                                                                   \
        int64_t tc_ = order[completed];                                     \
        led = tc_ >> 3;                                                     \
        if (owner != NO_SEAT) { best = tc_; bseat = owner; }                \
        else { best = -1; bseat = NO_SEAT; }                                \
    } while (0)
    while (j < end) {
        if (item(codes, (Py_ssize_t)j, &code, &fits) < 0) return NULL;
        if (!fits || code != card_code) break;
        if (item(players, (Py_ssize_t)j, &player, &fits) < 0) return NULL;
        if (!fits || player != seat) break;
        if (item(cards, (Py_ssize_t)j, &c, &fits) < 0) return NULL;
        if (!fits || c < 0 || c > 31) break;   /* not a card: the step names the rule */
        int64_t card = c;
        if ((at = seat_index(seat, n)) < 0) return NULL;
        int64_t hand = hands[at] & ~played;
        if (!((hand >> card) & 1)) break;
        int64_t s = card >> 3;
        if (led < 0 && completed < talon_n) {   /* open raspasy, trick 1: this card fixes the talon order */
            uint64_t t = (uint64_t)talon;
            int64_t lo = bit_length(t & (0 - t)) - 1, hi = bit_length(t) - 1;
            int64_t suits = suit_mask(lo >> 3) | suit_mask(hi >> 3);
            if (!(((int64_t)1 << card) & suits) && (hand & suits)) break;   /* must follow a suit of the talon */
            TAKE_OFF();
            int64_t first = (card >> 3 == hi >> 3 && lo >> 3 != hi >> 3) ? hi : lo;
            order[0] = first;
            order[1] = first == lo ? hi : lo;
            LEAD_TALON_CARD();
        }
        if (led < 0) {                                   /* the lead */
            led = s; best = card; bseat = seat;
        } else if (s == led) {
            if (best < 0 || (card > best && best >> 3 == s)) { best = card; bseat = seat; }
        } else if (hand & suit_mask(led)) {
            break;                                       /* must follow suit */
        } else if (s == trump) {
            if (best >> 3 != s || card > best) { best = card; bseat = seat; }
        } else if (hand & tmask) {
            break;                                       /* must trump */
        }
        played |= (int64_t)1 << card;
        j++;
        k++;
        if (k < tlen) {
            if ((at = seat_index(seat, n)) < 0) return NULL;
            seat = nxt[at];
            continue;
        }
        /* the trick is complete */
        PyObject *w = PyLong_FromLongLong(bseat);
        if (w == NULL || PyList_Append(winners, w) < 0) { Py_XDECREF(w); return NULL; }
        Py_DECREF(w);
        if (bseat != NO_SEAT) {
            if ((at = seat_index(bseat, n)) < 0) return NULL;
            tricks[at] += 1;
        }
        completed++;
        k = 0;
        start = j;
        if (completed == N_TRICKS) { done = 1; break; }
        if (stops) {
            if ((at = seat_index(stop_seat, n)) < 0) return NULL;
            if (tricks[at] >= declarer_cap || completed - tricks[at] >= side_cap) { done = 1; break; }
        }
        if (completed < talon_n) {                       /* the next talon card leads */
            seat = first_hand;
            TAKE_OFF();
            LEAD_TALON_CARD();
            continue;
        }
        if (completed == talon_n)                        /* after the talon tricks: first hand (or the winner) */
            seat = (third_lead_winner && bseat != NO_SEAT) ? bseat : first_hand;
        else
            seat = bseat;
        led = -1; best = -1; bseat = NO_SEAT;
    }
    TAKE_OFF();
    for (Py_ssize_t s = 0; s < n; s++) {
        if (hands[s] != hand0[s]) {
            PyObject *h = PyLong_FromLongLong(hands[s]);
            if (h == NULL) return NULL;
            PyList_SetItem(hands_l, s, h);   /* steals h */
        }
        if (tricks[s] != tricks0[s]) {
            PyObject *t = PyLong_FromLongLong(tricks[s]);
            if (t == NULL) return NULL;
            PyList_SetItem(tricks_l, s, t);
        }
    }
    int64_t out = PUT_OUT_TO_PLAY(seat) | PUT_OUT_LED(led) | PUT_OUT_BEST(best) | PUT_OUT_BEST_SEAT(bseat)
                  | PUT_OUT_COMPLETED(completed) | PUT_OUT_DONE(done) | PUT_OUT_ORDER_FIRST(order[0])
                  | PUT_OUT_ORDER_SECOND(order[1]);
    int64_t back[3] = {j, start, out};
    PyObject *res = PyTuple_New(3);
    if (res == NULL) return NULL;
    for (int q = 0; q < 3; q++) {
        PyObject *v = PyLong_FromLongLong(back[q]);
        if (v == NULL) { Py_DECREF(res); return NULL; }
        PyTuple_SET_ITEM(res, q, v);
    }
    return res;
#undef TAKE_OFF
#undef LEAD_TALON_CARD
}

static PyMethodDef METHODS[] = {
    {"run", (PyCFunction)(void (*)(void))run, METH_FASTCALL, "Play a run of card rows (see the module comment)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_tricks", NULL, -1, METHODS};

PyMODINIT_FUNC PyInit__tricks(void) { return PyModule_Create(&MODULE); }
