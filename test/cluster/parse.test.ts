import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { ClusterError } from '../../src/cluster/errors.ts'
import {
  parseGpusPerPartition,
  parseMaxArraySize,
  parsePartitions,
  parseQueue,
  parseSbatchJobId,
  parseSlurmDurationS,
  type QueueRow,
} from '../../src/cluster/parse.ts'

/** A duration as squeue's %M writes it: `M:SS`, `H:MM:SS`, `D-HH:MM:SS`. */
function squeueTime(s: number): string {
  const [days, hours, minutes, seconds] = [
    Math.floor(s / 86_400),
    Math.floor(s / 3600) % 24,
    Math.floor(s / 60) % 60,
    s % 60,
  ]
  const two = (n: number) => String(n).padStart(2, '0')
  if (days > 0) return `${days}-${two(hours)}:${two(minutes)}:${two(seconds)}`
  if (hours > 0) return `${hours}:${two(minutes)}:${two(seconds)}`
  return `${minutes}:${two(seconds)}`
}

const STATES = ['PENDING', 'RUNNING', 'COMPLETING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TIMEOUT', 'OUT_OF_MEMORY']
const id = fc.integer({ min: 1, max: 2 ** 31 }).map(String)
const noBreak = (arb: fc.Arbitrary<string>) => arb.filter((s) => !/[\n\r]/.test(s) && s.trim() === s)
const row: fc.Arbitrary<QueueRow> = fc.record({
  jobId: id,
  arrayJobId: id,
  taskIndex: fc.option(fc.nat({ max: 10_000 })),
  state: fc.constantFrom(...STATES),
  usedS: fc.nat({ max: 400 * 86_400 }),
  nodes: noBreak(fc.stringMatching(/^[a-z0-9[\],-]{0,20}$/)),
  partition: fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
  // Free text, last: it may even hold the separator.
  reason: noBreak(fc.string({ minLength: 1, maxLength: 30 })),
})
const format = (r: QueueRow) =>
  [r.jobId, r.arrayJobId, r.taskIndex ?? 'N/A', r.state, squeueTime(r.usedS), r.nodes, r.partition, r.reason].join('|')

describe('squeue rows', () => {
  test('what squeue printed here reads back (a running 2-task array, one task with its own job id)', () => {
    expect(parseQueue('5|4|0|RUNNING|0:01|vm|debug|None\n4|4|1|PENDING|0:00||debug|Resources\n')).toEqual([
      {
        jobId: '5',
        arrayJobId: '4',
        taskIndex: 0,
        state: 'RUNNING',
        usedS: 1,
        nodes: 'vm',
        partition: 'debug',
        reason: 'None',
      },
      {
        jobId: '4',
        arrayJobId: '4',
        taskIndex: 1,
        state: 'PENDING',
        usedS: 0,
        nodes: '',
        partition: 'debug',
        reason: 'Resources',
      },
    ])
  })

  test('any rows in the asked-for format read back as written', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 8 }), (rows) => {
        expect(parseQueue(rows.map(format).join('\n'))).toEqual(rows)
      }),
    )
  })

  test('a line not in the format is an error quoting it, never a half-read row', () => {
    for (const line of [
      'JOBID|STATE',
      'x|4|0|RUNNING|0:01|vm|debug|None',
      '5|4|0|running|0:01|vm|debug|None',
      '5|4|0|RUNNING|soon|vm|debug|None',
    ])
      expect(() => parseQueue(line)).toThrow(
        expect.objectContaining({
          code: 'CLUSTER_UNREADABLE_OUTPUT',
          message: expect.stringContaining(line.slice(0, 10)),
        }),
      )
  })
})

describe('squeue time used', () => {
  test('every duration as squeue writes it reads back in seconds', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000 * 86_400 }), (s) => {
        expect(parseSlurmDurationS(squeueTime(s))).toBe(s)
      }),
    )
  })

  test('not started yet reads 0; anything else is refused', () => {
    expect(parseSlurmDurationS('INVALID')).toBe(0)
    expect(() => parseSlurmDurationS('1:2:3:4')).toThrow(ClusterError)
  })
})

describe('sbatch --parsable', () => {
  test('the job id, with or without a cluster name', () => {
    fc.assert(
      fc.property(id, fc.option(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/)), (job, cluster) => {
        expect(parseSbatchJobId(`${job}${cluster ? `;${cluster}` : ''}\n`)).toBe(job)
      }),
    )
  })

  test('anything else is an error quoting it', () => {
    expect(() => parseSbatchJobId('Submitted batch job 12\n')).toThrow(/cannot read 'Submitted batch job 12'/)
    expect(() => parseSbatchJobId('')).toThrow(ClusterError)
  })
})

test('partitions: one per line, each once, in the order sinfo gave', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom('debug', 'gpu', 'gpu-h200', 'long'), { maxLength: 10 }), (names) => {
      expect(parsePartitions(names.map((n) => `${n}\n`).join(''))).toEqual([...new Set(names)])
    }),
  )
})

describe('cluster limits', () => {
  test("scontrol show config's MaxArraySize", () => {
    expect(parseMaxArraySize('MaxArraySize            = 1001\nMaxJobCount             = 10000\n')).toBe(1001)
    expect(() => parseMaxArraySize('MaxJobCount = 10\n')).toThrow(/MaxArraySize: cannot read/)
  })

  test("sinfo's GRES: the most GPUs one node of each partition has, types summed, sockets and other GRES ignored", () => {
    const gpus = parseGpusPerPartition(
      ['gpu|gpu:h200:8(S:0-1)', 'gpu|gpu:h200:4', 'mixed|gpu:a100:4,gpu:v100:2(S:0,1),mps:100', 'cpu|(null)'].join(
        '\n',
      ),
    )
    expect(Object.fromEntries(gpus)).toEqual({ gpu: 8, mixed: 6, cpu: 0 })
  })
})
