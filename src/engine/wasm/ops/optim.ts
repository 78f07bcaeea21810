/** The optimiser and the RL ops on the wasm backend: AdamW, guards, clipping, the losses, advantages. */
import { reference, type WasmEntries } from './reference';

export const optimWasm = {
  adamw: reference('adamw'),
  flagNonFinite: reference('flagNonFinite'),
  clipGradNorm: reference('clipGradNorm'),
  tokenLogprobs: reference('tokenLogprobs'),
  policyLoss: reference('policyLoss'),
  valueLoss: reference('valueLoss'),
  gae: reference('gae'),
  groupAdvantages: reference('groupAdvantages'),
} satisfies WasmEntries;
