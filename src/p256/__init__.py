"""p256: fast constant-time P-256 (secp256r1) for Python."""

from . import _core

__version__ = _core.__version__

__all__ = ["__version__"]
