/** Row ops on the wasm backend: bias, embedding, LayerNorm, GELU, softmax, log-softmax, cross-entropy. */
import { reference, type WasmEntries } from './reference';

export const rowsWasm = {
  addBias: reference('addBias'),
  biasBackward: reference('biasBackward'),
  embedding: reference('embedding'),
  embeddingBackward: reference('embeddingBackward'),
  layerNorm: reference('layerNorm'),
  layerNormBackward: reference('layerNormBackward'),
  gelu: reference('gelu'),
  geluBackward: reference('geluBackward'),
  softmax: reference('softmax'),
  softmaxBackward: reference('softmaxBackward'),
  logSoftmax: reference('logSoftmax'),
  logSoftmaxBackward: reference('logSoftmaxBackward'),
  crossEntropy: reference('crossEntropy'),
  crossEntropyBackward: reference('crossEntropyBackward'),
} satisfies WasmEntries;
