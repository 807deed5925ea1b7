#!/usr/bin/env python3
"""Resource check of every compiled integration kernel.

Runs `ptxas -arch=<arch> -v` on each <kernel>.ptx in a kernel directory
(without --arch: the manifest's "chip", the arch the PTX was written for,
when a kernel was reassembled for another one, e.g. sm_89 PTX assembled
for sm_90a to run on the H100; else sm_90a) and
fails if any kernel spills registers or uses a stack frame, or if a kernel
lacks its .cubin or .json; with --no-serialized-wgmma also if ptxas reports
that it serialized the kernel's wgmma instructions (its "Potential
Performance Loss" notes C7508-C7520: every wgmma then waits for the
previous one). Prints one line per kernel: registers, spill stores/loads,
stack frame, and the manifest's dynamic shared memory.

usage: check_ptxas.py KERNEL_DIR [--ptxas PTXAS] [--arch ARCH] [-j N]
                      [--no-serialized-wgmma [--allow-serialized K1,K2]]
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

ENTRY = re.compile(r"Compiling entry function '([^']+)' for '([^']+)'")
FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                   r"(\d+) bytes spill loads")
REGS = re.compile(r"Used (\d+) registers")
SERIALIZED = re.compile(r"\((C75\d\d)\) Potential Performance Loss: "
                        r"wgmma\.mma_async instructions are serialized")


def check(ptxas, arch, ptx):
    out = subprocess.run([ptxas, "-arch=" + arch, "-v", ptx, "-o", os.devnull],
                         capture_output=True, text=True)
    text = out.stdout + out.stderr
    if out.returncode != 0:
        return None, text
    entry = ENTRY.search(text)
    frame = FRAME.search(text)
    regs = REGS.search(text)
    if not (entry and frame and regs):
        return None, "cannot parse ptxas -v output:\n" + text
    return {
        "entry": entry.group(1),
        "stack": int(frame.group(1)),
        "spill_st": int(frame.group(2)),
        "spill_ld": int(frame.group(3)),
        "regs": int(regs.group(1)),
        "serialized": [m.group(1) for m in SERIALIZED.finditer(text)],
    }, text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--ptxas", default="ptxas")
    ap.add_argument("--arch", default=None)
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-serialized-wgmma", action="store_true",
                    help="fail kernels whose wgmma ptxas serialized")
    ap.add_argument("--allow-serialized", default="",
                    help="comma-separated kernels exempt from "
                         "--no-serialized-wgmma (known, with a reason)")
    args = ap.parse_args()

    ptxs = sorted(f for f in os.listdir(args.dir) if f.endswith(".ptx"))
    if not ptxs:
        print("error: no .ptx in %s" % args.dir)
        return 1
    failures = 0
    def arch_of(f):
        if args.arch:
            return args.arch
        try:
            with open(os.path.join(args.dir, f[:-4] + ".json")) as fh:
                return json.load(fh).get("chip") or "sm_90a"
        except (OSError, ValueError):
            return "sm_90a"

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        jobs = {f: pool.submit(check, args.ptxas, arch_of(f),
                               os.path.join(args.dir, f)) for f in ptxs}
    print("%-32s %5s %9s %9s %6s %8s" % ("kernel", "regs", "spill st",
                                         "spill ld", "stack", "smem"))
    for f in ptxs:
        name = f[:-4]
        res, text = jobs[f].result()
        if res is None:
            print("%-32s FAIL: ptxas:\n%s" % (name, text))
            failures += 1
            continue
        problems = []
        manifest = os.path.join(args.dir, name + ".json")
        smem = "-"
        if not os.path.isfile(os.path.join(args.dir, name + ".cubin")):
            problems.append("no .cubin")
        if not os.path.isfile(manifest):
            problems.append("no .json")
        else:
            with open(manifest) as fh:
                m = json.load(fh)
            smem = str(m.get("smem_bytes", "?"))
            if m.get("kernel") != res["entry"]:
                problems.append("manifest kernel %r != PTX entry %r"
                                % (m.get("kernel"), res["entry"]))
        if res["spill_st"] or res["spill_ld"]:
            problems.append("register spills")
        if res["stack"]:
            problems.append("stack frame")
        allowed = set(filter(None, args.allow_serialized.split(",")))
        if (args.no_serialized_wgmma and res["serialized"]
                and name not in allowed):
            problems.append("wgmma serialized by ptxas (%s)"
                            % ", ".join(res["serialized"]))
        print("%-32s %5d %9d %9d %6d %8s%s" % (
            name, res["regs"], res["spill_st"], res["spill_ld"], res["stack"],
            smem, "  FAIL: " + ", ".join(problems) if problems else ""))
        failures += bool(problems)
    print("%d kernels, %d failing" % (len(ptxs), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
