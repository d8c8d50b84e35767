/**
 * Why a cluster command could not do what it was asked, as one typed error with a string code: the CLI prints the
 * message on one line (it names what was wrong and where) and exits 2 or 3 (src/cli/slurm.ts says which code is
 * which). Scheduler refusals carry the scheduler's own words, never a bare exit status.
 */
import { CodedError } from '../platform/coded-error.ts'
export type ClusterErrorCode =
  /** A scheduler command (sbatch, squeue, scancel, sinfo) is not on PATH. */
  | 'CLUSTER_TOOL_MISSING'
  /** A partition named on the command line is not one sinfo lists. */
  | 'CLUSTER_UNKNOWN_PARTITION'
  /** sbatch refused the job (its message is the error's). */
  | 'CLUSTER_JOB_REJECTED'
  /** A scheduler command failed for another reason (its message is the error's). */
  | 'CLUSTER_COMMAND_FAILED'
  /** The scheduler answered something this code cannot read. */
  | 'CLUSTER_UNREADABLE_OUTPUT'
  /** The campaign as asked for cannot be rendered (a bad variable name, a value sbatch cannot take). */
  | 'CLUSTER_BAD_CAMPAIGN'
  /** The results directory cannot take a campaign (not writable, or a campaign of this run is there already). */
  | 'CLUSTER_RESULTS_DIR'
  /** status/cancel: the run has no job in the queue and no campaign files. */
  | 'CLUSTER_UNKNOWN_RUN'

export class ClusterError extends CodedError<ClusterErrorCode> {
  override name = 'ClusterError'
}
