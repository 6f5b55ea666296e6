#!/usr/bin/python3
"""Makes the ONNX models the importer's tests (runtime/onnx) and sdk-run use.

Run with Debian's Python, which has python3-torch, python3-torchvision, python3-onnx and
python3-numpy:

    /usr/bin/python3 tests/data/generate_models.py               # the committed set, here
    /usr/bin/python3 tests/data/generate_models.py --large DIR   # resnet18, mobilenet_v2 and a
                                                                 # seq-128 transformer, into DIR

Every model <stem>.onnx comes with one <stem>.<tensor>.npy per graph input (the data to feed)
and per graph output (what PyTorch, or numpy for the hand-built single-op models, computed).
Seeds are fixed, so a rerun writes the same tensors. Models that must fail to import (bad_*)
have no .npy files. The committed set stays small (each file well under 1 MB); the large set is
made on demand (tests and benchmarks that need it run this script) and never committed.
"""

import argparse
import io
import os
import sys

try:
    import numpy as np
    import onnx
    import torch
    import torch.nn.functional as F
    from onnx import TensorProto, helper, numpy_helper
    MISSING = None
except ImportError as error:  # the committed set needs them all too; main() says so clearly
    torch = None
    MISSING = error.name

HERE = os.path.dirname(os.path.abspath(__file__))


# ---- Writing ------------------------------------------------------------------------------

def save_npy(folder, stem, name, array):
    np.save(os.path.join(folder, f"{stem}.{name}.npy"), np.ascontiguousarray(array))


def save_model(folder, stem, model):
    onnx.checker.check_model(model)
    data = model.SerializeToString()
    with open(os.path.join(folder, f"{stem}.onnx"), "wb") as f:
        f.write(data)
    return len(data)


def export_torch(folder, stem, module, inputs, opset, input_names=("input",),
                 output_names=("output",), dynamic_axes=None, do_constant_folding=True):
    """Exports `module` (eval mode) and writes its inputs and PyTorch's outputs."""
    module = module.eval()
    with torch.no_grad():
        outputs = module(*inputs)
    if not isinstance(outputs, (tuple, list)):
        outputs = (outputs,)
    buffer = io.BytesIO()
    torch.onnx.export(module, tuple(inputs), buffer, opset_version=opset,
                      input_names=list(input_names), output_names=list(output_names),
                      dynamic_axes=dynamic_axes, do_constant_folding=do_constant_folding)
    model = onnx.load_from_string(buffer.getvalue())
    size = save_model(folder, stem, model)
    for name, value in zip(input_names, inputs):
        save_npy(folder, stem, name, value.numpy())
    for name, value in zip(output_names, outputs):
        save_npy(folder, stem, name, value.numpy())
    return size


def randomize(module, seed):
    """Random weights everywhere, batch-norm statistics and layer-norm affine included, so no
    parameter is trivially 0 or 1 (PyTorch's exporter would also merge identical ones)."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, parameter in module.named_parameters():
            fan_in = parameter.shape[1] * int(np.prod(parameter.shape[2:])) if parameter.dim() > 1 else 4
            scale = 1.0 / np.sqrt(fan_in)
            if name.endswith("weight") and parameter.dim() == 1:  # norm scales: around 1
                parameter.copy_(1.0 + 0.2 * torch.randn(parameter.shape, generator=generator))
            else:
                parameter.copy_(scale * torch.randn(parameter.shape, generator=generator))
        for name, buffer in module.named_buffers():
            if name.endswith("running_mean"):
                buffer.copy_(0.1 * torch.randn(buffer.shape, generator=generator))
            elif name.endswith("running_var"):
                buffer.copy_(0.5 + torch.rand(buffer.shape, generator=generator))
    return module


def make_model(stem, nodes, inputs, outputs, initializers=(), opset=13, domains=()):
    graph = helper.make_graph(nodes, stem, inputs, outputs, initializer=list(initializers))
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in domains]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="generate_models.py")
    model.ir_version = 8
    return model


def value_info(name, array_or_shape, elem_type=None):
    elem_type = TensorProto.FLOAT if elem_type is None else elem_type
    shape = array_or_shape.shape if hasattr(array_or_shape, "shape") else array_or_shape
    return helper.make_tensor_value_info(name, elem_type, list(shape))


def tensor_type(array):
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.asarray(array).dtype]


def single_op_case(folder, stem, nodes, feeds, expected, initializers=(), opset=13,
                   output_types=None, check=True):
    """A hand-built model: `feeds` (name -> array) are the graph inputs, `expected` (name ->
    array) the outputs numpy computed."""
    output_types = output_types or {}
    inputs = [value_info(n, a, tensor_type(a)) for n, a in feeds.items()]
    outputs = [value_info(n, a, output_types.get(n, tensor_type(a)))
               for n, a in expected.items()]
    inits = [numpy_helper.from_array(np.asarray(a), n) for n, a in initializers]
    model = make_model(stem, nodes, inputs, outputs, inits, opset)
    (save_model if check else save_model_unchecked)(folder, stem, model)
    for name, array in list(feeds.items()) + list(expected.items()):
        save_npy(folder, stem, name, array)


# ---- Committed models from PyTorch ----------------------------------------------------------

class Mlp(torch.nn.Module if torch else object):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(64, 128)
        self.fc2 = torch.nn.Linear(128, 64)
        self.fc3 = torch.nn.Linear(64, 10)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.tanh(self.fc2(x))
        return torch.softmax(self.fc3(x), dim=-1)


class RnnTagger(torch.nn.Module if torch else object):
    """A sequence tagger as PyTorch exports it: two bidirectional LSTM layers (batch_first), a
    bidirectional GRU (linear_before_reset 1), a Linear per step."""

    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(6, 8, num_layers=2, bidirectional=True, batch_first=True)
        self.gru = torch.nn.GRU(16, 5, bidirectional=True, batch_first=True)
        self.head = torch.nn.Linear(10, 4)

    def forward(self, x):
        x, _ = self.lstm(x)
        x, _ = self.gru(x)
        return self.head(x)


class TinyCnn(torch.nn.Module if torch else object):
    def __init__(self):
        super().__init__()
        nn = torch.nn
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                                  nn.MaxPool2d(2))
        self.down = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU6())
        self.depthwise = nn.Sequential(nn.Conv2d(16, 16, 3, padding=2, dilation=2, groups=16),
                                       nn.Hardswish())
        self.pool = nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
        self.norm = nn.BatchNorm2d(16)  # after a pooling layer: stays a BatchNormalization node
        self.head = nn.Sequential(nn.Conv2d(16, 32, 1), nn.LeakyReLU(0.1), nn.AdaptiveAvgPool2d(1),
                                  nn.Flatten(), nn.Linear(32, 10), nn.Sigmoid())

    def forward(self, x):
        x = self.down(self.stem(x))
        x = x + self.depthwise(x)
        return self.head(self.norm(self.pool(x)))


class ShapeSubgraph(torch.nn.Module if torch else object):
    """Exported with a dynamic batch and without constant folding: Shape, Gather, Unsqueeze,
    Concat, ConstantOfShape, Equal, Where, Expand and friends for the importer to fold."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(12, 6)

    def forward(self, x):
        y = x.reshape(x.size(0), -1)                               # Shape/Gather/Concat/Reshape
        z = y.unsqueeze(1).expand(x.size(0), 3, y.size(1))         # Expand via Where/Equal
        w = z.sum(1) + y[:, 1:5].mean()                            # ReduceSum axes input, Slice
        return self.fc(w).reshape(x.size(0), 2, 3).transpose(1, 2)  # back to 3-D


class TinyBert(torch.nn.Module if torch else object):
    """A BERT-style encoder: int64 token ids and an int64 attention mask (1 = token, 0 = padding),
    token + position embeddings, self-attention with the mask as an additive bias, GELU feed-forward,
    post-layer-norm; exported with symbolic batch and sequence axes."""

    def __init__(self, vocab=50, d=32, heads=4, ff=64, layers=2, max_len=64):
        super().__init__()
        nn = torch.nn
        self.heads = heads
        self.tokens = nn.Embedding(vocab, d)
        self.positions = nn.Embedding(max_len, d)
        self.qkv = nn.ModuleList([nn.Linear(d, 3 * d) for _ in range(layers)])
        self.out = nn.ModuleList([nn.Linear(d, d) for _ in range(layers)])
        self.norm1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))
                                 for _ in range(layers)])
        self.norm2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])

    def forward(self, input_ids, attention_mask):
        batch, seq = input_ids.shape
        positions = torch.arange(seq, dtype=torch.int64).unsqueeze(0)
        x = self.tokens(input_ids) + self.positions(positions)
        bias = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * -10000.0
        d = x.shape[-1]
        for qkv, out, norm1, ff, norm2 in zip(self.qkv, self.out, self.norm1, self.ff, self.norm2):
            q, k, v = qkv(x).reshape(batch, seq, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
            scores = q @ k.transpose(-1, -2) / float(np.sqrt(d // self.heads)) + bias
            attended = (torch.softmax(scores, -1) @ v).transpose(1, 2).reshape(batch, seq, d)
            x = norm1(x + out(attended))
            x = norm2(x + ff(x))
        return x


class TinyGpt(torch.nn.Module if torch else object):
    """A GPT-style decoder as a user writes one: the causal mask made with torch.triu and applied
    with torch.where (-inf above the diagonal: the masked softmax entries are exactly 0), the
    fused QKV projection split with Tensor.split, pre-norm blocks, the tied LM head."""

    def __init__(self, vocab=50, d=32, heads=4, layers=2, max_len=16):
        super().__init__()
        nn = torch.nn
        self.heads = heads
        self.tokens = nn.Embedding(vocab, d)
        self.positions = nn.Embedding(max_len, d)
        self.norm1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
        self.qkv = nn.ModuleList([nn.Linear(d, 3 * d) for _ in range(layers)])
        self.out = nn.ModuleList([nn.Linear(d, d) for _ in range(layers)])
        self.norm2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
                                 for _ in range(layers)])

    def forward(self, input_ids):
        batch, seq = input_ids.shape
        d = self.tokens.weight.shape[1]
        positions = torch.arange(seq, dtype=torch.int64).unsqueeze(0)
        x = self.tokens(input_ids) + self.positions(positions)
        future = torch.triu(torch.ones(seq, seq, dtype=torch.bool), diagonal=1)
        bias = torch.where(future, torch.tensor(float("-inf")), torch.tensor(0.0))
        for norm1, qkv, out, norm2, ff in zip(self.norm1, self.qkv, self.out, self.norm2, self.ff):
            q, k, v = (t.view(batch, seq, self.heads, d // self.heads).transpose(1, 2)
                       for t in qkv(norm1(x)).split(d, dim=2))
            scores = q @ k.transpose(-1, -2) / float(np.sqrt(d // self.heads)) + bias
            x = x + out((torch.softmax(scores, -1) @ v).transpose(1, 2).reshape(batch, seq, d))
            x = x + ff(norm2(x))
        return x @ self.tokens.weight.t()


def bert_dynamic_model(folder):
    """bert_dynamic.onnx (dynamic batch and sequence) and PyTorch's outputs for two input sets:
    s16 (batch 1, 16 tokens) and s40 (batch 2, 40 tokens, the second row padded after 25)."""
    torch.manual_seed(6)
    bert = randomize(TinyBert(), 6).eval()
    generator = torch.Generator().manual_seed(16)
    sets = {}
    for name, batch, seq, lengths in (("s16", 1, 16, (16,)), ("s40", 2, 40, (40, 25))):
        ids = torch.randint(1, 50, (batch, seq), generator=generator, dtype=torch.int64)
        mask = torch.zeros(batch, seq, dtype=torch.int64)
        for row, length in enumerate(lengths):
            mask[row, :length] = 1
            ids[row, length:] = 0
        sets[name] = (ids, mask)
    buffer = io.BytesIO()
    axes = {0: "batch", 1: "sequence"}
    torch.onnx.export(bert, sets["s16"], buffer, opset_version=13,
                      input_names=["input_ids", "attention_mask"], output_names=["hidden"],
                      dynamic_axes={"input_ids": axes, "attention_mask": axes, "hidden": axes})
    size = save_model(folder, "bert_dynamic", onnx.load_from_string(buffer.getvalue()))
    for name, (ids, mask) in sets.items():
        with torch.no_grad():
            hidden = bert(ids, mask)
        save_npy(folder, f"bert_dynamic.{name}", "input_ids", ids.numpy())
        save_npy(folder, f"bert_dynamic.{name}", "attention_mask", mask.numpy())
        save_npy(folder, f"bert_dynamic.{name}", "hidden", hidden.numpy())
    return size


def transformer_layer(d_model, nhead, ff, activation, seed):
    torch.manual_seed(seed)
    layer = torch.nn.TransformerEncoderLayer(d_model, nhead, ff, dropout=0.0,
                                             activation=activation, batch_first=True)
    return randomize(layer, seed)


def committed_torch_models(folder):
    sizes = {}
    torch.manual_seed(1)
    mlp = randomize(Mlp(), 1)
    x = torch.randn(4, 64, generator=torch.Generator().manual_seed(11))
    sizes["mlp"] = export_torch(folder, "mlp", mlp, [x], 13)
    # The same MLP with a symbolic batch: importing needs ImportOptions::input_shapes.
    buffer = io.BytesIO()
    torch.onnx.export(mlp.eval(), (x,), buffer, opset_version=13, input_names=["input"],
                      output_names=["output"], dynamic_axes={"input": {0: "batch"}})
    sizes["mlp_dynamic"] = save_model(folder, "mlp_dynamic", onnx.load_from_string(buffer.getvalue()))

    torch.manual_seed(2)
    cnn = randomize(TinyCnn(), 2)
    x = torch.randn(2, 3, 32, 32, generator=torch.Generator().manual_seed(12))
    sizes["cnn"] = export_torch(folder, "cnn", cnn, [x], 13)

    torch.manual_seed(3)
    shape = randomize(ShapeSubgraph(), 3)
    x = torch.randn(2, 3, 4, generator=torch.Generator().manual_seed(13))
    sizes["shape_subgraph"] = export_torch(folder, "shape_subgraph", shape, [x], 13,
                                           dynamic_axes={"input": {0: "batch"}},
                                           do_constant_folding=False)

    x = torch.randn(2, 16, 32, generator=torch.Generator().manual_seed(14))
    # Opset 17: LayerNormalization nodes; GELU exported as its Erf pattern.
    sizes["transformer"] = export_torch(folder, "transformer",
                                        transformer_layer(32, 4, 64, "gelu", 4), [x], 17)
    # Opset 13: layer norm as ReduceMean/Sub/Pow/Sqrt/Div.
    sizes["transformer_opset13"] = export_torch(folder, "transformer_opset13",
                                                transformer_layer(32, 4, 64, "relu", 5), [x], 13)

    torch.manual_seed(8)
    x = torch.randn(2, 7, 6, generator=torch.Generator().manual_seed(18))
    sizes["rnn_tagger"] = export_torch(folder, "rnn_tagger", randomize(RnnTagger(), 8), [x], 14)
    sizes.update(family_block_models(folder))
    sizes["bert_dynamic"] = bert_dynamic_model(folder)
    torch.manual_seed(9)
    ids = torch.randint(0, 50, (1, 16), generator=torch.Generator().manual_seed(19), dtype=torch.int64)
    sizes["gpt_causal"] = export_torch(folder, "gpt_causal", randomize(TinyGpt(), 9), [ids], 17,
                                       input_names=("input_ids",), output_names=("logits",))
    return sizes


def family_block_models(folder):
    """Small instances of the torchvision families' building blocks (bench/peers/families.py
    runs the full models): ConvNeXt's block (channels-last LayerNorm, GELU, layer scale),
    EfficientNet's MBConv (SiLU, squeeze-and-excitation), MobileNetV3's block (HardSwish,
    HardSigmoid gate) at opsets 13 (the composite ops decomposed) and 17; and a one-stage Swin
    (shifted-window attention: its mask made by ScatterND on constants, a ratio-0 training-mode
    Dropout) at opset 13, 28x28 tokens in windows of 7."""
    import torchvision
    from torchvision.models import convnext, efficientnet, mobilenetv3, swin_transformer

    sizes = {}
    torch.manual_seed(6)
    blocks = torch.nn.Sequential(
        torch.nn.Conv2d(3, 16, 3, padding=1),
        convnext.CNBlock(16, layer_scale=0.5, stochastic_depth_prob=0.0),
        efficientnet.MBConv(efficientnet.MBConvConfig(4, 3, 1, 16, 16, 1), 0.0, torch.nn.BatchNorm2d),
        mobilenetv3.InvertedResidual(mobilenetv3.InvertedResidualConfig(16, 3, 48, 16, True, "HS", 1, 1, 1.0),
                                     torch.nn.BatchNorm2d))
    blocks = randomize(blocks, 6)
    x = torch.randn(1, 3, 16, 16, generator=torch.Generator().manual_seed(16))
    sizes["family_blocks"] = export_torch(folder, "family_blocks", blocks, [x], 13)
    sizes["family_blocks_opset17"] = export_torch(folder, "family_blocks_opset17", blocks, [x], 17)

    torch.manual_seed(7)
    swin = swin_transformer.SwinTransformer(patch_size=[4, 4], embed_dim=16, depths=[2], num_heads=[2],
                                            window_size=[7, 7], num_classes=10)
    swin = randomize(swin, 7)
    x = torch.randn(1, 3, 112, 112, generator=torch.Generator().manual_seed(17))
    sizes["swin_stage"] = export_torch(folder, "swin_stage", swin, [x], 13)
    del torchvision
    return sizes


# ---- Committed single-op models (hand-built, numpy reference) -------------------------------

def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def conv2d(x, w, pads, stride):
    """Reference convolution: pads = (top, left, bottom, right)."""
    with torch.no_grad():
        padded = F.pad(torch.from_numpy(x), (pads[1], pads[3], pads[0], pads[2]))
        return F.conv2d(padded, torch.from_numpy(w), stride=stride).numpy()


def single_op_models(folder):
    rng = np.random.RandomState(20)
    f32 = np.float32

    # Conv auto_pad: 8x8 input, 3x3 kernel, stride 2 -> 4x4; total padding 1 per axis, which
    # SAME_UPPER puts at the end and SAME_LOWER at the beginning.
    x = rng.randn(1, 2, 8, 8).astype(f32)
    w = (0.3 * rng.randn(3, 2, 3, 3)).astype(f32)
    nodes = [helper.make_node("Conv", ["x", "w"], ["same_upper"], name="conv_same_upper",
                              auto_pad="SAME_UPPER", strides=[2, 2]),
             helper.make_node("Conv", ["x", "w"], ["same_lower"], name="conv_same_lower",
                              auto_pad="SAME_LOWER", strides=[2, 2], kernel_shape=[3, 3]),
             helper.make_node("Conv", ["x", "w"], ["valid"], name="conv_valid", auto_pad="VALID",
                              strides=[2, 2])]
    single_op_case(folder, "op_conv_auto_pad", nodes, {"x": x},
                   {"same_upper": conv2d(x, w, (0, 0, 1, 1), 2),
                    "same_lower": conv2d(x, w, (1, 1, 0, 0), 2),
                    "valid": conv2d(x, w, (0, 0, 0, 0), 2)},
                   initializers=[("w", w)])

    # Softmax axis=1 on [2,3,4]: opset 11 coerces to 2-D ([2,12]); opset 13 is per axis.
    x = rng.randn(2, 3, 4).astype(f32)
    node = helper.make_node("Softmax", ["x"], ["y"], name="softmax", axis=1)
    single_op_case(folder, "op_softmax_opset11", [node], {"x": x},
                   {"y": softmax(x.reshape(2, 12), 1).reshape(2, 3, 4)}, opset=11)
    single_op_case(folder, "op_softmax_opset13", [node], {"x": x}, {"y": softmax(x, 1)}, opset=13)
    # Opset 11 default axis (1) and the last axis (plain softmax).
    nodes = [helper.make_node("Softmax", ["x"], ["default_axis"], name="softmax_default"),
             helper.make_node("Softmax", ["x"], ["last_axis"], name="softmax_last", axis=-1)]
    single_op_case(folder, "op_softmax_opset11_axes", nodes, {"x": x},
                   {"default_axis": softmax(x.reshape(2, 12), 1).reshape(2, 3, 4),
                    "last_axis": softmax(x, 2)}, opset=11)

    # Clip with min and max as inputs (opset 11+), with only max (min named ""), and none.
    x = (2 * rng.randn(3, 5)).astype(f32)
    nodes = [helper.make_node("Clip", ["x", "lo", "hi"], ["both"], name="clip_both"),
             helper.make_node("Clip", ["x", "", "hi"], ["max_only"], name="clip_max_only"),
             helper.make_node("Clip", ["x", "lo"], ["min_only"], name="clip_min_only"),
             helper.make_node("Clip", ["x"], ["none"], name="clip_none")]
    single_op_case(folder, "op_clip", nodes, {"x": x},
                   {"both": np.clip(x, -0.5, 1.5), "max_only": np.minimum(x, 1.5),
                    "min_only": np.maximum(x, -0.5), "none": x.copy()},
                   initializers=[("lo", np.array(-0.5, f32)), ("hi", np.array(1.5, f32))])

    # Slice with negative steps, negative starts and clamped ends; starts/ends as initializers,
    # and axes/steps from a Constant node.
    x = rng.randn(4, 6, 5).astype(f32)
    big = np.iinfo(np.int64).min
    nodes = [helper.make_node("Constant", [], ["axes"], name="axes",
                              value=numpy_helper.from_array(np.array([0, 2], np.int64))),
             helper.make_node("Constant", [], ["steps"], name="steps",
                              value=numpy_helper.from_array(np.array([-1, -2], np.int64))),
             helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["reversed"],
                              name="slice_negative"),
             helper.make_node("Slice", ["x", "starts2", "ends2"], ["middle"], name="slice_plain")]
    single_op_case(folder, "op_slice", nodes, {"x": x},
                   {"reversed": x[::-1, :, 4:0:-2], "middle": x[1:-1, -4:100]},
                   initializers=[("starts", np.array([-1, 4], np.int64)),
                                 ("ends", np.array([big, 0], np.int64)),
                                 ("starts2", np.array([1, -4], np.int64)),
                                 ("ends2", np.array([-1, 100], np.int64))])

    # Pooling: ceil_mode, dilations, count_include_pad, auto_pad. 10x10 input.
    x = rng.randn(1, 2, 10, 10).astype(f32)
    nodes = [helper.make_node("MaxPool", ["x"], ["max_ceil"], name="max_ceil", kernel_shape=[3, 3],
                              strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1),
             helper.make_node("MaxPool", ["x"], ["max_dilated"], name="max_dilated",
                              kernel_shape=[2, 2], dilations=[2, 2]),
             helper.make_node("AveragePool", ["x"], ["avg_include_pad"], name="avg_include_pad",
                              kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
                              count_include_pad=1),
             helper.make_node("AveragePool", ["x"], ["avg_same_upper"], name="avg_same_upper",
                              kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER"),
             helper.make_node("GlobalMaxPool", ["x"], ["global_max"], name="global_max")]
    t = torch.from_numpy(x)
    with torch.no_grad():
        expected = {
            "max_ceil": F.max_pool2d(t, 3, 2, 1, ceil_mode=True).numpy(),
            "max_dilated": F.max_pool2d(t, 2, 1, 0, dilation=2).numpy(),
            "avg_include_pad": F.avg_pool2d(t, 3, 2, 1, count_include_pad=True).numpy(),
            "global_max": t.amax(dim=(2, 3), keepdim=True).numpy(),
        }
    # SAME_UPPER, 10 -> 5 with kernel 3, stride 2: total padding 1, at the end, not counted.
    padded = np.pad(x, ((0, 0), (0, 0), (0, 1), (0, 1)), constant_values=np.nan)
    same = np.empty((1, 2, 5, 5), f32)
    for i in range(5):
        for j in range(5):
            same[:, :, i, j] = np.nanmean(padded[:, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3], axis=(2, 3))
    expected["avg_same_upper"] = same
    single_op_case(folder, "op_pooling", nodes, {"x": x}, expected)

    # Gemm attributes: transA, alpha, beta, a C of shape [N].
    a = rng.randn(5, 3).astype(f32)
    b = rng.randn(5, 4).astype(f32)
    c = rng.randn(4).astype(f32)
    node = helper.make_node("Gemm", ["a", "b", "c"], ["y"], name="gemm", transA=1, alpha=0.5,
                            beta=2.0)
    single_op_case(folder, "op_gemm", [node], {"a": a}, {"y": 0.5 * a.T @ b + 2.0 * c},
                   initializers=[("b", b), ("c", c)])

    # Data movement with constant parameters from inputs: Split (sizes input), Unsqueeze,
    # Squeeze, Expand, Tile, Pad (reflect), Gather, Concat, Transpose, Flatten, ReduceSum.
    x = rng.randn(2, 3, 4).astype(f32)
    i64 = lambda *v: np.array(v, np.int64)  # noqa: E731
    nodes = [
        helper.make_node("Split", ["x", "split_sizes"], ["split_a", "split_b"], name="split", axis=2),
        helper.make_node("Unsqueeze", ["split_a", "unsqueeze_axes"], ["unsqueezed"], name="unsqueeze"),
        helper.make_node("Squeeze", ["unsqueezed", "squeeze_axes"], ["squeezed"], name="squeeze"),
        helper.make_node("Expand", ["row", "expand_shape"], ["expanded"], name="expand"),
        helper.make_node("Tile", ["split_b", "tile_repeats"], ["tiled"], name="tile"),
        helper.make_node("Pad", ["x", "pads"], ["padded"], name="pad_reflect", mode="reflect"),
        helper.make_node("Pad", ["x", "pads", "pad_value"], ["padded_const"], name="pad_const"),
        helper.make_node("Gather", ["x", "indices"], ["gathered"], name="gather", axis=1),
        # One constant index: imported as a Slice (and a Reshape dropping the axis for a scalar).
        helper.make_node("Gather", ["x", "last_index"], ["gathered_scalar"], name="gather_scalar", axis=1),
        helper.make_node("Gather", ["x", "one_index"], ["gathered_one"], name="gather_one", axis=2),
        helper.make_node("Concat", ["split_b", "split_a"], ["concatenated"], name="concat", axis=-1),
        helper.make_node("Transpose", ["x"], ["transposed"], name="transpose", perm=[2, 0, 1]),
        helper.make_node("Flatten", ["x"], ["flattened"], name="flatten", axis=2),
        helper.make_node("ReduceSum", ["x", "reduce_axes"], ["summed"], name="reduce_sum", keepdims=0),
        helper.make_node("ReduceMean", ["x"], ["mean"], name="reduce_mean", axes=[-1]),
    ]
    row = rng.randn(3, 1).astype(f32)
    expected = {
        "squeezed": x[:, :, :1],
        "expanded": np.broadcast_to(row, (2, 3, 5)).copy(),
        "tiled": np.tile(x[:, :, 1:], (2, 1, 2)),
        "padded": np.pad(x, ((0, 0), (1, 2), (2, 0)), mode="reflect"),
        "padded_const": np.pad(x, ((0, 0), (1, 2), (2, 0)), constant_values=0.25),
        "gathered": np.take(x, [2, -3, 1], axis=1),
        "gathered_scalar": np.take(x, -1, axis=1),
        "gathered_one": np.take(x, [1], axis=2),
        "concatenated": np.concatenate([x[:, :, 1:], x[:, :, :1]], axis=-1),
        "transposed": x.transpose(2, 0, 1),
        "flattened": x.reshape(6, 4),
        "summed": x.sum(axis=(0, 2)),
        "mean": x.mean(axis=-1, keepdims=True),
    }
    single_op_case(folder, "op_data_movement", nodes, {"x": x}, expected,
                   initializers=[("split_sizes", i64(1, 3)), ("unsqueeze_axes", i64(0, -1)),
                                 ("squeeze_axes", i64(0, 4)), ("row", row),
                                 ("expand_shape", i64(2, 1, 5)), ("tile_repeats", i64(2, 1, 2)),
                                 ("pads", i64(0, 1, 2, 0, 2, 0)), ("pad_value", np.array(0.25, f32)),
                                 ("indices", i64(2, -3, 1)), ("last_index", np.array(-1, np.int64)),
                                 ("one_index", i64(1)), ("reduce_axes", i64(0, 2))])

    # Elementwise ops and activations.
    x = rng.randn(3, 4).astype(f32)
    y = (rng.rand(4) + 0.5).astype(f32)
    un = lambda op, out, inp="x", **kw: helper.make_node(op, [inp], [out], name=out, **kw)  # noqa: E731
    bi = lambda op, out, a="x", b="y": helper.make_node(op, [a, b], [out], name=out)  # noqa: E731
    nodes = [bi("Add", "add"), bi("Sub", "sub"), bi("Mul", "mul"), bi("Div", "div"),
             bi("Max", "max"), bi("Min", "min"), bi("Pow", "pow", "y", "two"),
             un("Sqrt", "sqrt", "y"), un("Exp", "exp"), un("Log", "log", "y"), un("Abs", "abs"),
             un("Neg", "neg"), un("Erf", "erf"), un("Reciprocal", "reciprocal", "y"),
             un("Relu", "relu"), un("Sigmoid", "sigmoid"), un("Tanh", "tanh"),
             un("LeakyRelu", "leaky_relu", alpha=0.2), un("HardSigmoid", "hard_sigmoid"),
             un("HardSwish", "hard_swish"), un("Identity", "identity"),
             helper.make_node("Sum", ["x", "y", "x"], ["sum"], name="sum")]
    with torch.no_grad():
        erf = torch.erf(torch.from_numpy(x)).numpy()
    expected = {"add": x + y, "sub": x - y, "mul": x * y, "div": x / y, "max": np.maximum(x, y),
                "min": np.minimum(x, y), "pow": y ** 2, "sqrt": np.sqrt(y), "exp": np.exp(x),
                "log": np.log(y), "abs": np.abs(x), "neg": -x, "erf": erf, "reciprocal": 1 / y,
                "relu": np.maximum(x, 0), "sigmoid": 1 / (1 + np.exp(-x)), "tanh": np.tanh(x),
                "leaky_relu": np.where(x < 0, 0.2 * x, x),
                "hard_sigmoid": np.clip(0.2 * x + 0.5, 0, 1),
                "hard_swish": x * np.clip(x + 3, 0, 6) / 6, "identity": x.copy(), "sum": 2 * x + y}
    expected = {k: v.astype(f32) for k, v in expected.items()}
    single_op_case(folder, "op_elementwise", nodes, {"x": x}, expected,
                   initializers=[("y", y), ("two", np.array(2.0, f32))], opset=14)

    # Normalization: BatchNormalization (inference) and LayerNormalization (opset 17).
    x = rng.randn(2, 3, 4, 5).astype(f32)
    scale, bias = rng.randn(3).astype(f32), rng.randn(3).astype(f32)
    mean, var = rng.randn(3).astype(f32), (rng.rand(3) + 0.5).astype(f32)
    ln_scale, ln_bias = rng.randn(4, 5).astype(f32), rng.randn(4, 5).astype(f32)
    nodes = [helper.make_node("BatchNormalization", ["x", "scale", "bias", "mean", "var"], ["bn"],
                              name="bn", epsilon=1e-3),
             helper.make_node("LayerNormalization", ["x", "ln_scale", "ln_bias"], ["ln"],
                              name="ln", axis=-2, epsilon=1e-4)]
    r = lambda v: v.reshape(1, 3, 1, 1)  # noqa: E731
    bn = r(scale) * (x - r(mean)) / np.sqrt(r(var) + 1e-3) + r(bias)
    mu = x.mean(axis=(2, 3), keepdims=True)
    sigma2 = ((x - mu) ** 2).mean(axis=(2, 3), keepdims=True)
    ln = (x - mu) / np.sqrt(sigma2 + 1e-4) * ln_scale + ln_bias
    single_op_case(folder, "op_normalization", nodes, {"x": x},
                   {"bn": bn.astype(f32), "ln": ln.astype(f32)},
                   initializers=[("scale", scale), ("bias", bias), ("mean", mean), ("var", var),
                                 ("ln_scale", ln_scale), ("ln_bias", ln_bias)], opset=17)

    # Nodes out of order: the importer sorts them.
    x = rng.randn(2, 3).astype(f32)
    nodes = [helper.make_node("Neg", ["t"], ["y"], name="second"),
             helper.make_node("Relu", ["x"], ["t"], name="first")]
    single_op_case(folder, "op_unsorted", nodes, {"x": x}, {"y": -np.maximum(x, 0)},
                   check=False)  # the checker rejects unsorted graphs

    # Outputs whose extent depends on the input values (NonZero, one with nothing found,
    # Compress along an axis, Unique in order of first occurrence, NonMaxSuppression as ONNX's
    # suppress_by_IOU example): bound-shaped layers whose outputs sdk-run trims to these shapes.
    x = np.array([[0, 1.5, 0], [2, 0, -3]], f32)
    zeros = np.zeros((2, 2), f32)
    u = np.array([2, 1, 1, 3, 4, 3], np.int64)
    boxes = np.array([[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                       [0, 10.1, 1, 11.1], [0, 100, 1, 101]]], f32)
    scores = np.array([[[0.9, 0.75, 0.6, 0.95, 0.5, 0.3]]], f32)
    condition = np.array([True, False, True])
    nodes = [helper.make_node("NonZero", ["x"], ["nonzero"], name="nonzero"),
             helper.make_node("NonZero", ["zeros"], ["none"], name="none"),
             helper.make_node("Compress", ["x", "condition"], ["compressed"], name="compress", axis=1),
             helper.make_node("Unique", ["u"], ["unique", "first", "inverse", "counts"], name="unique",
                              sorted=0),
             helper.make_node("NonMaxSuppression", ["boxes", "scores", "max_boxes", "iou"], ["selected"],
                              name="nms")]
    y, first, inverse, counts = np.unique(u, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(first)  # sorted=0: in the order of first occurrence
    single_op_case(folder, "op_data_dependent", nodes,
                   {"x": x, "zeros": zeros, "u": u, "boxes": boxes, "scores": scores},
                   {"nonzero": np.array(np.nonzero(x), np.int64), "none": np.array(np.nonzero(zeros), np.int64),
                    "compressed": np.compress(condition, x, axis=1), "unique": y[order],
                    "first": first[order].astype(np.int64),
                    "inverse": np.argsort(order)[inverse].astype(np.int64),
                    "counts": counts[order].astype(np.int64),
                    "selected": np.array([[0, 0, 3], [0, 0, 0], [0, 0, 5]], np.int64)},
                   initializers=[("condition", condition), ("max_boxes", np.array([3], np.int64)),
                                 ("iou", np.array([0.5], f32))])


# ---- Quantized models (hand-built: ORT's quantization tool is not packaged) -----------------

def ort_requantize(acc, multiplier, zero_point, dtype):
    """ONNX Runtime's requantization of an i32 accumulator: f32(acc) times the f32 multiplier,
    rounded half to even, plus the zero point, saturated to `dtype`."""
    scaled = np.rint(acc.astype(np.float32) * np.asarray(multiplier, np.float32))
    info = np.iinfo(dtype)
    return np.clip(scaled.astype(np.float64) + int(zero_point), info.min, info.max).astype(dtype)


def quantize_linear(x, scale, zero_point, dtype):
    info = np.iinfo(dtype)
    scaled = np.rint(x / np.float32(scale)).astype(np.float64)
    return np.clip(scaled + int(zero_point), info.min, info.max).astype(dtype)


def sliding_conv(x, w, pads, stride):
    """2-D convolution (groups 1) by its definition, in x's and w's dtype: pads = (top, left,
    bottom, right), zeros in the padding."""
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    kh, kw = w.shape[2:]
    ho, wo = (xp.shape[2] - kh) // stride + 1, (xp.shape[3] - kw) // stride + 1
    y = np.zeros((x.shape[0], w.shape[0], ho, wo), np.result_type(x, w))
    for i in range(ho):
        for j in range(wo):
            window = xp[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            y[:, :, i, j] = np.tensordot(window, w, axes=([1, 2, 3], [1, 2, 3]))
    return y


def integer_conv(x, x_zero, w, w_zero, pads, stride):
    """Exact 2-D ConvInteger: the padding reads as the zero point, adding 0."""
    wc = w.astype(np.int64) - np.asarray(w_zero, np.int64).reshape(-1, 1, 1, 1)
    return sliding_conv(x.astype(np.int64) - int(x_zero), wc, pads, stride).astype(np.int32)


def quantized_net(power_of_two_scales):
    """The parameters of quantized_models' tiny conv net, seed fixed. With power_of_two_scales
    every scale is rounded to a power of two, so its float (QDQ) form computes exactly in f32 on
    any backend, whatever the summation order."""
    rng = np.random.RandomState(39)
    f32 = np.float32

    def scale(value):
        value = np.asarray(value, f32)
        return (np.exp2(np.round(np.log2(value))) if power_of_two_scales else value).astype(f32)

    p = {"x": rng.uniform(-1, 1, (1, 3, 8, 8)).astype(f32),
         "sx": scale(0.008), "zx": np.uint8(128),
         "w1": rng.randint(-127, 128, (4, 3, 3, 3)).astype(np.int8),    # per output channel
         "s_w1": scale(rng.uniform(0.002, 0.006, 4)), "z_w1": np.zeros(4, np.int8),
         "b1": rng.randint(-3000, 3000, 4).astype(np.int32),
         "s1": scale(0.02), "z1": np.uint8(100),
         "w2": rng.randint(-127, 128, (6, 4, 3, 3)).astype(np.int8),    # per tensor
         "s_w2": scale(0.004), "z_w2": np.int8(0),
         "b2": rng.randint(-3000, 3000, 6).astype(np.int32),
         "s2": scale(0.03), "z2": np.uint8(120),
         "w3": rng.randint(-127, 128, (96, 10)).astype(np.int8),        # per column
         "s_w3": scale(rng.uniform(0.002, 0.006, 10)), "z_w3": np.zeros(10, np.int8),
         "s3": scale(0.05), "z3": np.uint8(128),
         "shape": np.array([1, 96], np.int64)}
    return p


def quantized_models(folder):
    """A tiny conv net (Conv 3->4 with pads, Conv 4->6 stride 2, flatten, MatMul 96->10) quantized
    as ONNX Runtime's tool writes it, in its two formats: QOperator (QLinearConv, QLinearMatMul;
    expected: numpy's exact integer arithmetic with ORT's requantization) and QDQ (Quantize- and
    DequantizeLinear around float Conv and MatMul, int8 weights and int32 biases behind
    DequantizeLinear, power-of-two scales; expected: the same graph in float64, which f32 computes
    exactly with such scales)."""
    f32 = np.float32
    p = quantized_net(power_of_two_scales=False)
    x, sx, zx, s1, z1, s2, z2, s3, z3 = (p[k] for k in ("x", "sx", "zx", "s1", "z1", "s2", "z2", "s3", "z3"))
    w1, s_w1, z_w1, b1, w2, s_w2, z_w2, b2, w3, s_w3, z_w3 = (
        p[k] for k in ("w1", "s_w1", "z_w1", "b1", "w2", "s_w2", "z_w2", "b2", "w3", "s_w3", "z_w3"))

    def init(**arrays):  # initializers as single_op_case takes them
        return list(arrays.items())

    common = init(**{k: p[k] for k in ("sx", "zx", "s1", "z1", "s2", "z2", "s3", "z3", "shape")})

    # QOperator.
    xq = quantize_linear(x, sx, zx, np.uint8)
    acc1 = integer_conv(xq, zx, w1, z_w1, (1, 1, 1, 1), 1) + b1.reshape(4, 1, 1)
    y1 = ort_requantize(acc1, (sx * s_w1 / s1).reshape(4, 1, 1), z1, np.uint8)
    acc2 = integer_conv(y1, z1, w2, np.full(6, z_w2), (1, 1, 1, 1), 2) + b2.reshape(6, 1, 1)
    y2 = ort_requantize(acc2, s1 * s_w2 / s2, z2, np.uint8)
    acc3 = (y2.reshape(1, 96).astype(np.int32) - int(z2)) @ w3.astype(np.int32)
    y3 = ort_requantize(acc3, s2 * s_w3 / s3, z3, np.uint8)
    expected = (y3.astype(f32) - f32(z3)) * s3
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"], name="quantize"),
        helper.make_node("QLinearConv", ["xq", "sx", "zx", "w1", "s_w1", "z_w1", "s1", "z1", "b1"],
                         ["y1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("QLinearConv", ["y1", "s1", "z1", "w2", "s_w2", "z_w2", "s2", "z2", "b2"],
                         ["y2"], name="conv2", pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Reshape", ["y2", "shape"], ["flat"], name="flatten"),
        helper.make_node("QLinearMatMul", ["flat", "s2", "z2", "w3", "s_w3", "z_w3", "s3", "z3"],
                         ["y3"], name="fc"),
        helper.make_node("DequantizeLinear", ["y3", "s3", "z3"], ["output"], name="dequantize")]
    weights = init(w1=w1, s_w1=s_w1, z_w1=z_w1, b1=b1, w2=w2, s_w2=s_w2, z_w2=z_w2, b2=b2,
                   w3=w3, s_w3=s_w3, z_w3=z_w3)
    single_op_case(folder, "quantized_qoperator", nodes, {"x": x}, {"output": expected},
                   common + weights)

    # QDQ: the float ops between DequantizeLinear and QuantizeLinear, as written.
    p = quantized_net(power_of_two_scales=True)
    x, sx, zx, s1, z1, s2, z2, s3, z3 = (p[k] for k in ("x", "sx", "zx", "s1", "z1", "s2", "z2", "s3", "z3"))
    w1, s_w1, z_w1, b1, w2, s_w2, z_w2, b2, w3, s_w3, z_w3 = (
        p[k] for k in ("w1", "s_w1", "z_w1", "b1", "w2", "s_w2", "z_w2", "b2", "w3", "s_w3", "z_w3"))
    common = init(**{k: p[k] for k in ("sx", "zx", "s1", "z1", "s2", "z2", "s3", "z3", "shape")})
    def qdq(name, source, scale, zero):
        return [helper.make_node("QuantizeLinear", [source, scale, zero], [name + "_q"], name=name + "_q"),
                helper.make_node("DequantizeLinear", [name + "_q", scale, zero], [name], name=name + "_dq")]

    def dequantized_weight(name, axis):
        return helper.make_node("DequantizeLinear", [name + "_int", name + "_scale", name + "_zero"],
                                [name], name=name + "_dq", axis=axis)

    nodes = (qdq("xd", "x", "sx", "zx")
             + [dequantized_weight("w1", 0), dequantized_weight("b1", 0),
                helper.make_node("Conv", ["xd", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1])]
             + qdq("c1d", "c1", "s1", "z1")
             + [dequantized_weight("w2", 0), dequantized_weight("b2", 0),
                helper.make_node("Conv", ["c1d", "w2", "b2"], ["c2"], name="conv2", pads=[1, 1, 1, 1],
                                 strides=[2, 2])]
             + qdq("c2d", "c2", "s2", "z2")
             + [helper.make_node("Reshape", ["c2d", "shape"], ["flat"], name="flatten"),
                dequantized_weight("w3", 1),
                helper.make_node("MatMul", ["flat", "w3"], ["m"], name="fc")]
             + qdq("output", "m", "s3", "z3"))
    weights = init(w1_int=w1, w1_scale=s_w1, w1_zero=z_w1, b1_int=b1, b1_scale=sx * s_w1,
                   b1_zero=np.zeros(4, np.int32), w2_int=w2, w2_scale=s_w2, w2_zero=z_w2, b2_int=b2,
                   b2_scale=s1 * s_w2, b2_zero=np.int32(0), w3_int=w3, w3_scale=s_w3,
                   w3_zero=z_w3)

    def q(v, scale, zero):  # QuantizeLinear then DequantizeLinear, in float64
        return (quantize_linear(v, scale, zero, np.uint8).astype(np.float64) - int(zero)) * np.float64(scale)

    def conv(v, w, b, stride):
        return sliding_conv(v, w, (1, 1, 1, 1), stride) + b.reshape(-1, 1, 1)

    w1f = w1.astype(np.float64) * s_w1.astype(np.float64).reshape(4, 1, 1, 1)
    b1f = b1.astype(np.float64) * (sx * s_w1).astype(np.float64)
    w2f = w2.astype(np.float64) * np.float64(s_w2)
    b2f = b2.astype(np.float64) * np.float64(s1 * s_w2)
    w3f = w3.astype(np.float64) * s_w3.astype(np.float64)
    c1 = q(conv(q(x.astype(np.float64), sx, zx), w1f, b1f, 1), s1, z1)
    c2 = q(conv(c1, w2f, b2f, 2), s2, z2)
    out = q(c2.reshape(1, 96) @ w3f, s3, z3).astype(f32)
    single_op_case(folder, "quantized_qdq", nodes, {"x": x}, {"output": out}, common + weights)


# ---- Committed model with external data ------------------------------------------------------

def external_data_models(folder):
    """external_data.onnx keeps every tensor (the initializers and the Constant node's value) in
    external_data.bin beside it, as onnx.save_model(save_as_external_data=True) writes models over
    protobuf's 2 GiB limit: y = Reshape(MatMul(x, w) + b, shape), shape from a Constant node."""
    rng = np.random.default_rng(41)
    f32 = np.float32
    x = rng.standard_normal((2, 3)).astype(f32)
    w = rng.standard_normal((3, 4)).astype(f32)
    b = rng.standard_normal((4,)).astype(f32)
    y = (x @ w + b).reshape(4, 2)
    shape = helper.make_node("Constant", [], ["shape"], name="shape",
                             value=numpy_helper.from_array(np.array([4, 2], np.int64)))
    nodes = [shape,
             helper.make_node("MatMul", ["x", "w"], ["xw"], name="matmul"),
             helper.make_node("Add", ["xw", "b"], ["sum"], name="add"),
             helper.make_node("Reshape", ["sum", "shape"], ["y"], name="reshape")]
    model = make_model("external_data", nodes, [value_info("x", x)], [value_info("y", y)],
                       [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    onnx.checker.check_model(model)
    save_model_external(folder, "external_data", model, "external_data.bin")
    save_npy(folder, "external_data", "x", x)
    save_npy(folder, "external_data", "y", y)


# ---- Committed models that must fail to import ----------------------------------------------

def bad_models(folder):
    f32 = np.float32
    x = value_info("x", (2, 3))
    y = value_info("y", (2, 3))

    # An initializer that claims 2^20 x 2^20 floats (4 TiB) but carries 24 bytes.
    huge = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[1 << 20, 1 << 20],
                       raw_data=b"\0" * 24)
    model = make_model("bad_huge_dims", [helper.make_node("Add", ["x", "w"], ["y"], name="add")],
                       [x], [y], [huge])
    save_model_unchecked(folder, "bad_huge_dims", model)

    # An input of 2^40 x 2^40 floats.
    model = make_model("bad_huge_input", [helper.make_node("Relu", ["x"], ["y"], name="relu")],
                       [value_info("x", (1 << 40, 1 << 40))], [value_info("y", (1 << 40, 1 << 40))])
    save_model_unchecked(folder, "bad_huge_input", model)

    # Weights stored in an external file that is not there.
    external = numpy_helper.from_array(np.ones((2, 3), f32), "w")
    external.ClearField("raw_data")
    external.data_location = TensorProto.EXTERNAL
    for key, value in (("location", "bad_external_data.bin"), ("offset", "0"), ("length", "24")):
        entry = external.external_data.add()
        entry.key, entry.value = key, value
    model = make_model("bad_external_data", [helper.make_node("Add", ["x", "w"], ["y"], name="add")],
                       [x], [y], [external])
    save_model_unchecked(folder, "bad_external_data", model)

    # Two unsupported nodes (one unnamed) around a supported one, and a node of another domain.
    nodes = [helper.make_node("LpNormalization", ["x"], ["e"], name="lpnorm1"),
             helper.make_node("Relu", ["e"], ["r"], name="relu1"),
             helper.make_node("Multinomial", ["r"], ["y", "indices"]),  # not in op set v2 (an unknown op's arity is not checked)
             helper.make_node("Relu", ["x"], ["z"], name="relu2")]
    model = make_model("bad_unsupported_ops", nodes, [x],
                       [y, value_info("indices", (3,), TensorProto.INT64), value_info("z", (2, 3))],
                       [], opset=13)
    save_model_unchecked(folder, "bad_unsupported_ops", model)

    # A node of an unknown domain.
    model = make_model("bad_custom_domain",
                       [helper.make_node("FancyOp", ["x"], ["y"], name="fancy", domain="com.example")],
                       [x], [y], opset=13, domains=[("com.example", 1)])
    save_model_unchecked(folder, "bad_custom_domain", model)

    # A node that reads a tensor nothing produces.
    model = make_model("bad_undefined_input",
                       [helper.make_node("Add", ["x", "nowhere"], ["y"], name="add")], [x], [y])
    save_model_unchecked(folder, "bad_undefined_input", model)

    # Reshape whose shape is computed at run time from an input: not foldable.
    model = make_model("bad_runtime_shape",
                       [helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")],
                       [x, value_info("shape", (2,), TensorProto.INT64)], [value_info("y", (3, 2))])
    save_model_unchecked(folder, "bad_runtime_shape", model)


def save_model_external(folder, stem, model, location):
    """Writes <stem>.onnx with every tensor, Constant values included, in `location` beside it
    (offsets and lengths in external_data); returns the .onnx file's size."""
    for stale in (f"{stem}.onnx", location):  # save_model appends to an existing data file
        if os.path.exists(os.path.join(folder, stale)):
            os.remove(os.path.join(folder, stale))
    path = os.path.join(folder, f"{stem}.onnx")
    onnx.save_model(model, path, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=location, size_threshold=0, convert_attribute=True)
    onnx.checker.check_model(path)
    return os.path.getsize(path)


def save_model_unchecked(folder, stem, model):
    with open(os.path.join(folder, f"{stem}.onnx"), "wb") as f:
        f.write(model.SerializeToString())


# ---- Large models, made on demand -----------------------------------------------------------

LARGE_STEMS = ("resnet18", "mobilenet_v2", "transformer_seq128")
# resnet18 saved again with external data; its .npy files are resnet18's.
LARGE_EXTERNAL = ("resnet18_external.onnx", "resnet18_external.data")


def large_models_up_to_date(folder):
    """True when every large model and its .npy files exist and are newer than this script."""
    script = os.path.getmtime(os.path.abspath(__file__))
    names = [stem + suffix for stem in LARGE_STEMS for suffix in (".onnx", ".input.npy", ".output.npy")]
    for name in names + list(LARGE_EXTERNAL):
        path = os.path.join(folder, name)
        if not os.path.exists(path) or os.path.getmtime(path) < script:
            return False
    return True


def large_models(folder):
    import torchvision

    times = {}
    for stem, factory, seed in (("resnet18", torchvision.models.resnet18, 31),
                                ("mobilenet_v2", torchvision.models.mobilenet_v2, 32)):
        torch.manual_seed(seed)
        model = randomize(factory(weights=None), seed)
        x = torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(seed + 100))
        times[stem] = export_torch(folder, stem, model, [x], 13)
    times["resnet18_external"] = save_model_external(
        folder, "resnet18_external", onnx.load(os.path.join(folder, "resnet18.onnx")), LARGE_EXTERNAL[1])
    x = torch.randn(2, 128, 256, generator=torch.Generator().manual_seed(133))
    times["transformer_seq128"] = export_torch(folder, "transformer_seq128",
                                               transformer_layer(256, 8, 1024, "gelu", 33), [x], 17)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--large", metavar="DIR",
                        help="write resnet18, mobilenet_v2 and transformer_seq128 into DIR instead "
                             "of the committed set")
    parser.add_argument("--out", metavar="DIR", default=HERE,
                        help="folder for the committed set (default: this script's folder)")
    parser.add_argument("--force", action="store_true",
                        help="with --large: remake the models even when they are up to date")
    parser.add_argument("--if-available", action="store_true",
                        help="exit 0 with a message when torch or torchvision is missing (ctest "
                             "fixtures: the tests that need the models then skip)")
    args = parser.parse_args()

    if args.large and not args.force and large_models_up_to_date(args.large):
        print(f"generate_models.py: the large models in {args.large} are up to date")
        return 0
    if MISSING:
        message = f"generate_models.py: {sys.executable} has no {MISSING} (use /usr/bin/python3 " \
                  "with python3-torch, python3-torchvision, python3-onnx and python3-numpy)"
        print(message, file=sys.stderr)
        return 0 if args.if_available else 1
    torch.set_num_threads(max(1, min(8, os.cpu_count() or 1)))
    if args.large:
        try:
            import torchvision  # noqa: F401
        except ImportError:
            print("generate_models.py: no torchvision; large models not made", file=sys.stderr)
            return 0 if args.if_available else 1
        os.makedirs(args.large, exist_ok=True)
        for stem, size in large_models(args.large).items():
            print(f"{stem}.onnx: {size} bytes")
        return 0
    os.makedirs(args.out, exist_ok=True)
    for stem, size in committed_torch_models(args.out).items():
        print(f"{stem}.onnx: {size} bytes")
    single_op_models(args.out)
    quantized_models(args.out)
    external_data_models(args.out)
    bad_models(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
