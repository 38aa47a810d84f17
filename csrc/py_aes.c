/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_aes.c: _core.aes_cbc(decrypt, key, iv, data, impl) and _core.aes_impl(), the core's
 * AES-CBC (p256.h) for PKCS#8 PBES2 keys (src/p256/_pbes2.py). No padding: the Python
 * side adds and checks it. The output buffer is the caller's plaintext either way.
 */
#include "py_binding.h"

/* py_binding.h has the contract. */
PyObject *p256py_aes_cbc(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    byteview key, iv, data;
    PyObject *out;
    int decrypt, ok;
    long impl;
    (void)self;
    if (check_nargs(nargs, 5, "aes_cbc") < 0)
        return NULL;
    decrypt = PyObject_IsTrue(args[0]);
    if (decrypt < 0)
        return NULL;
    impl = PyLong_AsLong(args[4]);
    if (impl == -1 && PyErr_Occurred())
        return NULL;
    if (byteview_get(&key, args[1], "key") < 0)
        return NULL;
    if (byteview_get(&iv, args[2], "iv") < 0) {
        byteview_release(&key);
        return NULL;
    }
    if (byteview_get(&data, args[3], "data") < 0) {
        byteview_release(&key);
        byteview_release(&iv);
        return NULL;
    }
    out = NULL;
    if (iv.len != 16 || (key.len != 16 && key.len != 24 && key.len != 32) || data.len % 16 ||
        impl < P256_AES_AUTO || impl > P256_AES_NI) {
        PyErr_SetString(PyExc_ValueError, "aes_cbc: the key must be 16, 24 or 32 bytes, the "
                                          "IV 16, the data whole 16-byte blocks");
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, data.len);
    if (out == NULL)
        goto done;
    ok = (decrypt ? p256_aes_cbc_decrypt : p256_aes_cbc_encrypt)(
        (uint8_t *)PyBytes_AS_STRING(out), key.buf, (size_t)key.len, iv.buf, data.buf,
        (size_t)data.len, (int)impl);
    if (!ok) {
        Py_CLEAR(out);
        PyErr_SetString(PyExc_ValueError, "aes_cbc: AES-NI is not available on this CPU");
    }
done:
    byteview_release(&key);
    byteview_release(&iv);
    byteview_release(&data);
    return out;
}

PyObject *p256py_aes_impl(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    return PyUnicode_FromString(p256_aes_impl());
}
