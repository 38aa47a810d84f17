# SPDX-License-Identifier: Apache-2.0
"""py_webauthn's own registration fixtures, read from its test files (the sdist pinned
in tools/third_party.py): every test function of tests/test_verify_registration_response*.py
whose call of verify_registration_response has literal arguments (the credential JSON,
the challenge, origin and RP ID) gives one case. A function that builds its input with
code (mocks, loops, edits of the CBOR) yields an excluded case with that reason. Nothing
here imports py_webauthn (it runs apart: tests/py_webauthn_oracle.py); a member of one of
its enums that an argument names is an EnumRef, which that process resolves."""

from __future__ import annotations

import ast
import base64
import json
import pathlib
from typing import Any, Dict, List, NamedTuple, Optional

from py_webauthn_oracle import EnumRef


class Case(NamedTuple):
    name: str                   # file::function
    credential: Optional[Dict[str, Any]]
    kwargs: Dict[str, Any]      # the other arguments of verify_registration_response
    excluded: str               # why it is not compared ("" when it is)
    accepts: bool               # what py_webauthn's test asserts: the response verifies
    time_patched: bool          # its test fixes the X.509 validation time (expired chains)


def b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class _Unknown(Exception):
    pass


class _Enum(NamedTuple):
    """A name the test file imports from webauthn.helpers.structs (an enum, or a class)."""
    name: str


def _imported_enums(tree: ast.Module) -> Dict[str, Any]:
    return {(a.asname or a.name): _Enum(a.name) for node in tree.body
            if isinstance(node, ast.ImportFrom) and node.module == "webauthn.helpers.structs"
            for a in node.names}


def _value(node: ast.AST, env: Dict[str, Any]) -> Any:
    """A literal, a name bound to one, base64url_to_bytes(literal), json.dumps(...)."""
    if isinstance(node, ast.Name):
        if node.id in env and not isinstance(env[node.id], _Enum):
            return env[node.id]
        raise _Unknown(node.id)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        args = [_value(a, env) for a in node.args]
        if node.func.id == "base64url_to_bytes" and len(args) == 1:
            return b64url(args[0])
        if node.func.id == "parse_registration_credential_json" and len(args) == 1:
            return args[0]
        raise _Unknown(node.func.id)
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(e, env) for e in node.elts]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if isinstance(env.get(node.value.id), _Enum):  # a member of an enum of py_webauthn's
            return EnumRef(node.value.id, node.attr)
        raise _Unknown(ast.unparse(node))
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise _Unknown(ast.unparse(node)[:40]) from None


def _credential(value: Any) -> Dict[str, Any]:
    return json.loads(value) if isinstance(value, str) else value


def cases(tests_dir: pathlib.Path) -> List[Case]:
    out = []
    for path in sorted(tests_dir.glob("test_verify_registration_response*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        enums = _imported_enums(tree)
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef) or not fn.name.startswith("test_"):
                continue
            name = "%s::%s" % (path.name, fn.name)
            calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call)
                     and getattr(n.func, "id", None) == "verify_registration_response"]
            if not calls:
                continue
            raises = any(isinstance(n, ast.Attribute) and n.attr in ("assertRaises",
                                                                      "assertRaisesRegex")
                         for n in ast.walk(fn))
            decorators = [ast.unparse(d) for d in fn.decorator_list]
            time_patched = decorators == ["patch_validate_certificate_chain_x509store_getter"]
            if decorators and not time_patched:
                out.append(Case(name, None, {}, "its input is changed by a mock (%s)"
                                % decorators[0][:70], not raises, False))
                continue
            if any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(fn)) or len(calls) > 1:
                out.append(Case(name, None, {}, "its inputs are made in a loop by code",
                                not raises, False))
                continue
            if any(k.arg == "pem_root_certs_bytes_by_fmt" for k in calls[0].keywords):
                out.append(Case(name, None, {}, "it passes trust anchors (pem_root_certs_bytes_by_"
                                "fmt); p256 leaves the chain's anchor to the relying party's "
                                "X.509 stack (trust_path's last certificate)", not raises, False))
                continue
            env: Dict[str, Any] = dict(enums)
            try:
                for stmt in fn.body:
                    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                            stmt.targets[0], ast.Name):
                        try:
                            env[stmt.targets[0].id] = _value(stmt.value, env)
                        except _Unknown:
                            env.pop(stmt.targets[0].id, None)
                kwargs = {k.arg: _value(k.value, env) for k in calls[0].keywords}
            except _Unknown as exc:
                out.append(Case(name, None, {}, "an argument is built by code (%s)" % exc,
                                not raises, time_patched))
                continue
            credential = _credential(kwargs.pop("credential"))
            out.append(Case(name, credential, kwargs, "", not raises, time_patched))
    return out
