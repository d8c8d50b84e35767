/**
 * The exit codes of every `virnucpro-bench` command, documented in the README ("Exit codes") and `--help`:
 * - 0: done, nothing to report against;
 * - 1: a verdict: a regression, a failed check, a gate that fails (the command worked and its answer is "no");
 * - 2: usage: a bad option, a missing argument, a setting that cannot be right (the fix is on the command line or in
 *   the environment);
 * - 3: unusable data: an input, a results directory, a database or a file the command must read or write that does
 *   not hold what it needs, or cannot be written (the fix is on disk).
 * A command never ends with a stack trace: anything else is an internal error, printed on one line with exit 70
 * (EX_SOFTWARE of sysexits.h), and `VIRNUCPRO_BENCH_DEBUG=1` prints its stack.
 */
export const EXIT_OK = 0
export const EXIT_VERDICT = 1
export const EXIT_USAGE = 2
export const EXIT_UNUSABLE_DATA = 3
export const EXIT_INTERNAL = 70

/** Data a command must read or write is unusable: the CLI prints its message on one line and exits 3. */
export class UnusableDataError extends Error {
  override name = 'UnusableDataError'
}
