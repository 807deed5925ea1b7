"""Kernel names from Python (docs/limits.md, "Kernel names"): compile()
refuses each hostile kind of name with a located CompileError (never an
abort of the process), save() writes only inside its directory under names
the compiler's rule allows, and the compile cache treats an index that
names a file outside its entry as damaged. PTX only: no GPU, no ptxas."""

import json
import os
import shutil
import tempfile
import unittest

import ws_gemm
from ws_gemm._compile import check_kernel_name

BODY = """ a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
"""
RULE = "must be a PTX identifier of at most 240 characters"
RESERVED = "must not be 'WARP_SZ'"

# (symbol as written in MLIR, the name, what compile() says about it)
REFUSED = [
    ('"a b/c"', "a b/c", "got \"a b/c\": byte 1 is ' '"),
    ('"../escape"', "../escape", "got \"../escape\": it starts with '.'"),
    ('".."', "..", "it starts with '.'"),
    ('"%x"', "%x", "it starts with '%'"),
    ('"$"', "$", "'$' alone is no identifier"),
    ('_', "_", "'_' alone is no identifier"),
    ('"1abc"', "1abc", "it starts with '1'"),
    ('"\u00e9t\u00e9"', "\u00e9t\u00e9", "it starts with 0xC3"),
    ('"a' + "b" * 4095 + '"', "a" + "b" * 4095, "(4096 bytes): 3856 over"),
    ("WARP_SZ", "WARP_SZ", RESERVED),
    ("__nv_expf", "__nv_expf", RESERVED),
]
ACCEPTED = ['"$x"', "_x", "k" + "x" * 239]

_cache = None


def setUpModule():
    global _cache
    _cache = tempfile.mkdtemp(prefix="ws-gemm-test-names-cache-")
    os.environ["WSGEMM_CACHE_DIR"] = _cache


def tearDownModule():
    shutil.rmtree(_cache, ignore_errors=True)


def compile_one(symbol, **kw):
    kw.setdefault("cache", False)
    return ws_gemm.compile("wsgemm.gemm @" + symbol + BODY, name="k.mlir",
                           emit="ptx", family="none", **kw)


class CompileNamesTest(unittest.TestCase):
    def test_refused(self):
        for symbol, name, why in REFUSED:
            with self.subTest(name=name[:16]):
                with self.assertRaises(ws_gemm.CompileError) as cm:
                    compile_one(symbol)
                (d,) = cm.exception.diagnostics
                self.assertEqual((d.severity, d.file, d.line, d.column),
                                 ("error", "k.mlir", 1, 1))
                self.assertIn(RESERVED if why == RESERVED else RULE,
                              d.message)
                self.assertIn(why, d.message)
                # The module's own check says the same.
                with self.assertRaises(ValueError):
                    check_kernel_name(name)

    def test_case_twins(self):
        text = "wsgemm.gemm @Gemm" + BODY + "wsgemm.gemm @gemm" + BODY
        with self.assertRaises(ws_gemm.CompileError) as cm:
            ws_gemm.compile(text, name="k.mlir", emit="ptx", cache=False)
        first = cm.exception.diagnostics[0]
        self.assertEqual((first.line, first.column), (6, 1))
        self.assertIn('kernels "Gemm" and "gemm" differ only in case',
                      first.message)

    def test_accepted_and_saved_inside(self):
        for symbol in ACCEPTED:
            name = symbol.strip('"')
            with self.subTest(name=name[:16]):
                check_kernel_name(name)
                (k,) = compile_one(symbol)
                self.assertEqual(k.name, name)
                self.assertEqual(k.manifest["kernel"], name)
                self.assertIn(".entry " + name + "(", k.ptx)
                with tempfile.TemporaryDirectory() as top:
                    d = os.path.join(top, "out")
                    path = k.save(d)
                    self.assertEqual(path, os.path.join(d, name + ".json"))
                    self.assertEqual(sorted(os.listdir(top)), ["out"])
                    self.assertEqual(sorted(os.listdir(d)),
                                     [name + ".json", name + ".ptx"])


class SaveNamesTest(unittest.TestCase):
    """save() of results whose names did not come from the compiler."""

    def test_kernel_save_refuses(self):
        for name in ["../escape", "a/b", "..", ".", "", "a b", "/abs",
                     "\u00e9", "x" * 4096, "WARP_SZ", "a\0b"]:
            with self.subTest(name=name[:16]):
                k = ws_gemm.CompiledKernel(name, "{}", "ptx", b"", "")
                with tempfile.TemporaryDirectory() as top:
                    d = os.path.join(top, "out")
                    with self.assertRaisesRegex(ValueError, "kernel name"):
                        k.save(d)
                    self.assertEqual(os.listdir(top), [])

    def test_family_save_refuses(self):
        def variant(vid, name="fam"):
            v = ws_gemm._compile.CompiledVariant(name, "{}", "ptx", b"", "")
            v.id, v.config = vid, ""
            return v
        bad = [[variant("..")], [variant("v0/../../x")], [variant("")],
               [variant("v0.a"), variant("V0.A")],
               [variant("v0", name="../fam")]]
        for variants in bad:
            with self.subTest(ids=[v.id for v in variants]):
                f = ws_gemm.CompiledFamily("fam", "{}", variants)
                with tempfile.TemporaryDirectory() as top:
                    with self.assertRaises(ValueError):
                        f.save(os.path.join(top, "fam"))
                    self.assertEqual(os.listdir(top), [])


class CacheNamesTest(unittest.TestCase):
    def test_index_naming_outside_is_a_miss(self):
        first = compile_one('"$x"', cache=True)
        self.assertFalse(first.cached)
        (entry,) = [e for e in os.listdir(_cache) if not e.startswith(".")]
        index_path = os.path.join(_cache, entry, "index.json")
        with open(index_path) as f:
            index = json.load(f)
        # A file outside the entry with the sizes the index records.
        outside = os.path.join(_cache, "evil")
        for ext in (".json", ".ptx", ".ptxas.log"):
            shutil.copy(os.path.join(_cache, entry, "$x" + ext),
                        outside + ext)
        index["items"][0]["name"] = "../evil"
        with open(index_path, "w") as f:
            json.dump(index, f)
        again = compile_one('"$x"', cache=True)
        self.assertFalse(again.cached)  # damaged: compiled again
        self.assertEqual(again[0].name, "$x")
        self.assertTrue(compile_one('"$x"', cache=True).cached)


if __name__ == "__main__":
    unittest.main()
