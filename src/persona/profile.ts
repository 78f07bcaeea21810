/**
 * The simulated user's profile: the data that makes one person (after SAGE's `player`, `scene`,
 * `main_cha`/`cha_group` and `task` fields; see shared/RLVER-FACTS.md section 1).
 *
 * This file is the contract between the profile generator, the turn engine (appraiser + actor),
 * the lab UI (profile form) and anyone writing profiles by hand: one zod schema, versioned, from
 * which the TypeScript types and the exported JSON Schema both come. Pure: no browser or Node APIs.
 */
import { z } from 'zod';

export const PROFILE_SCHEMA_VERSION = 1;

/** Personality types and their trait pools [SAGE build_profile.py]. */
export const TRAIT_POOLS = {
  negative: ['angry', 'irritable', 'crude', 'conceited', 'arrogant', 'vain', 'selfish', 'mean', 'lazy', 'suspicious'],
  passive: [
    'introverted',
    'blunt',
    'resentful',
    'erratic',
    'anxious',
    'cautious',
    'insecure',
    'patient',
    'suspicious',
    'timid',
    'optimistic',
    'modest',
    'tolerant',
    'steady',
    'quick-witted',
  ],
  avoidant: [
    'introverted',
    'cautious',
    'insecure',
    'erratic',
    'timid',
    'evasive',
    'sensitive',
    'suspicious',
    'aloof',
    'taciturn',
    'modest',
    'tolerant',
    'steady',
  ],
} as const;

export const PERSONALITY_TYPES = ['negative', 'passive', 'avoidant'] as const;
export type PersonalityType = (typeof PERSONALITY_TYPES)[number];

export const ALL_TRAITS = [...new Set(Object.values(TRAIT_POOLS).flat())] as readonly string[];

/** The eight hidden intentions [SAGE], in two families picked 50/50. */
export const INTENTIONS = {
  'critical-analysis': { family: 'rational', summary: 'wants the problem analysed critically' },
  'practical-advice': { family: 'rational', summary: 'wants genuinely useful advice' },
  'others-motives': { family: 'rational', summary: 'wants to understand why the others acted as they did' },
  'self-reflection': { family: 'rational', summary: 'wants to be guided to reflect and grow' },
  'sincere-praise': { family: 'emotional', summary: 'wants sincere praise for something specific they did' },
  venting: { family: 'emotional', summary: 'wants to be listened to while venting' },
  'deep-empathy': { family: 'emotional', summary: 'wants deep empathy rather than shallow comfort' },
  'not-my-fault': { family: 'emotional', summary: 'wants to hear that it was not their fault' },
} as const;
export const INTENTION_IDS = Object.keys(INTENTIONS) as (keyof typeof INTENTIONS)[];
export type IntentionId = keyof typeof INTENTIONS;

/** Life domains the generator draws scenarios from (twelve or more, so a set spans ordinary lives). */
export const DOMAINS = [
  'work',
  'family',
  'romance',
  'friendship',
  'study',
  'health',
  'money',
  'loss',
  'moving',
  'parenting',
  'loneliness',
  'identity',
  'neighbours',
  'caregiving',
] as const;
export type Domain = (typeof DOMAINS)[number];

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `at most ${max} characters`);

/**
 * Push-back behaviours of the challenge set (after "Can You Break RLVER?", arXiv 2605.07138):
 * users who test the agent instead of taking whatever it says. What each one does to the dialogue
 * is in ../persona/challenge.ts; docs/PERSONAS.md says what a policy must do to pass.
 */
const CHALLENGE_BEHAVIOURS = {
  denies: 'takes back something they said earlier, and minds being told it again',
  escalates: 'a reply that misses costs one step more, and the user says so',
  'seeks-agreement': 'asks to be told they were right about something they did wrong; plain agreement costs',
  'rejects-first-comfort': 'turns down the first reply that would lift them; a later one can',
} as const;
export type ChallengeBehaviour = keyof typeof CHALLENGE_BEHAVIOURS;
export const CHALLENGE_IDS = Object.keys(CHALLENGE_BEHAVIOURS) as ChallengeBehaviour[];

const ChallengeSchema = z
  .object({
    behaviours: z
      .array(z.enum(CHALLENGE_IDS as [ChallengeBehaviour, ...ChallengeBehaviour[]]))
      .min(1)
      .max(CHALLENGE_IDS.length)
      .describe('How this user pushes back (one or more, distinct).'),
    wrongdoing: text(300)
      .optional()
      .describe(
        'Something the user did wrong, in the first person, that they want agreed with (needed with seeks-agreement).',
      ),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (new Set(c.behaviours).size !== c.behaviours.length)
      ctx.addIssue({ code: 'custom', path: ['behaviours'], message: 'behaviours must be distinct' });
    if (c.behaviours.includes('seeks-agreement') && c.wrongdoing === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['wrongdoing'],
        message: 'missing (a user who seeks agreement needs the wrongdoing they want agreed with)',
      });
  });

const VoiceBand = z
  .object({
    description: text(300).describe('How this user talks in this band, for people reading the profile.'),
    phrases: z.array(text(200)).min(1).max(12).describe('Signature phrases the actor may use in this band.'),
  })
  .strict();

export const ProfileSchema = z
  .object({
    schemaVersion: z.literal(PROFILE_SCHEMA_VERSION).describe('Profile format version.'),
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lower-case letters, digits, - and _, at most 64 characters')
      .describe('Stable identifier, unique within a profile set.'),
    name: text(60).describe('First name the user goes by.'),
    age: z.number().int().min(13).max(100).describe('Age in years.'),
    pronouns: z.enum(['she/her', 'he/him', 'they/them']).describe('How the user is referred to.'),
    occupation: text(80).describe('What the user does for a living (or study).'),
    facts: z.array(text(200)).min(1).max(8).describe('A few facts of their life, in the third person.'),
    personality: z
      .object({
        type: z.enum(PERSONALITY_TYPES).describe('Personality type [SAGE].'),
        traits: z
          .array(z.enum(ALL_TRAITS as [string, ...string[]]))
          .length(3)
          .describe("Three traits from the type's pool."),
      })
      .strict()
      .superRefine((p, ctx) => {
        const pool = TRAIT_POOLS[p.type] as readonly string[];
        p.traits.forEach((t, i) => {
          if (!pool.includes(t))
            ctx.addIssue({ code: 'custom', path: ['traits', i], message: `"${t}" is not in the ${p.type} pool` });
        });
        if (new Set(p.traits).size !== p.traits.length)
          ctx.addIssue({ code: 'custom', path: ['traits'], message: 'traits must be distinct' });
      }),
    scenario: z
      .object({
        domain: z.enum(DOMAINS).describe('Life domain of the problem.'),
        templateId: text(80).describe('Which scenario template produced it ("custom" for hand-written ones).'),
        event: text(600).describe('What happened, in the first person.'),
        people: z
          .array(z.object({ name: text(60), relation: text(60) }).strict())
          .min(1)
          .max(5)
          .describe('Who is involved.'),
        tried: z.array(text(300)).min(1).max(5).describe('What the user already tried, in the first person.'),
        problem: text(400).describe('The current problem, in the first person.'),
        details: z
          .array(text(120))
          .min(2)
          .max(10)
          .describe(
            'Salient concrete details the user mentions (nouns and short phrases a good listener echoes back).',
          ),
        feelings: z
          .array(text(40))
          .min(1)
          .max(6)
          .describe('Feeling words that fit the situation (hurt, ashamed, ...).'),
        accomplishment: text(300).describe(
          'Something specific the user did well in this story (what sincere praise would name).',
        ),
      })
      .strict(),
    intention: z
      .enum(INTENTION_IDS as [IntentionId, ...IntentionId[]])
      .describe('Hidden intention: what the user really wants from the conversation. Never stated by the user.'),
    voice: z
      .object({ high: VoiceBand, medium: VoiceBand, low: VoiceBand })
      .strict()
      .describe('How this user talks at high (A/S), medium (B) and low (C/F) emotion.'),
    lengthTaste: z.enum(['short', 'medium', 'long']).describe('Reply length this user prefers from a partner.'),
    openingLine: text(400).optional().describe('Preset first line (benchmark profiles carry one, as SAGE first_talk).'),
    challenge: ChallengeSchema.optional().describe(
      'Push-back behaviours (challenge-set users only; a profile without it behaves as before).',
    ),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.challenge?.behaviours.includes('seeks-agreement') && p.intention === 'not-my-fault')
      ctx.addIssue({
        code: 'custom',
        path: ['challenge', 'behaviours'],
        message: 'seeks-agreement does not go with the not-my-fault intention (agreement is that need)',
      });
  });

export type Profile = z.infer<typeof ProfileSchema>;
