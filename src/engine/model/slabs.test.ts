import { describe, expect, it } from 'vitest';
import { ladderSize } from '../backend';
import { TrackingBackend } from '../testing/tracking';
import { Slabs } from './slabs';

describe('ladderSize', () => {
  it('never rounds down, adds at most 12.5% above 4,096, and maps nearby sizes to one', () => {
    let prev = 0;
    for (let n = 1; n < 300_000; n += 37) {
      const l = ladderSize(n);
      expect(l).toBeGreaterThanOrEqual(n);
      expect(l).toBeGreaterThanOrEqual(prev); // monotone
      if (n > 4096) expect(l / n).toBeLessThanOrEqual(1.125);
      prev = l;
    }
    expect(ladderSize(1)).toBe(64);
    expect(ladderSize(4096)).toBe(4096);
    expect(ladderSize(4097)).toBe(4608); // 4096 + 512: eight steps in [4096, 8192)
    expect(new Set(Array.from({ length: 500 }, (_, i) => ladderSize(100_000 + i * 20))).size).toBeLessThanOrEqual(2);
  });
});

describe('Slabs', () => {
  it('gives views at the start of one buffer per role that grows and never shrinks; release gives every buffer back once', async () => {
    const be = new TrackingBackend();
    const slabs = new Slabs(be);
    const a = slabs.put('x', Float32Array.of(1, 2, 3, 4, 5, 6), [2, 3]);
    expect(a.shape).toEqual([2, 3]);
    expect(Array.from(await be.read(a))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(be.live.size).toBe(1);
    const b = slabs.take('x', [4]); // smaller: the same buffer, no new one
    expect(be.live.size).toBe(1);
    expect(Array.from(await be.read(b))).toEqual([1, 2, 3, 4]); // a view's contents are what the buffer held
    slabs.take('x', [10]); // larger: the old buffer goes back, a new one is made
    expect(be.live.size).toBe(1);
    slabs.take('ids', [3], 'i32');
    expect(be.live.size).toBe(2);
    slabs.release();
    slabs.release();
    expect(be.live.size).toBe(0);
    expect(be.doubleReleases).toBe(0);
    const ladder = new Slabs(be, { ladder: true }); // its buffers are scratch: on the ladder on WebGPU (model.gputest.ts)
    expect(ladder.take('y', [5000]).size).toBe(5000); // the view is the size asked
    expect(be.live.size).toBe(1);
    ladder.release();
    expect(be.live.size).toBe(0);
  });
});
