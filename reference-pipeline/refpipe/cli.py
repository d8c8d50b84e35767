"""`python3 -m refpipe [-v] [-l LOGFILE] {predict,encoder-bench,make-fixture} ...`

Exit codes as VirNucPro: 0 success; 1 any failure (message logged); 2 partial success or a usage error; 4 device out
of memory (the log line says `CUDA out of memory` on a GPU).
"""

import argparse
import sys
from typing import List, Optional

from refpipe.errors import DeviceOutOfMemory, RefpipeError, UsageError
from refpipe.logs import get_logger, setup_main_logging

logger = get_logger("cli")


def build_parser() -> argparse.ArgumentParser:
    from refpipe import bench_cli, predict_cli

    parser = argparse.ArgumentParser(prog="refpipe", description="Reference pipeline speaking VirNucPro's CLI contract")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    parser.add_argument("-l", "--log-file", help="also write the log to this file")
    commands = parser.add_subparsers(dest="command", required=True)
    predict_cli.add_parser(commands)
    bench_cli.add_parsers(commands)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Parses argv, runs the command, and maps its outcome to an exit code."""
    args = build_parser().parse_args(argv)
    setup_main_logging(args.verbose, args.log_file)
    try:
        return args.run(args)
    except DeviceOutOfMemory as error:
        logger.error(f"{error}")
        return error.exit_code
    except RefpipeError as error:
        (logger.warning if error.exit_code == 2 and not isinstance(error, UsageError) else logger.error)(f"{error}")
        return error.exit_code
    except KeyboardInterrupt:
        logger.error("Interrupted")
        return 1
    except Exception as error:  # noqa: BLE001 - every other failure is exit 1 with its message.
        if _is_cuda_oom(error):
            logger.error(f"CUDA out of memory: {str(error).splitlines()[0]}")
            return 4
        logger.error(f"Pipeline failed: {type(error).__name__}: {error}")
        logger.debug("Traceback", exc_info=True)
        return 1


def _is_cuda_oom(error: BaseException) -> bool:
    import torch

    oom_type = getattr(torch.cuda, "OutOfMemoryError", None)
    return (oom_type is not None and isinstance(error, oom_type)) or "CUDA out of memory" in str(error)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
