/* The store's bulk read: a slice of an integer column as a Python list
 * (preflog/store/delta_read.py `column_values`; NumPy's `tolist` is the reference and the fallback).
 *
 *   int_list(column, start, end)
 *
 * takes any one-dimensional, C-contiguous object with the buffer protocol whose items are native-endian
 * integers of 1, 2, 4 or 8 bytes, signed or unsigned (a NumPy view of an Arrow integer column, as
 * `_sliceable` makes it), and returns its items start..end-1 as a list of Python ints: the same list
 * `column[start:end].tolist()` gives. `tolist` goes through the array's item getter, one generic call and
 * one type dispatch per item (about 60 machine instructions an item, 11 % of a replay from the store);
 * here the type is chosen once and each item is one load and, for -128..127, a reference to an int
 * held from the start (every code, seat and card); a larger one is a new int. Bounds out of 0 <= start <= end <= len raise IndexError; an item format it
 * does not read raises TypeError (the caller then uses `tolist`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* The ints -128..127 (every code, seat and card, most values), held from the module's start: an item in
 * that range is one load and one reference count, not a call into PyLong_FromLong. */
static PyObject *SMALL[256];

#define SMALL_OR(MAKE, x) ((x) >= -128 && (x) <= 127 ? Py_NewRef(SMALL[(x) + 128]) : MAKE(x))

#define FILL(T, MAKE)                                              \
    do {                                                           \
        const T *p = (const T *)view.buf + start;                  \
        for (Py_ssize_t i = 0; i < n; i++) {                       \
            const long long x = (long long)p[i];                   \
            PyObject *o = SMALL_OR(MAKE, x);                       \
            if (o == NULL) {                                       \
                Py_DECREF(out);                                    \
                PyBuffer_Release(&view);                           \
                return NULL;                                       \
            }                                                      \
            PyList_SET_ITEM(out, i, o);                            \
        }                                                          \
    } while (0)

static PyObject *int_list(PyObject *self, PyObject *args) {
    PyObject *column;
    Py_ssize_t start, end;
    if (!PyArg_ParseTuple(args, "Onn", &column, &start, &end))
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(column, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    const char *f = view.format != NULL ? view.format : "B";
    if (*f == '@' || *f == '=' || (*f == '<' && PY_LITTLE_ENDIAN) || (*f == '>' && PY_BIG_ENDIAN))
        f++;
    if (view.ndim != 1 || strlen(f) != 1 || strchr("bBhHiIlLqQ", *f) == NULL) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_TypeError, "int_list: a one-dimensional column of native integers");
        return NULL;
    }
    Py_ssize_t len = view.shape != NULL ? view.shape[0] : view.len / view.itemsize;
    if (start < 0 || end < start || end > len) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_IndexError, "int_list: rows %zd..%zd of a column of %zd", start, end, len);
        return NULL;
    }
    Py_ssize_t n = end - start;
    PyObject *out = PyList_New(n);
    if (out == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    int is_signed = *f == 'b' || *f == 'h' || *f == 'i' || *f == 'l' || *f == 'q';
    switch (view.itemsize) {
    case 1:
        if (is_signed) FILL(int8_t, PyLong_FromLong); else FILL(uint8_t, PyLong_FromLong);
        break;
    case 2:
        if (is_signed) FILL(int16_t, PyLong_FromLong); else FILL(uint16_t, PyLong_FromLong);
        break;
    case 4:
        if (is_signed) FILL(int32_t, PyLong_FromLongLong); else FILL(uint32_t, PyLong_FromLongLong);
        break;
    case 8:
        if (is_signed) {
            FILL(int64_t, PyLong_FromLongLong);
        } else {  /* (not through long long: an item past 2**63 would turn negative) */
            const uint64_t *p = (const uint64_t *)view.buf + start;
            for (Py_ssize_t i = 0; i < n; i++) {
                PyObject *o = p[i] <= 127 ? Py_NewRef(SMALL[p[i] + 128]) : PyLong_FromUnsignedLongLong(p[i]);
                if (o == NULL) {
                    Py_DECREF(out);
                    PyBuffer_Release(&view);
                    return NULL;
                }
                PyList_SET_ITEM(out, i, o);
            }
        }
        break;
    default:
        Py_DECREF(out);
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_TypeError, "int_list: items of 1, 2, 4 or 8 bytes");
        return NULL;
    }
    PyBuffer_Release(&view);
    return out;
}

static PyMethodDef METHODS[] = {
    {"int_list", int_list, METH_VARARGS, "Items start..end-1 of an integer column as a list of ints."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_read", NULL, -1, METHODS};

PyMODINIT_FUNC PyInit__read(void) {
    for (int i = 0; i < 256; i++) {
        if (SMALL[i] == NULL && (SMALL[i] = PyLong_FromLong(i - 128)) == NULL)
            return NULL;
    }
    return PyModule_Create(&MODULE);
}
