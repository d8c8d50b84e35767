/**
 * The level an answer's intervals are at, named with why it is that level, so two answers at different levels say so
 * wherever they print (issue 44: one console showed a 95% and a 99.17% interval for the same configuration with
 * nothing to tell why): a measurement judged once is at 95%; the `decided` design judges each of up to six looks at
 * 1 - 5% / 6 = 99.17% (Bonferroni), so a decided verdict is wrong with a chance of at most 5% whenever it stopped
 * (capacity/analysis-options.ts).
 */

/** `99.17% CI, Bonferroni over 6 looks` (looks > 1) or `95% CI, judged once`; `level` a fraction (0.95). */
export function ciText(level: number, looks: number): string {
  const pct = `${Number((level * 100).toFixed(2))}% CI`
  return looks > 1 ? `${pct}, Bonferroni over ${looks} looks` : `${pct}, judged once`
}
