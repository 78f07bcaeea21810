/**
 * Whether a model preset fits the WebGPU adapter's limits. The engine keeps each of the model's
 * arenas (parameters, gradients, the two Adam moments) in one storage buffer, so the arena of the
 * preset, parameter count × 4 bytes with alignment padding, must fit both the largest binding
 * (`maxStorageBufferBindingSize`) and the largest buffer (`maxBufferSize`) the device allows. That
 * is certain; activation buffers depend on the run's batch and are checked by the engine when they
 * are made (it names the tensor and says to pick a smaller preset). Pure: no DOM, no GPU.
 */
import { paramLayout, PRESETS, type PresetName } from '../engine/model/config';

export type PresetFit = { fits: true; bytes: number } | { fits: false; bytes: number; reason: string };

const mib = (n: number) => `${(n / 2 ** 20).toFixed(n < 10 * 2 ** 20 ? 1 : 0)} MiB`;

/** The bytes of one arena of the preset (the largest buffer it needs whatever the run). */
export function arenaBytes(preset: PresetName): number {
  return paramLayout(PRESETS[preset]).total * 4;
}

/** `limits`: the adapter's (AdapterSummary.limits); null on the CPU backend, which has none. */
export function presetFit(preset: PresetName, limits: Readonly<Record<string, number>> | null): PresetFit {
  const bytes = arenaBytes(preset);
  if (!limits) return { fits: true, bytes };
  const caps = (['maxStorageBufferBindingSize', 'maxBufferSize'] as const).filter(
    (k) => Number.isFinite(limits[k]) && limits[k] < bytes,
  );
  if (caps.length === 0) return { fits: true, bytes };
  const k = caps[0];
  return {
    fits: false,
    bytes,
    reason: `${preset} keeps its weights in ${mib(bytes)} buffers; this GPU allows at most ${mib(limits[k])} (${k})`,
  };
}
