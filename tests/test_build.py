import p256
from p256 import _core


def test_core_is_compiled():
    assert _core.__file__.endswith((".so", ".pyd"))
    assert _core.backend() in ("portable", "x86_64-adx", "aarch64-asm")
    assert p256.__version__ == _core.__version__
