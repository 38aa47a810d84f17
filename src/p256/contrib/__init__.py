# SPDX-License-Identifier: Apache-2.0
"""p256 inside the libraries its users already have: ``p256.contrib.pyjwt`` (PyJWT) and
``p256.contrib.joserfc`` (joserfc) register an ES256 on p256 in those libraries'
algorithm registries. Each is imported only when used, and needs that library (and
pyca/cryptography, which both use for their keys); p256 itself depends on neither.
"""

__all__ = []  # type: list[str]  # each module imports its library: import it by name
