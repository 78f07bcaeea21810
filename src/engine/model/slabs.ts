import type { Backend, Tensor } from '../backend';

/**
 * Device memory for work whose shapes change from call to call: one buffer per role (`h0.qkv`,
 * `logits`, a minibatch's `dLogits`, …) that grows to the largest shape asked of it and never
 * shrinks; each shape gets a view at its start. RL minibatches are dialogues of varying length, so
 * their shapes change from one minibatch to the next: with a buffer per shape, each new shape took
 * new memory from the device. Here a smaller shape reuses the buffer of a larger one, and only a new
 * largest shape allocates (that role's buffer alone). A view's contents are whatever the buffer held
 * last: callers overwrite or fill what they take.
 */
export class Slabs {
  private readonly bases = new Map<string, Tensor>();
  /**
   * `ladder`: buffers are `Backend.scratch` (on WebGPU sized on `ladderSize`'s ladder and not
   * cleared), for Slabs made and released per call (a minibatch loop, a rollout) so that the next
   * call's buffers come from the pool. A model's own Slabs live as long as it and grow to exact sizes.
   */
  constructor(
    private readonly be: Backend,
    private readonly o: { ladder?: boolean } = {},
  ) {}

  /** A view of `shape` at the start of the buffer kept for `key`, grown first when it is too small. */
  take(key: string, shape: readonly number[], dtype: 'f32' | 'i32' = 'f32'): Tensor {
    const n = shape.reduce((a, d) => a * d, 1);
    let base = this.bases.get(key);
    if (!base || base.size < n || base.dtype !== dtype) {
      if (base) this.be.release(base);
      base = this.o.ladder ? this.be.scratch([n], dtype) : this.be.zeros([n], dtype);
      this.bases.set(key, base);
    }
    return this.be.view(base, 0, shape);
  }

  /** `take`, then `data` written into it. */
  put(key: string, data: Float32Array | Int32Array, shape: readonly number[]): Tensor {
    const t = this.take(key, shape, data instanceof Int32Array ? 'i32' : 'f32');
    this.be.write(t, data);
    return t;
  }

  /** Every buffer back to the backend's pool. */
  release(): void {
    for (const b of this.bases.values()) this.be.release(b);
    this.bases.clear();
  }
}
