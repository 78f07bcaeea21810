/**
 * Shapes of the hand-written building blocks the profile generator assembles (scenario templates,
 * name pools, voice fragments). Types only: the data lives beside this file, one file per group of
 * life domains; the slot grammar is implemented in ../generator.ts.
 *
 * Slot grammar used in every template string:
 *   {name}          the user's first name (facts are written in the third person with it)
 *   {k}             the name of the person in role k (roles are declared in `people`)
 *   {k.rel}         that person's relation to the user, e.g. "sister" (write "my {k.rel}")
 *   {k.he} {k.him} {k.his}   that person's pronouns (he/she, him/her, his/her); {k.He} {k.His} capitalised
 *   {$v}            a variable picked once per profile from `vars.v` (the same value in every field)
 */
import type { Domain } from '../profile.ts';

export type Gender = 'f' | 'm';

/** One person in the story, besides the user. */
interface RoleSpec {
  /** Slot key used in the texts: {boss}, {boss.he}. */
  key: string;
  /** Relation noun without "my": "manager", or a gendered pair {f: 'sister', m: 'brother'}. */
  relation: string | { f: string; m: string };
  /** Force a gender (for plain relations that imply one, or when the story needs it). */
  gender?: Gender;
}

export interface ScenarioTemplate {
  /** Stable id, unique over all templates, e.g. "work-credit-taken". Written into the profile. */
  id: string;
  domain: Domain;
  /** Training templates and benchmark templates are disjoint, so the benchmark measures generalisation. */
  split: 'train' | 'benchmark';
  /** Plausible age range of the user for this story (inclusive). */
  ages: [number, number];
  /** Occupations that fit the story; when absent, the general pool for the age is used. */
  occupations?: readonly string[];
  people: readonly RoleSpec[];
  vars?: Readonly<Record<string, readonly string[]>>;
  /** One or two facts this story implies, third person ("{name} has worked at the depot for years."). */
  facts?: readonly string[];
  /** What happened, first person. */
  event: string;
  /** What the user already tried, first person. */
  tried: readonly string[];
  /** The current problem, first person. */
  problem: string;
  /** Concrete details a good listener would echo back. */
  details: readonly string[];
  feelings: readonly string[];
  /** Something specific the user did well (what sincere praise would name). */
  accomplishment: string;
  /** First-person lines that open the topic and name a detail, no trailing full stop (for openingLine). */
  hooks: readonly string[];
}

/** Voice fragments for one trait in one emotion band: a clause for the description and phrases. */
export interface TraitBandVoice {
  desc: string;
  phrases: readonly string[];
}

export type Band = 'high' | 'medium' | 'low';
