#!/usr/bin/env python3
"""Validates every compiled manifest with `ws-gemm-run --dry-run`.

For each <kernel>.json in KERNEL_DIR, runs the runner without a GPU on a
ragged problem (1000 x 3000 x 200, L = 3 when batched; 1000 x 3008 x 208
when a matrix is 8-bit, whose rows TMA needs in multiples of 16 bytes;
1024 x 3000 x 256 for a pre-packed A, whose packing needs M % 64 and K a
multiple of its scale group): the runtime parses
the manifest, checks its EVT and validates the arguments on fake device
addresses. Fails, listing each refusal, if any manifest is not accepted.

usage: dry_run_all.py KERNEL_DIR --run WS_GEMM_RUN
"""

import argparse
import json
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--run", required=True)
    args = ap.parse_args()

    manifests = sorted(f for f in os.listdir(args.dir) if f.endswith(".json"))
    if not manifests:
        print("error: no manifest (*.json) in %s" % args.dir)
        return 1
    bad = []
    for f in manifests:
        path = os.path.join(args.dir, f)
        with open(path) as fh:
            text = fh.read()
        batched = json.loads(text).get("batched", False)
        fp8 = '"f8e4m3"' in text or '"f8e5m2"' in text
        packed = '"packing"' in text
        cmd = [args.run, path, "--m", "1024" if packed else "1000",
               "--n", "3008" if fp8 else "3000",
               "--k", "256" if packed else "208" if fp8 else "200",
               "--l", "3" if batched else "1", "--dry-run"]
        out = subprocess.run(cmd, capture_output=True, text=True)
        text = (out.stdout + out.stderr).strip()
        ok = out.returncode == 0 and "arguments valid" in text
        print("%-32s %s" % (f[:-5], "ok" if ok else "FAIL: " + text))
        if not ok:
            bad.append(f[:-5])
    print("%d manifests, %d refused%s" % (len(manifests), len(bad),
                                          ": " + " ".join(bad) if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
