/**
 * Which of a target's options belong to which pipeline stage: an option belongs to a stage when its flags or help
 * name the stage's distinctive words (`--dnabert-batch-size`, "Token batch size for ESM-2 processing", "chunk
 * length"), case- and hyphen-insensitively; an option naming no stage (`--gpus`, `-w` DataLoader workers) belongs to
 * the whole pipeline. One option may name several stages ("threads for translation and merge"): it is listed under
 * each. Read from the target's own `--help` (help-options.ts), so a target's new option lands where it says it acts.
 */
import type { HelpOption } from './help-options.ts'
import { PIPELINE_STAGES, type PipelineStage } from './stages.ts'

/** The group of options that name no stage. */
export const WHOLE_PIPELINE = 'whole pipeline'

/**
 * Each stage's distinctive words, matched at the start of a word of an option's flags or help: a word ending in `*`
 * as a prefix (`translat*`: translation, translated), any other as the whole word (`prediction` and not
 * `{input}_predictions`, an output directory). Generic words (feature, file, model, sequence) name no stage.
 */
export const STAGE_WORDS: Readonly<Record<PipelineStage, readonly string[]>> = {
  'Sequence Chunking': ['chunk*'],
  'Six-Frame Translation': ['translat*', 'six frame', 'orf', 'orfs'],
  'Nucleotide File Splitting': ['split*'],
  'Protein File Splitting': ['split*'],
  'DNABERT-S Feature Extraction': ['dnabert*'],
  'ESM-2 Feature Extraction': ['esm*'],
  'Feature Merging': ['merg*'],
  'Model Prediction': ['classif*', 'mlp', 'prediction'],
  'Consensus Scoring': ['consensus'],
}

// Words of a stage's name that say what kind of step it is, not which one: a stage outside STAGE_WORDS is named by the rest.
const GENERIC = new Set(['feature', 'features', 'extraction', 'file', 'files', 'sequence', 'model', 'stage'])

/** A stage's words: STAGE_WORDS for VirNucPro's nine, else its name's own words less the generic ones. */
export function wordsOfStage(stage: string): readonly string[] {
  const known = STAGE_WORDS[stage as PipelineStage]
  if (known) return known
  return stage
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && !GENERIC.has(w))
}

/** Lower case, every run of other characters one space, a space at each end: ` esm batch size `. */
const spaced = (text: string) =>
  ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `
/** The same with hyphens and underscores dropped first, so `six-frame` also reads `sixframe`. */
const joined = (text: string) => spaced(text.replace(/[-_]/g, ''))

/** Whether `text` holds `word` (STAGE_WORDS' form) at a word's start, with its words apart or hyphens dropped. */
function holdsWord(text: { spaced: string; joined: string }, word: string): boolean {
  const prefix = word.endsWith('*')
  const bare = prefix ? word.slice(0, -1) : word
  // The word's hyphen-free form drops its spaces too: `six frame` also reads `sixframe`.
  const [a, b] = [spaced(bare).trimEnd(), spaced(bare.replace(/[\s_-]+/g, '')).trimEnd()]
  if (a.trim() === '') return false
  const end = prefix ? '' : ' '
  return text.spaced.includes(`${a}${end}`) || text.joined.includes(`${b}${end}`)
}

/** The stages (of `stages`) an option names in its flags or help, in pipeline order; [] for none. */
export function stagesOfOption(
  option: Pick<HelpOption, 'flags' | 'help'>,
  stages: readonly string[] = PIPELINE_STAGES,
): string[] {
  const raw = `${option.flags.join(' ')} ${option.help}`
  const text = { spaced: spaced(raw), joined: joined(raw) }
  return stages.filter((stage) => wordsOfStage(stage).some((word) => holdsWord(text, word)))
}

export interface StageOptionGroup {
  /** A stage's name, or WHOLE_PIPELINE. */
  stage: string
  options: HelpOption[]
}

/** Help itself (`-h, --help`) is no setting to tune. */
const isHelp = (o: HelpOption) => o.flags.includes('--help')

/**
 * The options grouped by the stage they name: the stages in pipeline order, each with at least one option, then the
 * whole-pipeline group (when any option names no stage). `--help` is left out.
 */
export function groupOptionsByStage(
  options: readonly HelpOption[],
  stages: readonly string[] = PIPELINE_STAGES,
): StageOptionGroup[] {
  const byStage = new Map<string, HelpOption[]>(stages.map((s) => [s, []]))
  const whole: HelpOption[] = []
  for (const option of options) {
    if (isHelp(option)) continue
    const named = stagesOfOption(option, stages)
    if (named.length === 0) whole.push(option)
    for (const stage of named) byStage.get(stage)?.push(option)
  }
  const groups = [...byStage].filter(([, list]) => list.length > 0).map(([stage, list]) => ({ stage, options: list }))
  return whole.length > 0 ? [...groups, { stage: WHOLE_PIPELINE, options: whole }] : groups
}

/** An option as a settings study records it: its spellings as printed (`-w, --num-workers`) and its help. */
export interface StageOptionEntry {
  flag: string
  help: string
}

/** The groups in the shape a study record keeps (study/stats.ts `stageOptions`). */
export function stageOptionEntries(
  groups: readonly StageOptionGroup[],
): { stage: string; options: StageOptionEntry[] }[] {
  return groups.map((g) => ({
    stage: g.stage,
    options: g.options.map((o) => ({ flag: o.flags.join(', '), help: o.help })),
  }))
}

/** The spellings of a recorded option (`-w, --num-workers` -> `-w`, `--num-workers`; a switch pair's both). */
export const flagsOfEntry = (flag: string): string[] => flag.split(/[\s,/]+/).filter((f) => f.startsWith('-'))
