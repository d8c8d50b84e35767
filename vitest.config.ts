import { defineConfig } from 'vitest/config'
import AnnotationLineReporter from './reporters/annotations.ts'
import GpuReportReporter from './reporters/gpu-report.ts'
import SummaryLineReporter from './reporters/summary-line.ts'

/**
 * Two projects:
 * - `unit` runs on any machine (no GPU): everything under test/, and the CPU-side benches in its `unit (bench)` companion.
 * - `gpu` needs an NVIDIA driver. Its global setup probes NVML once; without a driver it prints one line saying why and
 *   every test in the project is skipped with that reason (see benchmarks/support/gpu-setup.ts), never passed.
 * GPU benchmarks are named *.gpu.bench.ts so that `vitest bench` sends them to `gpu (bench)` and the rest to `unit (bench)`.
 */
export default defineConfig({
  test: {
    // The GPU report reporter writes reports/ at the end of a run that produced result records, then hands over to the
    // closing-line reporter (vitest runs reporters' onTestRunEnd concurrently, so order needs chaining, not array order).
    reporters: ['default', new AnnotationLineReporter(), new GpuReportReporter({ after: [new SummaryLineReporter()] })],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          setupFiles: ['test/support/fast-check-seed.ts'],
          testTimeout: 30_000,
          benchmark: {
            enabled: true,
            include: ['benchmarks/**/*.bench.ts'],
            exclude: ['benchmarks/**/*.gpu.bench.ts', '**/node_modules/**'],
            retainSamples: true,
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'gpu',
          include: ['benchmarks/**/*.gpu.test.ts'],
          globalSetup: ['benchmarks/support/gpu-global-setup.ts', 'benchmarks/support/run-context-setup.ts'],
          setupFiles: ['benchmarks/support/gpu-setup.ts'],
          // GPU runs are long and share devices: one file at a time.
          maxWorkers: 1,
          fileParallelism: false,
          testTimeout: 600_000,
          hookTimeout: 600_000,
          benchmark: {
            enabled: true,
            include: ['benchmarks/**/*.gpu.bench.ts'],
            retainSamples: true,
          },
        },
      },
    ],
  },
})
