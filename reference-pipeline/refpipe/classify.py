"""Feature merging, the MLP classifier (random weights from the seed) and frame consensus, with VirNucPro's outputs:
prediction_results.txt (Sequence_ID, Prediction, score1, score2) and prediction_results_highestscore.csv (Modified_ID,
Is_Virus, max_score_0, max_score_1), both tab-separated."""

from typing import Dict, List, Tuple

import torch
import torch.nn.functional as F

from refpipe.scales import CLASSIFIER_HIDDEN

Prediction = Tuple[str, str, float, float]
_FRAME_SUFFIXES = ("F1", "F2", "F3", "R1", "R2", "R3")
_CLASSIFIER_SEED = 3


def merge_features(nucleotide: torch.Tensor, protein: torch.Tensor) -> torch.Tensor:
    """Per frame, the DNABERT-S embedding followed by the ESM-2 embedding."""
    return torch.cat([nucleotide, protein], dim=1)


class Classifier:
    """Linear -> ReLU -> Linear -> softmax over (others, virus)."""

    def __init__(self, features: int, scale: str, device, seed: int) -> None:
        generator = torch.Generator(device="cpu")
        generator.manual_seed(seed * 1000 + _CLASSIFIER_SEED)
        hidden = CLASSIFIER_HIDDEN[scale]
        # Built on the CPU (a few MB) so the weights are the same on every device.
        self.w1 = (torch.randn(hidden, features, generator=generator) / features**0.5).to(device)
        self.b1 = torch.zeros(hidden).to(device)
        self.w2 = (torch.randn(2, hidden, generator=generator) / hidden**0.5).to(device)
        self.b2 = torch.zeros(2).to(device)
        self.device = torch.device(device)

    def predict(self, ids: List[str], features: torch.Tensor, batch_size: int) -> List[Prediction]:
        """(id, 'virus'|'others', score_0, score_1) per row, in `batch_size` rows at a time."""
        out: List[Prediction] = []
        with torch.inference_mode():
            for start in range(0, len(ids), batch_size):
                x = features[start : start + batch_size].to(self.device, dtype=torch.float32)
                # Each row is standardised so that the random MLP gives both classes rather than one.
                x = (x - x.mean(dim=1, keepdim=True)) / x.std(dim=1, keepdim=True).clamp(min=1e-6)
                probs = torch.softmax(F.linear(torch.relu(F.linear(x, self.w1, self.b1)), self.w2, self.b2), dim=1)
                for offset, (p0, p1) in enumerate(probs.cpu().tolist()):
                    out.append((ids[start + offset], "virus" if p1 > p0 else "others", p0, p1))
        return out


def consensus(predictions: List[Prediction]) -> Dict[str, Tuple[bool, float, float]]:
    """Per chunk (the frame ID without its F1..R3 suffix): the max of each score across its frames; virus iff
    max_score_1 >= max_score_0. Keys keep the order of first appearance."""
    grouped: Dict[str, List[Tuple[float, float]]] = {}
    for seq_id, _, s0, s1 in predictions:
        key = seq_id[:-2] if seq_id.endswith(_FRAME_SUFFIXES) else seq_id
        grouped.setdefault(key, []).append((s0, s1))
    result = {}
    for key, scores in grouped.items():
        m0, m1 = max(s[0] for s in scores), max(s[1] for s in scores)
        result[key] = (m1 >= m0, m0, m1)
    return result


def format_predictions(predictions: List[Prediction]) -> str:
    """prediction_results.txt content."""
    lines = ["Sequence_ID\tPrediction\tscore1\tscore2"]
    lines += [f"{i}\t{p}\t{s0!r}\t{s1!r}" for i, p, s0, s1 in predictions]
    return "\n".join(lines) + "\n"


def format_consensus(result: Dict[str, Tuple[bool, float, float]]) -> str:
    """prediction_results_highestscore.csv content."""
    lines = ["Modified_ID\tIs_Virus\tmax_score_0\tmax_score_1"]
    lines += [f"{key}\t{is_virus}\t{m0!r}\t{m1!r}" for key, (is_virus, m0, m1) in result.items()]
    return "\n".join(lines) + "\n"
