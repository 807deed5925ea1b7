//===- ParseGuard.cpp - Refuse input that crashes MLIR 22's parser --------===//
//
// A forward scan over the text with MLIR's token boundaries: whitespace
// (NUL included, as the lexer skips it), `//` comments, string literals,
// sigiled names (%x, ^bb, #alias, !alias, @sym) and numbers are passed
// over; each bare `dimensions` or `permutation` that is not an attribute
// dictionary's key and is followed by `=` must be followed by a list that
// DenseI64ArrayAttr::parse accepts: `[`, integers (decimal or 0x hex, an
// optional `-`, each within 64 bits) separated by `,`, then `]`.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Driver/ParseGuard.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::wsgemm;

namespace {
/// The scan: `at` moves forward through `text`.
class Scanner {
public:
  explicit Scanner(StringRef text) : text(text) {}

  std::optional<ParserHazard> run();

private:
  char peek(size_t ahead = 0) const {
    return at + ahead < text.size() ? text[at + ahead] : '\0';
  }
  bool atEnd() const { return at >= text.size(); }
  static bool isIdChar(char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
  }
  /// Skips whitespace, NUL bytes and `//` comments.
  void skipTrivia();
  void skipString();
  void skipWhile(bool (*pred)(char)) {
    while (!atEnd() && pred(text[at]))
      ++at;
  }
  /// Checks the list after a bare `keyword` at `at` (just past the word).
  std::optional<ParserHazard> checkList(StringRef keyword);
  ParserHazard hazard(StringRef keyword, const Twine &what) const {
    return {at, keywordAt,
            (what + " in linalg's '" + keyword +
             " = [...]' list (refused before parsing: MLIR 22's "
             "parser crashes on this list, llvm/llvm-project#132747)")
                .str()};
  }

  StringRef text;
  size_t at = 0;
  size_t keywordAt = 0;
};
} // namespace

void Scanner::skipTrivia() {
  while (!atEnd()) {
    char c = text[at];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0') {
      ++at;
    } else if (c == '/' && peek(1) == '/') {
      while (!atEnd() && text[at] != '\n' && text[at] != '\r')
        ++at;
    } else {
      return;
    }
  }
}

void Scanner::skipString() {
  ++at; // the opening quote
  while (!atEnd()) {
    char c = text[at++];
    if (c == '"' || c == '\n' || c == '\r')
      return;
    if (c == '\\' && !atEnd())
      ++at;
  }
}

std::optional<ParserHazard> Scanner::checkList(StringRef keyword) {
  keywordAt = at - keyword.size();
  skipTrivia();
  if (peek() != '=')
    return std::nullopt; // The parser fails cleanly on the missing `=`.
  ++at;
  skipTrivia();
  if (peek() != '[')
    return hazard(keyword, "expected '['");
  ++at;
  skipTrivia();
  if (peek() == ']') {
    ++at;
    return std::nullopt;
  }
  while (true) {
    bool negative = peek() == '-';
    if (negative) {
      ++at;
      skipTrivia();
    }
    if (!llvm::isDigit(peek()))
      return hazard(keyword, "expected an integer");
    size_t begin = at;
    unsigned radix = 10;
    if (peek() == '0' && peek(1) == 'x' && llvm::isHexDigit(peek(2))) {
      radix = 16;
      at += 2;
      begin = at;
      skipWhile([](char c) { return llvm::isHexDigit(c); });
    } else {
      skipWhile([](char c) { return llvm::isDigit(c); });
    }
    // The parser reads the magnitude, negates it, and wants an int64_t
    // back: up to 2^63 - 1, or 2^63 when negative.
    llvm::APInt magnitude;
    unsigned bits = text.slice(begin, at).getAsInteger(radix, magnitude)
                        ? 65
                        : magnitude.getActiveBits();
    if (bits > 64 || (bits == 64 && !(negative && magnitude.isPowerOf2()))) {
      at = begin;
      return hazard(keyword, "integer out of the 64-bit range");
    }
    skipTrivia();
    if (peek() == ']') {
      ++at;
      return std::nullopt;
    }
    if (peek() != ',')
      return hazard(keyword, "expected ',' or ']'");
    ++at;
    skipTrivia();
  }
}

std::optional<ParserHazard> Scanner::run() {
  // What came last before the current token. The custom-form keyword
  // follows the op name, `)`, `}` or `>`; a key of an attribute dictionary
  // or a dialect attribute's parameters follows `{`, `,` or `<`, and no
  // keyword of these ops follows `(`, `[`, `=` or `:`.
  char last = '\0';
  while (true) {
    skipTrivia();
    if (atEnd())
      return std::nullopt;
    char c = text[at];
    if (c == '"') {
      skipString();
      last = '"';
    } else if (c == '%' || c == '^' || c == '#' || c == '!' || c == '@' ||
               llvm::isDigit(c)) {
      ++at;
      skipWhile([](char c) { return isIdChar(c) || c == '-'; });
      last = text[at - 1];
    } else if (llvm::isAlpha(c) || c == '_') {
      size_t begin = at;
      skipWhile(isIdChar);
      StringRef word = text.slice(begin, at);
      bool isKey = last == '{' || last == ',' || last == '<' || last == '(' ||
                   last == '[' || last == '=' || last == ':';
      if (!isKey && (word == "dimensions" || word == "permutation"))
        if (std::optional<ParserHazard> found = checkList(word))
          return found;
      last = text[at - 1];
    } else {
      ++at;
      last = c;
    }
  }
}

static bool isBytecode(StringRef text) { return text.starts_with("ML\xefR"); }

std::optional<ParserHazard> mlir::wsgemm::findParserHazard(StringRef text) {
  if (isBytecode(text))
    return std::nullopt;
  return Scanner(text).run();
}

std::vector<ParserHazard> mlir::wsgemm::findParserHazards(StringRef text) {
  std::vector<ParserHazard> found;
  if (isBytecode(text))
    return found;
  // The scan goes on from where each hazard was found (inside its list).
  Scanner scanner(text);
  while (std::optional<ParserHazard> next = scanner.run())
    found.push_back(std::move(*next));
  return found;
}

std::string
mlir::wsgemm::neutralizeParserHazards(StringRef text,
                                      ArrayRef<ParserHazard> hazards) {
  std::string out = text.str();
  for (const ParserHazard &h : hazards)
    if (h.keywordOffset < out.size())
      out[h.keywordOffset] = llvm::toUpper(out[h.keywordOffset]);
  return out;
}

LogicalResult
mlir::wsgemm::refuseParserHazards(const llvm::SourceMgr &sourceMgr,
                                  unsigned bufferId, MLIRContext &context) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  std::optional<ParserHazard> found = findParserHazard(buffer->getBuffer());
  if (!found)
    return success();
  auto [line, column] = sourceMgr.getLineAndColumn(
      llvm::SMLoc::getFromPointer(buffer->getBufferStart() + found->offset),
      bufferId);
  emitError(FileLineColLoc::get(&context, buffer->getBufferIdentifier(), line,
                                column))
      << found->message;
  return failure();
}
