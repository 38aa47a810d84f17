# SPDX-License-Identifier: Apache-2.0
"""What the benchmark scripts of this folder write beside their figures in --json: when,
on what (p256's own description of the machine and build, as `p256 bench` records it) and
how busy the machine was. benchmarks/plot.py reads it into the captions of the charts."""

from __future__ import annotations

import json
import os

from p256 import _bench


def spread(samples):
    """Half the range of the samples as a share of their median (as `p256 bench` prints it)."""
    return _bench.summarize(list(samples))["spread"]


class Run:
    """Start before measuring; .doc(**figures) after: the JSON document of the run."""

    def __init__(self, schema, argv):
        self.schema = schema
        self.argv = list(argv)
        self.meter = _bench.LoadMeter()

    def doc(self, **figures):
        env = _bench.environment(_peer_versions())
        env["load"] = self.meter.stop()
        return dict({"schema": self.schema, "argv": self.argv, "environment": env}, **figures)


def _peer_versions():
    out = {}
    for name, module in (("cryptography", "cryptography"), ("ecdsa", "ecdsa"),
                         ("pycryptodome", "Crypto")):
        try:
            out[name] = __import__(module).__version__
        except ImportError:
            pass
    return out


def write_json(path, doc):
    """Write the document, creating the folder; '-' is stdout."""
    text = json.dumps(doc, indent=1) + "\n"
    if path == "-":
        print(text, end="")
        return
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
