#!/usr/bin/env python3
"""Broken cubins beside a good manifest, for the runtime's refusals.

  bad_cubins.py --manifest KERNELS/plain_f16.json --out DIR [--ptxas PTXAS]

Writes into DIR a copy of the manifest per broken cubin, each naming its
own cubin (the manifest is otherwise the kernel's, so it passes every
manifest and argument check):
  empty.json       a 0-byte cubin
  truncated.json   the kernel's cubin cut to 60% (section headers lost)
  not_elf.json     4 KiB of 'A' with no NUL (neither ELF nor text)
and, when ptxas is given (the GPU machine has none: these are made here):
  wrong_arch.json  a kernel of the manifest's name built for sm_80, which
                   an sm_90 device cannot load (the driver's error names it)
  hang.json        the same kernel built for sm_90a: it spins forever
                   (nanosleep in a loop), for ws-gemm-run's watchdog
Python 3 standard library.
"""

import argparse
import json
import os
import subprocess
import sys

HANG_PTX = """.version 8.0
.target sm_80
.address_size 64

.visible .entry %s()
{
$L_spin:
\tnanosleep.u32 1000;
\tbra.uni $L_spin;
}
"""


def write_case(out, name, manifest, cubin_bytes):
    m = dict(manifest)
    m["cubin"] = name + ".cubin"
    with open(os.path.join(out, name + ".cubin"), "wb") as fh:
        fh.write(cubin_bytes)
    with open(os.path.join(out, name + ".json"), "w") as fh:
        json.dump(m, fh, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--ptxas")
    args = ap.parse_args()
    with open(args.manifest) as fh:
        manifest = json.load(fh)
    cubin_path = os.path.join(os.path.dirname(args.manifest),
                              manifest["cubin"])
    with open(cubin_path, "rb") as fh:
        cubin = fh.read()
    os.makedirs(args.out, exist_ok=True)
    write_case(args.out, "empty", manifest, b"")
    write_case(args.out, "truncated", manifest, cubin[:len(cubin) * 6 // 10])
    write_case(args.out, "not_elf", manifest, b"A" * 4096)
    if args.ptxas:
        ptx = os.path.join(args.out, "hang.ptx")
        with open(ptx, "w") as fh:
            fh.write(HANG_PTX % manifest["kernel"])
        for name, arch in (("wrong_arch", "sm_80"), ("hang", "sm_90a")):
            out = os.path.join(args.out, name + ".cubin.tmp")
            subprocess.run([args.ptxas, "-arch=" + arch, ptx, "-o", out],
                           check=True)
            with open(out, "rb") as fh:
                data = fh.read()
            os.remove(out)
            write_case(args.out, name, manifest, data)
    print("bad_cubins: wrote %d cases to %s"
          % (5 if args.ptxas else 3, args.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
