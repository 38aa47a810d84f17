"""The ``p256`` command line (``python -m p256`` and the console script ``p256``).

Each subcommand is one ``_cmd_<name>(subparsers)`` function that adds its parser and sets
``handler`` (a function ``args -> int``, the exit status), plus one entry in ``_COMMANDS``.
Handlers report a user error (missing file, bad input) by raising ``CLIError``: ``main``
prints it as one line on stderr and returns 2, without a traceback. Handlers import what
they need lazily, so ``p256 --help`` does not load the benchmark machinery.
"""

from __future__ import annotations

import argparse
import sys


class CLIError(Exception):
    """A user error: printed as one ``p256 <command>: <message>`` line; exit status 2."""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the examples in epilogs as written."""


def _cmd_bench(sub) -> None:
    p = sub.add_parser(
        "bench",
        help="benchmark p256 against the pure-Python reference and installed peers",
        formatter_class=_Formatter,
        description=(
            "Table 1 (the seed's table): the generic pure-Python reference against p256,\n"
            "time/op with the delta in %, then alloc/op (bytes) and allocs/op (blocks).\n"
            "Table 2: p256 beside pyca/cryptography, python-ecdsa and pycryptodome, when\n"
            "installed, with ratios peer time / p256 time.\n"
            "Progress goes to stderr, the tables to stdout."),
        epilog=(
            "examples:\n"
            "  p256 bench                    # full run, about a minute\n"
            "  p256 bench --quick            # under 20 s, fewer and shorter repeats\n"
            "  p256 bench --json out.json    # also write the raw figures"),
    )
    p.add_argument("--quick", action="store_true",
                   help="7 repeats of ~30 ms per implementation (about 10 s in all)")
    p.add_argument("--json", metavar="FILE",
                   help="write the raw figures (medians, min, max, repeats, iterations, "
                        "allocations, versions, CPU) as JSON to FILE ('-' for stdout)")
    p.add_argument("--repeat", type=int, metavar="N",
                   help="timed repeats per implementation, the median is reported "
                        "(default 20, 7 with --quick)")
    p.add_argument("--min-time", type=float, metavar="SECONDS",
                   help="duration of one repeat; iterations per repeat are calibrated to it "
                        "(default 0.06, 0.03 with --quick)")
    p.add_argument("--no-peers", action="store_true",
                   help="skip table 2 (pyca/cryptography, python-ecdsa, pycryptodome)")
    # For the test suite: one short repeat of everything, seconds in all.
    p.add_argument("--smoke", action="store_true", help=argparse.SUPPRESS)

    def handler(args) -> int:
        from . import _bench

        return _bench.run_cli(args)

    p.set_defaults(handler=handler)


# One entry per subcommand, in the order `p256 --help` lists them.
_COMMANDS = (
    _cmd_bench,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="p256",
        formatter_class=_Formatter,
        description="Fast constant-time P-256 (secp256r1): keys, ECDSA, ECDH, benchmarks.",
        epilog="Run 'p256 <command> --help' for a command's options and an example.",
    )
    from . import __version__

    parser.add_argument("--version", action="version", version="p256 " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="<command>")
    for add in _COMMANDS:
        add(sub)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.handler(args) or 0)
    except CLIError as e:
        print("p256 %s: %s" % (args.command, e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("p256 %s: interrupted" % args.command, file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`p256 bench | head`): not an error of ours. Point stdout
        # at devnull so the interpreter's final flush does not complain again.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
