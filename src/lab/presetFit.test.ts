import { describe, expect, it } from 'vitest';
import { paramLayout, PRESETS } from '../engine/model/config';
import { arenaBytes, presetFit } from './presetFit';

describe('preset fit', () => {
  it('an arena is the padded parameter count in f32', () => {
    expect(arenaBytes('ci')).toBe(paramLayout(PRESETS.ci).total * 4);
    expect(arenaBytes('small')).toBeGreaterThan(64 * 2 ** 20);
    expect(arenaBytes('micro')).toBeLessThan(64 * 2 ** 20);
  });

  it("marks the presets whose buffers exceed the adapter's limits, naming the limit", () => {
    const small = { maxStorageBufferBindingSize: 64 * 2 ** 20, maxBufferSize: 256 * 2 ** 20 };
    expect(presetFit('ci', small).fits).toBe(true);
    expect(presetFit('micro', small).fits).toBe(true);
    const fit = presetFit('small', small);
    expect(fit).toMatchObject({
      fits: false,
      reason: expect.stringMatching(/this GPU allows at most 64 MiB \(maxStorageBufferBindingSize\)/),
    });
    expect(presetFit('small', { maxStorageBufferBindingSize: 2 ** 30, maxBufferSize: 32 * 2 ** 20 })).toMatchObject({
      fits: false,
      reason: expect.stringContaining('maxBufferSize'),
    });
  });

  it('everything fits a large adapter, and the CPU (no limits)', () => {
    for (const p of Object.keys(PRESETS) as (keyof typeof PRESETS)[]) {
      expect(presetFit(p, { maxStorageBufferBindingSize: 2 ** 31, maxBufferSize: 2 ** 32 }).fits).toBe(true);
      expect(presetFit(p, null).fits).toBe(true);
    }
  });
});
