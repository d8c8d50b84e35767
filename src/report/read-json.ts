/**
 * Reading the JSON reports back (a dashboard's, a later tool's or a test's way in): each file is checked against the
 * schema of its version. A file of an older version is named with its version and what to do, never read as today's
 * shape (the fields moved: a row's `recordId` became `recordIds`); a newer one is refused the same way.
 */

import { basename } from 'node:path'
import type { z } from 'zod'
import { CodedError } from '../platform/coded-error.ts'
import { jsonSyntaxProblem } from '../platform/json-problem.ts'
import { escapeControls } from '../platform/one-line.ts'
import { ONE_STRING_MAX_BYTES, readRegularFile } from '../platform/regular-file.ts'
import { REPORT_SCHEMA_VERSION } from './analyses/build.ts'
import { BottleneckJsonSchema, Perf02JsonSchema, ReportJsonSchema } from './render/json.ts'

const SCHEMAS = {
  'summary.json': ReportJsonSchema,
  'bottleneck.json': BottleneckJsonSchema,
  'perf02.json': Perf02JsonSchema,
} as const

export type ReportJsonName = keyof typeof SCHEMAS
export type ReportJson<N extends ReportJsonName> = z.infer<(typeof SCHEMAS)[N]>

export type ReportJsonErrorCode = 'REPORT_JSON_OLDER' | 'REPORT_JSON_NEWER' | 'REPORT_JSON_INVALID'

export class ReportJsonError extends CodedError<ReportJsonErrorCode> {
  override name = 'ReportJsonError'
  readonly file: string
  /** The version the file says it has (1 for the bulk files of version 1, which said none); null when unreadable. */
  readonly version: number | null
  constructor(code: ReportJsonErrorCode, file: string, version: number | null, message: string, cause?: unknown) {
    super(code, message, { cause })
    this.file = file
    this.version = version
  }
}

const REBUILD = "rebuild it from the run's records with 'virnucpro-bench report RESULTS_DIR'"

/** The version a report file says it has: version 1's bottleneck.json and perf02.json said none. */
function versionOf(json: unknown): number | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null
  const version = (json as { schemaVersion?: unknown }).schemaVersion
  if (version === undefined) return 1
  return Number.isInteger(version) ? (version as number) : null
}

function refuseVersion(file: string, version: number): never {
  const [code, what] =
    version < REPORT_SCHEMA_VERSION
      ? (['REPORT_JSON_OLDER', REBUILD] as const)
      : (['REPORT_JSON_NEWER', 'read it with the newer virnucpro-bench that wrote it'] as const)
  throw new ReportJsonError(
    code,
    file,
    version,
    `${file} is a report of schema version ${version}; this virnucpro-bench reads version ${REPORT_SCHEMA_VERSION}: ${what}`,
  )
}

/**
 * Parses a report file's text as the file `name` of today's version.
 * @throws ReportJsonError: REPORT_JSON_OLDER or _NEWER naming the version and what to do; _INVALID for anything else
 * (not JSON, or not the shape its version says), naming the first bad field.
 */
export function parseReportJson<N extends ReportJsonName>(name: N, text: string, file: string = name): ReportJson<N> {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ReportJsonError(
      'REPORT_JSON_INVALID',
      file,
      null,
      `${file} is not JSON: ${jsonSyntaxProblem(error, text)}`,
      error,
    )
  }
  const version = versionOf(json)
  if (version === null)
    throw new ReportJsonError(
      'REPORT_JSON_INVALID',
      file,
      null,
      `${file} is not a virnucpro-bench ${name} (no schema version)`,
    )
  if (version !== REPORT_SCHEMA_VERSION) refuseVersion(file, version)
  const parsed = SCHEMAS[name].safeParse(json)
  if (parsed.success) return parsed.data as ReportJson<N>
  const issue = parsed.error.issues[0]
  const where = escapeControls(issue?.path.join('.') || '(root)')
  throw new ReportJsonError(
    'REPORT_JSON_INVALID',
    file,
    version,
    `${file} says schema version ${version} but is not its shape (${where}: ${escapeControls(issue?.message ?? '')}): ${REBUILD}`,
  )
}

/**
 * Reads one of the JSON reports from disk (its name says which) as a regular file, never waited on.
 * @throws ReportJsonError; FileRefusedError naming the file when it is not there, not a regular file or too large.
 */
export async function readReportJson(file: string): Promise<ReportJson<ReportJsonName>> {
  const name = basename(file)
  if (!(name in SCHEMAS)) throw new ReportJsonError('REPORT_JSON_INVALID', file, null, `${file} is not a JSON report`)
  const text = await readRegularFile(file, { maxBytes: ONE_STRING_MAX_BYTES })
  return parseReportJson(name as ReportJsonName, text, file)
}
