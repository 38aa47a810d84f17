# SPDX-License-Identifier: Apache-2.0
"""A pytest plugin that runs PyJWT's or joserfc's own test suite with p256's ES256 in
place of the library's (tools/third_party_suites.py loads it with -p):

- PyJWT: ``jwt.algorithms.ECAlgorithm`` is p256.contrib.pyjwt.ES256Algorithm (a
  subclass: ES256 on p256, every other hash or curve PyJWT's own code), so the
  algorithms PyJWT makes (each PyJWS, each PyJWK, its tests' own ECAlgorithm(SHA256))
  are p256's, and ``register()`` puts it on the default instance made at import;
- joserfc: ``p256.contrib.joserfc.register()``.

Each test's outcome, how many calls of the library's ES256 reached p256 (a P-256 key
handed to p256's ES256: es256_calls) and how many p256 signatures and verifications it
made (p256_calls) are written as JSON to $P256_SUITE_REPORT. P256_SUITE_PLANT=1 plants a broken ES256 (every signature
verifies), the negative control that shows the suite reaches p256.
"""

import json
import os

import pytest

LIBRARY = os.environ["P256_SUITE"]
_calls = [0]  # p256 signatures and verifications made by the test
_keys_read = [0]  # keys the test's ES256 handed to p256
_results = {}


def _counted(function, counter=_calls):
    def wrapper(*args, **kwargs):
        counter[0] += 1
        return function(*args, **kwargs)
    return wrapper


def _counted_keys(function):
    def wrapper(*args, **kwargs):
        found = function(*args, **kwargs)
        if found is not None:
            _keys_read[0] += 1
        return found
    return wrapper


def _install():
    from p256 import _keys

    _keys.PrivateKey.sign = _counted(_keys.PrivateKey.sign)
    if os.environ.get("P256_SUITE_PLANT"):
        def verify_anything(self, sig, msg, **kwargs):
            _calls[0] += 1
            return True
        _keys.PublicKey.verify = verify_anything
    else:
        _keys.PublicKey.verify = _counted(_keys.PublicKey.verify)
    if LIBRARY == "pyjwt":
        import jwt.algorithms
        from p256.contrib import pyjwt

        pyjwt.ES256Algorithm._of = _counted_keys(pyjwt.ES256Algorithm._of)
        prepare = pyjwt.ES256Algorithm.prepare_key

        def prepare_key(self, key):  # a P-256 key prepared for p256's ES256 counts too
            prepared = prepare(self, key)
            if self._p256() and (isinstance(prepared, (_keys.PrivateKey, _keys.PublicKey))
                                 or getattr(getattr(prepared, "curve", None), "name",
                                            None) == "secp256r1"):
                _keys_read[0] += 1
            return prepared
        pyjwt.ES256Algorithm.prepare_key = prepare_key
        jwt.algorithms.ECAlgorithm = pyjwt.ES256Algorithm
        pyjwt.register()
    elif LIBRARY == "joserfc":
        from p256.contrib import joserfc

        for name in ("sign", "verify"):
            setattr(joserfc.ES256Algorithm, name,
                    _counted(getattr(joserfc.ES256Algorithm, name), _keys_read))
        joserfc.register()
    else:
        raise ValueError("P256_SUITE must be pyjwt or joserfc, not %r" % LIBRARY)


_install()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    _calls[0] = _keys_read[0] = 0
    yield


def pytest_runtest_logreport(report):
    entry = _results.setdefault(report.nodeid, {"outcome": "passed", "p256_calls": 0,
                                                "es256_calls": 0})
    if report.failed:
        entry["outcome"] = "failed"
    elif report.skipped and entry["outcome"] == "passed":
        entry["outcome"] = "skipped"
    if report.when == "teardown":
        entry["p256_calls"] = _calls[0]
        entry["es256_calls"] = _keys_read[0]


def pytest_sessionfinish(session):
    path = os.environ.get("P256_SUITE_REPORT")
    if path:
        import jwt
        import joserfc

        with open(path, "w", encoding="utf-8") as f:
            json.dump({"library": LIBRARY, "modules": [jwt.__file__, joserfc.__file__],
                       "tests": _results}, f, indent=1)
