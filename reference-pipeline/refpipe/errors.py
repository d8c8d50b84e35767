"""Typed failures, each mapped to one exit code by refpipe.cli (0 ok, 1 failure, 2 partial/usage, 4 device OOM)."""


class RefpipeError(Exception):
    """Base class: a failure the pipeline understands (exit 1 unless a subclass says otherwise)."""

    exit_code = 1


class UsageError(RefpipeError):
    """A bad option value or combination (exit 2, like argparse's own usage errors)."""

    exit_code = 2


class InputError(RefpipeError):
    """The input FASTA cannot be used; the message names the file and line (exit 1)."""


class OutputExistsError(RefpipeError):
    """The output directory exists and neither --force was given nor a terminal to ask on (exit 1)."""


class InjectedCrash(RefpipeError):
    """Raised by the crash-at fault injection (exit 1)."""


class PartialFailure(RefpipeError):
    """Some files failed but outputs were written for the rest (exit 2)."""

    exit_code = 2


class DeviceOutOfMemory(RefpipeError):
    """The device ran out of memory, in this process or in a GPU worker (exit 4)."""

    exit_code = 4


class WorkerFailed(RefpipeError):
    """A GPU worker process ended with a non-zero status other than OOM (exit 1)."""
