# SPDX-License-Identifier: Apache-2.0
"""``python -m p256``: the p256 command line (see p256._cli)."""

import sys

from ._cli import main

sys.exit(main())
