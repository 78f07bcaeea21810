/**
 * A CPU backend that keeps account of its tensors, for tests that a piece of work gives back
 * every device buffer it takes (on WebGPU an unreleased tensor is GPU memory the pool never gets
 * back, so a tab that trains run after run would grow until the device is lost). `live` holds the
 * tensors made (zeros, scratch, fromArray; views are not allocations) and not yet released, with
 * where each was made; `doubleReleases` counts tensors released twice, which on WebGPU would hand
 * one buffer to two tensors.
 */
import type { DType, Tensor } from '../backend';
import { CpuBackend } from '../cpu/backend';

export class TrackingBackend extends CpuBackend {
  readonly live = new Map<Tensor, string>();
  doubleReleases = 0;
  private readonly released = new WeakSet<Tensor>();

  private made(t: Tensor): Tensor {
    this.live.set(
      t,
      `[${t.shape.join(', ')}] made at ${new Error().stack
        ?.split('\n')
        .slice(3, 6)
        .map((l) => l.trim())
        .join(' < ')}`,
    );
    return t;
  }

  override zeros(shape: readonly number[], dtype: DType = 'f32'): Tensor {
    return this.made(super.zeros(shape, dtype));
  }

  override fromArray(data: Float32Array | Int32Array, shape: readonly number[]): Tensor {
    return this.made(super.fromArray(data, shape));
  }

  override release(t: Tensor): void {
    if (this.live.delete(t)) this.released.add(t);
    else if (this.released.has(t)) this.doubleReleases++;
  }

  /** The tensors still held, one line each (for a test's failure message). */
  report(): string {
    return [...this.live.values()].join('\n');
  }
}
