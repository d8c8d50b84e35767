/** The store's prepared statements: prepared once per store, after the schema exists (store.ts). */
import type { DatabaseSync } from 'node:sqlite'

export function prepareStatements(db: DatabaseSync) {
  return {
    insertRun: db.prepare(
      'INSERT INTO runs (run_id, added_at, source_dir) VALUES (?, ?, ?) ON CONFLICT (run_id) DO NOTHING',
    ),
    runId: db.prepare('SELECT id FROM runs WHERE run_id = ?'),
    insertRecord: db.prepare(
      `INSERT INTO records (run, record_id, kind, state, created_at, machine, target_profile, commit_sha, commit_of,
         commit_dirty, suite_version, regression_threshold)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run, record_id) DO NOTHING RETURNING id`,
    ),
    insertMetric: db.prepare(
      'INSERT INTO metrics (record, metric, value, ci_low, ci_high, n, verdict) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    ),
    insertSamples: db.prepare(
      'INSERT INTO metric_samples (record, metric, samples) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    ),
    insertMachine: db.prepare('INSERT INTO machines (host, gpu_model) VALUES (?, ?) ON CONFLICT DO NOTHING'),
    machineId: db.prepare('SELECT id FROM machines WHERE host = ? AND gpu_model = ?'),
    insertName: db.prepare('INSERT INTO metric_names (name, unit, better) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
    nameId: db.prepare('SELECT id FROM metric_names WHERE name = ? AND unit = ?'),
  }
}
