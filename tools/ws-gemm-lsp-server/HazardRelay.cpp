//===- HazardRelay.cpp - Keeps MLIR 22's parser crash out of the server ---===//
//
// Two pipes and a child process (HazardRelay.h says why):
//
//   editor --stdin--> relay (this thread) --pipe--> server (child) stdin
//   editor <-stdout-- relay (output thread) <-pipe-- server (child) stdout
//
// Input: didOpen / didChange / didClose keep each document's text here
// (llvm::lsp applies the incremental changes as the server does). While a
// document holds a hazard, or the server's copy differs from it, the change
// goes to the server as the whole text, hazards neutralized
// (neutralizeParserHazards: same length); otherwise messages pass as they
// came. Output: the server's publishDiagnostics for such a document get
// ParseGuard's message on the diagnostic at the first hazard's keyword
// (the parse error the neutralized text gives there), or a new one if the
// server reported none there; every other message passes as it came.
//
//===----------------------------------------------------------------------===//

#include "HazardRelay.h"

#include "ws-gemm/Driver/ParseGuard.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"

#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::wsgemm;

/// The LSP specification's framing: a Content-Length header, then the
/// message.
static std::string contentLengthFrame(StringRef json) {
  return llvm::formatv("Content-Length: {0}\r\n\r\n{1}", json.size(), json)
      .str();
}

namespace {
/// A hazard as the server's diagnostics locate it: 0-based line and byte
/// column of its keyword.
struct Hazard {
  int64_t line, column, keywordLength;
  std::string message;
};

struct Document {
  std::string text;
  /// The server holds a neutralized copy, not `text`.
  bool diverged = false;
  /// The hazards of the latest versions: the server's diagnostics for a
  /// version may come after the editor's next change.
  std::map<int64_t, std::vector<Hazard>> hazards;
};

class Relay {
public:
  Relay(bool delimitedInput, bool pretty)
      : delimitedInput(delimitedInput), pretty(pretty) {}

  /// Rewrites one message from the editor in place; true if it changed.
  bool rewriteInput(llvm::json::Object &msg);
  /// Rewrites one message from the server in place; true if it changed.
  bool rewriteOutput(llvm::json::Object &msg);

  std::string frameInput(StringRef json) const {
    return delimitedInput ? (json + "\n// -----\n").str()
                          : contentLengthFrame(json);
  }
  std::string serialize(llvm::json::Value msg) const {
    return pretty ? llvm::formatv("{0:2}", msg).str()
                  : llvm::formatv("{0}", msg).str();
  }

private:
  /// Finds the document's hazards; the text the server should hold if it
  /// is not `doc.text`.
  std::optional<std::string> update(Document &doc, int64_t version);

  bool delimitedInput, pretty;
  std::mutex mutex;
  llvm::StringMap<Document> docs;
};
} // namespace

std::optional<std::string> Relay::update(Document &doc, int64_t version) {
  std::vector<ParserHazard> found = findParserHazards(doc.text);
  while (doc.hazards.size() >= 16)
    doc.hazards.erase(doc.hazards.begin());
  std::vector<Hazard> &hazards = doc.hazards[version];
  hazards.clear();
  for (const ParserHazard &h : found) {
    StringRef before = StringRef(doc.text).take_front(h.keywordOffset);
    size_t lineStart = before.rfind('\n');
    lineStart = lineStart == StringRef::npos ? 0 : lineStart + 1;
    StringRef keyword =
        StringRef(doc.text).drop_front(h.keywordOffset).take_while([](char c) {
          return llvm::isAlnum(c) || c == '_';
        });
    hazards.push_back({static_cast<int64_t>(before.count('\n')),
                       static_cast<int64_t>(h.keywordOffset - lineStart),
                       static_cast<int64_t>(keyword.size()), h.message});
  }
  doc.diverged = !found.empty();
  if (found.empty())
    return std::nullopt;
  return neutralizeParserHazards(doc.text, found);
}

bool Relay::rewriteInput(llvm::json::Object &msg) {
  std::optional<StringRef> method = msg.getString("method");
  llvm::json::Object *params = msg.getObject("params");
  if (!method || !params)
    return false;
  if (*method == "textDocument/didOpen") {
    llvm::json::Object *item = params->getObject("textDocument");
    std::optional<StringRef> uri = item ? item->getString("uri") : std::nullopt;
    std::optional<StringRef> text =
        item ? item->getString("text") : std::nullopt;
    if (!uri || !text)
      return false;
    std::lock_guard<std::mutex> lock(mutex);
    Document &doc = docs[*uri];
    doc = Document{text->str(), false, {}};
    std::optional<std::string> shown =
        update(doc, item->getInteger("version").value_or(0));
    if (!shown)
      return false;
    (*item)["text"] = std::move(*shown);
    return true;
  }
  if (*method == "textDocument/didChange") {
    // The URI as the editor wrote it (the relay registers no URI schemes,
    // so llvm::lsp's URI parsing is not used), the changes as the server
    // reads them.
    llvm::json::Object *item = params->getObject("textDocument");
    std::optional<StringRef> uri = item ? item->getString("uri") : std::nullopt;
    llvm::json::Array *changes = params->getArray("contentChanges");
    if (!uri || !changes)
      return false;
    std::vector<llvm::lsp::TextDocumentContentChangeEvent> events;
    for (const llvm::json::Value &c : *changes) {
      llvm::json::Path::Root root;
      if (!llvm::lsp::fromJSON(c, events.emplace_back(), root))
        return false;
    }
    std::lock_guard<std::mutex> lock(mutex);
    auto it = docs.find(*uri);
    if (it == docs.end())
      return false;
    Document &doc = it->second;
    bool diverged = doc.diverged;
    if (failed(llvm::lsp::TextDocumentContentChangeEvent::applyTo(events,
                                                                  doc.text))) {
      // The server rejects the change too; this copy is lost.
      docs.erase(it);
      return false;
    }
    std::optional<std::string> shown =
        update(doc, item->getInteger("version").value_or(0));
    if (!shown && !diverged)
      return false;
    // The whole text (a change without a range replaces the document).
    llvm::json::Object whole{{"text", shown ? std::move(*shown) : doc.text}};
    (*params)["contentChanges"] = llvm::json::Array{std::move(whole)};
    return true;
  }
  if (*method == "textDocument/didClose") {
    llvm::json::Object *item = params->getObject("textDocument");
    if (std::optional<StringRef> uri =
            item ? item->getString("uri") : std::nullopt) {
      std::lock_guard<std::mutex> lock(mutex);
      docs.erase(*uri);
    }
  }
  return false;
}

bool Relay::rewriteOutput(llvm::json::Object &msg) {
  std::optional<StringRef> method = msg.getString("method");
  llvm::json::Object *params = msg.getObject("params");
  if (!method || *method != "textDocument/publishDiagnostics" || !params)
    return false;
  std::optional<StringRef> uri = params->getString("uri");
  llvm::json::Array *diagnostics = params->getArray("diagnostics");
  if (!uri || !diagnostics)
    return false;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = docs.find(*uri);
  if (it == docs.end() || it->second.hazards.empty())
    return false;
  std::optional<int64_t> version = params->getInteger("version");
  auto hazards = version ? it->second.hazards.find(*version)
                         : std::prev(it->second.hazards.end());
  if (hazards == it->second.hazards.end() || hazards->second.empty())
    return false;
  // The parse stops at the first hazard: the others are never reported.
  const Hazard &h = hazards->second.front();
  for (llvm::json::Value &value : *diagnostics) {
    llvm::json::Object *diag = value.getAsObject();
    llvm::json::Object *range = diag ? diag->getObject("range") : nullptr;
    llvm::json::Object *start = range ? range->getObject("start") : nullptr;
    if (start && start->getInteger("line") == h.line &&
        start->getInteger("character") == h.column) {
      (*diag)["message"] = h.message;
      return true;
    }
  }
  auto position = [&](int64_t column) {
    return llvm::json::Object{{"line", h.line}, {"character", column}};
  };
  diagnostics->push_back(llvm::json::Object{
      {"range",
       llvm::json::Object{{"start", position(h.column)},
                          {"end", position(h.column + h.keywordLength)}}},
      {"severity", 1},
      {"source", "ws-gemm"},
      {"message", h.message}});
  return true;
}

/// Writes all of `data` to `fd`; false once the reader is gone.
static bool writeAll(int fd, StringRef data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data = data.drop_front(n);
  }
  return true;
}

/// Reads messages from `in` until it ends; one that `rewrite` changes is
/// serialized again by `serialize`, any other passes as it came; each goes
/// to `fd` framed by `frame`. Stops early once `fd`'s reader is gone.
static void pump(llvm::lsp::JSONTransportInput &in, int fd,
                 llvm::function_ref<bool(llvm::json::Object &)> rewrite,
                 llvm::function_ref<std::string(llvm::json::Value)> serialize,
                 llvm::function_ref<std::string(StringRef)> frame) {
  std::string json;
  while (!in.isEndOfInput() && !in.hasError()) {
    if (failed(in.readMessage(json)))
      continue;
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(json);
    if (!value)
      llvm::consumeError(value.takeError()); // The receiver answers it.
    else if (llvm::json::Object *msg = value->getAsObject();
             msg && rewrite(*msg))
      json = serialize(std::move(*value));
    if (!writeAll(fd, frame(json)))
      return;
  }
}

int mlir::wsgemm::runBehindHazardRelay(llvm::ArrayRef<llvm::StringRef> args,
                                       const std::function<int()> &server) {
  bool delimited = false, pretty = false;
  for (StringRef arg : args) {
    StringRef flag = arg.ltrim('-');
    if (flag == "lit-test")
      delimited = pretty = true;
    else if (flag == "input-style=delimited")
      delimited = true;
    else if (flag == "pretty")
      pretty = true;
  }
  int toServer[2], fromServer[2];
  if (::pipe(toServer) != 0 || ::pipe(fromServer) != 0) {
    std::perror("ws-gemm-lsp-server: pipe");
    return server(); // No relay: the server as MLIR ships it.
  }
  std::fflush(stdout);
  pid_t pid = ::fork();
  if (pid < 0) {
    std::perror("ws-gemm-lsp-server: fork");
    return server();
  }
  if (pid == 0) {
    ::dup2(toServer[0], STDIN_FILENO);
    ::dup2(fromServer[1], STDOUT_FILENO);
    for (int fd : {toServer[0], toServer[1], fromServer[0], fromServer[1]})
      ::close(fd);
    return server();
  }
  ::close(toServer[0]);
  ::close(fromServer[1]);
  std::signal(SIGPIPE, SIG_IGN);
  Relay relay(delimited, pretty);

  // The server's messages, always with a Content-Length header. When the
  // server ends (it exited, or crashed anyway), so does the relay, with its
  // status.
  std::thread output([&] {
    llvm::lsp::JSONTransportInputOverFile in(::fdopen(fromServer[0], "r"),
                                             llvm::lsp::Standard);
    pump(
        in, STDOUT_FILENO,
        [&](llvm::json::Object &msg) { return relay.rewriteOutput(msg); },
        [&](llvm::json::Value msg) { return relay.serialize(std::move(msg)); },
        contentLengthFrame);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
      std::fprintf(stderr, "ws-gemm-lsp-server: the server died of signal %d\n",
                   WTERMSIG(status));
      std::_Exit(1);
    }
    std::_Exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
  });

  llvm::lsp::JSONTransportInputOverFile in(
      stdin, delimited ? llvm::lsp::Delimited : llvm::lsp::Standard);
  pump(
      in, toServer[1],
      [&](llvm::json::Object &msg) { return relay.rewriteInput(msg); },
      [](llvm::json::Value msg) { return llvm::formatv("{0}", msg).str(); },
      [&](StringRef json) { return relay.frameInput(json); });
  ::close(toServer[1]);
  output.join(); // Never returns: the output thread ends the process.
  return 1;
}
