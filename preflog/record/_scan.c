/* The compiled scanner of the text reader: runs of canonical trick lines, and card lists.
 *
 * The pure-Python reader (preflog/record/textfmt.py parses the lines, reader.py builds the events) is
 * the reference. These functions are its fast paths done without a Python object per line: each accepts a strict subset of what the
 * Python fast path accepts and gives exactly its result there; anything else (a talon mark, two
 * spaces, a card not held, a wrong trick number, a non-ASCII digit ...) stops the run at that line
 * and the Python reader reads that line itself, careful path and exact error included. Cards are
 * looked up in the reader's own spelling table (a dict of str -> int), so both paths spell cards
 * alike by construction.
 *
 *   trick_lines(lines, i)  how many of lines[i], lines[i+1], ... are canonical trick lines
 *                          ("N: cards": ASCII digits, ": ", then no blank at either end)
 *   play(lines, i, stop, line, trick_no, last_trick, owner, hands, played, tokens, events, at)
 *                          plays lines[i:stop] as the reader's fast_trick does, appending the shared
 *                          CardPlayed objects to events and each one's record line to at; returns
 *                          (lines played, trick_no, last_trick, mask of the cards played)
 *   mask(text, tokens)     (mask, count) of a single-space card list without repeats, or None
 *   letter_list(text, safe) whether text is a list "A 6s, B pass" of items led by a letter of safe
 *   hand(text, tokens, owner, seat, taken, want)
 *                          the mask of a hand of `want` such cards, none in `taken`, each given to
 *                          seat in owner (card -> seat); None, owner untouched, otherwise
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* Digits of a canonical trick line's number, or 0 when lines[i] is not one. */
static Py_ssize_t trick_digits(PyObject *s) {
    if (!PyUnicode_Check(s) || PyUnicode_READY(s) < 0)
        return 0;
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    Py_ssize_t d = 0;
    while (d < n) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, d);
        if (ch < '0' || ch > '9')
            break;
        d++;
    }
    if (d == 0 || d + 3 > n)
        return 0;
    if (PyUnicode_READ(kind, data, d) != ':' || PyUnicode_READ(kind, data, d + 1) != ' ')
        return 0;
    Py_UCS4 first = PyUnicode_READ(kind, data, d + 2);
    if (first == ',' || Py_UNICODE_ISSPACE(first) || Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, n - 1)))
        return 0;
    return d;
}

static PyObject *trick_lines(PyObject *self, PyObject *args) {
    PyObject *lines;
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "O!n", &PyList_Type, &lines, &i))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(lines), j = i < 0 ? n : i;
    while (j < n && trick_digits(PyList_GET_ITEM(lines, j)))
        j++;
    return PyLong_FromSsize_t(j < i ? 0 : j - i);
}

/* tokens[text[a:b]] as a card 0..31, or -1 (not a card spelling, or an error: then *err). */
static long card_of(PyObject *tokens, PyObject *text, Py_ssize_t a, Py_ssize_t b, int *err) {
    PyObject *sub = PyUnicode_Substring(text, a, b);
    if (sub == NULL) {
        *err = 1;
        return -1;
    }
    PyObject *v = PyDict_GetItemWithError(tokens, sub); /* borrowed */
    Py_DECREF(sub);
    if (v == NULL) {
        if (PyErr_Occurred())
            *err = 1;
        return -1;
    }
    long c = PyLong_AsLong(v);
    if (c == -1 && PyErr_Occurred()) {
        *err = 1;
        return -1;
    }
    return (c >= 0 && c < 32) ? c : -1;
}

static long item_long(PyObject *list, Py_ssize_t k, int *err) {
    long v = PyLong_AsLong(PyList_GET_ITEM(list, k));
    if (v == -1 && PyErr_Occurred())
        *err = 1;
    return v;
}

static PyObject *play(PyObject *self, PyObject *args) {
    PyObject *lines, *owner, *hands, *played, *tokens, *events, *at;
    Py_ssize_t i, stop, line;
    long trick_no, last_trick;
    if (!PyArg_ParseTuple(args, "O!nnnllO!O!O!O!O!O!", &PyList_Type, &lines, &i, &stop, &line, &trick_no,
                          &last_trick, &PyList_Type, &owner, &PyList_Type, &hands, &PyList_Type, &played,
                          &PyDict_Type, &tokens, &PyList_Type, &events, &PyList_Type, &at))
        return NULL;
    if (PyList_GET_SIZE(owner) != 32 || i < 0 || stop > PyList_GET_SIZE(lines)) {
        PyErr_SetString(PyExc_ValueError, "play: owner must hold 32 seats and i:stop lie within lines");
        return NULL;
    }
    Py_ssize_t nhands = PyList_GET_SIZE(hands), nplayed = PyList_GET_SIZE(played);
    uint32_t bits = 0;
    Py_ssize_t j = i;
    int err = 0;
    PyObject *lineno = NULL;
    for (; j < stop; j++) {
        PyObject *s = PyList_GET_ITEM(lines, j);
        Py_ssize_t d = trick_digits(s);
        long next = trick_no + 1;
        if (d == 0 || d > 2 || next >= 64)
            break;
        int kind = PyUnicode_KIND(s);
        const void *data = PyUnicode_DATA(s);
        Py_UCS4 d0 = PyUnicode_READ(kind, data, 0);
        long number = d == 1 ? (long)(d0 - '0') : (long)(d0 - '0') * 10 + (long)(PyUnicode_READ(kind, data, 1) - '0');
        if ((d == 2 && d0 == '0') || number != next)
            break; /* the number as written must be str(next) */
        Py_ssize_t n = PyUnicode_GET_LENGTH(s), a = d + 2;
        long cards[4], seats_of[4];
        int count = 0, ok = 1;
        long seats = 0;
        while (ok) { /* str.split(" "): an empty piece (two spaces) is no card */
            Py_ssize_t b = a;
            while (b < n && PyUnicode_READ(kind, data, b) != ' ')
                b++;
            long c = count < 4 ? card_of(tokens, s, a, b, &err) : -1;
            if (err)
                goto fail;
            long holder = c >= 0 ? item_long(owner, c, &err) : -1;
            if (err)
                goto fail;
            if (holder < 0 || holder >= nhands || holder >= nplayed || (seats >> holder & 1)) {
                ok = 0;
                break;
            }
            cards[count] = c;
            seats_of[count] = holder;
            count++;
            seats |= 1L << holder;
            if (b >= n)
                break;
            a = b + 1;
        }
        if (!ok || (last_trick >= 0 && !(last_trick >> seats_of[0] & 1)))
            break;
        lineno = PyLong_FromSsize_t(line + (j - i));
        if (lineno == NULL)
            goto fail;
        for (int k = 0; k < count; k++) {
            long c = cards[k], seat = seats_of[k];
            PyObject *h = PyList_GET_ITEM(hands, seat);
            unsigned long long mask = PyLong_AsUnsignedLongLong(h);
            if (mask == (unsigned long long)-1 && PyErr_Occurred())
                goto fail;
            PyObject *nh = PyLong_FromUnsignedLongLong(mask & ~(1ULL << c));
            if (nh == NULL)
                goto fail;
            PyList_SetItem(hands, seat, nh); /* steals nh */
            PyObject *minus = PyLong_FromLong(-1);
            if (minus == NULL)
                goto fail;
            PyList_SetItem(owner, c, minus);
            PyObject *row = PyList_GET_ITEM(played, seat);
            if (!PyList_Check(row) || PyList_GET_SIZE(row) != 32) {
                PyErr_SetString(PyExc_ValueError, "play: played must hold a list of 32 events per seat");
                goto fail;
            }
            if (PyList_Append(events, PyList_GET_ITEM(row, c)) < 0 || PyList_Append(at, lineno) < 0)
                goto fail;
            bits |= 1u << c;
        }
        Py_CLEAR(lineno);
        trick_no = next;
        last_trick = seats;
    }
    return Py_BuildValue("nllk", j - i, trick_no, last_trick, (unsigned long)bits);
fail:
    Py_XDECREF(lineno);
    return NULL;
}

/* The cards of `text`, single spaces between them, none twice and none in `forbid`: 1 with their mask in
 * *seen and their number in *count; 0 when the text is not such a list; -1 with an exception set. */
static int card_list(PyObject *tokens, PyObject *text, uint32_t forbid, uint32_t *seen, long *count) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), a = 0;
    int kind = PyUnicode_KIND(text), err = 0;
    const void *data = PyUnicode_DATA(text);
    *seen = 0;
    *count = 0;
    for (;;) {
        Py_ssize_t b = a;
        while (b < n && PyUnicode_READ(kind, data, b) != ' ')
            b++;
        long c = card_of(tokens, text, a, b, &err);
        if (err)
            return -1;
        if (c < 0 || ((*seen | forbid) >> c & 1))
            return 0;
        *seen |= 1u << c;
        (*count)++;
        if (b >= n)
            return 1;
        a = b + 1;
    }
}

/* The mask and the number of the cards of `text` (single spaces, no repeats); None otherwise. */
static PyObject *mask(PyObject *self, PyObject *args) {
    PyObject *text, *tokens;
    if (!PyArg_ParseTuple(args, "UO!", &text, &PyDict_Type, &tokens))
        return NULL;
    uint32_t seen;
    long count;
    int ok = card_list(tokens, text, 0, &seen, &count);
    if (ok < 0)
        return NULL;
    if (ok == 0)
        Py_RETURN_NONE;
    return Py_BuildValue("kl", (unsigned long)seen, count);
}

/* The mask of a hand written as `want` cards (single spaces, no repeats, none in `taken`), its cards
 * given to `seat` in owner; None, with owner untouched, otherwise. */
static PyObject *hand(PyObject *self, PyObject *args) {
    PyObject *text, *tokens, *owner;
    long seat, want;
    unsigned long taken;
    if (!PyArg_ParseTuple(args, "UO!O!lkl", &text, &PyDict_Type, &tokens, &PyList_Type, &owner, &seat, &taken,
                          &want))
        return NULL;
    if (PyList_GET_SIZE(owner) != 32) {
        PyErr_SetString(PyExc_ValueError, "hand: owner must hold 32 seats");
        return NULL;
    }
    uint32_t seen;
    long count;
    int ok = card_list(tokens, text, (uint32_t)taken, &seen, &count);
    if (ok < 0)
        return NULL;
    if (ok == 0 || count != want)
        Py_RETURN_NONE;
    PyObject *who = PyLong_FromLong(seat);
    if (who == NULL)
        return NULL;
    for (int c = 0; c < 32; c++) {
        if (seen >> c & 1) {
            Py_INCREF(who);
            PyList_SetItem(owner, c, who); /* steals the new reference */
        }
    }
    Py_DECREF(who);
    return PyLong_FromUnsignedLong((unsigned long)seen);
}

/* Whether text is a canonical list of seat-letter items "A 6s, B pass": split at ", ", each item at least
 * three characters, a letter of `safe`, a space, then no blank, ':' or '=', no ',' inside, no blank at
 * its end (textfmt's letter_list, exactly). */
static PyObject *letter_list(PyObject *self, PyObject *args) {
    PyObject *text, *safe;
    if (!PyArg_ParseTuple(args, "UU", &text, &safe))
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), a = 0;
    if (n == 0)
        Py_RETURN_FALSE;
    int kind = PyUnicode_KIND(text), skind = PyUnicode_KIND(safe);
    const void *data = PyUnicode_DATA(text), *sdata = PyUnicode_DATA(safe);
    Py_ssize_t ns = PyUnicode_GET_LENGTH(safe);
    for (;;) {
        Py_ssize_t b = a;
        while (b < n && PyUnicode_READ(kind, data, b) != ',')
            b++;
        if (b < n && (b + 1 >= n || PyUnicode_READ(kind, data, b + 1) != ' '))
            Py_RETURN_FALSE; /* a ',' that is not a separator stays inside an item */
        if (b - a < 3 || PyUnicode_READ(kind, data, a + 1) != ' ')
            Py_RETURN_FALSE;
        Py_UCS4 c0 = PyUnicode_READ(kind, data, a), c2 = PyUnicode_READ(kind, data, a + 2);
        int found = 0;
        for (Py_ssize_t k = 0; k < ns && !found; k++)
            found = PyUnicode_READ(skind, sdata, k) == c0;
        if (!found || c2 == ' ' || c2 == '\t' || c2 == ':' || c2 == '=' ||
            Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, b - 1)))
            Py_RETURN_FALSE;
        if (b >= n)
            Py_RETURN_TRUE;
        a = b + 2;
    }
}

static PyMethodDef methods[] = {
    {"letter_list", letter_list, METH_VARARGS, "Whether text is a canonical list of seat-letter items."},
    {"hand", hand, METH_VARARGS, "The mask of a hand of `want` cards none taken, its cards given to seat; or None."},
    {"trick_lines", trick_lines, METH_VARARGS, "How many lines from i on are canonical trick lines."},
    {"play", play, METH_VARARGS, "Play a run of canonical trick lines as the reader's fast path does."},
    {"mask", mask, METH_VARARGS, "(mask, count) of a single-space card list without repeats, or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef scanmodule = {
    PyModuleDef_HEAD_INIT, "_scan", "The compiled scanner of preflog's text record reader.", -1, methods,
};

PyMODINIT_FUNC PyInit__scan(void) { return PyModule_Create(&scanmodule); }
