"""Pure-Python generic NIST prime-curve arithmetic (placeholder; see issue 2)."""
