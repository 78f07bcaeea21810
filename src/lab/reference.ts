/**
 * The reference policies' rows for the Evaluate panel: each one's breakdown on the first n
 * benchmark users (the ones the run played), from the committed finals (./referenceFinals.ts).
 */
import { benchmarkProfiles } from '../persona/sets';
import { benchmarkBreakdown, type Breakdown } from './breakdown';
import { REFERENCE_FINALS } from './referenceFinals';

export interface ReferenceRow {
  policy: string;
  breakdown: Breakdown;
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
    }));
    cache.set(k, rows);
  }
  return rows;
}
