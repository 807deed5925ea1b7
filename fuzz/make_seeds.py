#!/usr/bin/env python3
"""Seed corpora for the fuzz targets (docs/fuzzing.md).

  make_seeds.py --root REPO --out DIR

writes DIR/mlir/ (every test/**/*.mlir split at `// -----`, examples/*.mlir,
integration_test/kernels/*.mlir; RUN/CHECK comment lines dropped, inputs over
16 KiB left out, duplicates once; and fuzz/seeds/mlir/*.mlir whole: inputs
that once crashed a target) and DIR/manifest/ (fuzz/seeds/manifest/*,
each also with a NUL and a few argument bytes appended, so that the
argument half of wsgemm-fuzz-manifest starts from something). File names
are content hashes, so reruns are idempotent. Python 3 standard library.
"""

import argparse
import glob
import hashlib
import os
import shutil

MAX_BYTES = 16384


def write(out_dir, data, seen):
    digest = hashlib.sha1(data).hexdigest()
    if digest in seen:
        return
    seen.add(digest)
    with open(os.path.join(out_dir, digest), "wb") as fh:
        fh.write(data)


def mlir_pieces(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    for piece in text.split("// -----"):
        lines = [l for l in piece.splitlines()
                 if not l.lstrip().startswith(("// RUN", "// CHECK",
                                               "// expected-"))]
        body = "\n".join(lines).strip()
        if body:
            yield (body + "\n").encode()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    root = args.root

    mlir_dir = os.path.join(args.out, "mlir")
    manifest_dir = os.path.join(args.out, "manifest")
    for d in (mlir_dir, manifest_dir):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)

    seen = set()
    sources = sorted(glob.glob(os.path.join(root, "test", "**", "*.mlir"),
                               recursive=True))
    sources += sorted(glob.glob(os.path.join(root, "examples", "*.mlir")))
    sources += sorted(glob.glob(os.path.join(root, "integration_test",
                                             "kernels", "*.mlir")))
    # Inputs that once crashed a target (kept whole, comments included).
    regressions = sorted(glob.glob(os.path.join(root, "fuzz", "seeds",
                                                "mlir", "*.mlir")))
    for path in regressions:
        with open(path, "rb") as fh:
            write(mlir_dir, fh.read(), seen)
    for path in sources:
        for piece in mlir_pieces(path):
            if len(piece) <= MAX_BYTES:
                write(mlir_dir, piece, seen)
    n_mlir = len(seen)

    seen = set()
    for path in sorted(glob.glob(os.path.join(root, "fuzz", "seeds",
                                              "manifest", "*.json"))):
        with open(path, "rb") as fh:
            data = fh.read()
        write(manifest_dir, data, seen)
        # Argument bytes: sizes 16 x 16 x 32, then an ld and a misalignment.
        write(manifest_dir,
              data + b"\0" + bytes([3, 0, 16, 3, 0, 16, 3, 0, 32, 1,
                                    0, 0, 0, 0, 0, 40, 2, 1, 8]), seen)
    print("fuzz seeds: %d MLIR inputs, %d manifest inputs in %s"
          % (n_mlir, len(seen), args.out))


if __name__ == "__main__":
    main()
