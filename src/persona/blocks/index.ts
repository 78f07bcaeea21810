/**
 * All scenario templates, gathered from the per-domain data files. The generator and the tests
 * read TEMPLATES; nothing else lives here.
 */
import type { ScenarioTemplate } from './types.ts';
import { WORK_STUDY_MONEY_BENCHMARK, WORK_STUDY_MONEY_TRAIN } from './work-study-money.ts';
import { FAMILY_CARE_BENCHMARK, FAMILY_CARE_TRAIN } from './family-care.ts';
import { RELATIONSHIPS_BENCHMARK, RELATIONSHIPS_TRAIN } from './relationships.ts';
import { HEALTH_LOSS_MOVING_BENCHMARK, HEALTH_LOSS_MOVING_TRAIN } from './health-loss-moving.ts';
import { IDENTITY_NEIGHBOURS_BENCHMARK, IDENTITY_NEIGHBOURS_TRAIN } from './identity-neighbours.ts';

export const TEMPLATES: readonly ScenarioTemplate[] = [
  ...WORK_STUDY_MONEY_TRAIN,
  ...FAMILY_CARE_TRAIN,
  ...RELATIONSHIPS_TRAIN,
  ...HEALTH_LOSS_MOVING_TRAIN,
  ...IDENTITY_NEIGHBOURS_TRAIN,
  ...WORK_STUDY_MONEY_BENCHMARK,
  ...FAMILY_CARE_BENCHMARK,
  ...RELATIONSHIPS_BENCHMARK,
  ...HEALTH_LOSS_MOVING_BENCHMARK,
  ...IDENTITY_NEIGHBOURS_BENCHMARK,
];
