/* The compiled hash chain of bulk sealing: preflog/store/chain.py (`link`, `seal`) is the reference.
 *
 *   seal(code, player, card, value, payload, ends, hash_every, starts, deal_code)
 *
 * takes one part's rows as five column lists (the form of preflog.model.columns.RowColumns, pulkas one
 * after another) and `ends`, each pulka's end offset (exclusive, ascending, the last one the length of
 * the columns). Each pulka is chained from seq 1, the genesis hash 0 and deal 0, or, when `starts` is a
 * list, from its (last_seq, last_hash, last_deal) triple; a row of code `deal_code` (DealStarted's) starts the
 * next deal number. It returns the stored columns as little-endian
 * buffers, ready for pyarrow.Array.from_buffers:
 *
 *   (seq int32, deal int32, code int8, player int8, card int8, value int64, hash int64,
 *    hash validity bitmap, hash null count, [each pulka's last chain value])
 *
 * A hash is stored on every `hash_every`-th seq and on each pulka's last row (chain.seal's rule). The chain
 * step is chain.link's: blake2b with an 8-byte digest over the struct "<qibbbq" (previous hash, seq, code,
 * player, card, value) and then b"\0" for no payload or b"\1" and the payload's UTF-8. BLAKE2b is written
 * out here from its specification (RFC 7693); a differential test checks it against hashlib. A value out of
 * its column's range raises OverflowError, as the reference's struct.pack does (struct.error there);
 * a payload that is not a str or None raises TypeError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static const uint64_t IV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

static const uint8_t SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

static inline uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

static inline uint64_t load64(const uint8_t *p) {
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline void store64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

#define G(a, b, c, d, x, y)            \
    do {                               \
        a = a + b + (x);               \
        d = rotr64(d ^ a, 32);         \
        c = c + d;                     \
        b = rotr64(b ^ c, 24);         \
        a = a + b + (y);               \
        d = rotr64(d ^ a, 16);         \
        c = c + d;                     \
        b = rotr64(b ^ c, 63);         \
    } while (0)

static void compress(uint64_t h[8], const uint8_t block[128], uint64_t t, int last) {
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; i++)
        m[i] = load64(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[i + 8] = IV[i];
    }
    v[12] ^= t;  /* the byte counter's high word is 0: a link's message is far below 2^64 bytes */
    if (last)
        v[14] = ~v[14];
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = SIGMA[r];
        G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
        G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
        G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
        G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
        G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
        G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
        G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
        G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++)
        h[i] ^= v[i] ^ v[i + 8];
}

/* blake2b-64 (unkeyed, 8-byte digest) of the 23-byte head followed by the tail bytes; the digest read
 * as a little-endian signed int64, as chain.link's int.from_bytes(..., "little", signed=True). */
static int64_t blake2b_64(const uint8_t head[24], Py_ssize_t head_len, const uint8_t *tail, Py_ssize_t tail_len) {
    uint64_t h[8];
    memcpy(h, IV, sizeof h);
    h[0] ^= 0x01010000ULL ^ 8;  /* depth 1, fanout 1, no key, digest length 8 */
    uint8_t block[128];
    Py_ssize_t total = head_len + tail_len, fed = 0, tail_at = 0;
    /* the message is head ‖ tail; fill 128-byte blocks from both in turn */
    for (;;) {
        Py_ssize_t n = 0;
        while (n < 128 && fed + n < total) {
            Py_ssize_t at = fed + n;
            if (at < head_len) {
                Py_ssize_t k = head_len - at < 128 - n ? head_len - at : 128 - n;
                memcpy(block + n, head + at, (size_t)k);
                n += k;
            } else {
                Py_ssize_t k = tail_len - tail_at < 128 - n ? tail_len - tail_at : 128 - n;
                memcpy(block + n, tail + tail_at, (size_t)k);
                tail_at += k;
                n += k;
            }
        }
        fed += n;
        if (fed < total) {  /* more to come: a full block, not the last */
            compress(h, block, (uint64_t)fed, 0);
            continue;
        }
        memset(block + n, 0, (size_t)(128 - n));
        compress(h, block, (uint64_t)fed, 1);
        break;
    }
    return (int64_t)h[0];  /* the first 8 bytes of the digest, little-endian: h[0] itself */
}

static int small(PyObject *o, long lo, long hi, long *out, const char *what) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_OverflowError, "%s %ld out of range", what, v);
        return -1;
    }
    *out = v;
    return 0;
}

static PyObject *seal(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *codes, *players, *cards, *values, *payloads, *ends, *starts;
    Py_ssize_t hash_every;
    long deal_code;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!nOl", &PyList_Type, &codes, &PyList_Type, &players, &PyList_Type,
                          &cards, &PyList_Type, &values, &PyList_Type, &payloads, &PyList_Type, &ends, &hash_every,
                          &starts, &deal_code))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(codes), np = PyList_GET_SIZE(ends);
    if (PyList_GET_SIZE(players) != n || PyList_GET_SIZE(cards) != n || PyList_GET_SIZE(values) != n ||
        PyList_GET_SIZE(payloads) != n) {
        PyErr_SetString(PyExc_ValueError, "columns of different lengths");
        return NULL;
    }
    if (hash_every < 1) {
        PyErr_SetString(PyExc_ValueError, "hash_every must be positive");
        return NULL;
    }
    if (starts != Py_None && (!PyList_Check(starts) || PyList_GET_SIZE(starts) != np)) {
        PyErr_SetString(PyExc_ValueError, "starts must be None or one (seq, hash, deal) per pulka");
        return NULL;
    }
    PyObject *b_seq = PyBytes_FromStringAndSize(NULL, 4 * n), *b_deal = PyBytes_FromStringAndSize(NULL, 4 * n);
    PyObject *b_code = PyBytes_FromStringAndSize(NULL, n), *b_player = PyBytes_FromStringAndSize(NULL, n);
    PyObject *b_card = PyBytes_FromStringAndSize(NULL, n), *b_value = PyBytes_FromStringAndSize(NULL, 8 * n);
    PyObject *b_hash = PyBytes_FromStringAndSize(NULL, 8 * n);
    PyObject *b_valid = PyBytes_FromStringAndSize(NULL, (n + 7) / 8);
    PyObject *heads = PyList_New(np);
    PyObject *result = NULL;
    if (!b_seq || !b_deal || !b_code || !b_player || !b_card || !b_value || !b_hash || !b_valid || !heads)
        goto done;
    uint8_t *p_seq = (uint8_t *)PyBytes_AS_STRING(b_seq), *p_deal = (uint8_t *)PyBytes_AS_STRING(b_deal);
    int8_t *p_code = (int8_t *)PyBytes_AS_STRING(b_code), *p_player = (int8_t *)PyBytes_AS_STRING(b_player);
    int8_t *p_card = (int8_t *)PyBytes_AS_STRING(b_card);
    uint8_t *p_value = (uint8_t *)PyBytes_AS_STRING(b_value), *p_hash = (uint8_t *)PyBytes_AS_STRING(b_hash);
    uint8_t *p_valid = (uint8_t *)PyBytes_AS_STRING(b_valid);
    memset(p_valid, 0, (size_t)((n + 7) / 8));
    Py_ssize_t nulls = 0, i = 0;
    for (Py_ssize_t k = 0; k < np; k++) {
        Py_ssize_t end = PyLong_AsSsize_t(PyList_GET_ITEM(ends, k));
        if (end == -1 && PyErr_Occurred())
            goto done;
        if (end < i || end > n) {
            PyErr_SetString(PyExc_ValueError, "pulka ends must ascend within the columns");
            goto done;
        }
        long long seq = 0, deal = 0;
        int64_t h = 0;
        if (starts != Py_None) {
            long long s0, d0;
            PyObject *h0;
            if (!PyArg_ParseTuple(PyList_GET_ITEM(starts, k), "LOL", &s0, &h0, &d0))
                goto done;
            int overflow = 0;
            long long hv = PyLong_AsLongLongAndOverflow(h0, &overflow);
            if (overflow || (hv == -1 && PyErr_Occurred())) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_OverflowError, "start hash out of the int64 range");
                goto done;
            }
            seq = s0;
            deal = d0;
            h = (int64_t)hv;
        }
        Py_ssize_t last = end - 1;
        for (; i < end; i++) {
            long code, player, card;
            if (small(PyList_GET_ITEM(codes, i), -128, 127, &code, "code") < 0 ||
                small(PyList_GET_ITEM(players, i), -128, 127, &player, "player") < 0 ||
                small(PyList_GET_ITEM(cards, i), -128, 127, &card, "card") < 0)
                goto done;
            int overflow = 0;
            long long value = PyLong_AsLongLongAndOverflow(PyList_GET_ITEM(values, i), &overflow);
            if (overflow) {
                PyErr_SetString(PyExc_OverflowError, "value out of the int64 range");
                goto done;
            }
            if (value == -1 && PyErr_Occurred())
                goto done;
            seq += 1;
            if (seq > INT32_MAX || seq < INT32_MIN) {
                PyErr_SetString(PyExc_OverflowError, "seq out of the int32 range");
                goto done;
            }
            if (code == deal_code)
                deal += 1;
            uint8_t head[24];
            store64(head, (uint64_t)h);
            uint32_t s32 = (uint32_t)(int32_t)seq;
            head[8] = (uint8_t)s32;
            head[9] = (uint8_t)(s32 >> 8);
            head[10] = (uint8_t)(s32 >> 16);
            head[11] = (uint8_t)(s32 >> 24);
            head[12] = (uint8_t)(int8_t)code;
            head[13] = (uint8_t)(int8_t)player;
            head[14] = (uint8_t)(int8_t)card;
            store64(head + 15, (uint64_t)value);
            PyObject *payload = PyList_GET_ITEM(payloads, i);
            if (payload == Py_None) {
                head[23] = 0;
                h = blake2b_64(head, 24, NULL, 0);
            } else if (PyUnicode_Check(payload)) {
                Py_ssize_t len;
                const char *utf8 = PyUnicode_AsUTF8AndSize(payload, &len);
                if (utf8 == NULL)
                    goto done;
                head[23] = 1;
                h = blake2b_64(head, 24, (const uint8_t *)utf8, len);
            } else {
                PyErr_Format(PyExc_TypeError, "payload must be a str or None, not %.100s", Py_TYPE(payload)->tp_name);
                goto done;
            }
            uint32_t d32 = (uint32_t)(int32_t)deal;
            for (int b = 0; b < 4; b++) {
                p_seq[4 * i + b] = (uint8_t)(s32 >> (8 * b));
                p_deal[4 * i + b] = (uint8_t)(d32 >> (8 * b));
            }
            p_code[i] = (int8_t)code;
            p_player[i] = (int8_t)player;
            p_card[i] = (int8_t)card;
            store64(p_value + 8 * i, (uint64_t)value);
            if (i == last || seq % hash_every == 0) {
                store64(p_hash + 8 * i, (uint64_t)h);
                p_valid[i >> 3] |= (uint8_t)(1u << (i & 7));
            } else {
                store64(p_hash + 8 * i, 0);
                nulls++;
            }
        }
        PyObject *hv = PyLong_FromLongLong((long long)h);
        if (hv == NULL)
            goto done;
        PyList_SET_ITEM(heads, k, hv);
    }
    if (i != n) {
        PyErr_SetString(PyExc_ValueError, "the last pulka end is not the length of the columns");
        goto done;
    }
    result = Py_BuildValue("(OOOOOOOOnO)", b_seq, b_deal, b_code, b_player, b_card, b_value, b_hash, b_valid, nulls,
                           heads);
done:
    Py_XDECREF(b_seq);
    Py_XDECREF(b_deal);
    Py_XDECREF(b_code);
    Py_XDECREF(b_player);
    Py_XDECREF(b_card);
    Py_XDECREF(b_value);
    Py_XDECREF(b_hash);
    Py_XDECREF(b_valid);
    Py_XDECREF(heads);
    return result;
}

static PyObject *digest(PyObject *Py_UNUSED(self), PyObject *args) {
    /* blake2b-64 of a byte string as a signed int (for the test against hashlib) */
    const char *data;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "y#", &data, &len))
        return NULL;
    uint8_t head[24] = {0};
    Py_ssize_t k = len < 24 ? len : 24;
    memcpy(head, data, (size_t)k);
    return PyLong_FromLongLong((long long)blake2b_64(head, k, (const uint8_t *)data + k, len - k));
}

static PyMethodDef METHODS[] = {
    {"seal", seal, METH_VARARGS, "Seal a part's rows (see the module comment)."},
    {"digest", digest, METH_VARARGS, "blake2b with an 8-byte digest, as a signed little-endian int."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_chain", NULL, -1, METHODS};

PyMODINIT_FUNC PyInit__chain(void) { return PyModule_Create(&MODULE); }
