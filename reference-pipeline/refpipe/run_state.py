"""The options of one `predict` run and the state its stages hand to each other."""

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import torch

from refpipe.architecture import Architecture
from refpipe.devices import DevicePlan
from refpipe.frames import Frame
from refpipe.inject import Injections


@dataclass
class Options:
    """`predict` options, validated by refpipe.cli."""

    input_path: str
    model_type: int = 500
    output_dir: Optional[str] = None
    force: bool = False
    keep_intermediate: bool = False
    batch_size: int = 256
    dnabert_batch_tokens: int = 32768
    esm_batch_tokens: int = 32768
    loader_workers: int = 4
    gpus: Optional[str] = None
    parallel: bool = False
    v1_fallback: bool = False
    persistent_models: bool = False
    device: str = "auto"
    scale: Optional[str] = None
    precision: Optional[str] = None
    seed: int = 0
    cpu_workers: int = 1
    # VirNucPro's prediction.sequences_per_file (a config value there, an option here so tests can make several files).
    sequences_per_file: int = 10000
    injections: Injections = field(default_factory=Injections)


@dataclass
class Paths:
    """Where a run writes: VirNucPro's names under the output directory."""

    output_dir: str
    stem: str

    def __post_init__(self) -> None:
        join = os.path.join
        self.nucleotide_dir = join(self.output_dir, f"{self.stem}_nucleotide")
        self.protein_dir = join(self.output_dir, f"{self.stem}_protein")
        self.merged_dir = join(self.output_dir, f"{self.stem}_merged")
        self.nucleotide_fasta = join(self.output_dir, f"{self.stem}_nucleotide.fa")
        self.protein_fasta = join(self.output_dir, f"{self.stem}_protein.faa")
        self.predictions = join(self.merged_dir, "prediction_results.txt")
        self.consensus = join(self.merged_dir, "prediction_results_highestscore.csv")
        self.state_file = join(self.output_dir, ".checkpoints", "pipeline_state.json")

    def chunked_fasta(self, chunk_length: int) -> str:
        return os.path.join(self.output_dir, f"{self.stem}_chunked{chunk_length}.fa")

    def temp(self, final_path: str) -> str:
        """The name an output is written under until the run has succeeded."""
        head, tail = os.path.split(final_path)
        return os.path.join(head, f".{tail}.partial")


@dataclass
class RunState:
    options: Options
    plan: DevicePlan
    paths: Paths
    architecture: Architecture
    records: List[Tuple[str, str]] = field(default_factory=list)
    chunks: List[Tuple[str, str]] = field(default_factory=list)
    frames: List[Frame] = field(default_factory=list)
    # Per split file: (index, frame indices into `frames`), and the size the split aimed at.
    files: List[Tuple[int, List[int]]] = field(default_factory=list)
    sequences_per_file: int = 0
    failed_files: List[int] = field(default_factory=list)
    feature_files: Dict[str, Dict[int, str]] = field(default_factory=dict)
    merged_files: List[str] = field(default_factory=list)
    predictions: list = field(default_factory=list)
    dnabert: Optional[torch.Tensor] = None
    esm: Optional[torch.Tensor] = None
