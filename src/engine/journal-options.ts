/**
 * The run journal's options for a suite's measurement (measurement-journal.ts): the runs' key as this invocation
 * shares it, the invocation, and the record the runs are for with what a reader needs to show them as it after a
 * kill (provenance and thresholds, as the record itself would carry them).
 */
import { collectProvenance } from '../results/provenance.ts'
import type { RunKey } from '../results/run-key.ts'
import type { ResultKind } from '../results/schema/index.ts'
import type { SuiteContext } from './context.ts'
import type { JournalOptions } from './measurement-journal.ts'
import { recordId } from './record.ts'
import { environmentKey } from './run-keys.ts'

const environments = new WeakMap<SuiteContext, Promise<RunKey>>()

function provenanceOf(ctx: SuiteContext, inputFiles: readonly string[]) {
  return collectProvenance({
    runId: ctx.runId,
    profile: ctx.profile.name,
    targetDir: ctx.targetDir,
    input: ctx.inputs?.provenanceOf(inputFiles) ?? null,
  })
}

/** The part of every run key this context's invocation shares, computed once per context. */
export function contextEnvironment(ctx: SuiteContext): Promise<RunKey> {
  let known = environments.get(ctx)
  if (!known) {
    const user = ctx.inputs?.user ?? null
    known = collectProvenance({
      runId: ctx.runId,
      profile: ctx.profile.name,
      targetDir: ctx.targetDir,
      input: user ? { source: user, used: [] } : null,
    }).then((p) => environmentKey(p))
    environments.set(ctx, known)
  }
  return known
}

/**
 * Journal options for the measurement of a record of `kind` (its id as the suite passes it to writeSuiteRecord); null:
 * runs kept and keyed, but no record a reader could show them as after a kill (a bench's own timing runs).
 */
export function journalFor(
  ctx: SuiteContext,
  purpose: { kind: ResultKind; id: string; name: string } | null,
): JournalOptions {
  return {
    environment: contextEnvironment(ctx),
    invocation: ctx.writer.token,
    lockDir: ctx.workDir,
    runId: ctx.runId,
    purpose: purpose && { ...purpose, id: recordId(ctx, purpose.id) },
    describe: async (inputFiles) => ({ provenance: await provenanceOf(ctx, inputFiles), thresholds: ctx.thresholds }),
  }
}
