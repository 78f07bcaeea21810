/**
 * The Warm start panel's numeric fields: their bounds and the message a bad value gets. Every
 * preset's own recipe (WARM_START_DEFAULTS) lies inside them, so the panel never opens on a value
 * it refuses.
 */
const WARM_START_LIMITS = {
  steps: [1, 100_000],
  dialogues: [50, 40_000],
  seed: [0, 2 ** 31 - 1],
} as const;

type WarmStartField = keyof typeof WARM_START_LIMITS;

/** Why `raw` is not a valid value of `name`, or null when it is. */
export function checkWarmStartField(name: WarmStartField, raw: string): string | null {
  const [lo, hi] = WARM_START_LIMITS[name];
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n)) return `${name} must be a whole number`;
  if (n < lo || n > hi) return `${name} must be between ${lo} and ${hi}`;
  return null;
}
