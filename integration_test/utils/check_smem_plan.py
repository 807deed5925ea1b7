#!/usr/bin/env python3
"""Planned and emitted shared memory agree on every compiled kernel.

For each .mlir source given, runs `ws-gemm-opt --wsgemm-from-linalg
--wsgemm-prepare` (as ws-gemm-compile does: linalg sources become kernels
first) and reads
the dynamic SMEM that --wsgemm-plan records on each wsgemm.gemm
(`wsgemm.smem_bytes`); then compares it with the `smem_bytes` of the
kernel's manifest in KERNEL_DIR, which ws-gemm-compile wrote from the
layout the kernel was built with (the runtime launches with it). Fails,
listing each kernel, on any difference, on a planned kernel with no
manifest, and on a manifest no source planned.

usage: check_smem_plan.py KERNEL_DIR --opt WS_GEMM_OPT SOURCE.mlir...
"""

import argparse
import json
import os
import re
import subprocess
import sys

GEMM = re.compile(r"wsgemm\.gemm @(\w+) .*wsgemm\.smem_bytes = (\d+) : i64")


def chip_of(source):
    """The --chip a source's `// ws-gemm-compile-flags:` line names."""
    with open(source) as f:
        for line in f:
            m = re.match(r"// ws-gemm-compile-flags: .*--chip[= ](\S+)", line)
            if m:
                return m.group(1)
    return "sm_90a"


def planned(opt, source):
    out = subprocess.run([opt, "--wsgemm-from-linalg",
                          "--wsgemm-prepare=chip=" + chip_of(source), source],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("%s: ws-gemm-opt failed:\n%s" % (source, out.stderr))
    return {m.group(1): int(m.group(2)) for m in GEMM.finditer(out.stdout)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--opt", required=True)
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args()

    plans = {}
    for source in args.sources:
        plans.update(planned(args.opt, source))
    manifests = {f[:-5] for f in os.listdir(args.dir) if f.endswith(".json")}
    bad = []
    for name in sorted(plans):
        if name not in manifests:
            bad.append("%s: planned (%d bytes) but no manifest" %
                       (name, plans[name]))
            continue
        with open(os.path.join(args.dir, name + ".json")) as f:
            emitted = json.load(f)["smem_bytes"]
        status = "ok" if emitted == plans[name] else "MISMATCH"
        print("%-40s planned %7d  manifest %7d  %s" %
              (name, plans[name], emitted, status))
        if emitted != plans[name]:
            bad.append("%s: planned %d bytes, manifest %d" %
                       (name, plans[name], emitted))
    for name in sorted(manifests - set(plans)):
        bad.append("%s: a manifest no source planned" % name)
    if not plans:
        bad.append("no wsgemm.gemm planned in %s" % " ".join(args.sources))
    print("%d kernels, %d problems" % (len(plans), len(bad)))
    for line in bad:
        print("error: " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
