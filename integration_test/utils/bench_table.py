#!/usr/bin/env python3
"""Merges ws-gemm-bench's CSV with ws-gemm-run's relative errors into one
table (CSV and markdown): config, shape, rel err, TFLOP/s, cuBLASLt TFLOP/s,
ratio (ours / cuBLASLt throughput), and the cuBLASLt epilogue compared.

usage: bench_table.py --csv bench.csv --relerr relerr.txt --kernels DIR
                      --out-csv results.csv --out-md results.md
relerr.txt lines: KERNEL M N K REL RUN_EXIT
"""

import argparse
import csv
import json
import os
import sys


def config_of(kernels, name):
    try:
        with open(os.path.join(kernels, name + ".json")) as f:
            m = json.load(f)
    except OSError:
        return name
    wgs = m["block"][0] // 128 - 1
    sched = {"warp_specialized": "ws", "cooperative": "coop",
             "pingpong": "pingpong"}.get(m.get("schedule"),
                                         {1: "ws", 2: "coop"}.get(wgs, "%dwg" % wgs))
    tile = "x".join(str(t) for t in m["tile"][:2])
    dt = m["operands"]["A"]["dtype"]
    ts = m.get("tile_scheduler", {})
    if ts.get("kind") == "split_k":
        tile += ", split-K %d" % ts["split_k"]
    elif ts.get("kind") == "stream_k":
        tile += ", stream-K"
    return "%s (%s, %s %s)" % (name, dt, sched, tile)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv", required=True)
    ap.add_argument("--relerr", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--out-csv", required=True)
    ap.add_argument("--out-md", required=True)
    a = ap.parse_args()

    rel = {}
    with open(a.relerr) as f:
        for line in f:
            p = line.split()
            if len(p) == 6:
                rel[(p[0], p[1], p[2], p[3])] = (p[4], p[5])
    bench = {}
    if os.path.isfile(a.csv):
        with open(a.csv) as f:
            for r in csv.DictReader(f):
                bench[(r["kernel"], r["M"], r["N"], r["K"])] = r
    rows = []
    for key in list(rel) + [k for k in bench if k not in rel]:
        kname, M, N, K = key
        r = bench.get(key, {})
        e, rc = rel.get(key, ("?", "?"))
        status = "" if rc == "0" else " (run FAIL)" if rc != "?" else ""
        rows.append({
            "config": config_of(a.kernels, kname),
            "shape": "%sx%sx%s" % (M, N, K),
            "rel_err": e + status,
            "tflops": r.get("ours_tflops", "") or "n/a",
            "cublaslt_tflops": r.get("cublaslt_tflops", "") or "n/a",
            "ratio": r.get("ratio", "") or "n/a",
            "cublaslt_epilogue": r.get("cublaslt_epilogue", "") or r.get("note", ""),
        })
    cols = ["config", "shape", "rel_err", "tflops", "cublaslt_tflops", "ratio",
            "cublaslt_epilogue"]
    with open(a.out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
    heads = ["config", "shape", "rel err", "TFLOP/s", "cuBLASLt TFLOP/s",
             "ratio", "cuBLASLt epilogue"]
    lines = ["| " + " | ".join(heads) + " |",
             "|" + "|".join("---" for _ in heads) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(str(r[c]) for c in cols) + " |")
    text = "\n".join(lines) + "\n"
    with open(a.out_md, "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
