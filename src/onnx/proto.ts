/**
 * A minimal protobuf writer for the subset of onnx.proto the exporter emits (ModelProto, GraphProto,
 * NodeProto, AttributeProto, TensorProto, ValueInfoProto and their shape types). Hand-written
 * rather than protobufjs (present only as onnxruntime-web's transitive dependency, not ours): the
 * exporter needs about fifteen fields of wire types 0 and 2, and large tensors go in as raw_data
 * chunks without being copied until the final concatenation.
 *
 * Field numbers from onnx/onnx.proto (IR version 8). Pure: no Node or DOM APIs.
 */

/** Bytes of a message under construction: chunks plus their total length (nothing copied yet). */
class ProtoWriter {
  private readonly chunks: Uint8Array[] = [];
  private scratch: number[] = [];
  length = 0;

  private flushScratch(): void {
    if (this.scratch.length === 0) return;
    this.chunks.push(Uint8Array.from(this.scratch));
    this.scratch = [];
  }

  private byte(b: number): void {
    this.scratch.push(b);
    this.length++;
  }

  /** Unsigned varint; numbers up to 2^53 (int64 fields here are dims, versions and small ints). */
  varint(v: number | bigint): void {
    let n = BigInt.asUintN(64, BigInt(v));
    while (n >= 0x80n) {
      this.byte(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    this.byte(Number(n));
  }

  private tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  /** int32/int64/enum field (negative values are written as 10-byte two's complement, as protobuf does). */
  int(field: number, v: number | bigint): void {
    this.tag(field, 0);
    this.varint(v);
  }

  float(field: number, v: number): void {
    this.tag(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    for (const x of b) this.byte(x);
  }

  bytes(field: number, data: Uint8Array): void {
    this.tag(field, 2);
    this.varint(data.length);
    this.flushScratch();
    if (data.length > 0) this.chunks.push(data);
    this.length += data.length;
  }

  string(field: number, s: string): void {
    this.bytes(field, new TextEncoder().encode(s));
  }

  /** A nested message: its chunks are appended, not copied. */
  message(field: number, m: ProtoWriter): void {
    this.tag(field, 2);
    this.varint(m.length);
    this.flushScratch();
    m.flushScratch();
    this.chunks.push(...m.chunks);
    this.length += m.length;
  }

  finish(): Uint8Array {
    this.flushScratch();
    const out = new Uint8Array(this.length);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

// ---- ONNX enums ------------------------------------------------------------------------------------

export const DataType = { FLOAT: 1, INT32: 6, INT64: 7, BOOL: 9 } as const;
type DataTypeCode = (typeof DataType)[keyof typeof DataType];
const AttrType = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, FLOATS: 6, INTS: 7 } as const;

// ---- ONNX messages ---------------------------------------------------------------------------------

export interface TensorInit {
  name: string;
  dataType: DataTypeCode;
  dims: number[];
  /** Little-endian element bytes (TensorProto.raw_data). */
  raw: Uint8Array;
}

/** TensorProto: dims = 1, data_type = 2, name = 8, raw_data = 9. */
function tensorProto(t: TensorInit): ProtoWriter {
  const w = new ProtoWriter();
  for (const d of t.dims) w.int(1, d);
  w.int(2, t.dataType);
  w.string(8, t.name);
  w.bytes(9, t.raw);
  return w;
}

export type AttrValue =
  | { kind: 'int'; v: number }
  | { kind: 'float'; v: number }
  | { kind: 'ints'; v: number[] }
  | { kind: 'string'; v: string }
  | { kind: 'tensor'; v: TensorInit };

/** AttributeProto: name = 1, f = 2, i = 3, s = 4, t = 5, ints = 8, type = 20. */
function attributeProto(name: string, a: AttrValue): ProtoWriter {
  const w = new ProtoWriter();
  w.string(1, name);
  switch (a.kind) {
    case 'int':
      w.int(3, a.v);
      w.int(20, AttrType.INT);
      break;
    case 'float':
      w.float(2, a.v);
      w.int(20, AttrType.FLOAT);
      break;
    case 'ints':
      for (const v of a.v) w.int(8, v);
      w.int(20, AttrType.INTS);
      break;
    case 'string':
      w.string(4, a.v);
      w.int(20, AttrType.STRING);
      break;
    case 'tensor':
      w.message(5, tensorProto(a.v));
      w.int(20, AttrType.TENSOR);
      break;
  }
  return w;
}

export interface NodeSpec {
  op: string;
  inputs: string[];
  outputs: string[];
  name: string;
  attrs?: Record<string, AttrValue>;
}

/** NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5. */
function nodeProto(n: NodeSpec): ProtoWriter {
  const w = new ProtoWriter();
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  w.string(3, n.name);
  w.string(4, n.op);
  for (const [k, v] of Object.entries(n.attrs ?? {})) w.message(5, attributeProto(k, v));
  return w;
}

/** A tensor's declared type: element type and dims (a number, or a symbolic name such as "batch"). */
export interface ValueInfo {
  name: string;
  dataType: DataTypeCode;
  dims: (number | string)[];
}

/** ValueInfoProto { name = 1, type = 2 { tensor_type = 1 { elem_type = 1, shape = 2 { dim = 1 { dim_value = 1 | dim_param = 2 } } } } }. */
function valueInfoProto(v: ValueInfo): ProtoWriter {
  const shape = new ProtoWriter();
  for (const d of v.dims) {
    const dim = new ProtoWriter();
    if (typeof d === 'number') dim.int(1, d);
    else dim.string(2, d);
    shape.message(1, dim);
  }
  const tensorType = new ProtoWriter();
  tensorType.int(1, v.dataType);
  tensorType.message(2, shape);
  const type = new ProtoWriter();
  type.message(1, tensorType);
  const w = new ProtoWriter();
  w.string(1, v.name);
  w.message(2, type);
  return w;
}

interface GraphSpec {
  name: string;
  nodes: NodeSpec[];
  initializers: TensorInit[];
  inputs: ValueInfo[];
  outputs: ValueInfo[];
  docString?: string;
}

export interface ModelSpec {
  irVersion: number;
  opset: number;
  producerName: string;
  producerVersion: string;
  graph: GraphSpec;
  metadata: Record<string, string>;
  docString?: string;
}

/**
 * ModelProto: ir_version = 1, producer_name = 2, producer_version = 3, doc_string = 6, graph = 7,
 * opset_import = 8 {domain = 1, version = 2}, metadata_props = 14 {key = 1, value = 2}.
 * GraphProto: node = 1, name = 2, initializer = 5, doc_string = 10, input = 11, output = 12.
 */
export function encodeModel(m: ModelSpec): Uint8Array {
  const g = new ProtoWriter();
  for (const n of m.graph.nodes) g.message(1, nodeProto(n));
  g.string(2, m.graph.name);
  for (const t of m.graph.initializers) g.message(5, tensorProto(t));
  if (m.graph.docString) g.string(10, m.graph.docString);
  for (const i of m.graph.inputs) g.message(11, valueInfoProto(i));
  for (const o of m.graph.outputs) g.message(12, valueInfoProto(o));

  const w = new ProtoWriter();
  w.int(1, m.irVersion);
  w.string(2, m.producerName);
  w.string(3, m.producerVersion);
  if (m.docString) w.string(6, m.docString);
  w.message(7, g);
  const opset = new ProtoWriter();
  opset.string(1, '');
  opset.int(2, m.opset);
  w.message(8, opset);
  for (const [k, v] of Object.entries(m.metadata)) {
    const e = new ProtoWriter();
    e.string(1, k);
    e.string(2, v);
    w.message(14, e);
  }
  return w.finish();
}
