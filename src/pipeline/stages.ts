/** The nine VirNucPro stages in pipeline order, named exactly as its log prints them (UPSTREAM.md "Log lines"). */
export const PIPELINE_STAGES = [
  'Sequence Chunking',
  'Six-Frame Translation',
  'Nucleotide File Splitting',
  'Protein File Splitting',
  'DNABERT-S Feature Extraction',
  'ESM-2 Feature Extraction',
  'Feature Merging',
  'Model Prediction',
  'Consensus Scoring',
] as const
export type PipelineStage = (typeof PIPELINE_STAGES)[number]

/** The stages that run on GPUs (the embedding models): PERF-02 and the GPU-utilization bottleneck rule apply to them. */
export const GPU_STAGES: readonly PipelineStage[] = ['DNABERT-S Feature Extraction', 'ESM-2 Feature Extraction']
