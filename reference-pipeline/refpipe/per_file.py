"""The v1.0 extraction: one split file at a time, the model built again for every file, as VirNucPro's features.py
does (extract_esm_features / extract_dnabert_features load their model on each call), with its per-file lines:
`Extracting ESM-2 features from FILE`, `ESM-2 ready: ...` once the model is built, `Saved ESM-2 features to FILE
(N sequences)`. DNABERT-S logs no `ready` line, as VirNucPro's does not. Runs in this process on one device, or in
each worker process (refpipe.workers) over the files it was given."""

import time
from dataclasses import dataclass
from typing import List

import torch

from refpipe.extract import LABEL, ExtractConfig, build_encoder, extract, log_model_ready
from refpipe.logs import get_logger
from refpipe.progress import Progress

logger = get_logger("features")


@dataclass
class FileJob:
    """One split file to embed (picklable: it crosses into worker processes)."""

    fasta_path: str
    feature_path: str
    ids: List[str]
    sequences: List[str]


def extract_files(jobs: List[FileJob], device: str, config: ExtractConfig) -> dict:
    """Embeds each file with a model built for it and saves its features; returns the totals (sequences, tokens,
    seconds) for the caller's summary line."""
    progress = Progress(config.kind, sum(len(job.sequences) for job in jobs))
    for job in jobs:
        logger.info(f"Extracting {LABEL[config.kind]} features from {job.fasta_path}")
        started = time.monotonic()
        encoder = build_encoder(config.kind, config.scale, device, config.precision, config.seed)
        log_model_ready(config.kind, encoder, device, time.monotonic() - started)
        result = extract(encoder, job.sequences, config, progress)
        torch.save({"ids": job.ids, "embeddings": result.embeddings}, job.feature_path)
        logger.info(f"Saved {LABEL[config.kind]} features to {job.feature_path} ({len(job.ids)} sequences)")
        del encoder
        if device.startswith("cuda"):
            torch.cuda.empty_cache()
    progress.log_complete()
    return {"sequences": progress.done, "tokens": progress.tokens, "seconds": progress.elapsed_s()}



def files_in_worker(rank: int, device: str, jobs: List[FileJob], config: ExtractConfig) -> dict:
    """A worker's part of the v1.0 path with several devices (refpipe.workers runs it): its files, one by one."""
    count = sum(len(job.sequences) for job in jobs)
    get_logger("worker").info(f"Worker {rank} on {device}: {len(jobs)} files, {count:,} {config.kind} sequences")
    return extract_files(jobs, device, config)
