#!/usr/bin/env python3
"""Writes a one-entry tuning table (docs/tuning.md) for a kernel family.

The entry's shape is MxNxK[xL]; its variant is the family's last one unless
--variant names another (which need not exist: tests of the refusal).

usage: make_table.py FAMILY_JSON MxNxK[xL] [--variant ID] [--family NAME]
"""

import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("family")
    ap.add_argument("shape")
    ap.add_argument("--variant")
    ap.add_argument("--family", dest="name")
    args = ap.parse_args()
    with open(args.family) as f:
        fam = json.load(f)
    dims = [int(x) for x in args.shape.split("x")]
    if len(dims) == 3:
        dims.append(1)
    table = {
        "format": "ws-gemm-tuning",
        "version": 1,
        "family": args.name or fam["name"],
        "device": "hand-written",
        "sms": 132,
        "entries": [{
            "m": dims[0], "n": dims[1], "k": dims[2], "l": dims[3],
            "variant": args.variant or fam["variants"][-1]["id"],
        }],
    }
    json.dump(table, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
