#!/usr/bin/env node
// Times one ONNX model on ONNX Runtime (CPU execution provider) through onnxruntime-node.
//
//   node ort_runner.js --ort-dir DIR --model M.onnx --input NAME=FILE.npy [--iterations N]
//                      [--warmup W] [--threads T] [--output-dir D]
//
// DIR is the folder npm installed onnxruntime-node into (it holds node_modules/). Prints one
// JSON document on stdout: {"engine", "version", "threads", "latencies_ms": [...], "outputs":
// {name: file}}; with --output-dir, writes each output of the last run as D/<name>.npy
// (float32, int64 and int32 outputs). --input is repeated once per model input; its .npy type
// (float32, int64 ids and masks) is the tensor's.
'use strict';

const fs = require('fs');
const path = require('path');
const {readNpy, writeNpy} = require('./npy.js');

function parseArguments(argv) {
  const options = {iterations: 20, warmup: 3, threads: 2, inputs: {}};
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag}: missing value`);
    switch (flag) {
      case '--ort-dir': options.ortDir = value; break;
      case '--model': options.model = value; break;
      case '--iterations': options.iterations = Number(value); break;
      case '--warmup': options.warmup = Number(value); break;
      case '--threads': options.threads = Number(value); break;
      case '--output-dir': options.outputDir = value; break;
      case '--input': {
        const at = value.indexOf('=');
        if (at <= 0) throw new Error(`--input ${value}: expected NAME=FILE.npy`);
        options.inputs[value.slice(0, at)] = value.slice(at + 1);
        break;
      }
      default: throw new Error(`unknown option ${flag}`);
    }
  }
  if (!options.ortDir || !options.model) throw new Error('--ort-dir and --model are required');
  return options;
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const packageDir = path.join(path.resolve(options.ortDir), 'node_modules', 'onnxruntime-node');
  const ort = require(packageDir);
  const version = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;

  const session = await ort.InferenceSession.create(options.model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: options.threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  });
  const feeds = {};
  for (const name of session.inputNames) {
    if (!(name in options.inputs)) throw new Error(`no --input for the model's input ${name}`);
    const array = readNpy(options.inputs[name]);
    feeds[name] = new ort.Tensor(array.type, array.data, array.shape);
  }

  let results;
  for (let i = 0; i < options.warmup; ++i) results = await session.run(feeds);
  const latencies = [];
  for (let i = 0; i < options.iterations; ++i) {
    const start = process.hrtime.bigint();
    results = await session.run(feeds);
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
  }

  const outputs = {};
  if (options.outputDir) {
    fs.mkdirSync(options.outputDir, {recursive: true});
    for (const name of session.outputNames) {
      const tensor = results[name];
      if (!['float32', 'int64', 'int32'].includes(tensor.type)) continue;
      const file = path.join(options.outputDir, `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.npy`);
      writeNpy(file, tensor.dims, tensor.data);
      outputs[name] = file;
    }
  }
  process.stdout.write(JSON.stringify({engine: 'onnxruntime', version, threads: options.threads,
                                       latencies_ms: latencies, outputs}) + '\n');
}

main().catch((error) => {
  process.stderr.write(`ort_runner.js: ${error.stack || error}\n`);
  process.exit(1);
});
