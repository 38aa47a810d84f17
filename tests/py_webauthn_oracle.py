# SPDX-License-Identifier: Apache-2.0
"""py_webauthn's verdicts on WebAuthn registrations, from a process of its own.

py_webauthn needs pyOpenSSL, which caps cryptography below its newest release; the test
venv keeps the newest (its other tests and the benchmarks measure against it), so
py_webauthn lives in a venv of its own (tools/third_party.py's VENVS, made once) and this
file is both ends of the talk with it:

- run as a script there, it reads one JSON line per request from stdin, a list of
  registrations (the arguments of verify_registration_response), and answers each line
  with one JSON line: py_webauthn's verdict on each ("accept", or "reject" with the error);
  its first line says which versions of py_webauthn and cryptography it runs;
- imported by the tests (Oracle), it starts that process once and asks it.

Bytes travel as {"$bytes": base64}; a member of one of py_webauthn's enums (a fixture's
``COSEAlgorithmIdentifier.ML_DSA_44``) as {"$enum": [class, member]} (EnumRef here).
"""

from __future__ import annotations

import base64
import json
import pathlib
import subprocess
import sys
from typing import Any, Dict, List, NamedTuple, Optional


class EnumRef(NamedTuple):
    """A member of an enum of py_webauthn's (webauthn.helpers.structs), by name."""
    cls: str
    member: str


def encode(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"$bytes": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, EnumRef):
        return {"$enum": [value.cls, value.member]}
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    return value


def decode(value: Any, enums: Any = None) -> Any:
    if isinstance(value, dict):
        if set(value) == {"$bytes"}:
            return base64.b64decode(value["$bytes"])
        if set(value) == {"$enum"}:
            cls, member = value["$enum"]
            return getattr(getattr(enums, cls), member)
        return {k: decode(v, enums) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v, enums) for v in value]
    return value


# -- the end in py_webauthn's venv ---------------------------------------------------------------


def serve() -> None:
    import cryptography
    import webauthn
    from webauthn.helpers import structs

    version = getattr(webauthn, "__version__", None)
    if version is None:
        from importlib.metadata import version as dist_version
        version = dist_version("webauthn")
    print(json.dumps({"webauthn": version, "cryptography": cryptography.__version__}),
          flush=True)
    for line in sys.stdin:
        answers = []
        for case in json.loads(line):
            kwargs = decode(case, structs)
            try:
                webauthn.verify_registration_response(**kwargs)
            except Exception as exc:  # noqa: BLE001  (any refusal of py_webauthn's)
                answers.append({"verdict": "reject",
                                "error": "%s: %s" % (type(exc).__name__, exc)})
            else:
                answers.append({"verdict": "accept", "error": None})
        print(json.dumps(answers), flush=True)


# -- the end in the tests ------------------------------------------------------------------------


class Oracle:
    """The py_webauthn process, started once; verdicts() asks it about a list of cases."""

    def __init__(self, python: pathlib.Path):
        self._proc: Optional[subprocess.Popen] = subprocess.Popen(
            [str(python), "-I", str(pathlib.Path(__file__).resolve())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.versions: Dict[str, str] = json.loads(self._readline())

    def _readline(self) -> str:
        assert self._proc is not None and self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError("the py_webauthn process ended (exit %s)" % self._proc.wait())
        return line

    def verdicts(self, cases: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Each case: the keyword arguments of verify_registration_response."""
        assert self._proc is not None and self._proc.stdin is not None
        self._proc.stdin.write(json.dumps(encode(cases)) + "\n")
        self._proc.stdin.flush()
        answers = json.loads(self._readline())
        assert len(answers) == len(cases)
        return answers

    def close(self) -> None:
        if self._proc is not None:
            assert self._proc.stdin is not None and self._proc.stdout is not None
            self._proc.stdin.close()
            self._proc.wait(timeout=60)
            self._proc.stdout.close()
            self._proc = None


if __name__ == "__main__":
    serve()
