// A tiny .npy (NumPy format 1.0/2.0/3.0) reader and writer for little-endian float32 arrays,
// C order: all the benchmark exchanges with ONNX Runtime.
'use strict';

const fs = require('fs');

const MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]);  // \x93NUMPY

// -> {shape: number[], data: Float32Array}. Throws for anything but '<f4' in C order.
function readNpy(path) {
  const bytes = fs.readFileSync(path);
  if (bytes.length < 10 || !bytes.subarray(0, 6).equals(MAGIC)) throw new Error(`${path}: not a .npy file`);
  const major = bytes[6];
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = bytes.subarray(start, start + headerLength).toString('latin1');
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header);
  const order = /'fortran_order'\s*:\s*(True|False)/.exec(header);
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(header);
  if (!descr || !order || !shape) throw new Error(`${path}: malformed .npy header ${header}`);
  if (descr[1] !== '<f4') throw new Error(`${path}: type ${descr[1]}, only '<f4' (float32) is supported`);
  if (order[1] !== 'False') throw new Error(`${path}: Fortran order is not supported`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const offset = start + headerLength;
  if (bytes.length - offset !== count * 4) throw new Error(`${path}: ${bytes.length - offset} data bytes for ${count} floats`);
  const data = new Float32Array(count);
  for (let i = 0; i < count; ++i) data[i] = bytes.readFloatLE(offset + 4 * i);
  return {shape: dims, data};
}

// Writes a float32 array of `shape` as a version 1.0 .npy file.
function writeNpy(path, shape, data) {
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${dims}), }`;
  // magic (6) + version (2) + length (2) + header + '\n', padded to a multiple of 64
  const total = Math.ceil((10 + header.length + 1) / 64) * 64;
  header = header + ' '.repeat(total - 10 - header.length - 1) + '\n';
  const prefix = Buffer.alloc(10);
  MAGIC.copy(prefix, 0);
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const body = Buffer.alloc(data.length * 4);
  for (let i = 0; i < data.length; ++i) body.writeFloatLE(data[i], 4 * i);
  fs.writeFileSync(path, Buffer.concat([prefix, Buffer.from(header, 'latin1'), body]));
}

module.exports = {readNpy, writeNpy};
