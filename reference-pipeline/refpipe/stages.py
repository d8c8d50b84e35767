"""The nine stages. Each takes the RunState, does its work, and returns the extras of its `completed in` line."""

import math
import os
import time
from typing import List

import torch

from refpipe import encode_stage
from refpipe.classify import Classifier, consensus, format_consensus, format_predictions, merge_features
from refpipe.fasta import read_fasta, write_fasta
from refpipe.frames import chunk_sequence, six_frames
from refpipe.logs import get_logger
from refpipe.run_state import RunState

logger = get_logger("pipeline.prediction")


def sequence_chunking(run: RunState) -> dict:
    run.records = read_fasta(run.options.input_path)
    length = run.options.model_type
    bases = sum(len(s) for _, s in run.records)
    logger.info(f"Read {len(run.records):,} sequences ({bases:,} bases) from {run.options.input_path}; "
                f"chunk length {length}")  # fmt: skip
    os.makedirs(run.paths.output_dir, exist_ok=True)
    run.chunks = [chunk for rid, seq in run.records for chunk in chunk_sequence(rid, seq, length)]
    write_fasta(run.paths.chunked_fasta(length), run.chunks)
    return {"sequences": len(run.records), "chunks": len(run.chunks)}


def six_frame_translation(run: RunState) -> dict:
    started = time.monotonic()
    with_frames = 0
    for chunk_id, bases in run.chunks:
        kept = six_frames(chunk_id, bases)
        with_frames += 1 if kept else 0
        run.frames.extend(kept)
    write_fasta(run.paths.nucleotide_fasta, ((f.frame_id, f.nucleotides) for f in run.frames))
    write_fasta(run.paths.protein_fasta, ((f.frame_id, f.protein) for f in run.frames))
    elapsed = time.monotonic() - started
    rate = len(run.chunks) / elapsed if elapsed > 0 else 0.0
    logger.info(f"Translation complete: processed {len(run.chunks):,} sequences in {elapsed:.1f}s ({rate:,.0f} seq/s)")
    logger.info(f"Found {with_frames:,} sequences with valid ORFs across 6 frames")
    return {"chunks": len(run.chunks), "frames": len(run.frames)}


def _plan_files(run: RunState) -> None:
    total = len(run.frames)
    per_file = run.options.sequences_per_file
    workers = len(run.plan.devices)
    if workers > 1:
        # As VirNucPro: at least two files per GPU for load balancing, but no file under 100 records.
        balanced = max(100, total // (2 * workers))
        if balanced < per_file:
            per_file = balanced
            logger.info(f"Adjusted sequences_per_file to {per_file} for multi-GPU load balancing ({total} sequences / "
                        f"{2 * workers} files)")  # fmt: skip
    if run.options.injections.partial and total >= 2:
        per_file = min(per_file, math.ceil(total / 2))  # the partial fault fails one file of at least two
    per_file = max(per_file, 1)
    run.sequences_per_file = per_file
    run.files = [(i, list(range(s, min(s + per_file, total)))) for i, s in enumerate(range(0, total, per_file))]


def _split(run: RunState, source: str, directory: str, field: str) -> dict:
    """Writes the split files, with VirNucPro's lines (file_utils.py), whose file size the suite reads."""
    os.makedirs(directory, exist_ok=True)
    logger.info(f"Splitting {source} into files of {run.sequences_per_file} sequences")
    for index, members in run.files:
        path = os.path.join(directory, f"output_{index}.fa")
        write_fasta(path, ((run.frames[m].frame_id, getattr(run.frames[m], field)) for m in members))
    logger.info(f"Created {len(run.files)} files in {directory}")
    return {"files": len(run.files), "records": len(run.frames)}


def nucleotide_file_splitting(run: RunState) -> dict:
    _plan_files(run)
    return _split(run, run.paths.nucleotide_fasta, run.paths.nucleotide_dir, "nucleotides")


def protein_file_splitting(run: RunState) -> dict:
    return _split(run, run.paths.protein_fasta, run.paths.protein_dir, "protein")


def dnabert_feature_extraction(run: RunState) -> dict:
    return encode_stage.encode(run, "dnabert")


def esm2_feature_extraction(run: RunState) -> dict:
    return encode_stage.encode(run, "esm")


def feature_merging(run: RunState) -> dict:
    os.makedirs(run.paths.merged_dir, exist_ok=True)
    rows = 0
    for index, protein_path in sorted(run.feature_files["esm"].items()):
        nucleotide_path = run.feature_files["dnabert"][index]
        nucleotide, protein = torch.load(nucleotide_path), torch.load(protein_path)
        if nucleotide["ids"] != protein["ids"]:
            raise RuntimeError(f"feature files {nucleotide_path} and {protein_path} list different sequences")
        name = os.path.basename(protein_path).replace("_ESM.pt", "_merged.pt")
        merged_path = os.path.join(run.paths.merged_dir, name)
        data = merge_features(nucleotide["embeddings"], protein["embeddings"])
        torch.save({"ids": protein["ids"], "data": data}, merged_path)
        run.merged_files.append(merged_path)
        rows += len(protein["ids"])
    return {"files": len(run.merged_files), "rows": rows}


def model_prediction(run: RunState) -> dict:
    device = run.plan.devices[0]
    classifier = None
    for path in run.merged_files:
        merged = torch.load(path)
        if classifier is None:
            classifier = Classifier(merged["data"].shape[1], run.plan.scale, device, run.options.seed)
        run.predictions += classifier.predict(merged["ids"], merged["data"], run.options.batch_size)
    temp = run.paths.temp(run.paths.predictions)
    with open(temp, "w", encoding="ascii") as handle:
        handle.write(format_predictions(run.predictions))
    logger.info(f"Prediction complete: {len(run.predictions):,} sequences processed")
    return {"predictions": len(run.predictions), "virus": sum(1 for p in run.predictions if p[1] == "virus")}


def consensus_scoring(run: RunState) -> dict:
    result = consensus(run.predictions)
    temp = run.paths.temp(run.paths.consensus)
    with open(temp, "w", encoding="ascii") as handle:
        handle.write(format_consensus(result))
    logger.info(f"Consensus computed for {len(result):,} original sequences")
    return {"chunks": len(result), "virus": sum(1 for v in result.values() if v[0])}


STAGE_FUNCTIONS: List = [
    sequence_chunking,
    six_frame_translation,
    nucleotide_file_splitting,
    protein_file_splitting,
    dnabert_feature_extraction,
    esm2_feature_extraction,
    feature_merging,
    model_prediction,
    consensus_scoring,
]
