"""`predict`: prepares the output directory, runs the nine stages in order with their log lines, publishes the outputs
only when every stage has succeeded, and ends with the PIPELINE SUMMARY block."""

import json
import os
import shutil
import sys

import torch

from refpipe import __version__
from refpipe.architecture import choose_architecture, log_architecture
from refpipe.devices import plan_devices
from refpipe.errors import OutputExistsError, PartialFailure
from refpipe.inject import at_stage_start, before_stage_end
from refpipe.logs import get_logger
from refpipe.run_state import Options, Paths, RunState
from refpipe.stages import STAGE_FUNCTIONS
from refpipe.telemetry import STAGES, StageClock

logger = get_logger("pipeline.prediction")


def run_pipeline(options: Options) -> int:
    """Runs `predict`; returns 0, or raises a RefpipeError (refpipe.cli maps it to an exit code)."""
    plan = plan_devices(options.device, options.gpus, options.parallel, options.cpu_workers,
                        options.precision, options.scale)  # fmt: skip
    stem = os.path.splitext(os.path.basename(options.input_path))[0]
    paths = Paths(options.output_dir or f"{stem}_predictions", stem)
    logger.info(f"refpipe {__version__} (torch {torch.__version__}): scale {plan.scale}, precision {plan.precision}, "
                f"devices {', '.join(plan.devices)}{' (parallel)' if plan.parallel else ''}")  # fmt: skip
    armed = options.injections.describe()
    if armed:
        logger.info(f"Fault injection armed: {', '.join(armed)}")
    architecture = choose_architecture(plan.parallel, options.v1_fallback)
    log_architecture(architecture, options.persistent_models, plan.parallel)
    _prepare_output_dir(paths, options.force)
    run = RunState(options, plan, paths, architecture)
    clock = StageClock()
    try:
        for name, function in zip(STAGES, STAGE_FUNCTIONS):
            clock.start(name)
            at_stage_start(options.injections, name)
            extras = function(run)
            before_stage_end(options.injections, name)
            clock.end(name, extras)
            _save_state(paths, clock)
    except BaseException:
        _discard_partial_outputs(paths)
        raise
    _publish_outputs(paths)
    if not options.keep_intermediate:
        _remove_intermediates(paths, options.model_type)
    logger.info("Pipeline completed successfully!" if not run.failed_files else
                f"Pipeline completed with {len(run.failed_files)} failures")  # fmt: skip
    clock.log_summary()
    if run.failed_files:
        raise PartialFailure(f"{len(run.failed_files)} ESM-2 file(s) failed; outputs cover the rest")
    return 0


def _prepare_output_dir(paths: Paths, force: bool) -> None:
    """Refuses an existing output directory without --force (asking first when a person is at a terminal)."""
    if not os.path.exists(paths.output_dir):
        return
    if not force and not _confirm_overwrite(paths.output_dir):
        raise OutputExistsError(f"output directory {paths.output_dir} already exists; pass -f/--force to overwrite")
    logger.info(f"Overwriting existing output directory {paths.output_dir} (--force)")
    for entry in os.listdir(paths.output_dir):
        if entry.startswith(f"{paths.stem}_") or entry == ".checkpoints":
            target = os.path.join(paths.output_dir, entry)
            shutil.rmtree(target) if os.path.isdir(target) else os.remove(target)


def _confirm_overwrite(output_dir: str) -> bool:
    if not sys.stdin or not sys.stdin.isatty():
        return False
    answer = input(f"Output directory {output_dir} exists. Overwrite? [y/N]: ")
    return answer.strip().lower() in ("y", "yes")


def _save_state(paths: Paths, clock: StageClock) -> None:
    os.makedirs(os.path.dirname(paths.state_file), exist_ok=True)
    state = {"stages": {name: {"status": "completed", "duration_s": clock.durations_s[name]} for name in clock.order}}
    with open(paths.state_file + ".tmp", "w", encoding="utf-8") as handle:
        json.dump(state, handle, indent=2)
    os.replace(paths.state_file + ".tmp", paths.state_file)


def _publish_outputs(paths: Paths) -> None:
    for final in (paths.predictions, paths.consensus):
        os.replace(paths.temp(final), final)
    logger.info(f"Saved prediction results to {paths.predictions} and {paths.consensus}")


def _discard_partial_outputs(paths: Paths) -> None:
    for final in (paths.predictions, paths.consensus):
        if os.path.exists(paths.temp(final)):
            os.remove(paths.temp(final))


def _remove_intermediates(paths: Paths, chunk_length: int) -> None:
    for directory in (paths.nucleotide_dir, paths.protein_dir):
        shutil.rmtree(directory, ignore_errors=True)
    for path in (paths.chunked_fasta(chunk_length), paths.nucleotide_fasta, paths.protein_fasta):
        if os.path.exists(path):
            os.remove(path)
    logger.info("Removed intermediate files (pass -k/--keep-intermediate to keep them)")
