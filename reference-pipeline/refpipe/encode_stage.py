"""Stages 5 and 6: DNABERT-S over the kept frames' bases, ESM-2 over their proteins, in-process on one device or in
one worker process per device; per split file, the embeddings go to output_{i}_DNABERT_S.pt / output_{i}_ESM.pt."""

import os
import time
from typing import List, Tuple

import torch

from refpipe import faults
from refpipe.batching import token_lengths
from refpipe.devices import misplaced_devices
from refpipe.extract import ExtractConfig, build_encoder, extract
from refpipe.logs import get_logger
from refpipe.run_state import RunState
from refpipe.scales import SHAPES
from refpipe.workers import run_parallel

logger = get_logger("pipeline.prediction")
_SUFFIX = {"dnabert": "_DNABERT_S.pt", "esm": "_ESM.pt"}
_LABEL = {"dnabert": "DNABERT-S", "esm": "ESM-2"}


def encode(run: RunState, kind: str) -> dict:
    """Embeds the frames of every split file that has not failed; returns the stage's extras."""
    files = _files_to_encode(run, kind)
    rows = [m for _, members in files for m in members]
    sequences = [run.frames[m].nucleotides if kind == "dnabert" else run.frames[m].protein for m in rows]
    devices = run.plan.devices
    if kind == "esm" and run.options.injections.misplace:
        devices = misplaced_devices(devices)
    config = _config(run, kind)
    shape = SHAPES[run.plan.scale][kind]
    logger.info(f"{_LABEL[kind]}: {len(sequences):,} sequences on {', '.join(devices)} "
                f"({run.plan.scale}: {shape.layers} layers x {shape.hidden}, {shape.heads} heads; {run.plan.precision})")  # fmt: skip
    if kind == "esm":
        faults.prework(run.options.injections.prework_ms_per_seq, len(sequences))
    if not sequences:
        embeddings = torch.zeros((0, shape.hidden))
    elif run.plan.parallel:
        embeddings = run_parallel(sequences, devices, config, _scratch(run, kind))
    else:
        embeddings = _in_process(sequences, devices[0], config)
    _write_feature_files(run, kind, files, embeddings)
    tokens = sum(token_lengths(kind, sequences))
    noun = "frames" if kind == "dnabert" else "proteins"
    extras = {noun: len(sequences), "tokens": tokens, "workers": len(devices) if run.plan.parallel else 1}
    if kind == "esm" and run.failed_files:
        extras["failed files"] = len(run.failed_files)
    return extras


def _files_to_encode(run: RunState, kind: str) -> List[Tuple[int, List[int]]]:
    if kind != "esm" or not run.options.injections.partial or not run.files:
        return run.files
    failed_index, members = run.files[-1]
    run.failed_files.append(failed_index)
    faults.log_once("partial", f"Injected fault: partial: ESM-2 file output_{failed_index}.fa fails ({len(members):,} "
                               "proteins get no prediction); the run ends with exit 2")  # fmt: skip
    logger.error(f"Failed to process output_{failed_index}.fa: injected partial failure")
    return run.files[:-1]


def _config(run: RunState, kind: str) -> ExtractConfig:
    budget = run.options.dnabert_batch_tokens if kind == "dnabert" else run.options.esm_batch_tokens
    return ExtractConfig(kind, run.plan.scale, run.plan.precision, run.options.seed, budget,
                         run.options.loader_workers, run.options.injections, 0)  # fmt: skip


def _scratch(run: RunState, kind: str) -> str:
    directory = run.paths.nucleotide_dir if kind == "dnabert" else run.paths.protein_dir
    os.makedirs(directory, exist_ok=True)
    return directory


def _in_process(sequences: List[str], device: str, config: ExtractConfig) -> torch.Tensor:
    if device.startswith("cuda"):
        torch.cuda.set_device(int(device.split(":")[1]))
    started = time.monotonic()
    encoder = build_encoder(config.kind, config.scale, device, config.precision, config.seed)
    logger.info(f"{_LABEL[config.kind]} model ready on {device} in {time.monotonic() - started:.1f}s "
                f"({encoder.parameter_bytes() / 2**30:.2f} GiB of weights)")  # fmt: skip
    result = extract(encoder, sequences, config)
    del encoder
    if device.startswith("cuda"):
        torch.cuda.empty_cache()
    return result.embeddings


def _write_feature_files(run: RunState, kind: str, files, embeddings: torch.Tensor) -> None:
    directory = run.paths.nucleotide_dir if kind == "dnabert" else run.paths.protein_dir
    written = {}
    start = 0
    for index, members in files:
        path = os.path.join(directory, f"output_{index}{_SUFFIX[kind]}")
        ids = [run.frames[m].frame_id for m in members]
        torch.save({"ids": ids, "embeddings": embeddings[start : start + len(members)].clone()}, path)
        written[index] = path
        start += len(members)
    run.feature_files[kind] = written
