"""The package's exceptions and compiler diagnostics."""

import collections


class WsGemmError(Exception):
    """Base of every error ws_gemm raises."""


class CompileError(WsGemmError):
    """The compilation failed. `diagnostics` lists every Diagnostic (errors,
    warnings and the notes attached to them) with its location; str() is
    them as a compiler prints them."""

    def __init__(self, text, diagnostics):
        super().__init__(text)
        self.diagnostics = list(diagnostics)

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.severity == "error"]


class ManifestError(WsGemmError):
    """A manifest, cubin, kernel family or tuning table cannot be read or
    breaks the manifest contract (docs/manifest.md)."""


class ArgumentError(WsGemmError, ValueError):
    """A launch argument was refused before anything ran: the message names
    the argument and the rule it breaks."""


class NoDriverError(WsGemmError):
    """No NVIDIA driver (libcuda.so.1) on this machine: a launch needs one."""


class CudaError(WsGemmError):
    """The CUDA driver failed or refused the device; the message names the
    call."""


class Diagnostic(collections.namedtuple(
        "Diagnostic", "severity file line column message")):
    """One compiler diagnostic: severity ("error", "warning", "note",
    "remark"), its location (file, 1-based line and column, 0 when unknown)
    and the message."""

    __slots__ = ()

    def __str__(self):
        where = self.file or "<unknown>"
        if self.line:
            where += ":%d:%d" % (self.line, self.column)
        return "%s: %s: %s" % (where, self.severity, self.message)
