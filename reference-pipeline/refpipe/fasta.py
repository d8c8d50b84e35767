"""FASTA reading with validation (errors name the file and line) and plain FASTA writing."""

import os
import re
from typing import Iterable, List, Tuple

from refpipe.errors import InputError

# IUPAC nucleotide letters (U allowed); gaps and digits are not sequence.
_SEQUENCE_LINE = re.compile(r"^[ACGTURYSWKMBDHVN]*$")

Record = Tuple[str, str]


def read_fasta(path: str) -> List[Record]:
    """Every record of a nucleotide FASTA file as (id, uppercase sequence).

    @throws InputError when the file is missing, empty, not FASTA, has an empty or duplicate ID, an empty record,
    or a character that is not an IUPAC nucleotide letter.
    """
    try:
        with open(path, "r", encoding="ascii") as handle:
            lines = handle.read().splitlines()
    except FileNotFoundError as error:
        raise InputError(f"input FASTA {path}: no such file") from error
    except UnicodeDecodeError as error:
        raise InputError(f"input FASTA {path}: not a text FASTA file (non-ASCII byte at offset {error.start})") from error
    except OSError as error:
        raise InputError(f"input FASTA {path}: cannot read ({error.strerror})") from error
    return _parse(path, lines)


def _parse(path: str, lines: List[str]) -> List[Record]:
    records: List[Record] = []
    seen = set()
    current_id = None
    header_line = 0
    parts: List[str] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith(">"):
            _close(path, records, current_id, parts, header_line)
            current_id = line[1:].split(maxsplit=1)[0] if line[1:].strip() else ""
            if not current_id:
                raise InputError(f"input FASTA {path} line {number}: header without an ID")
            if current_id in seen:
                raise InputError(f"input FASTA {path} line {number}: duplicate record ID '{current_id}'")
            seen.add(current_id)
            header_line, parts = number, []
            continue
        if current_id is None:
            raise InputError(f"input FASTA {path} line {number}: sequence before the first '>' header (not FASTA)")
        upper = line.upper()
        if not _SEQUENCE_LINE.match(upper):
            bad = next(c for c in upper if not _SEQUENCE_LINE.match(c))
            raise InputError(f"input FASTA {path} line {number}: '{bad}' is not an IUPAC nucleotide letter")
        parts.append(upper)
    _close(path, records, current_id, parts, header_line)
    if not records:
        raise InputError(f"input FASTA {path}: no records (empty file)")
    return records


def _close(path: str, records: List[Record], record_id, parts: List[str], header_line: int) -> None:
    if record_id is None:
        return
    if not parts:
        raise InputError(f"input FASTA {path} line {header_line}: record '{record_id}' has no sequence")
    records.append((record_id, "".join(parts)))


def write_fasta(path: str, records: Iterable[Record]) -> int:
    """Writes records one sequence line each (to a temp name, then renamed); returns the record count."""
    temp = f"{path}.tmp"
    count = 0
    with open(temp, "w", encoding="ascii") as handle:
        for record_id, sequence in records:
            handle.write(f">{record_id}\n{sequence}\n")
            count += 1
    os.replace(temp, path)
    return count
