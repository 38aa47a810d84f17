# SPDX-License-Identifier: Apache-2.0
"""tools/mca.py's instruction streams: how a call is spliced in.

llvm-mca 16 charges a call instruction a fixed 100 cycles, and on x86-64 every later
stack access waits for the %rsp it writes, so a stream that kept its calls would charge
the assembly point formulas (which call their products) for time no CPU spends. The
stream must hold the stand-in, then the callee's path, and no call instruction. Pure
Python (the tracer, not llvm-mca): runs without the LLVM tools.
"""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import mca  # noqa: E402

X86 = """
    .type outer, @function
outer:
    movq %rdi, %rax
    call inner
    addq $1, %rax
    ret
    .size outer, .-outer
    .type inner, @function
inner:
    imulq %rax, %rax
    ret
    .size inner, .-inner
"""

A64 = """
    .type outer, %function
outer:
    mov x1, x0
    bl inner
    add x0, x0, #1
    ret
    .size outer, .-outer
    .type inner, %function
inner:
    mul x0, x0, x0
    ret
    .size inner, .-inner
"""


@pytest.mark.parametrize("arch, text", [("x86_64", X86), ("aarch64", A64)])
def test_a_spliced_call_is_its_stand_in_then_the_callee(arch, text):
    funcs = mca.parse_functions(text, arch)
    stream = mca.trace(funcs, "outer", mca.Impl("outer"), arch)
    kinds = [mca.classify(insn, arch)[0] for insn in stream]
    assert "call" not in kinds
    i = stream.index(mca.CALL_STAND_IN[arch])
    assert stream[i - 1] == ("movq %rdi, %rax" if arch == "x86_64" else "mov x1, x0")
    assert stream[i + 1] == ("imulq %rax, %rax" if arch == "x86_64" else "mul x0, x0, x0")
    assert stream[-1] == "ret" and len(stream) == 6
