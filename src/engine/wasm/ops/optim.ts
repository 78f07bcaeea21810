/**
 * The optimiser and the RL ops on the wasm backend: AdamW, guards, clipping, the losses, advantages
 * (kernels in ../asm/optim.ts; the argument checks are the CPU entries', from the op files).
 *
 * Whole-vector reductions (flagNonFinite, clipGradNorm) sum chunks of OPT_CHUNK elements, a
 * constant, into partials on any number of threads and add the partials in order on one: the
 * result has the same bits on 1 or N threads. The row ops (tokenLogprobs, policyLoss) give each
 * row to one thread. The policy and value losses write per-row diagnostics and gradients only
 * (the contract has no summed loss: the host reduces the stats, policyLossMetrics).
 *
 * The step guard (`skipIf`) and the clip factor are read here between kernel calls: wasm ops run
 * synchronously on the one memory, so this is the same as the GPU reading them in a kernel.
 */
import { adamwScalars, checkFlagArgs, checkSizes } from '../../ops/adamw';
import { ADV_EPS, checkGae, checkGroup } from '../../ops/advantage';
import { checkArgs as checkClip, CLIP_EPS } from '../../ops/clip';
import { checkPolicy, checkRows, KL_CLAMP, LOG_RATIO_CLAMP } from '../../ops/policyloss';
import { assertSize } from '../../backend';
import { checkValue } from '../../ops/valueloss';
import type { WasmEntries } from './types';

/** Elements per partial of the chunked reductions (a multiple of 8, the kernels' run; fixed, so sums do not depend on threads). */
const OPT_CHUNK = 4096;

export const optimWasm = {
  adamw(be, param, grad, m, v, opts) {
    checkSizes(param, grad, m, v, opts);
    const s = adamwScalars(opts);
    if (opts.skipIf && be.f32(opts.skipIf)[0] !== 0) return;
    const n = param.size;
    be.par(
      'opt_adamw',
      n * 8,
      be.ptr(param),
      be.ptr(grad),
      be.ptr(m),
      be.ptr(v),
      n,
      opts.beta1,
      1 - opts.beta1,
      opts.beta2,
      1 - opts.beta2,
      opts.eps,
      s.decay,
      s.stepSize,
      s.bc2Sqrt,
    );
  },

  flagNonFinite(be, flag, x) {
    checkFlagArgs(flag, x);
    const n = x.size;
    const W = Math.ceil(n / OPT_CHUNK);
    const partials = be.scratch([Math.max(1, W)], 'i32');
    be.par('opt_nonfinite_chunks', n, be.ptr(x), n, OPT_CHUNK, be.ptr(partials));
    be.call('opt_nonfinite_finish', be.ptr(flag), be.ptr(partials), W);
    be.release(partials);
  },

  clipGradNorm(be, norm, grad, maxNorm) {
    checkClip(norm, maxNorm);
    const n = grad.size;
    const W = Math.ceil(n / OPT_CHUNK);
    const partials = be.scratch([Math.max(2, 2 * W)]); // W f64 values
    be.par('opt_sumsq_chunks', 2 * n, be.ptr(grad), n, OPT_CHUNK, be.ptr(partials));
    const s = be.call('opt_sumsq_finish', be.ptr(norm), be.ptr(partials), W, maxNorm, CLIP_EPS);
    be.release(partials);
    if (s < 1) be.par('opt_scale_f64', n, be.ptr(grad), n, s);
  },

  tokenLogprobs(be, logprobs, entropy, logits, actions) {
    const { N, V } = checkRows(logits, actions, 'tokenLogprobs');
    assertSize(logprobs, N, 'tokenLogprobs logprobs');
    assertSize(entropy, N, 'tokenLogprobs entropy');
    be.par('opt_token_logprobs', N * V * 8, be.ptr(logprobs), be.ptr(entropy), be.ptr(logits), be.ptr(actions), N, V);
  },

  policyLoss(be, dLogits, stats, logits, actions, oldLogprobs, advantages, responseMask, refLogprobs, o) {
    const perRow = { oldLogprobs, advantages, responseMask, refLogprobs };
    const { N, V } = checkPolicy(dLogits, stats, logits, actions, perRow, o);
    be.par(
      'opt_policy_loss',
      N * V * 16,
      be.ptr(dLogits),
      be.ptr(stats),
      be.ptr(logits),
      be.ptr(actions),
      be.ptr(oldLogprobs),
      be.ptr(advantages),
      be.ptr(responseMask),
      refLogprobs ? be.ptr(refLogprobs) : 0,
      N,
      V,
      o.clipLow,
      o.clipHigh,
      o.entropyCoef,
      o.klCoef,
      o.klEstimator === 'k3' ? 1 : 0,
      refLogprobs ? 1 : 0,
      o.lossScale,
      LOG_RATIO_CLAMP,
      KL_CLAMP,
    );
  },

  valueLoss(be, valueStats, dValues, values, oldValues, returns, responseMask, o) {
    const N = checkValue(valueStats, dValues, [values, oldValues, returns, responseMask], o);
    be.par(
      'opt_value_loss',
      N * 8,
      be.ptr(valueStats),
      be.ptr(dValues),
      be.ptr(values),
      be.ptr(oldValues),
      be.ptr(returns),
      be.ptr(responseMask),
      N,
      o.clip === null ? 0 : 1,
      o.clip ?? 0,
      o.lossScale,
    );
  },

  gae(be, advantages, returns, rewards, values, responseMask, offsets, o) {
    const { N, D } = checkGae(advantages, returns, rewards, values, responseMask, offsets, o);
    if (D === 0) return;
    be.call(
      'opt_gae',
      be.ptr(advantages),
      be.ptr(returns),
      be.ptr(rewards),
      be.ptr(values),
      be.ptr(responseMask),
      be.ptr(offsets),
      D,
      N,
      o.gamma,
      o.lambda,
    );
  },

  groupAdvantages(be, advantages, rewards, groups, o) {
    const D = checkGroup(advantages, rewards, groups);
    if (D === 0) return;
    be.call(
      'opt_group_advantages',
      be.ptr(advantages),
      be.ptr(rewards),
      be.ptr(groups),
      D,
      o.estimator === 'rloo' ? 1 : 0,
      o.scaleByStd === false ? 0 : 1,
      ADV_EPS,
    );
  },
} satisfies WasmEntries;
