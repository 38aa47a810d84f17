# SPDX-License-Identifier: Apache-2.0
"""tools/mca.py's instruction streams (how a call is spliced in) and its table's digest.

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


# The digest that lets `tools/mca.py --check` skip llvm-mca: it must hold for the section it
# was made for and fail for any other text or input.
SECTION = mca.BEGIN + "\n\n| kernel | znver1 |\n| fe_mul | 47.2 / 73.2 = 0.64 |\n\n" + mca.END + "\n"
STREAMS = {"x86_64": {("fe_mul", "asm"): ["mulxq %rax, %rbx, %rcx"], ("fe_mul", "c"): ["imulq %rax, %rbx"]},
           "aarch64": {("fe_mul", "asm"): ["mul x0, x0, x0"], ("fe_mul", "c"): ["umulh x0, x0, x0"]}}
INPUTS = mca.inputs_text(STREAMS, [], "gcc 12.2.0, llvm-mca 16.0.6")


def test_the_digest_holds_for_its_section_and_inputs():
    stamped = mca.stamp(SECTION, INPUTS)
    assert stamped.startswith(mca.BEGIN + "\n<!-- inputs and text: sha256 ")
    assert stamped.replace(stamped.split("\n")[1] + "\n", "") == SECTION
    assert mca.is_current(stamped, INPUTS)


@pytest.mark.parametrize("change", ["the table edited", "no digest", "a stream", "a model",
                                    "a tool"])
def test_the_digest_fails_for_any_other_text_or_input(change):
    stamped, inputs = mca.stamp(SECTION, INPUTS), INPUTS
    if change == "the table edited":
        stamped = stamped.replace("47.2", "46.2")
    elif change == "no digest":
        stamped = SECTION
    elif change == "a stream":
        inputs = mca.inputs_text({**STREAMS, "aarch64": {**STREAMS["aarch64"], ("fe_mul", "c"): ["mul x0, x1, x0"]}},
                                 [], "gcc 12.2.0, llvm-mca 16.0.6")
    elif change == "a model":
        inputs = mca.inputs_text(STREAMS, ["apple-m1"], "gcc 12.2.0, llvm-mca 16.0.6")
    else:
        inputs = mca.inputs_text(STREAMS, [], "gcc 12.2.0, llvm-mca 17.0.6")
    assert inputs != INPUTS or stamped != mca.stamp(SECTION, INPUTS)
    assert not mca.is_current(stamped, inputs)


def test_a_path_that_misses_its_required_call_is_refused():
    log = ["k: forward branch 1 'je\t.L3': taken", "k: call p256_f_x86_64_adx spliced in"]
    mca.check_calls("k asm", "p256_f_x86_64_adx", log)
    mca.check_calls("k asm", "", log)
    with pytest.raises(RuntimeError, match="does not call p256_f_x86_64_adx_mulx"):
        mca.check_calls("k asm", "p256_f_x86_64_adx_mulx", log)
