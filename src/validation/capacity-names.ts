/**
 * The capacity known answers' record names (benchmarks/validation/capacity): each check of the size model writes
 * capacity records whose figures are its evidence, and a reader must never take one for a configuration's capacity
 * answer (issue 44: `capacity, 1 GPU at 1,000 / 4,000 seqs` was printed FINAL from the direct check's record and
 * PROVISIONAL from its measurement's journal, beside the real answer). So each is named `known answer: ...`, and the
 * measurement's journal names a record the check writes (a journal naming none reads back as a partial answer).
 */
import { knownAnswerName, type RecordName } from '../capacity/index.ts'

const gpus = (n: number) => `${n} GPU${n === 1 ? '' : 's'}`

/** The fit on `gpuCount` GPUs checked by a size run directly: one record, its measurement's journal under its name. */
export const directCheckName = (gpuCount: number, directRecords: number): RecordName =>
  knownAnswerName(`direct check at ${directRecords.toLocaleString('en-US')} records, ${gpus(gpuCount)}`)

/** A planted fault measured on its own (the prework check): one record, its measurement's journal under its name. */
export const plantedAloneName = (fault: string): RecordName => knownAnswerName(fault)

/**
 * A planted fault measured beside clean runs in one interleaved measurement, each arm fitted and written on its own:
 * the measurement's journal takes the planted record's id (so it names a record that exists), and its own title
 * says it holds both arms (what a partial record of it, cut mid-way, reads).
 */
export function besideNames(fault: string): { measurement: RecordName; clean: RecordName; planted: RecordName } {
  const planted = knownAnswerName(`${fault}, planted arm`)
  return {
    measurement: { id: planted.id, title: knownAnswerName(`${fault}, clean and planted arms`).title },
    clean: knownAnswerName(`${fault}, clean arm`),
    planted,
  }
}
