/**
 * The one base of the suite's coded errors (execa's one ExecaError, every module's codes a union of strings on it): an
 * Error with a `code` a caller can switch on, the `cause` kept, a message that says what and where. A module's class
 * extends it with its own union (`HistoryErrorCode`) and the fields it adds (the file, the call); codes read from the
 * system (an errno, NVML's return) are strings, and `null` where there was none.
 */
export class CodedError<Code extends string | null> extends Error {
  readonly code: Code

  constructor(code: Code, message: string, options?: ErrorOptions) {
    super(message, options)
    this.code = code
  }
}
