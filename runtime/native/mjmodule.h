/* mjmodule.h: the glue every generated profile module (generated/native/<id>.c) shares,
 * written once here rather than in each module.
 *
 * MJ_NATIVE_MODULE(id, digest) is the module init of profile `id`: the extension module
 * _native_<id>, exporting <id>_profile (the module's mj_profile) as the capsule PROFILE,
 * the ABI it was compiled for and the digest of its source (the Python engine's
 * NATIVE_DIGEST must match it, or the module is never used).
 */
#ifndef MJMODULE_H
#define MJMODULE_H

#include <Python.h>

#include "mjscore.h"

#if defined(__GNUC__) || defined(__clang__)
#define MJ_MAYBE_UNUSED __attribute__((unused)) /* a profile extending this one may not use all */
#else
#define MJ_MAYBE_UNUSED
#endif

#define MJ_NATIVE_MODULE(id, digest)                                                                 \
    static struct PyModuleDef mj_module = {                                                          \
        PyModuleDef_HEAD_INIT, "_native_" #id, "Native engine of profile " #id " (generated).", -1, \
        NULL, NULL, NULL, NULL, NULL,                                                                \
    };                                                                                               \
    PyMODINIT_FUNC PyInit__native_##id(void) {                                                       \
        PyObject *m = PyModule_Create(&mj_module);                                                   \
        if (m == NULL)                                                                               \
            return NULL;                                                                             \
        PyObject *capsule = PyCapsule_New((void *)&id##_profile, "mjspec.native_profile", NULL);     \
        if (capsule == NULL || PyModule_AddObject(m, "PROFILE", capsule) < 0 ||                      \
            PyModule_AddIntConstant(m, "ABI", MJ_ABI) < 0 ||                                         \
            PyModule_AddStringConstant(m, "DIGEST", digest) < 0) {                                   \
            Py_XDECREF(capsule);                                                                     \
            Py_DECREF(m);                                                                            \
            return NULL;                                                                             \
        }                                                                                            \
        return m;                                                                                    \
    }

#endif
