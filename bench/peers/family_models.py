"""The model families of issue 39 ("op set v2") as a new user writes them in PyTorch 1.13:
segmentation, a YOLO-style detector neck, a wav2vec-style speech front end, LSTM and GRU taggers,
a GPT-style decoder, a BERT-style encoder fed token ids and a mask, a U-Net and a 3-D video
classifier. peer_models.py builds, randomizes and exports them; the classes live here (not in
peer_models.py) so that torch.load of a saved module finds them by this module's name.

FAMILY_MODELS: name -> (family, ONNX opset, {input name: (shape, dtype)}). Every model has one
output, "output" (models with several heads concatenate them, as YOLO exports do).
"""

import torch
from torch import nn
import torch.nn.functional as F

VOCAB = 8000  # token vocabulary of the text models

FAMILY_MODELS = {
    "lraspp_mobilenet_v3_large": ("segmentation", 13, {"input": ((1, 3, 256, 256), "float32")}),
    "deeplabv3_mobilenet_v3_large": ("segmentation", 13, {"input": ((1, 3, 256, 256), "float32")}),
    "fcn_resnet18": ("segmentation", 13, {"input": ((1, 3, 256, 256), "float32")}),
    "yolo_neck": ("detector neck", 13, {"input": ((1, 3, 320, 320), "float32")}),
    "wav2vec_frontend": ("speech front end", 17, {"input": ((1, 16000), "float32")}),
    "lstm_tagger": ("LSTM tagger", 17, {"input": ((1, 128), "int64")}),
    "gru_tagger": ("GRU tagger", 17, {"input": ((1, 128), "int64")}),
    "gpt_decoder": ("GPT decoder", 17, {"input": ((1, 128), "int64")}),
    "bert_encoder": ("BERT encoder", 17, {"input_ids": ((1, 128), "int64"),
                                          "attention_mask": ((1, 128), "int64")}),
    "unet": ("U-Net", 13, {"input": ((1, 3, 256, 256), "float32")}),
    "r3d_18": ("video classifier", 13, {"input": ((1, 3, 8, 112, 112), "float32")}),
}


class OutOnly(nn.Module):
    """torchvision's segmentation models return {"out": ..., "aux": ...}: the "out" tensor."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def conv_bn_act(cin, cout, k=3, s=1, act=nn.SiLU):
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, (k - 1) // 2, bias=False), nn.BatchNorm2d(cout), act())


class CspBlock(nn.Module):
    """YOLOv5's C3 block: two 1x1 branches, bottlenecks with residuals on one, concatenated."""

    def __init__(self, cin, cout, n=1):
        super().__init__()
        hidden = cout // 2
        self.a = conv_bn_act(cin, hidden, 1)
        self.b = conv_bn_act(cin, hidden, 1)
        self.m = nn.ModuleList(nn.Sequential(conv_bn_act(hidden, hidden, 1), conv_bn_act(hidden, hidden, 3))
                               for _ in range(n))
        self.out = conv_bn_act(2 * hidden, cout, 1)

    def forward(self, x):
        a = self.a(x)
        for block in self.m:
            a = a + block(a)
        return self.out(torch.cat([a, self.b(x)], 1))


class YoloNeck(nn.Module):
    """A YOLOv5s-like detector: a strided CSP backbone (strides 8, 16, 32), an FPN/PAN neck
    (nearest upsampling, concatenation, convolutions, strided downsampling) and three 1x1 heads,
    their predictions flattened and concatenated into 1 x anchors x (5 + classes)."""

    def __init__(self, classes=80, anchors=3, width=32):
        super().__init__()
        w = width
        self.stem = conv_bn_act(3, w, 6, 2)
        self.stage2 = nn.Sequential(conv_bn_act(w, 2 * w, 3, 2), CspBlock(2 * w, 2 * w, 1))
        self.stage3 = nn.Sequential(conv_bn_act(2 * w, 4 * w, 3, 2), CspBlock(4 * w, 4 * w, 2))
        self.stage4 = nn.Sequential(conv_bn_act(4 * w, 8 * w, 3, 2), CspBlock(8 * w, 8 * w, 3))
        self.stage5 = nn.Sequential(conv_bn_act(8 * w, 16 * w, 3, 2), CspBlock(16 * w, 16 * w, 1))
        self.lateral5 = conv_bn_act(16 * w, 8 * w, 1)
        self.top4 = CspBlock(16 * w, 8 * w)
        self.lateral4 = conv_bn_act(8 * w, 4 * w, 1)
        self.out3 = CspBlock(8 * w, 4 * w)
        self.down3 = conv_bn_act(4 * w, 4 * w, 3, 2)
        self.out4 = CspBlock(8 * w, 8 * w)
        self.down4 = conv_bn_act(8 * w, 8 * w, 3, 2)
        self.out5 = CspBlock(16 * w, 16 * w)
        self.per_anchor = 5 + classes
        self.heads = nn.ModuleList(nn.Conv2d(c, anchors * self.per_anchor, 1) for c in (4 * w, 8 * w, 16 * w))

    def forward(self, x):
        c3 = self.stage3(self.stage2(self.stem(x)))
        c4 = self.stage4(c3)
        c5 = self.stage5(c4)
        p5 = self.lateral5(c5)
        p4 = self.lateral4(self.top4(torch.cat([F.interpolate(p5, scale_factor=2.0, mode="nearest"), c4], 1)))
        n3 = self.out3(torch.cat([F.interpolate(p4, scale_factor=2.0, mode="nearest"), c3], 1))
        n4 = self.out4(torch.cat([self.down3(n3), p4], 1))
        n5 = self.out5(torch.cat([self.down4(n4), p5], 1))
        predictions = []
        for head, feature in zip(self.heads, (n3, n4, n5)):
            y = head(feature)
            b, _, h, w = y.shape
            y = y.view(b, -1, self.per_anchor, h, w).permute(0, 1, 3, 4, 2).reshape(b, -1, self.per_anchor)
            predictions.append(torch.sigmoid(y))
        return torch.cat(predictions, 1)


class Wav2VecFrontEnd(nn.Module):
    """wav2vec 2.0's feature encoder and its input to the transformer: seven 1-D convolutions over
    the raw waveform (the first with GroupNorm over every channel, GELU after each), LayerNorm and
    a projection, the grouped convolutional position embedding with GELU, a residual and a
    LayerNorm. An InstanceNorm1d over the waveform first (the usual input normalization)."""

    def __init__(self, channels=512, hidden=768):
        super().__init__()
        self.normalize = nn.InstanceNorm1d(1)
        layers = [nn.Conv1d(1, channels, 10, 5, bias=False), nn.GroupNorm(channels, channels, affine=True), nn.GELU()]
        for kernel in (3, 3, 3, 3, 2, 2):
            layers += [nn.Conv1d(channels, channels, kernel, 2, bias=False), nn.GELU()]
        self.features = nn.Sequential(*layers)
        self.feature_norm = nn.LayerNorm(channels)
        self.projection = nn.Linear(channels, hidden)
        self.position = nn.Conv1d(hidden, hidden, 128, padding=64, groups=16)
        self.norm = nn.LayerNorm(hidden)

    def forward(self, audio):
        x = self.features(self.normalize(audio.unsqueeze(1)))           # N x C x T
        x = self.projection(self.feature_norm(x.transpose(1, 2)))      # N x T x H
        p = self.position(x.transpose(1, 2))[:, :, :-1]                # even kernel: drop one step
        return self.norm(x + F.gelu(p).transpose(1, 2))


class RnnTagger(nn.Module):
    """A sequence tagger: embedding, a 2-layer bidirectional LSTM or GRU, a linear layer per step."""

    def __init__(self, cell, embed=256, hidden=256, tags=32):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, embed)
        rnn = nn.LSTM if cell == "lstm" else nn.GRU
        self.rnn = rnn(embed, hidden, num_layers=2, bidirectional=True, batch_first=True)
        self.classifier = nn.Linear(2 * hidden, tags)

    def forward(self, tokens):
        y, _ = self.rnn(self.embedding(tokens))
        return self.classifier(y)


class SelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.out = nn.Linear(hidden, hidden)

    def forward(self, x, bias):
        b, t, h = x.shape
        q, k, v = self.qkv(x).split(h, dim=2)
        q, k, v = (y.view(b, t, self.heads, h // self.heads).transpose(1, 2) for y in (q, k, v))
        scores = q @ k.transpose(-2, -1) / (h // self.heads) ** 0.5 + bias
        y = torch.softmax(scores, dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, t, h))


class GptDecoder(nn.Module):
    """A GPT-2-style decoder: token and position embeddings, pre-norm blocks of causal
    self-attention (the mask made with torch.triu and applied with torch.where) and a GELU MLP,
    a final LayerNorm and the tied language-model head."""

    def __init__(self, hidden=384, heads=6, layers=4, context=128):
        super().__init__()
        self.tokens = nn.Embedding(VOCAB, hidden)
        self.positions = nn.Embedding(context, hidden)
        self.blocks = nn.ModuleList()
        for _ in range(layers):
            self.blocks.append(nn.ModuleDict({
                "ln1": nn.LayerNorm(hidden), "attention": SelfAttention(hidden, heads), "ln2": nn.LayerNorm(hidden),
                "mlp": nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden))}))
        self.norm = nn.LayerNorm(hidden)

    def forward(self, tokens):
        t = tokens.shape[1]
        positions = torch.arange(t, dtype=torch.int64).unsqueeze(0)
        x = self.tokens(tokens) + self.positions(positions)
        future = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
        bias = torch.where(future, torch.tensor(float("-inf")), torch.tensor(0.0))
        for block in self.blocks:
            x = x + block["attention"](block["ln1"](x), bias)
            x = x + block["mlp"](block["ln2"](x))
        return self.norm(x) @ self.tokens.weight.t()


class BertEncoder(nn.Module):
    """A BERT-style encoder as Hugging Face writes it: word, position and token-type embeddings,
    LayerNorm, post-norm layers whose attention adds (1 - mask) * -10000 from an int64 attention
    mask, a GELU FFN; the output is the last hidden state."""

    def __init__(self, hidden=512, heads=8, layers=4, ffn=2048, context=512):
        super().__init__()
        self.words = nn.Embedding(VOCAB, hidden)
        self.positions = nn.Embedding(context, hidden)
        self.token_types = nn.Embedding(2, hidden)
        self.embedding_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList()
        for _ in range(layers):
            self.layers.append(nn.ModuleDict({
                "attention": SelfAttention(hidden, heads), "ln1": nn.LayerNorm(hidden, eps=1e-12),
                "ffn": nn.Sequential(nn.Linear(hidden, ffn), nn.GELU(), nn.Linear(ffn, hidden)),
                "ln2": nn.LayerNorm(hidden, eps=1e-12)}))

    def forward(self, input_ids, attention_mask):
        t = input_ids.shape[1]
        positions = torch.arange(t, dtype=torch.int64).unsqueeze(0)
        types = torch.zeros_like(input_ids)
        x = self.embedding_norm(self.words(input_ids) + self.positions(positions) + self.token_types(types))
        bias = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * -10000.0
        for layer in self.layers:
            x = layer["ln1"](x + layer["attention"](x, bias))
            x = layer["ln2"](x + layer["ffn"](x))
        return x


class UNet(nn.Module):
    """A U-Net: four levels of two 3x3 convolutions with BatchNorm and ReLU, max-pool down,
    ConvTranspose 2x2 stride 2 up, skip concatenations, a 1x1 head."""

    def __init__(self, classes=2, width=32, levels=4):
        super().__init__()

        def double(cin, cout):
            return nn.Sequential(conv_bn_act(cin, cout, 3, act=nn.ReLU), conv_bn_act(cout, cout, 3, act=nn.ReLU))

        widths = [width * 2 ** i for i in range(levels + 1)]
        self.down = nn.ModuleList([double(3, widths[0])] + [double(widths[i], widths[i + 1]) for i in range(levels)])
        self.up = nn.ModuleList(nn.ConvTranspose2d(widths[i + 1], widths[i], 2, 2) for i in reversed(range(levels)))
        self.merge = nn.ModuleList(double(2 * widths[i], widths[i]) for i in reversed(range(levels)))
        self.head = nn.Conv2d(widths[0], classes, 1)

    def forward(self, x):
        skips = []
        for i, block in enumerate(self.down):
            x = block(x if i == 0 else F.max_pool2d(x, 2))
            skips.append(x)
        skips.pop()
        for up, merge in zip(self.up, self.merge):
            x = merge(torch.cat([up(x), skips.pop()], 1))
        return self.head(x)


def build(name):
    """The PyTorch module for a FAMILY_MODELS name (random initial weights; the caller seeds)."""
    import torchvision
    from torchvision.models import segmentation, video

    if name == "lraspp_mobilenet_v3_large":
        return OutOnly(segmentation.lraspp_mobilenet_v3_large(weights=None, weights_backbone=None))
    if name == "deeplabv3_mobilenet_v3_large":
        return OutOnly(segmentation.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None))
    if name == "fcn_resnet18":
        # torchvision's FCN with a ResNet-18 backbone (stride 32: BasicBlock has no dilation).
        from torchvision.models._utils import IntermediateLayerGetter
        backbone = IntermediateLayerGetter(torchvision.models.resnet18(weights=None), {"layer4": "out"})
        return OutOnly(segmentation.fcn.FCN(backbone, segmentation.fcn.FCNHead(512, 21)))
    if name == "yolo_neck":
        return YoloNeck()
    if name == "wav2vec_frontend":
        return Wav2VecFrontEnd()
    if name in ("lstm_tagger", "gru_tagger"):
        return RnnTagger(name.split("_")[0])
    if name == "gpt_decoder":
        return GptDecoder()
    if name == "bert_encoder":
        return BertEncoder()
    if name == "unet":
        return UNet()
    if name == "r3d_18":
        return video.r3d_18(weights=None)
    raise KeyError(name)


def make_inputs(name, generator):
    """{input name: tensor}: images and audio N(0, 1), token ids uniform over the vocabulary, the
    attention mask 1 for the first three quarters of the sequence and 0 after (padding)."""
    inputs = {}
    for input_name, (shape, dtype) in FAMILY_MODELS[name][2].items():
        if input_name == "attention_mask":
            mask = torch.ones(shape, dtype=torch.int64)
            mask[:, shape[1] * 3 // 4:] = 0
            inputs[input_name] = mask
        elif dtype == "int64":
            inputs[input_name] = torch.randint(0, VOCAB, shape, generator=generator, dtype=torch.int64)
        else:
            inputs[input_name] = torch.randn(shape, generator=generator)
    return inputs
