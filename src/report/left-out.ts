/** A report file that was not written in full, and why: what the terminal names after the reports (render/terminal.ts). */
export interface LeftOut {
  file: string
  reason: string
}
