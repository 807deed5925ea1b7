//===- KernelName.cpp - What may name a kernel ----------------------------===//
//
// The rule of KernelName.h. Its messages name the rule and the first byte
// that breaks it, with the name quoted so that a name of spaces, control
// bytes or 4 KB stays one readable line.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Dialect/WsGemm/KernelName.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::wsgemm;

static bool isFollowChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$';
}

bool wsgemm::isPtxIdentifier(StringRef name) {
  if (name.empty())
    return false;
  if (!llvm::isAlpha(name[0]) &&
      !(name.size() > 1 && (name[0] == '_' || name[0] == '$')))
    return false;
  return llvm::all_of(name.drop_front(), isFollowChar);
}

std::string wsgemm::quoteName(StringRef name) {
  constexpr size_t kShown = 48;
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '"';
  llvm::printEscapedString(name.take_front(kShown), os);
  os << '"';
  if (name.size() > kShown)
    os << "... (" << name.size() << " bytes)";
  return out;
}

/// The first byte of `name` that breaks the character rule, described.
static std::string firstBadByte(StringRef name) {
  size_t i = 0;
  if (llvm::isAlpha(name[0]) || name[0] == '_' || name[0] == '$')
    i = 1 + (llvm::find_if_not(name.drop_front(), isFollowChar) -
             name.drop_front().begin());
  std::string out;
  llvm::raw_string_ostream os(out);
  if (i == 0)
    os << "it starts with ";
  else
    os << "byte " << i << " is ";
  unsigned char c = name[i];
  if (llvm::isPrint(c) && c != '\'')
    os << "'" << c << "'";
  else
    os << "0x" << llvm::hexdigit(c >> 4) << llvm::hexdigit(c & 15);
  return out;
}

std::optional<std::string> wsgemm::checkKernelName(StringRef name) {
  constexpr StringLiteral rule =
      "must be a PTX identifier of at most 240 characters (a letter, then "
      "letters, digits, '_' or '$'; or '_' or '$' and at least one of "
      "those) because it names the kernel in PTX and its output files "
      "(<name>.json, .ptx, .cubin)";
  static_assert(kMaxKernelNameLength == 240, "the rule's text says 240");
  std::string out;
  llvm::raw_string_ostream os(out);
  if (name.empty()) {
    os << rule << ", got an empty name";
    return out;
  }
  if (name.size() > kMaxKernelNameLength) {
    os << rule << ", got " << quoteName(name) << ": "
       << name.size() - kMaxKernelNameLength << " over";
    return out;
  }
  if (!isPtxIdentifier(name)) {
    os << rule << ", got " << quoteName(name) << ": ";
    if (name.size() == 1 && (name[0] == '_' || name[0] == '$'))
      os << "'" << name << "' alone is no identifier";
    else
      os << firstBadByte(name);
    return out;
  }
  if (name == "WARP_SZ" || name == "wsgemm_smem" || name.starts_with("__nv_")) {
    os << "must not be 'WARP_SZ' (PTX's predefined identifier), "
          "'wsgemm_smem' (the kernel's shared memory) or start with '__nv_' "
          "(libdevice's functions) because the kernel's PTX module already "
          "defines those, got "
       << quoteName(name);
    return out;
  }
  return std::nullopt;
}

std::string wsgemm::legalKernelName(StringRef text, size_t maxLength) {
  maxLength = std::max<size_t>(maxLength, 8);
  std::string name;
  for (char c : text)
    name += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (name.empty() || !llvm::isAlpha(name[0]) || name == "WARP_SZ" ||
      name == "wsgemm_smem")
    name = "k_" + name;
  name.resize(std::min(name.size(), maxLength));
  return name;
}
