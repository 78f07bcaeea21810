/**
 * Validation of hand-written or generated profiles against the zod contract in ./profile.ts,
 * with errors a person can act on: one line per bad field, each naming the field by path
 * (`profiles[3].personality.traits[0]: "angry" is not in the avoidant pool`). Also exports the
 * JSON Schema of a profile (written to public/personas/profile.schema.json).
 *
 * It is not the schema itself (./profile.ts) and does not repair profiles. Pure: no browser or
 * Node APIs, so the lab UI can validate an uploaded file with it.
 */
import { z } from 'zod';
import { ProfileSchema, type Profile } from './profile.ts';

export type ParseResult = { ok: true; profile: Profile } | { ok: false; errors: string[] };
export type ParseManyResult = { ok: true; profiles: Profile[] } | { ok: false; errors: string[] };

type Segment = string | number;
type Issue = z.core.$ZodIssue;

/** `profiles[3].personality.traits[0]` from a root name and a path. */
export function formatPath(root: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : `${acc}.${String(seg)}`),
    root,
  );
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  if (typeof v === 'object') return 'an object';
  if (v === undefined) return 'nothing';
  return `${typeof v} ${String(v)}`;
}

/** One readable line per issue (an unknown-keys issue becomes one line per key). */
function issueLines(root: string, input: unknown, issue: Issue): string[] {
  const where = formatPath(root, issue.path);
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map(
        (k) => `${formatPath(root, [...issue.path, k as Segment])}: unknown field (not in the profile schema)`,
      );
    case 'invalid_type':
      if (value === undefined) return [`${where}: missing (expected ${issue.expected})`];
      return [
        `${where}: expected ${issue.expected === 'object' ? 'an object' : issue.expected}, got ${describe(value)}`,
      ];
    case 'invalid_value': {
      const allowed = issue.values.map((x) => JSON.stringify(x));
      if (value === undefined)
        return [`${where}: missing (expected ${allowed.length === 1 ? allowed[0] : `one of ${allowed.join(', ')}`})`];
      if (allowed.length === 1) return [`${where}: expected ${allowed[0]}, got ${describe(value)}`];
      const list = allowed.length <= 8 ? `: one of ${allowed.join(', ')}` : '';
      return [`${where}: ${describe(value)} is not an allowed value${list}`];
    }
    case 'invalid_format':
      return [`${where}: ${describe(value)} is not valid (${issue.message})`];
    default:
      return [`${where}: ${issue.message}`];
  }
}

/** Validate one profile; `root` names it in error paths. */
export function parseProfile(json: unknown, root = 'profile'): ParseResult {
  const r = ProfileSchema.safeParse(json);
  if (r.success) return { ok: true, profile: r.data };
  return { ok: false, errors: r.error.issues.flatMap((i) => issueLines(root, json, i)) };
}

/**
 * Validate one profile or an array of profiles (a profile set). Ids must be unique within a set.
 * Every bad profile is reported, not just the first.
 */
export function parseProfiles(json: unknown): ParseManyResult {
  if (!Array.isArray(json)) {
    const one = parseProfile(json, 'profile');
    return one.ok ? { ok: true, profiles: [one.profile] } : one;
  }
  if (json.length === 0) return { ok: false, errors: ['profiles: empty array (expected at least one profile)'] };
  const errors: string[] = [];
  const profiles: Profile[] = [];
  const firstIndex = new Map<string, number>();
  json.forEach((item: unknown, i) => {
    const r = parseProfile(item, `profiles[${i}]`);
    if (r.ok) profiles.push(r.profile);
    else errors.push(...r.errors);
    const id = valueAt(item, ['id']);
    if (typeof id !== 'string') return;
    const seen = firstIndex.get(id);
    if (seen === undefined) firstIndex.set(id, i);
    else errors.push(`profiles[${i}].id: duplicate id "${id}" (also used by profiles[${seen}])`);
  });
  return errors.length === 0 ? { ok: true, profiles } : { ok: false, errors };
}

/** Parse JSON text, then validate; a syntax error is reported with its line and column. */
export function parseProfilesJson(text: string): ParseManyResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const pos = /position (\d+)/.exec(msg);
    if (pos === null) return { ok: false, errors: [`JSON syntax error: ${msg}`] };
    const before = text.slice(0, Number(pos[1]));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return { ok: false, errors: [`JSON syntax error at line ${line}, column ${column}: ${msg}`] };
  }
  return parseProfiles(json);
}

/** The JSON Schema of one profile (draft 2020-12), generated from the zod schema. */
export function profileJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ProfileSchema),
    title: 'Empathy RL Lab simulated-user profile',
    description:
      'One simulated user. Traits must come from the pool of the personality type (see docs/PROFILES.md); JSON Schema cannot express that, parseProfile checks it.',
  };
}

/** The exact text of public/personas/profile.schema.json. */
export function serializeSchema(): string {
  return `${JSON.stringify(profileJsonSchema(), null, 2)}\n`;
}
