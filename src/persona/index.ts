/**
 * Public API of the persona engine: simulated users (two-step turns, dynamics, state), the
 * appraiser's detectors and weights, reference policies, the Sentient-lite benchmark and the
 * calibration. Profiles, their schema, generator and sets are exported by their own modules
 * (profile.ts, validate.ts, sets.ts). Pure: importable in a Worker, in Node and in tests.
 */
export { createSimulatedUser, restoreSimulatedUser, replayDialogue, turnRng, USER_STATE_VERSION } from './user.ts';
export type { SimulatedUser, UserState, UserOptions, TurnResult, TranscriptEntry } from './user.ts';
export { appraise, initialStage } from './appraiser.ts';
export type { Appraisal, AppraisalInput, Reaction, Stage, WeightedHit } from './appraiser.ts';
export { act, openingLine, CUE_RATE } from './actor.ts';
export {
  CHANGES,
  START_EMOTION,
  TURN_CAP,
  THRESHOLDS,
  DIFFICULTIES,
  bandOf,
  quantise,
  rewardOf,
  applyChange,
  endReasonAfter,
} from './dynamics.ts';
export type { Band, Change, Difficulty, Mode, EndReason } from './dynamics.ts';
export { runDetectors, readReply, lexiconOf, DETECTOR_IDS } from './detectors/index.ts';
export type { DetectorHit, DetectorId } from './detectors/index.ts';
export { FIT, NEED, KNOBS, STRATEGIES } from './weights.ts';
export { makePolicy, POLICY_NAMES, REFERENCE_POLICIES } from './policies.ts';
export type { Policy, PolicyName, PolicyOptions } from './policies.ts';
export { runBenchmark, playDialogue, summarise } from './benchmark.ts';
export type { BenchmarkSummary, DialogueRecord } from './benchmark.ts';
export { calibrate, PROBES, probeReplies } from './calibrate.ts';
export type { Calibration } from './calibrate.ts';
export { FIXTURE_PROFILES, FIXTURE_BENCHMARK_PROFILES } from './fixtures.ts';
