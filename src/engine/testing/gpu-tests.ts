/** Every GPU test, in one list: the browser harness runs them by name. */
import type { GpuTest } from './gpu-test';
import { elementwiseGpuTests } from '../ops/elementwise.gputest';
import { biasGpuTests } from '../ops/bias.gputest';
import { matmulGpuTests } from '../ops/matmul.gputest';
import { embeddingGpuTests } from '../ops/embedding.gputest';
import { layernormGpuTests } from '../ops/layernorm.gputest';
import { geluGpuTests } from '../ops/gelu.gputest';
import { attentionGpuTests } from '../ops/attention.gputest';
import { softmaxGpuTests } from '../ops/softmax.gputest';
import { crossentropyGpuTests } from '../ops/crossentropy.gputest';
import { adamwGpuTests } from '../ops/adamw.gputest';
import { clipGpuTests } from '../ops/clip.gputest';
import { kvattentionGpuTests } from '../ops/kvattention.gputest';
import { policylossGpuTests } from '../ops/policyloss.gputest';
import { valuelossGpuTests } from '../ops/valueloss.gputest';
import { advantageGpuTests } from '../ops/advantage.gputest';
import { modelGpuTests } from '../model/model.gputest';
import { tinyNetGpuTests } from './tiny-net.gputest';
import { updateGpuTests } from '../../rl/update.gputest';

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
