"""The benchmark's models: built in PyTorch with seeded random weights, exported to ONNX.

For each model <name> the cache folder holds
    <name>.onnx        the exported graph (input "input", output "output")
    <name>.input.npy   the input every engine is fed (f32, seeded)
    <name>.pt          the PyTorch module itself (torch.save), for the PyTorch runner

Run with Debian's Python (/usr/bin/python3): it has python3-torch 1.13, torchvision and onnx.
"""

import inspect
import io
import os

import numpy as np

# name -> (ONNX opset, input shape). The torch modules are made by build_module().
MODELS = {
    "resnet18": (13, (1, 3, 224, 224)),
    "resnet50": (13, (1, 3, 224, 224)),
    "mobilenet_v2": (13, (1, 3, 224, 224)),
    # BERT-base encoder: seq 128, hidden 768, 12 heads, 12 layers, FFN 3072, GELU, post-norm.
    # The input is the embedded sequence (no embedding lookup). Opset 17: LayerNormalization is
    # one node.
    "bert_base": (17, (1, 128, 768)),
}

SEEDS = {"resnet18": 41, "resnet50": 42, "mobilenet_v2": 43, "bert_base": 44}


def randomize(module, seed):
    """Seeded random weights everywhere, batch-norm statistics and norm scales included, so that
    no parameter is trivially 0 or 1 and the twelve copies of the encoder layer differ."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, parameter in module.named_parameters():
            if parameter.dim() > 1:
                fan_in = parameter.shape[1] * int(np.prod(parameter.shape[2:]))
            else:
                fan_in = 4
            if name.endswith("weight") and parameter.dim() == 1:  # norm scales: around 1
                parameter.copy_(1.0 + 0.2 * torch.randn(parameter.shape, generator=generator))
            else:
                parameter.copy_(torch.randn(parameter.shape, generator=generator) / np.sqrt(fan_in))
        for name, buffer in module.named_buffers():
            if name.endswith("running_mean"):
                buffer.copy_(0.1 * torch.randn(buffer.shape, generator=generator))
            elif name.endswith("running_var"):
                buffer.copy_(0.5 + torch.rand(buffer.shape, generator=generator))
    return module


def build_module(name):
    """The PyTorch module for `name`, eval mode, seeded random weights."""
    import torch
    import torchvision

    seed = SEEDS[name]
    torch.manual_seed(seed)
    if name == "bert_base":
        layer = torch.nn.TransformerEncoderLayer(768, 12, 3072, dropout=0.0, activation="gelu",
                                                 batch_first=True, norm_first=False)
        module = torch.nn.TransformerEncoder(layer, 12, enable_nested_tensor=False)
    else:
        module = getattr(torchvision.models, name)(weights=None)
    return randomize(module, seed).eval()


def make_input(name):
    import torch

    shape = MODELS[name][1]
    generator = torch.Generator().manual_seed(SEEDS[name] + 1000)
    return torch.randn(shape, generator=generator)


def paths(cache, name):
    return {suffix: os.path.join(cache, f"{name}.{suffix}") for suffix in ("onnx", "input.npy", "pt")}


def ensure_model(cache, name, log=print):
    """Makes <cache>/<name>.{onnx,input.npy,pt} unless all three are there. Returns paths()."""
    import onnx
    import torch

    files = paths(cache, name)
    if all(os.path.exists(path) for path in files.values()):
        return files
    os.makedirs(cache, exist_ok=True)
    log(f"exporting {name} to {files['onnx']} ...")
    opset = MODELS[name][0]
    module = build_module(name)
    x = make_input(name)
    buffer = io.BytesIO()
    # PyTorch 2.9 and later export through dynamo by default; the TorchScript exporter gives
    # the same graphs as Debian's 1.13 does.
    legacy = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
    torch.onnx.export(module, (x,), buffer, opset_version=opset, input_names=["input"],
                      output_names=["output"], do_constant_folding=True, **legacy)
    model = onnx.load_from_string(buffer.getvalue())
    onnx.checker.check_model(model)
    # Written under temporary names and renamed, so an interrupted export is redone next time.
    for key, write in (("input.npy", lambda f: np.save(f, x.numpy().astype(np.float32))),
                       ("pt", lambda f: torch.save(module, f)),
                       ("onnx", lambda f: f.write(model.SerializeToString()))):
        partial = files[key] + ".partial"
        with open(partial, "wb") as f:
            write(f)
        os.replace(partial, files[key])
    return files
