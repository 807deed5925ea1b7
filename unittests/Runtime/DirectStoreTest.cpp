//===- DirectStoreTest.cpp - Outputs stored without TMA -------------------===//
//
// A `matrix` parameter (store = direct): the manifest accepts it only for
// outputs, validate() drops TMA's 16-byte rules for it but keeps the
// element alignment and the stride bounds, packParams passes {address, ld,
// batch stride}, and a family may mix TMA and direct variants. A
// column-major D (`d(T, m_major)`): dims [M, N], ld counted along M, never
// a tensor map.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Family.h"
#include "ws-gemm-runtime/Launch.h"

#include <cstring>

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

/// gemm_bias_relu.json with D (params[3]) stored directly.
json directJson() {
  json j = loadJson("gemm_bias_relu.json");
  json &d = j["params"][3];
  EXPECT_EQ(d["operand"], "D");
  d = json{{"name", "d"},
           {"kind", "matrix"},
           {"operand", "D"},
           {"dtype", "f16"},
           {"dims", {"N", "M"}}};
  return j;
}

/// Valid arguments with N = 1001: B and C (read with TMA) padded to 16
/// bytes, D packed (2002-byte rows).
GemmArgs oddN() {
  GemmArgs a = validBiasRelu();
  a.N = 1001;
  a.B.ld = 1008;
  a.C.ld = 1008;
  return a;
}

TEST(DirectStore, ManifestTakesMatrixForOutputsOnly) {
  Manifest m = parseOrDie(directJson());
  EXPECT_TRUE(m.directStores());
  ASSERT_NE(m.findMatrix("D"), nullptr);
  EXPECT_EQ(m.findMatrix("D")->kind, ParamKind::Matrix);
  EXPECT_EQ(m.findTensorMap("D"), nullptr);
  EXPECT_FALSE(loadOrDie("gemm_bias_relu.json").directStores());

  json j = directJson();
  j["params"][0] = json{{"name", "a"},
                        {"kind", "matrix"},
                        {"operand", "A"},
                        {"dtype", "f16"},
                        {"dims", {"K", "M"}}};
  // A matrix for A or B is an input read with cp.async (CpAsyncArgsTest).
  EXPECT_EQ(manifestError(j),
            "manifest t.json: params[0].operand: a matrix parameter for A "
            "needs operands.A.load = \"cp_async\"");
}

TEST(DirectStore, AnyRowStride) {
  Manifest tma = loadOrDie("gemm_bias_relu.json");
  Manifest direct = parseOrDie(directJson());
  GemmArgs a = oddN();
  EXPECT_NE(argsError(tma, a), "");
  EXPECT_EQ(argsError(direct, a), "");
  // Padded to any length, and a base aligned to the element only.
  a.D.ld = 1003;
  a.D.ptr += 2;
  EXPECT_EQ(argsError(direct, a), "");
  a.D.ptr += 1;
  EXPECT_EQ(argsError(direct, a),
            "D: base address 0x40000003 is not aligned to its element size "
            "(2 bytes)");
  a.D.ptr -= 1;
  a.D.ld = 1000;
  EXPECT_EQ(argsError(direct, a),
            "D: leading dimension ld = 1000 is smaller than the row length "
            "N = 1001");
}

TEST(DirectStore, PackedAsAddressAndStrides) {
  Manifest m = parseOrDie(directJson());
  GemmArgs a = oddN();
  a.D.ld = 1003;
  std::vector<CUtensorMap> maps(3); // A, B, C
  auto p = packParams(m, a, maps);
  ASSERT_TRUE(p.ok()) << p.message();
  ASSERT_EQ(p->slotSize(3), 24u);
  int64_t v[3];
  std::memcpy(v, p->slot(3), sizeof v);
  EXPECT_EQ(v[0], 0x40000000);
  EXPECT_EQ(v[1], 1003);
  EXPECT_EQ(v[2], 256 * 1003); // packed batches: M * ld
}

TEST(DirectStore, SameInterfaceAsTma) {
  EXPECT_EQ(describeInterface(loadOrDie("gemm_bias_relu.json")),
            describeInterface(parseOrDie(directJson())));
}

TEST(DirectStore, FamilyPicksDirectVariantWhenStridesNeedIt) {
  Family f;
  f.name = "bias_relu";
  f.variants.push_back({"tma", "", "", loadOrDie("gemm_bias_relu.json")});
  f.variants.push_back({"direct", "", "", parseOrDie(directJson())});
  GemmArgs a = oddN();
  const Manifest &tma = f.variants[0].manifest;
  EXPECT_TRUE(outputsNeedDirectStore(tma, a));
  a.N = 1008;
  EXPECT_FALSE(outputsNeedDirectStore(tma, a));
  a.D.ld = 1012; // 2024-byte rows
  EXPECT_TRUE(outputsNeedDirectStore(tma, a));
  a.D.ld = 0;
  a.D.ptr += 8;
  EXPECT_TRUE(outputsNeedDirectStore(tma, a));

  // Both variants have the same tile: the heuristic keeps the first (TMA)
  // unless the outputs need the direct one.
  Shape s{256, 1001, 128, 1};
  auto sel = selectVariant(f, nullptr, s, SelectOptions());
  ASSERT_TRUE(sel.ok()) << sel.message();
  EXPECT_EQ(sel->variant, 0);
  s.directStores = true;
  sel = selectVariant(f, nullptr, s, SelectOptions());
  ASSERT_TRUE(sel.ok()) << sel.message();
  EXPECT_EQ(sel->variant, 1);
  f.variants.pop_back();
  sel = selectVariant(f, nullptr, s, SelectOptions());
  ASSERT_FALSE(sel.ok());
  EXPECT_EQ(sel.message(),
            "family bias_relu: no variant accepts problem 256x1001x128 with "
            "its outputs' strides (they break TMA's 16-byte rules and no "
            "variant has store = direct and a matching static_shape)");
}

/// directJson() with D column-major: operands.D.layout m_major, dims
/// [M, N].
json columnMajorJson() {
  json j = directJson();
  j["operands"]["D"]["layout"] = "m_major";
  j["params"][3]["dims"] = {"M", "N"};
  return j;
}

TEST(DirectStore, ColumnMajorDManifest) {
  Manifest m = parseOrDie(columnMajorJson());
  EXPECT_EQ(m.operand("D").layout, Layout::MMajor);
  // The dims must follow the layout, and only D may be column-major.
  json j = columnMajorJson();
  j["params"][3]["dims"] = {"N", "M"};
  EXPECT_EQ(manifestError(j),
            "manifest t.json: params[3].dims: must be [M, N] or [M, N, L] "
            "for D (m_major), got [N, M]");
  j = columnMajorJson();
  j["operands"]["C"]["layout"] = "m_major";
  EXPECT_EQ(manifestError(j),
            "manifest t.json: operands.C.layout: unknown layout for C "
            "'m_major' (expected one of n_major)");
  // A tensor map cannot write it.
  j = loadJson("gemm_bias_relu.json");
  j["operands"]["D"]["layout"] = "m_major";
  j["params"][3]["dims"] = {"M", "N"};
  EXPECT_EQ(manifestError(j),
            "manifest t.json: params[3].kind: operands.D.layout = \"m_major\" "
            "(a column-major D) is stored without TMA: a matrix parameter, "
            "not a tensor_map");
}

TEST(DirectStore, ColumnMajorDGeometry) {
  Manifest m = parseOrDie(columnMajorJson());
  GemmArgs a = oddN(); // M = 256, N = 1001
  EXPECT_EQ(argsError(m, a), "");
  MatrixGeometry g = matrixGeometry(m, "D", a);
  EXPECT_EQ(g.cols, 256);
  EXPECT_EQ(g.rows, 1001);
  EXPECT_EQ(g.colDim, Dim::M);
  // Element (m, n) is at n * ld + m.
  EXPECT_EQ(g.offsetMN(3, 5, 0), 5 * 256 + 3);
  a.D.ld = 300;
  g = matrixGeometry(m, "D", a);
  EXPECT_EQ(g.offsetMN(3, 5, 0), 5 * 300 + 3);
  EXPECT_EQ(argsError(m, a), "");
  a.D.ld = 255;
  EXPECT_EQ(argsError(m, a),
            "D: leading dimension ld = 255 is smaller than the row length "
            "M = 256");
  // The row-major D's element (m, n) is at m * ld + n.
  MatrixGeometry r = matrixGeometry(parseOrDie(directJson()), "D", oddN());
  EXPECT_EQ(r.offsetMN(3, 5, 0), 3 * 1001 + 5);
}

} // namespace
