# SPDX-License-Identifier: Apache-2.0
"""`p256 bench` without the console script: python benchmarks/bench.py [options] (see p256._bench)."""
import sys

from p256._cli import main

sys.exit(main(["bench", *sys.argv[1:]]))
