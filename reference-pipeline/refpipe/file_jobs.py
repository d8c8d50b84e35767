"""The split files as v1.0 extraction jobs (refpipe.per_file), and how they are shared among workers."""

import os
from typing import List, Tuple

from refpipe.logs import get_logger
from refpipe.per_file import FileJob
from refpipe.run_state import RunState

logger = get_logger("pipeline.prediction")


def file_jobs(run: RunState, kind: str, files: List[Tuple[int, List[int]]], directory: str,
              suffix: str) -> List[FileJob]:  # fmt: skip
    """One job per split file: its FASTA (written by the splitting stages), its feature file, IDs and sequences."""
    jobs = []
    for index, members in files:
        frames = [run.frames[m] for m in members]
        jobs.append(FileJob(
            fasta_path=os.path.join(directory, f"output_{index}.fa"),
            feature_path=os.path.join(directory, f"output_{index}{suffix}"),
            ids=[f.frame_id for f in frames],
            sequences=[f.nucleotides if kind == "dnabert" else f.protein for f in frames],
        ))  # fmt: skip
    return jobs


def assign_files(jobs: List[FileJob], workers: int) -> List[List[FileJob]]:
    """Files per worker, balanced by sequences: largest file first, each to the worker with the fewest sequences so far
    (the lowest rank on a tie), as VirNucPro hands its v1.0 workers their files (base_worker.py). Logs the shares."""
    shares: List[List[FileJob]] = [[] for _ in range(workers)]
    totals = [0] * workers
    for job in sorted(jobs, key=lambda j: -len(j.sequences)):
        rank = min(range(workers), key=lambda r: totals[r])
        shares[rank].append(job)
        totals[rank] += len(job.sequences)
    logger.info(f"Assigned {len(jobs)} files to {workers} workers (bin-packing by sequences)")
    for rank, share in enumerate(shares):
        logger.info(f"  Worker {rank}: {len(share)} files, {totals[rank]} sequences")
    return shares
