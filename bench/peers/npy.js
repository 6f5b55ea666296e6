// A tiny .npy (NumPy format 1.0/2.0/3.0) reader and writer for little-endian float32, int64 and
// int32 arrays, C order: all the benchmark exchanges with ONNX Runtime (images and audio are
// float32, token ids and attention masks int64).
'use strict';

const fs = require('fs');

const MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]);  // \x93NUMPY

// descr -> the ONNX Runtime tensor type, its typed array and the bytes per element.
const TYPES = {
  '<f4': {type: 'float32', Array: Float32Array, size: 4},
  '<i8': {type: 'int64', Array: BigInt64Array, size: 8},
  '<i4': {type: 'int32', Array: Int32Array, size: 4},
};

// -> {shape: number[], type: 'float32'|'int64'|'int32', data: Float32Array|BigInt64Array|
// Int32Array}. Throws for any other dtype and for Fortran order.
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
  const kind = TYPES[descr[1]];
  if (!kind) throw new Error(`${path}: type ${descr[1]}, only ${Object.keys(TYPES).join(', ')} are supported`);
  if (order[1] !== 'False') throw new Error(`${path}: Fortran order is not supported`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const offset = start + headerLength;
  if (bytes.length - offset !== count * kind.size) {
    throw new Error(`${path}: ${bytes.length - offset} data bytes for ${count} elements of ${descr[1]}`);
  }
  // A copy into an aligned buffer (the data's offset in the file need not be a multiple of 8).
  const data = new kind.Array(count);
  Buffer.from(data.buffer).set(bytes.subarray(offset, offset + count * kind.size));
  return {shape: dims, type: kind.type, data};
}

// Writes a typed array (Float32Array, BigInt64Array or Int32Array) of `shape` as a version 1.0
// .npy file.
function writeNpy(path, shape, data) {
  const descr = Object.keys(TYPES).find((key) => data instanceof TYPES[key].Array);
  if (!descr) throw new Error(`${path}: cannot write a ${data.constructor.name}`);
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  // magic (6) + version (2) + length (2) + header + '\n', padded to a multiple of 64
  const total = Math.ceil((10 + header.length + 1) / 64) * 64;
  header = header + ' '.repeat(total - 10 - header.length - 1) + '\n';
  const prefix = Buffer.alloc(10);
  MAGIC.copy(prefix, 0);
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(path, Buffer.concat([prefix, Buffer.from(header, 'latin1'), body]));
}

module.exports = {readNpy, writeNpy};
