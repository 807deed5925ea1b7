//===- FootprintTest.cpp - Memory footprints and cubin structure ----------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Cubin.h"
#include "ws-gemm-runtime/Footprint.h"

#include <cstring>
#include <vector>

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

GemmArgs sized(int64_t M, int64_t N, int64_t K, int64_t L = 1) {
  GemmArgs a;
  a.M = M;
  a.N = N;
  a.K = K;
  a.L = L;
  return a;
}

TEST(Footprint, EveryBufferOfTestProblem) {
  // A 1000x200, B 3000x200 (n_major: K rows of N), C and D 1000x3000, all
  // f16, bias M f16; each + 256 guard bytes, rounded up to 256.
  Manifest m = loadOrDie("gemm_bias_relu.json");
  auto f = problemFootprint(m, sized(1000, 3000, 200));
  ASSERT_TRUE(f.ok()) << f.message();
  EXPECT_EQ(f->deviceBytes, 400384u + 1200384u + 2 * 6000384u + 2304u);
  // Inputs: bytes + guard + a double each; D: bytes + a double each; the
  // reference's f32 A and B.
  EXPECT_EQ(f->hostBytes, 2000256u + 6000256u + 30000256u + 30000000u +
                              10256u + 3200000u);
  EXPECT_EQ(f->describe(), "C 6000384, D 6000384, B 1200384, ...");
}

TEST(Footprint, MixedInputScalesByGroup) {
  // A mixed-input A's scales and zero points, bf16: M x K / group of them
  // (KB = K / 128, KG = K / 32), + 256 guard bytes, rounded up to 256.
  auto scaleBytes = [](const Manifest &m, const char *name) -> uint64_t {
    auto f = problemFootprint(m, sized(256, 7, 384));
    EXPECT_TRUE(f.ok()) << f.message();
    for (const auto &[n, bytes] : f->buffers)
      if (n == name)
        return bytes;
    return 0;
  };
  Manifest g128 = loadOrDie("mixed_input_w4.json");
  EXPECT_EQ(scaleBytes(g128, "dequant_scale_a"), 256u * 3 * 2 + 256);
  json j = loadJson("mixed_input_w4.json");
  j["operands"]["A"]["dequant"]["group"] = 32;
  j["params"][3]["extent"] = {"M", "KG"};
  j["params"][4]["extent"] = {"M", "KG"};
  Manifest g32 = parseOrDie(j);
  EXPECT_EQ(scaleBytes(g32, "dequant_scale_a"), 256u * 12 * 2 + 256);
  EXPECT_EQ(scaleBytes(g32, "dequant_zero_a"), 256u * 12 * 2 + 256);
}

TEST(Footprint, AReducedDCountsItsSeedToo) {
  // epi.store ... reduce add: D is seeded (its bytes + guard) and decoded
  // (a double each) besides being downloaded: 6000256 + 24000000 more
  // host bytes, the same device bytes.
  json j = loadJson("gemm_bias_relu.json");
  auto plain = problemFootprint(parseOrDie(j), sized(1000, 3000, 200));
  j["operands"]["D"]["reduce"] = "add";
  auto reduced = problemFootprint(parseOrDie(j), sized(1000, 3000, 200));
  ASSERT_TRUE(plain.ok()) << plain.message();
  ASSERT_TRUE(reduced.ok()) << reduced.message();
  EXPECT_EQ(reduced->hostBytes - plain->hostBytes, 6000256u + 24000000u);
  EXPECT_EQ(reduced->deviceBytes, plain->deviceBytes);
}

TEST(Validate, AReducedDMayNotOverlapAMatrixTheKernelReads) {
  // A, B and C are read by TMA while the kernel reduces into D.
  json j = loadJson("gemm_bias_relu.json");
  j["operands"]["D"]["reduce"] = "add";
  Manifest m = parseOrDie(j);
  EXPECT_TRUE(validate(m, validBiasRelu()).ok());
  for (const char *name : {"A", "B", "C"}) {
    GemmArgs a = validBiasRelu();
    TensorArg &t = name[0] == 'A' ? a.A : name[0] == 'B' ? a.B : a.C;
    t.ptr = a.D.ptr;
    Status s = validate(m, a);
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_EQ(s.message().rfind(std::string(name) + ": overlaps D", 0), 0u)
        << s.message();
  }
}

TEST(Footprint, TooLargeForTheDeviceIsRefusedWithBytes) {
  // The case: 200000 x 200000 x 64, an 80 GB D.
  Manifest m = loadOrDie("gemm_bias_relu.json");
  auto f = problemFootprint(m, sized(200000, 200000, 64));
  ASSERT_TRUE(f.ok()) << f.message();
  EXPECT_EQ(f->buffers[0].first, "C");
  EXPECT_EQ(f->buffers[0].second, 80000000256u);
  uint64_t gib80 = uint64_t(80) << 30;
  Status s = checkFootprint(*f, gib80 - 4096, gib80, 0);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "problem needs " + std::to_string(f->deviceBytes) +
                " bytes of device memory (C 80000000256, D 80000000256, "
                "A 25600256, ...), more than the " +
                std::to_string(gib80 - 4096) + " bytes free of " +
                std::to_string(gib80) + ": use a smaller M, N, K or L");
  // Fits the device but not the host.
  Status h = checkFootprint(*f, uint64_t(1) << 40, uint64_t(1) << 40,
                            uint64_t(64) << 30);
  ASSERT_FALSE(h.ok());
  EXPECT_NE(h.message().find("bytes of host memory"), std::string::npos)
      << h.message();
  EXPECT_TRUE(checkFootprint(*f, uint64_t(1) << 40, uint64_t(1) << 40, 0).ok());
}

TEST(Footprint, HugeStridesDoNotOverflow) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  GemmArgs a = sized(2147483647, 2147483647, 2147483647);
  a.D.ld = int64_t(1) << 39;
  auto f = problemFootprint(m, a);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.message().find("overflows 64-bit byte counts"),
            std::string::npos)
      << f.message();
}

// Found by wsgemm-fuzz-manifest (UBSan: signed overflow in checkMatrix):
// a batch stride of 7.3e18 elements, times the element size.
TEST(Validate, HugeStridesAreRefusedWithoutOverflow) {
  nlohmann::json j = loadJson("gemm_bias_relu.json");
  // D with a batch dimension (allowed in an unbatched kernel, L = 1).
  j["params"][3]["dims"] = {"N", "M", "L"};
  j["params"][3]["box"] = {64, 32, 1};
  Manifest m = parseOrDie(j);
  GemmArgs a = validBiasRelu(64, 64, 64);
  ASSERT_TRUE(validate(m, a).ok()) << validate(m, a).message();
  a.D.batchStride = 7287451065717367398;
  EXPECT_EQ(validate(m, a).message(),
            "D: batch stride 7287451065717367398 elements exceeds the TMA "
            "limit of 2^40 bytes");
  a = validBiasRelu(2147483647, 64, 64);
  a.D.ld = int64_t(1) << 39; // rows * ld overflows 64 bits
  a.D.batchStride = int64_t(1) << 38;
  EXPECT_EQ(validate(m, a).message(),
            "D: row stride 1099511627776 bytes exceeds the TMA limit of 2^40");
  a.D.ld = int64_t(1) << 62;
  EXPECT_EQ(validate(m, a).message(),
            "D: leading dimension 4611686018427387904 elements exceeds the "
            "TMA limit of 2^40 bytes per row");
}

/// A minimal ELF64 image: header, one section of `payload` bytes, and the
/// section header table (null section + that one) at the end.
std::vector<char> elf(size_t payload) {
  std::vector<char> b(64 + payload + 2 * 64, 0);
  auto put = [&](size_t at, uint64_t v, unsigned bytes) {
    for (unsigned i = 0; i < bytes; ++i)
      b[at + i] = char((v >> (8 * i)) & 0xFF);
  };
  std::memcpy(b.data(), "\x7f" "ELF", 4);
  b[4] = 2; // 64-bit
  b[5] = 1; // little-endian
  put(18, 190, 2);          // EM_CUDA
  put(40, 64 + payload, 8); // e_shoff
  put(58, 64, 2);           // e_shentsize
  put(60, 2, 2);            // e_shnum
  size_t sh = 64 + payload + 64;
  put(sh + 4, 1, 4);        // SHT_PROGBITS
  put(sh + 24, 64, 8);      // sh_offset
  put(sh + 32, payload, 8); // sh_size
  return b;
}

TEST(Cubin, CompleteImagePasses) {
  std::vector<char> b = elf(100);
  Status s = checkCubinImage(b.data(), b.size());
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(Cubin, EmptyTruncatedAndUnterminatedAreRefused) {
  EXPECT_EQ(checkCubinImage(nullptr, 0).message(), "empty (0 bytes)");
  std::vector<char> b = elf(100);
  Status head = checkCubinImage(b.data(), 40);
  EXPECT_EQ(head.message(),
            "truncated: 40 bytes, shorter than the 64-byte ELF header");
  // Cut inside the section header table.
  Status cut = checkCubinImage(b.data(), b.size() - 10);
  EXPECT_EQ(cut.message(), "truncated: the ELF section headers end at byte " +
                               std::to_string(b.size()) + ", the file has " +
                               std::to_string(b.size() - 10));
  // A section whose contents lie past the end.
  std::vector<char> big = elf(100);
  big[64 + 100 + 64 + 32] = char(250); // sh_size = 250
  Status sec = checkCubinImage(big.data(), big.size());
  EXPECT_EQ(sec.message(), "truncated: ELF section 1 ends at byte 314, the "
                           "file has " +
                               std::to_string(big.size()));
  std::vector<char> text(64, 'A');
  EXPECT_NE(checkCubinImage(text.data(), text.size())
                .message()
                .find("neither an ELF cubin"),
            std::string::npos);
  text.back() = 0; // NUL-terminated PTX text goes to the driver
  EXPECT_TRUE(checkCubinImage(text.data(), text.size()).ok());
}

} // namespace
