/* p256._core: the Python binding of the native P-256 core. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *core_backend(PyObject *self, PyObject *unused)
{
    (void)self; (void)unused;
    return PyUnicode_FromString("portable");
}

static PyMethodDef core_methods[] = {
    {"backend", core_backend, METH_NOARGS, "Name of the field-arithmetic backend in use."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "p256._core", "Native P-256 core.", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddStringConstant(m, "__version__", "0.1.0") < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
