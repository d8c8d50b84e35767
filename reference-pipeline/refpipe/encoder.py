"""A pre-LayerNorm transformer encoder with random weights from a fixed seed, built directly on its device and dtype.

The compute is what matters: the shapes follow DNABERT-S and ESM-2 (refpipe.scales); the weights are seeded normals,
scaled so activations stay finite in fp16. Attention uses torch's fused scaled_dot_product_attention where it exists
(torch >= 2.0) and an explicit softmax attention otherwise (Debian's torch 1.13 on CPU).
"""

import math
from typing import Dict, List

import torch
import torch.nn.functional as F

from refpipe.scales import EncoderShape

_HAS_SDPA = hasattr(F, "scaled_dot_product_attention")
_INIT_STD = 0.02


class Encoder:
    """Token ids (B, T) and lengths (B,) -> mean-pooled embeddings (B, hidden) in float32."""

    def __init__(self, shape: EncoderShape, vocab: int, positions: int, device, dtype, seed: int) -> None:
        self.shape = shape
        self.device = torch.device(device)
        self.dtype = dtype
        generator = torch.Generator(device=self.device)
        generator.manual_seed(seed)
        make = _Factory(self.device, dtype, generator)
        d, f = shape.hidden, shape.ffn
        # Output projections are scaled down with depth so the residual stream stays small in fp16.
        out_std = _INIT_STD / math.sqrt(2 * shape.layers)
        self.token_embedding = make.normal((vocab, d), _INIT_STD)
        self.position_embedding = make.normal((positions, d), _INIT_STD)
        self.layers: List[Dict[str, torch.Tensor]] = []
        for _ in range(shape.layers):
            self.layers.append(
                {
                    "ln1_w": make.ones(d), "ln1_b": make.zeros(d),
                    "qkv_w": make.normal((3 * d, d), _INIT_STD), "qkv_b": make.zeros(3 * d),
                    "out_w": make.normal((d, d), out_std), "out_b": make.zeros(d),
                    "ln2_w": make.ones(d), "ln2_b": make.zeros(d),
                    "fc1_w": make.normal((f, d), _INIT_STD), "fc1_b": make.zeros(f),
                    "fc2_w": make.normal((d, f), out_std), "fc2_b": make.zeros(d),
                }
            )  # fmt: skip
        self.final_w, self.final_b = make.ones(d), make.zeros(d)

    def parameter_bytes(self) -> int:
        """Bytes held by the weights on the device."""
        tensors = [self.token_embedding, self.position_embedding, self.final_w, self.final_b]
        tensors += [t for layer in self.layers for t in layer.values()]
        return sum(t.numel() * t.element_size() for t in tensors)

    def __call__(self, ids: torch.Tensor, lengths: torch.Tensor, padded: bool) -> torch.Tensor:
        """Embeds one batch; `padded` says whether any row is shorter than T (so the key mask is needed)."""
        batch, width = ids.shape
        positions = torch.arange(width, device=ids.device)
        valid = positions[None, :] < lengths[:, None]
        x = F.embedding(ids, self.token_embedding) + self.position_embedding[:width][None, :, :]
        key_mask = _additive_mask(valid, x.dtype) if padded else None
        for layer in self.layers:
            x = x + self._attention(F.layer_norm(x, (x.shape[-1],), layer["ln1_w"], layer["ln1_b"]), layer, key_mask)
            h = F.layer_norm(x, (x.shape[-1],), layer["ln2_w"], layer["ln2_b"])
            x = x + F.linear(F.gelu(F.linear(h, layer["fc1_w"], layer["fc1_b"])), layer["fc2_w"], layer["fc2_b"])
        x = F.layer_norm(x, (x.shape[-1],), self.final_w, self.final_b)
        # Mean over the residues only: position 0 is BOS/CLS, position length-1 is EOS/SEP.
        pool = (positions[None, :] >= 1) & (positions[None, :] < (lengths[:, None] - 1))
        summed = (x * pool[:, :, None].to(x.dtype)).sum(dim=1, dtype=torch.float32)
        return summed / pool.sum(dim=1, keepdim=True).clamp(min=1).to(torch.float32)

    def _attention(self, x: torch.Tensor, layer: Dict[str, torch.Tensor], key_mask) -> torch.Tensor:
        batch, width, d = x.shape
        heads = self.shape.heads
        qkv = F.linear(x, layer["qkv_w"], layer["qkv_b"]).view(batch, width, 3, heads, d // heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
        if _HAS_SDPA:
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=key_mask)
        else:
            scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(d // heads)
            if key_mask is not None:
                scores = scores + key_mask
            out = torch.matmul(torch.softmax(scores, dim=-1), v)
        return F.linear(out.transpose(1, 2).reshape(batch, width, d), layer["out_w"], layer["out_b"])


def _additive_mask(valid: torch.Tensor, dtype) -> torch.Tensor:
    """(B, 1, 1, T) mask added to attention scores: 0 where the key is a real token, -inf at padding. An additive mask in
    the compute dtype is what the fused attention kernels take without converting it."""
    mask = torch.zeros(valid.shape, dtype=dtype, device=valid.device)
    return mask.masked_fill_(~valid, float("-inf"))[:, None, None, :]


class _Factory:
    """Allocates parameters on the target device and dtype, filled from one seeded generator."""

    def __init__(self, device, dtype, generator) -> None:
        self.device, self.dtype, self.generator = device, dtype, generator

    def normal(self, shape, std: float) -> torch.Tensor:
        tensor = torch.empty(shape, device=self.device, dtype=self.dtype)
        return tensor.normal_(0.0, std, generator=self.generator)

    def ones(self, size: int) -> torch.Tensor:
        return torch.ones(size, device=self.device, dtype=self.dtype)

    def zeros(self, size: int) -> torch.Tensor:
        return torch.zeros(size, device=self.device, dtype=self.dtype)
