/**
 * The users service's request bodies (zod schemas, each field described) and its answers: a
 * status and a JSON body, with 4xx errors that name the field (`reply: expected string, got
 * number`). The functions that answer them are in ./api.ts.
 */
import { z } from 'zod';
import { DIFFICULTIES } from '../persona/dynamics.ts';

// ---------------------------------------------------------------- request schemas

export const DIALOGUE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const Seed = z.number().int().min(0).max(0xffffffff).describe('Seed of the user (0 .. 2^32-1).');
const Difficulty = z.enum(DIFFICULTIES as [string, ...string[]]).describe('moderate or strict.');
const Mode = z.enum(['train', 'benchmark']).describe('train: start 30, cap 8, own opening; benchmark: 40, 10, preset.');
const TurnCap = z
  .number()
  .int()
  .min(1)
  .max(10)
  .optional()
  .describe("Replies before the user ends the dialogue (1 .. 10; default the mode's: train 8, benchmark 10).");

/** Who the user is: a profile id (in `set`, or any set) or a whole profile checked by the schema. */
const Who = {
  profileId: z.string().max(64).optional(),
  set: z.string().max(64).optional(),
  profile: z.unknown().optional(),
};

export const StartBody = z
  .object({
    ...Who,
    id: z.string().regex(DIALOGUE_ID, 'letters, digits, - and _, 1 to 64 characters').optional(),
    seed: Seed.default(0),
    difficulty: Difficulty.default('moderate'),
    mode: Mode.optional(),
    turnCap: TurnCap,
  })
  .strict();

const WithAppraisal = z
  .boolean()
  .default(true)
  .describe('false: leave the appraisal out of the answer (the line, numbers and end stay), a tenth of the bytes.');

export const ReplyBody = z.object({ reply: z.string(), appraisal: WithAppraisal }).strict();

/** Turns of many dialogues in one request (`POST /v1/turns`), answered in order. */
export const TurnsBody = z
  .object({
    turns: z
      .array(
        z
          .object({
            id: z.string().regex(DIALOGUE_ID, 'letters, digits, - and _, 1 to 64 characters'),
            reply: z.string(),
          })
          .strict(),
      )
      .min(1),
    appraisal: WithAppraisal,
  })
  .strict();
export type TurnItem = z.infer<typeof TurnsBody>['turns'][number];

export const ReplayBody = z
  .object({
    ...Who,
    seed: Seed.default(0),
    difficulty: Difficulty.default('moderate'),
    mode: Mode.optional(),
    turnCap: TurnCap,
    replies: z.array(z.string()).max(16),
  })
  .strict();

/** A saved state: its shape is checked here, its contents by replaying its transcript. */
const StateShape = z
  .object({
    version: z.number(),
    profileId: z.string().max(64),
    seed: Seed,
    difficulty: Difficulty,
    mode: Mode,
    turnCap: TurnCap,
    transcript: z
      .array(z.object({ role: z.enum(['user', 'agent']), text: z.string() }).strict())
      .min(1)
      .max(2 * 16 + 1),
  })
  .passthrough();

export const RestoreBody = z
  .object({ state: StateShape, profile: z.unknown().optional(), set: z.string().max(64).optional() })
  .strict();

// ---------------------------------------------------------------- answers

export interface Answer {
  status: number;
  body: unknown;
}

export const ok = (body: unknown, status = 200): Answer => ({ status, body });
export const fail = (status: number, errors: string[]): Answer => ({ status, body: { error: errors[0], errors } });

/** `reply: expected string, got number` from zod issues, the field named by its path. */
function zodErrors(root: string, error: z.ZodError): string[] {
  return error.issues.map((i) => {
    const path = i.path.reduce<string>(
      (acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)),
      '',
    );
    const where = path || root;
    if (i.code === 'unrecognized_keys')
      return `${where === root ? '' : `${where}.`}${i.keys.join(', ')}: unknown field`;
    return `${where}: ${i.message}`;
  });
}

export function parse<T extends z.ZodType>(schema: T, body: unknown): { ok: true; value: z.infer<T> } | Answer {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return fail(400, ['body: expected a JSON object']);
  const r = schema.safeParse(body);
  return r.success ? { ok: true, value: r.data } : fail(400, zodErrors('body', r.error));
}
