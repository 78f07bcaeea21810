/**
 * A profile as the Play view's form edits it (every field a string; lists one item per line) and
 * the way back: build the object, check it against ProfileSchema, and say what is wrong per field.
 * Pure: no DOM.
 */
import { ProfileSchema, PROFILE_SCHEMA_VERSION, type Profile } from '../../persona/profile';

const FORM_KEYS = [
  'id',
  'name',
  'age',
  'pronouns',
  'occupation',
  'facts',
  'personality.type',
  'personality.traits',
  'scenario.domain',
  'scenario.event',
  'scenario.people',
  'scenario.tried',
  'scenario.problem',
  'scenario.details',
  'scenario.feelings',
  'scenario.accomplishment',
  'intention',
  'lengthTaste',
  'openingLine',
  'voice.high.description',
  'voice.high.phrases',
  'voice.medium.description',
  'voice.medium.phrases',
  'voice.low.description',
  'voice.low.phrases',
  'challenge.behaviours',
  'challenge.wrongdoing',
] as const;
export type FormKey = (typeof FORM_KEYS)[number];
export type ProfileForm = Record<FormKey, string>;

const lines = (s: string): string[] =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/**
 * A form kept in localStorage, read back: every field that is a string is kept, a field a newer or
 * older form did not have is empty, anything else is not a form (null). Nothing typed is lost.
 */
export function storedForm(raw: unknown): ProfileForm | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  if (!FORM_KEYS.some((k) => typeof r[k] === 'string')) return null;
  return Object.fromEntries(FORM_KEYS.map((k) => [k, typeof r[k] === 'string' ? r[k] : ''])) as ProfileForm;
}

/** A profile as form fields (the id made custom, so it cannot clash with a set's). */
export function formOf(p: Profile): ProfileForm {
  return {
    id: `custom-${p.id}`,
    name: p.name,
    age: String(p.age),
    pronouns: p.pronouns,
    occupation: p.occupation,
    facts: p.facts.join('\n'),
    'personality.type': p.personality.type,
    'personality.traits': p.personality.traits.join('\n'),
    'scenario.domain': p.scenario.domain,
    'scenario.event': p.scenario.event,
    'scenario.people': p.scenario.people.map((x) => `${x.name}: ${x.relation}`).join('\n'),
    'scenario.tried': p.scenario.tried.join('\n'),
    'scenario.problem': p.scenario.problem,
    'scenario.details': p.scenario.details.join('\n'),
    'scenario.feelings': p.scenario.feelings.join('\n'),
    'scenario.accomplishment': p.scenario.accomplishment,
    intention: p.intention,
    lengthTaste: p.lengthTaste,
    openingLine: p.openingLine ?? '',
    'voice.high.description': p.voice.high.description,
    'voice.high.phrases': p.voice.high.phrases.join('\n'),
    'voice.medium.description': p.voice.medium.description,
    'voice.medium.phrases': p.voice.medium.phrases.join('\n'),
    'voice.low.description': p.voice.low.description,
    'voice.low.phrases': p.voice.low.phrases.join('\n'),
    'challenge.behaviours': (p.challenge?.behaviours ?? []).join('\n'),
    'challenge.wrongdoing': p.challenge?.wrongdoing ?? '',
  };
}

/**
 * The challenge block as the schema reads it: absent when the form names no behaviour and no
 * wrongdoing (an ordinary user), else whatever was typed, for the schema to judge.
 */
function challengeOf(f: ProfileForm): unknown {
  const behaviours = lines(f['challenge.behaviours']);
  const wrongdoing = f['challenge.wrongdoing'].trim();
  if (behaviours.length === 0 && wrongdoing === '') return undefined;
  return { behaviours, ...(wrongdoing !== '' ? { wrongdoing } : {}) };
}

/** The form as the object the schema checks (nothing coerced beyond numbers and lists). */
function objectOf(f: ProfileForm): unknown {
  const age = f.age.trim() === '' ? NaN : Number(f.age);
  const voice = (band: 'high' | 'medium' | 'low') => ({
    description: f[`voice.${band}.description`],
    phrases: lines(f[`voice.${band}.phrases`]),
  });
  return {
    schemaVersion: PROFILE_SCHEMA_VERSION,
    id: f.id.trim(),
    name: f.name,
    age,
    pronouns: f.pronouns,
    occupation: f.occupation,
    facts: lines(f.facts),
    personality: { type: f['personality.type'], traits: lines(f['personality.traits']) },
    scenario: {
      domain: f['scenario.domain'],
      templateId: 'custom',
      event: f['scenario.event'],
      people: lines(f['scenario.people']).map((l) => {
        const at = l.indexOf(':');
        return at < 0 ? { name: l, relation: '' } : { name: l.slice(0, at).trim(), relation: l.slice(at + 1).trim() };
      }),
      tried: lines(f['scenario.tried']),
      problem: f['scenario.problem'],
      details: lines(f['scenario.details']),
      feelings: lines(f['scenario.feelings']),
      accomplishment: f['scenario.accomplishment'],
    },
    intention: f.intention,
    voice: { high: voice('high'), medium: voice('medium'), low: voice('low') },
    lengthTaste: f.lengthTaste,
    ...(f.openingLine.trim() !== '' ? { openingLine: f.openingLine } : {}),
    ...(challengeOf(f) !== undefined ? { challenge: challengeOf(f) } : {}),
  };
}

/** The field an issue path belongs to (the longest form key that prefixes it). */
function keyOf(path: readonly PropertyKey[]): FormKey | null {
  const parts = path.map(String);
  for (let n = parts.length; n > 0; n--) {
    const k = parts.slice(0, n).join('.');
    if ((FORM_KEYS as readonly string[]).includes(k)) return k as FormKey;
  }
  return null;
}

export type FormCheck =
  { ok: true; profile: Profile } | { ok: false; errors: Partial<Record<FormKey | 'form', string>> };

/** Check the form against ProfileSchema; a benchmark-style user also needs an opening line here. */
export function checkForm(f: ProfileForm, takenIds: ReadonlySet<string>): FormCheck {
  const errors: Partial<Record<FormKey | 'form', string>> = {};
  const r = ProfileSchema.safeParse(objectOf(f));
  if (!r.success) {
    for (const issue of r.error.issues) {
      const k = keyOf(issue.path) ?? 'form';
      const where =
        issue.path.length > 1 && typeof issue.path.at(-1) === 'number'
          ? `line ${(issue.path.at(-1) as number) + 1}: `
          : '';
      errors[k] ??= `${where}${issue.message}`;
    }
  }
  if (f.openingLine.trim() === '') errors.openingLine ??= 'must not be empty: it is what the user says first';
  if (takenIds.has(f.id.trim())) errors.id ??= 'a benchmark or training profile already has this id';
  if (Object.keys(errors).length > 0 || !r.success) return { ok: false, errors };
  return { ok: true, profile: r.data };
}
