/**
 * Raised when a measure function is handed input it cannot give an honest answer for (an empty sample, a value that is
 * not a finite number, a level outside (0, 1)). The message names the input and the offending value; `input` says which
 * argument it was so that callers can map it back to a metric or run.
 */
export class MeasureInputError extends Error {
  override readonly name = 'MeasureInputError'
  readonly input: string

  constructor(input: string, message: string, options?: { cause?: unknown }) {
    super(`${input}: ${message}`, options)
    this.input = input
  }
}
