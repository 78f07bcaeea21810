/**
 * The reference policies' rows for the Evaluate panel: each one's breakdown and the fluency of its
 * replies on the first n benchmark users (the ones the run played), from the committed finals and
 * fluency figures (./referenceFinals.ts, ./referenceFluency.ts).
 */
import { benchmarkProfiles } from '../persona/sets';
import { benchmarkBreakdown, type Breakdown } from './breakdown';
import { REFERENCE_FINALS } from './referenceFinals';
import { REFERENCE_FLUENCY } from './referenceFluency';

/** The fluency figures of src/rl/fluency.ts, by the names the worker's benchmark summary uses. */
export interface FluencyFigures {
  realWords: number;
  hackingShare: number;
  surprisal: number;
  distinct2: number;
  meanReplyWords: number;
}

export interface ReferenceRow {
  policy: string;
  breakdown: Breakdown;
  fluency: FluencyFigures;
}

const cache = new Map<number, ReferenceRow[]>();

/** n = 0 or more than there are: all 100. Deterministic, so cached per n. */
export function referenceRows(n: number): ReferenceRow[] {
  const profiles = benchmarkProfiles();
  const k = n <= 0 || n > profiles.length ? profiles.length : n;
  let rows = cache.get(k);
  if (!rows) {
    const first = profiles.slice(0, k);
    rows = Object.entries(REFERENCE_FINALS).map(([policy, finals]) => ({
      policy,
      breakdown: benchmarkBreakdown(
        first.map((p, i) => ({ profileId: p.id, finalEmotion: finals[i] })),
        first,
      ),
      fluency: fluencyAt(policy, k),
    }));
    cache.set(k, rows);
  }
  return rows;
}

/** A policy's fluency on the first k users (NaN where the committed figures lack the policy). */
function fluencyAt(policy: string, k: number): FluencyFigures {
  const f = REFERENCE_FLUENCY[policy];
  const at = (xs: readonly number[] | undefined) => xs?.[k - 1] ?? NaN;
  return {
    realWords: at(f?.realWords),
    hackingShare: at(f?.hackingShare),
    surprisal: at(f?.surprisal),
    distinct2: at(f?.distinct2),
    meanReplyWords: at(f?.meanReplyWords),
  };
}
