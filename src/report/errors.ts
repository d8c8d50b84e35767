/**
 * Why a report was not written, as one typed error with a string code: the CLI prints the message on one line (it
 * names the input, what is wrong and what to give instead) and exits 3; nothing of the user's was touched.
 */
import { CodedError } from '../platform/coded-error.ts'
export type ReportErrorCode =
  /** A RESULTS_DIR (or --baseline) holds no valid result record: a report of it would be green on nothing. */
  | 'REPORT_NO_RECORDS'
  /** The output directory cannot take the reports (a file, not writable, other files of our names). */
  | 'REPORT_OUT_DIR'
  /** --fail-on-regression asked for a verdict the baseline cannot give (no run group in common). */
  | 'REPORT_NOTHING_COMPARED'
  /** A report file could not be written after the checks passed (disk full, removed under us). */
  | 'REPORT_WRITE'
  /** The reports were written, but the step summary could not be appended to $GITHUB_STEP_SUMMARY. */
  | 'REPORT_STEP_SUMMARY'

export class ReportError extends CodedError<ReportErrorCode> {
  override name = 'ReportError'
}
