"""argparse value types shared by the command modules (predict_cli, bench_cli); cli.py assembles those."""

import argparse


def _int_at_least(minimum: int):
    """argparse type: an integer >= minimum (argparse names the option in its error)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from error
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} must be at least {minimum}")
        return value

    return parse


positive_int = _int_at_least(1)
non_negative_int = _int_at_least(0)
