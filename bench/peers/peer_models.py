"""The benchmark's models: built in PyTorch with seeded random weights, exported to ONNX.

For each model <name> the cache folder holds
    <name>.onnx        the exported graph (input "input", output "output")
    <name>.input.npy   the input every engine is fed (f32, seeded); a model whose inputs have
                       other names (family_models.py: BERT's input_ids and attention_mask) has
                       <name>.in.<input>.npy per input instead, of the input's type (int64 ids)
    <name>.pt          the PyTorch module itself (torch.save), for the PyTorch runner

Run with Debian's Python (/usr/bin/python3): it has python3-torch 1.13, torchvision and onnx.
"""

import glob
import inspect
import io
import os
import zlib

import numpy as np

import family_models

# name -> (ONNX opset, input shape): the peer benchmark's models. Any other torchvision
# classification model (families.py) exports at opset 13 with a 1x3x224x224 input unless
# told otherwise (spec()).
MODELS = {
    "resnet18": (13, (1, 3, 224, 224)),
    "resnet50": (13, (1, 3, 224, 224)),
    "mobilenet_v2": (13, (1, 3, 224, 224)),
    # BERT-base encoder: seq 128, hidden 768, 12 heads, 12 layers, FFN 3072, GELU, post-norm.
    # The input is the embedded sequence (no embedding lookup). Opset 17: LayerNormalization is
    # one node.
    "bert_base": (17, (1, 128, 768)),
}
INPUT_SHAPES = {"inception_v3": (1, 3, 299, 299)}  # the models that want another input

# The zoo run_peers.py times by default: the four above and torchvision models of the families
# whose patterns differ (squeeze-and-excitation, channels-last LayerNorm, attention, grouped and
# depthwise convolutions, inception branches, large dense layers).
ZOO = ["resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_large", "efficientnet_b0", "regnet_y_400mf",
       "convnext_tiny", "vit_b_16", "googlenet", "resnext50_32x4d", "inception_v3", "vgg16", "bert_base"]


def is_known(name):
    """A model ensure_model can make: bert_base, a family model (family_models.FAMILY_MODELS) or any
    torchvision classification model."""
    if name in MODELS or name in family_models.FAMILY_MODELS:
        return True
    import torchvision

    return callable(getattr(torchvision.models, name, None)) and name[0].islower()

SEEDS = {"resnet18": 41, "resnet50": 42, "mobilenet_v2": 43, "bert_base": 44}


def spec(name):
    """(opset, input shape) of any model name (of its first input where it has several)."""
    if name in family_models.FAMILY_MODELS:
        _, opset, inputs = family_models.FAMILY_MODELS[name]
        return opset, next(iter(inputs.values()))[0]
    return MODELS.get(name, (13, INPUT_SHAPES.get(name, (1, 3, 224, 224))))


def input_specs(name):
    """{input name: (shape, numpy dtype name)} of any model name, in the ONNX graph's order."""
    if name in family_models.FAMILY_MODELS:
        return dict(family_models.FAMILY_MODELS[name][2])
    return {"input": (spec(name)[1], "float32")}


def describe_inputs(name):
    """"1x3x224x224", "1x128 int64", or for models with other inputs "input_ids 1x128 int64, ..."."""
    specs = input_specs(name)
    if list(specs) == ["input"]:
        shape, dtype = specs["input"]
        return "x".join(map(str, shape)) + ("" if dtype == "float32" else f" {dtype}")
    return ", ".join(f"{n} {'x'.join(map(str, shape))} {dtype}" for n, (shape, dtype) in specs.items())


def input_arguments(files):
    """["NAME=FILE.npy", ...]: the model's inputs as sdk-run's and the runners' --input values."""
    return [f"{name}={path}" for name, path in files["inputs"].items()]


def seed_of(name):
    """The seed of `name`'s weights (its input uses seed + 1000): fixed per name."""
    return SEEDS.get(name, zlib.crc32(name.encode()) % 100000)


def plugin_folder(build):
    """The build's backend folder (passed as BACKPLANE_BACKEND_PATHS), or None."""
    for pattern in ("lib/backplane/backends", "lib*/backplane/backends", "lib/*/backplane/backends"):
        found = sorted(glob.glob(os.path.join(build, pattern)))
        if found:
            return os.path.abspath(found[0])
    return None


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

    seed = seed_of(name)
    torch.manual_seed(seed)
    if name in family_models.FAMILY_MODELS:
        module = family_models.build(name)
    elif name == "bert_base":
        layer = torch.nn.TransformerEncoderLayer(768, 12, 3072, dropout=0.0, activation="gelu",
                                                 batch_first=True, norm_first=False)
        module = torch.nn.TransformerEncoder(layer, 12, enable_nested_tensor=False)
    else:
        module = getattr(torchvision.models, name)(weights=None)
    return randomize(module, seed).eval()


def make_inputs(name):
    """{input name: tensor}, seeded by the model's name."""
    import torch

    generator = torch.Generator().manual_seed(seed_of(name) + 1000)
    if name in family_models.FAMILY_MODELS:
        return family_models.make_inputs(name, generator)
    return {"input": torch.randn(spec(name)[1], generator=generator)}


def paths(cache, stem, name=None):
    """The cache files of a model: "onnx", "pt", "inputs" ({input name: .npy}) and, for a model
    with the one input "input", "input.npy" (the same file)."""
    files = {suffix: os.path.join(cache, f"{stem}.{suffix}") for suffix in ("onnx", "pt")}
    names = list(input_specs(name)) if name else ["input"]
    if names == ["input"]:
        files["input.npy"] = os.path.join(cache, f"{stem}.input.npy")
        files["inputs"] = {"input": files["input.npy"]}
    else:
        files["inputs"] = {n: os.path.join(cache, f"{stem}.in.{n}.npy") for n in names}
    return files


def cache_files(files):
    """Every file of paths(): the graph, the module and each input."""
    return [files["onnx"], files["pt"]] + list(files["inputs"].values())


def ensure_model(cache, name, opset=None, log=print):
    """Makes <cache>/<stem>.{onnx,input.npy,pt} unless all three are there; the stem is `name`,
    or `name.op<opset>` when an opset other than spec()'s is asked for. Returns paths()."""
    import onnx
    import torch

    opset = opset or spec(name)[0]
    files = paths(cache, name if opset == spec(name)[0] else f"{name}.op{opset}", name)
    if all(os.path.exists(path) for path in cache_files(files)):
        return files
    os.makedirs(cache, exist_ok=True)
    log(f"exporting {name} (opset {opset}) to {files['onnx']} ...")
    module = build_module(name)
    inputs = make_inputs(name)
    buffer = io.BytesIO()
    # PyTorch 2.9 and later export through dynamo by default; the TorchScript exporter gives
    # the same graphs as Debian's 1.13 does.
    legacy = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
    torch.onnx.export(module, tuple(inputs.values()), buffer, opset_version=opset, input_names=list(inputs),
                      output_names=["output"], do_constant_folding=True, **legacy)
    model = onnx.load_from_string(buffer.getvalue())
    onnx.checker.check_model(model)
    # Written under temporary names and renamed (the graph last), so an interrupted export is
    # redone next time.
    writes = [(files["inputs"][n], lambda f, t=t: np.save(f, t.numpy())) for n, t in inputs.items()]
    writes += [(files["pt"], lambda f: torch.save(module, f)),
               (files["onnx"], lambda f: f.write(model.SerializeToString()))]
    for path, write in writes:
        with open(path + ".partial", "wb") as f:
            write(f)
        os.replace(path + ".partial", path)
    return files


def load_inputs(files):
    """The model's inputs as torch tensors, in order."""
    import torch

    return [torch.from_numpy(np.load(path)) for path in files["inputs"].values()]


def ensure_reference(files):
    """PyTorch's output for the model's input: <stem>.torch.npy beside the model (made once).
    Returns its path."""
    import torch

    reference = files["onnx"][:-len(".onnx")] + ".torch.npy"
    if not os.path.exists(reference):
        module = torch.load(files["pt"])
        with torch.inference_mode():
            output = module(*load_inputs(files))
        partial = reference + ".partial"
        with open(partial, "wb") as f:
            np.save(f, output.numpy().astype(np.float32))
        os.replace(partial, reference)
    return reference
