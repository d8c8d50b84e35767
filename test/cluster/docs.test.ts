// docs/slurm.md shows a rendered sbatch script and Kubernetes manifest: they must be what the renderers write today,
// and the manifest must be YAML that reads back as the Job it describes.
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { parse } from 'yaml'
import { k8sJob, renderK8sManifest } from '../../src/cluster/k8s-manifest.ts'
import { renderSbatchScript } from '../../src/cluster/sbatch-script.ts'
import { DOC_CAMPAIGN, DOC_K8S_CAMPAIGN, DOC_K8S_OPTIONS } from './support/doc-campaign.ts'

const doc = readFileSync('docs/slurm.md', 'utf8')

/** The body of the first fenced block of `language` after `heading`. */
function block(heading: string, language: string): string {
  const from = doc.indexOf(heading)
  expect(from, heading).toBeGreaterThanOrEqual(0)
  const open = doc.indexOf(`\`\`\`${language}\n`, from)
  const start = open + language.length + 4
  return doc.slice(start, doc.indexOf('```\n', start))
}

test('the sbatch script in docs/slurm.md is the one the renderer writes', () => {
  expect(block('## The sbatch script', 'bash')).toBe(renderSbatchScript(DOC_CAMPAIGN))
})

test('the Kubernetes manifest in docs/slurm.md parses (yaml) to the Indexed Job the renderer makes', () => {
  const text = block('## Kubernetes', 'yaml')
  expect(text).toBe(renderK8sManifest(DOC_K8S_CAMPAIGN, DOC_K8S_OPTIONS))
  const job = parse(text)
  expect(job).toEqual(k8sJob(DOC_K8S_CAMPAIGN, DOC_K8S_OPTIONS))
  expect(job).toMatchObject({ kind: 'Job', spec: { completionMode: 'Indexed', completions: 2 } })
})
