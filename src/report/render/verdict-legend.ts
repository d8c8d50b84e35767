/**
 * The legend of the verdict column: what each state means, read from the one definition (VERDICT_MEANINGS, and the
 * suite line's own states), so a report never explains a verdict differently from the code that gives it.
 */
import { VERDICT_MEANINGS, VERDICTS } from '../../results/schema/index.ts'
import { SUITE_LINE_MEANINGS } from '../analyses/suites.ts'
import { escapeHtml, escapeMarkdown } from './escape.ts'

/** [STATE, meaning] in the order the states are defined; suite-line states last. */
export function verdictLegend(): [string, string][] {
  const states: [string, string][] = VERDICTS.map((v) => [v, VERDICT_MEANINGS[v]])
  for (const [state, meaning] of Object.entries(SUITE_LINE_MEANINGS)) states.push([state, meaning])
  return states.map(([state, meaning]) => [state.toUpperCase(), meaning])
}

export function verdictLegendMarkdown(): string {
  return `Verdicts:\n\n${verdictLegend()
    .map(([state, meaning]) => `- **${state}**: ${escapeMarkdown(meaning)}`)
    .join('\n')}\n`
}

export function verdictLegendHtml(): string {
  const items = verdictLegend().map(
    ([state, meaning]) =>
      `<dt class="${escapeHtml(state.toLowerCase())}">${escapeHtml(state)}</dt><dd>${escapeHtml(meaning)}</dd>`,
  )
  return `<dl class="legend">${items.join('')}</dl>`
}
