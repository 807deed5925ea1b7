#!/usr/bin/env python3
"""Random EVT kernels through ws-gemm-compile and ptxas: refusals, crashes
and register spills.

Generates kernels seed .. seed+count-1 with gen_evt.py (same directory),
compiles them with `ws-gemm-compile --emit=ptx` (several kernels per file,
files in parallel; a file that fails is recompiled one kernel at a time to
tell which kernel failed), runs `ptxas -arch=sm_90a -v` on each PTX (the
parsing of check_ptxas.py) and prints one line per kernel: name,
registers, spill store/load bytes, stack frame, then a summary: kernels,
compile failures with their diagnostics, crashes, spilling kernels with
their config and EVT.

A compile failure is
  a crash      the compiler died on a signal, exited with a status other
               than 0 or 1, printed a stack dump, or timed out;
  a refusal    exit status 1 with diagnostics. Every generated kernel is
               valid, so each refusal is a compiler bug; those that
               gen_evt.py lists as known bugs are reported as such. A
               refusal must point at the input (FILE:LINE:COL: error:).

With --no-ptxas (a machine without CUDA, such as CI's) the kernels go
through the compiler to PTX only: crashes and refusals are checked, spills
are not.

Exit status 1 on any crash, any refusal without a location, more than
--max-spills spilling kernels (spills or a stack frame; kernels named in
--known-spills are reported but not counted), or more than --max-refusals
refusals; 2 on a usage or setup error; else 0.

Examples:
  evt_spills.py --seed 0 --count 200 --compiler build/bin/ws-gemm-compile
  evt_spills.py --seed 0 --count 200 --save /tmp/evt-spills --twin
  evt_spills.py --seed 17 --count 1 --keep /tmp/evt17   # one kernel, kept
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _here)
import check_ptxas  # noqa: E402  (ptxas -v parsing)
import gen_evt  # noqa: E402

LOCATED = re.compile(r"^(?!<unknown>)[^\s:]+:\d+:\d+: error: ", re.M)
ERROR_LINE = re.compile(r"^.*\berror: .*$", re.M)
CRASH_MARKERS = ("Stack dump", "PLEASE submit a bug report",
                 "LLVM ERROR", "Assertion", "UNREACHABLE")


class Result:
    """What happened to one kernel."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.status = "pending"   # ok | refused | crashed | ptxas-failed
        self.diag = ""
        self.located = True
        self.res = None           # check_ptxas.check's dict
        self.twin = None          # the plain twin's dict, with --twin

    @property
    def spills(self):
        r = self.res
        return bool(r and (r["spill_st"] or r["spill_ld"] or r["stack"]))


def default_compiler():
    for cand in (os.environ.get("WSGEMM_COMPILE"),
                 os.path.join(os.path.dirname(os.path.dirname(_here)),
                              "build", "bin", "ws-gemm-compile"),
                 shutil.which("ws-gemm-compile")):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def default_ptxas():
    for cand in (os.environ.get("WSGEMM_PTXAS"), shutil.which("ptxas"),
                 "/usr/local/cuda/bin/ptxas"):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def compile_file(compiler, src, out_dir, timeout):
    """Runs the compiler on one file; returns (kind, text) with kind one of
    ok, refused, crashed."""
    os.makedirs(out_dir, exist_ok=True)
    try:
        p = subprocess.run([compiler, src, "-o", out_dir, "--emit=ptx"],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "crashed", "timed out after %d s" % timeout
    text = p.stdout + p.stderr
    if p.returncode == 0:
        return "ok", text
    if p.returncode < 0:
        return "crashed", "killed by signal %d\n%s" % (-p.returncode, text)
    if p.returncode != 1 or any(m in text for m in CRASH_MARKERS):
        return "crashed", "exit status %d\n%s" % (p.returncode, text)
    return "refused", text


def first_errors(text, limit=3):
    """The first error lines of a diagnostic, for the summary."""
    lines = ERROR_LINE.findall(text)
    return "\n".join(lines[:limit]) if lines else text.strip()[:400]


def compile_all(kernels, work, compiler, jobs, per_file, timeout):
    """Compiles every kernel; fills Result.status/diag; returns the PTX
    directory of each kernel that compiled."""
    results = {k.name: Result(k) for k in kernels}
    src_dir = os.path.join(work, "src")
    gen_evt.write(kernels, src_dir, per_file)
    groups = [kernels[i:i + per_file] for i in range(0, len(kernels),
                                                     per_file)]
    ptx_dirs = {}

    def run_group(group):
        name = group[0].name
        src = os.path.join(src_dir, name + ".mlir")
        out = os.path.join(work, "out", name)
        kind, text = compile_file(compiler, src, out, timeout)
        if kind == "ok" or len(group) == 1:
            return [(group, kind, text, out)]
        # Attribute the failure: one kernel per file.
        shutil.rmtree(out, ignore_errors=True)
        single = []
        for k in group:
            one = os.path.join(work, "single", k.name + ".mlir")
            os.makedirs(os.path.dirname(one), exist_ok=True)
            with open(one, "w") as fh:
                fh.write(k.text)
            o = os.path.join(work, "out", k.name)
            kk, tt = compile_file(compiler, one, o, timeout)
            single.append(([k], kk, tt, o))
        return single

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for outcome in pool.map(run_group, groups):
            for group, kind, text, out in outcome:
                for k in group:
                    r = results[k.name]
                    if kind == "ok":
                        r.status = "ok"
                        ptx_dirs[k.name] = out
                    else:
                        r.status = kind
                        r.diag = text
                        r.located = kind == "crashed" or bool(
                            LOCATED.search(text))
    return results, ptx_dirs


def run_ptxas(results, ptx_dirs, ptxas, arch, jobs):
    def one(name):
        ptx = os.path.join(ptx_dirs[name], name + ".ptx")
        if not os.path.isfile(ptx):
            return name, None, "no %s.ptx from the compiler" % name
        res, text = check_ptxas.check(ptxas, arch, ptx)
        return name, res, text

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for name, res, text in pool.map(one, sorted(ptx_dirs)):
            r = results[name]
            if res is None:
                r.status = "ptxas-failed"
                r.diag = text
            else:
                r.res = res


def run_twins(results, work, compiler, ptxas, arch, jobs, timeout):
    """Compiles the plain twin of each spilling kernel: does the config
    spill without the EVT?"""
    spilling = [r for r in results.values() if r.spills]

    def one(r):
        k = r.kernel
        src = os.path.join(work, "twin", k.name + "_plain.mlir")
        os.makedirs(os.path.dirname(src), exist_ok=True)
        with open(src, "w") as fh:
            fh.write(k.twin_text())
        out = os.path.join(work, "twin", k.name)
        kind, text = compile_file(compiler, src, out, timeout)
        if kind != "ok":
            return r, {"error": first_errors(text)}
        res, text = check_ptxas.check(
            ptxas, arch, os.path.join(out, k.name + "_plain.ptx"))
        return r, res or {"error": text.strip()[:200]}

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for r, twin in pool.map(one, spilling):
            r.twin = twin


def seeds_arg(text):
    """'3,17,40-42' -> {3, 17, 40, 41, 42}."""
    out = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "-" in part:
            lo, hi = part.split("-", 1)
            out.update(range(int(lo), int(hi) + 1))
        else:
            out.add(int(part))
    return out


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].replace("\n", " "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("--seed", type=int, default=0,
                    help="first kernel seed (default 0)")
    ap.add_argument("--count", type=int, default=20,
                    help="number of kernels (default 20)")
    ap.add_argument("--compiler", default=default_compiler(),
                    help="ws-gemm-compile (default: $WSGEMM_COMPILE, "
                         "<repo>/build/bin, PATH)")
    ap.add_argument("--ptxas", default=default_ptxas(),
                    help="ptxas (default: $WSGEMM_PTXAS, PATH, "
                         "/usr/local/cuda/bin)")
    ap.add_argument("--no-ptxas", action="store_true",
                    help="compile to PTX only: check crashes and refusals, "
                         "not spills (no CUDA needed)")
    ap.add_argument("--arch", default="sm_90a",
                    help="ptxas -arch (default sm_90a)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="parallel compiles and ptxas runs (default: cores)")
    ap.add_argument("--per-file", type=int, default=4,
                    help="kernels per compiler invocation (default 4)")
    ap.add_argument("--timeout", type=int, default=300,
                    help="seconds per compiler run before it counts as a "
                         "crash (default 300)")
    ap.add_argument("--max-spills", type=int, default=None,
                    help="fail when more kernels than this spill or use a "
                         "stack frame (default: no limit)")
    ap.add_argument("--known-spills", type=seeds_arg, default=set(),
                    metavar="SEEDS",
                    help="seeds (3,17,40-42) known to spill today: reported, "
                         "not counted against --max-spills")
    ap.add_argument("--max-refusals", type=int, default=None,
                    help="fail when more kernels than this are refused "
                         "(default: no limit; refusals without a location "
                         "always fail)")
    ap.add_argument("--avoid-known-bugs", action="store_true",
                    help="generate nothing gen_evt.py knows the compiler "
                         "refuses wrongly")
    ap.add_argument("--twin", action="store_true",
                    help="compile a plain-epilogue twin of each spilling "
                         "kernel (same config) to tell EVT spills from "
                         "config spills")
    ap.add_argument("--save", metavar="DIR",
                    help="copy each spilling kernel's .mlir (and each "
                         "refused or crashing one, under DIR/failures) here")
    ap.add_argument("--keep", metavar="DIR",
                    help="work in DIR and keep it (sources, PTX); default: a "
                         "temporary directory, removed")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="no per-kernel lines for kernels that are fine")
    args = ap.parse_args()

    if not args.compiler or not os.access(args.compiler, os.X_OK):
        print("error: no ws-gemm-compile (use --compiler or "
              "$WSGEMM_COMPILE)", file=sys.stderr)
        return 2
    if args.no_ptxas and (args.twin or args.max_spills is not None):
        ap.error("--no-ptxas measures no spills: --twin and --max-spills "
                 "need ptxas")
    if not args.no_ptxas and (not args.ptxas or
                              not os.access(args.ptxas, os.X_OK)):
        print("error: no ptxas (use --ptxas, or --no-ptxas)",
              file=sys.stderr)
        return 2
    if args.count < 1 or args.per_file < 1 or args.jobs < 1:
        ap.error("--count, --per-file and -j must be positive")

    start = time.time()
    if args.keep:
        work = os.path.abspath(args.keep)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
    else:
        work = tempfile.mkdtemp(prefix="evt-spills-")
    try:
        kernels = gen_evt.generate(args.seed, args.count,
                                   args.avoid_known_bugs)
        results, ptx_dirs = compile_all(kernels, work, args.compiler,
                                        args.jobs, args.per_file,
                                        args.timeout)
        times = {"compile": time.time() - start}
        if not args.no_ptxas:
            run_ptxas(results, ptx_dirs, args.ptxas, args.arch, args.jobs)
        else:
            for name, out in ptx_dirs.items():
                if not os.path.isfile(os.path.join(out, name + ".ptx")):
                    results[name].status = "ptxas-failed"
                    results[name].diag = "no %s.ptx from the compiler" % name
        times["ptxas"] = time.time() - start - times["compile"]
        if args.twin:
            run_twins(results, work, args.compiler, args.ptxas, args.arch,
                      args.jobs, args.timeout)
        times["total"] = time.time() - start
        status = report(args, kernels, results, times)
        if args.save:
            save(args.save, results)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return status


def report(args, kernels, results, times):
    print("%-12s %5s %9s %9s %6s  %s" % ("kernel", "regs", "spill st",
                                          "spill ld", "stack", "status"))
    for k in kernels:
        r = results[k.name]
        if r.res:
            res = r.res
            note = "SPILL" if r.spills else "ok"
            if r.spills and k.seed in args.known_spills:
                note = "SPILL (known)"
            if args.quiet and not r.spills:
                continue
            print("%-12s %5d %9d %9d %6d  %s" % (
                k.name, res["regs"], res["spill_st"], res["spill_ld"],
                res["stack"], note))
        else:
            if args.quiet and r.status == "ok":
                continue
            print("%-12s %5s %9s %9s %6s  %s" % (k.name, "-", "-", "-", "-",
                                                 r.status.upper()))

    ok = [r for r in results.values() if r.res]
    refused = [r for r in results.values() if r.status == "refused"]
    crashed = [r for r in results.values() if r.status == "crashed"]
    ptxas_failed = [r for r in results.values() if r.status == "ptxas-failed"]
    spilling = [r for r in ok if r.spills]
    counted = [r for r in spilling if r.kernel.seed not in args.known_spills]
    fixed = sorted(s for s in args.known_spills
                   if "evt_%d" % s in results
                   and results["evt_%d" % s].res
                   and not results["evt_%d" % s].spills)
    unlocated = [r for r in refused if not r.located]
    for r in refused:
        r.bug_classes = gen_evt.classify_refusal(r.diag)
    known = [r for r in refused if r.bug_classes]

    print()
    print("== summary: seeds %d..%d, %.0f s (compile %.0f s, ptxas %.0f s, "
          "-j %d)" % (args.seed, args.seed + args.count - 1, times["total"],
                      times["compile"], times["ptxas"], args.jobs))
    print("kernels           %d" % len(kernels))
    compiled = [r for r in results.values()
                if r.status in ("ok", "ptxas-failed")]
    print("compiled          %d (%s)" % (
        len(compiled), "ptxas not run" if args.no_ptxas
        else "ptxas ran on %d" % len(ok)))
    print("refused           %d (%d of known compiler bugs, %d without a "
          "location)" % (len(refused), len(known), len(unlocated)))
    print("crashed           %d" % len(crashed))
    print("ptxas failed      %d" % len(ptxas_failed))
    print("spilling          %d (%d known)" % (
        len(spilling), len(spilling) - len(counted)))

    for title, group in (("crashes", crashed), ("refusals", refused),
                         ("ptxas failures", ptxas_failed)):
        if not group:
            continue
        print()
        print("== %s" % title)
        for r in sorted(group, key=lambda r: r.kernel.seed):
            k = r.kernel
            tag = ""
            if getattr(r, "bug_classes", None):
                tag = " [known bug: %s%s]" % (
                    ", ".join(r.bug_classes),
                    "" if set(r.bug_classes) & set(k.known_bugs)
                    else ", not predicted by gen_evt")
            if not r.located and r.status == "refused":
                tag += " [NO LOCATION]"
            print("%s%s: %s" % (k.name, tag, k.config_summary))
            for line in first_errors(r.diag).splitlines():
                print("    " + line)
    if spilling:
        print()
        print("== spilling kernels (bytes: spill stores / loads / stack)")
        for r in sorted(spilling, key=lambda r: r.kernel.seed):
            k, res = r.kernel, r.res
            print("%s: %d / %d / %d, %d regs%s" % (
                k.name, res["spill_st"], res["spill_ld"], res["stack"],
                res["regs"],
                " (known)" if k.seed in args.known_spills else ""))
            print("    config: %s" % k.config_summary)
            print("    EVT:    %s" % k.evt_summary)
            if r.twin is not None:
                t = r.twin
                if "error" in t:
                    print("    plain twin: not compiled: %s" % t["error"])
                else:
                    print("    plain twin: %d / %d / %d, %d regs: %s" % (
                        t["spill_st"], t["spill_ld"], t["stack"], t["regs"],
                        "the config spills without the EVT"
                        if t["spill_st"] or t["spill_ld"] or t["stack"]
                        else "the EVT causes the spill"))
    if spilling:
        print()
        print("spilling seeds: %s" % ",".join(
            str(r.kernel.seed) for r in sorted(spilling,
                                               key=lambda r: r.kernel.seed)))
    if fixed:
        print("known spills that no longer spill (drop from --known-spills): "
              "%s" % ",".join(map(str, fixed)))

    failures = []
    if crashed:
        failures.append("%d crashes" % len(crashed))
    if unlocated:
        failures.append("%d refusals without a location" % len(unlocated))
    if ptxas_failed:
        failures.append("%d ptxas failures" % len(ptxas_failed))
    if args.max_spills is not None and len(counted) > args.max_spills:
        failures.append("%d spilling kernels (max %d)" % (len(counted),
                                                          args.max_spills))
    if args.max_refusals is not None and len(refused) > args.max_refusals:
        failures.append("%d refusals (max %d)" % (len(refused),
                                                  args.max_refusals))
    print()
    print("FAIL: " + "; ".join(failures) if failures else "PASS")
    return 1 if failures else 0


def save(dest, results):
    """Copies spilling kernels to DEST, refused/crashed ones to
    DEST/failures, one .mlir each (with its summary comments)."""
    os.makedirs(dest, exist_ok=True)
    for r in results.values():
        if r.spills:
            target = dest
        elif r.status in ("refused", "crashed", "ptxas-failed"):
            target = os.path.join(dest, "failures")
        else:
            continue
        os.makedirs(target, exist_ok=True)
        with open(os.path.join(target, r.kernel.name + ".mlir"), "w") as fh:
            if r.res:
                fh.write("// ptxas: %d registers, %d bytes spill stores, %d "
                         "bytes spill loads, %d bytes stack\n" % (
                             r.res["regs"], r.res["spill_st"],
                             r.res["spill_ld"], r.res["stack"]))
            elif r.diag:
                fh.write("".join("// %s\n" % line for line in
                                 first_errors(r.diag).splitlines()))
            fh.write(r.kernel.text)


if __name__ == "__main__":
    sys.exit(main())
