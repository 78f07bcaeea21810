/**
 * Every GPU test, in one list: the engine's ops and model, and the RL update's (src/rl), so it lives
 * above both. The browser harness (./gpu.ts, e2e/kernels.spec.ts), the Dawn tier
 * (e2e/dawn/kernels.test.ts) and bench/device run them by name.
 */
import type { GpuTest } from '../../src/engine/testing/gpu-test';
import { elementwiseGpuTests } from '../../src/engine/ops/elementwise.gputest';
import { biasGpuTests } from '../../src/engine/ops/bias.gputest';
import { matmulGpuTests } from '../../src/engine/ops/matmul/matmul.gputest';
import { embeddingGpuTests } from '../../src/engine/ops/embedding.gputest';
import { layernormGpuTests } from '../../src/engine/ops/layernorm.gputest';
import { geluGpuTests } from '../../src/engine/ops/gelu.gputest';
import { attentionGpuTests } from '../../src/engine/ops/attention.gputest';
import { softmaxGpuTests } from '../../src/engine/ops/softmax.gputest';
import { crossentropyGpuTests } from '../../src/engine/ops/crossentropy.gputest';
import { adamwGpuTests } from '../../src/engine/ops/adamw.gputest';
import { clipGpuTests } from '../../src/engine/ops/clip.gputest';
import { kvattentionGpuTests } from '../../src/engine/ops/kvattention.gputest';
import { policylossGpuTests } from '../../src/engine/ops/policyloss.gputest';
import { valuelossGpuTests } from '../../src/engine/ops/valueloss.gputest';
import { advantageGpuTests } from '../../src/engine/ops/advantage.gputest';
import { modelGpuTests } from '../../src/engine/model/model.gputest';
import { tinyNetGpuTests } from '../../src/engine/testing/tiny-net.gputest';
import { updateGpuTests } from '../../src/rl/update.gputest';

export const GPU_TESTS: GpuTest[] = [
  ...elementwiseGpuTests,
  ...biasGpuTests,
  ...matmulGpuTests,
  ...embeddingGpuTests,
  ...layernormGpuTests,
  ...geluGpuTests,
  ...attentionGpuTests,
  ...softmaxGpuTests,
  ...crossentropyGpuTests,
  ...adamwGpuTests,
  ...clipGpuTests,
  ...kvattentionGpuTests,
  ...policylossGpuTests,
  ...valuelossGpuTests,
  ...advantageGpuTests,
  ...tinyNetGpuTests,
  ...modelGpuTests,
  ...updateGpuTests,
];
