/**
 * Scenario templates for the identity and neighbours domains. Data only (slot grammar in
 * ./types.ts); training and benchmark templates in separate arrays, disjoint by design.
 */
import type { ScenarioTemplate } from './types.ts';

export const IDENTITY_NEIGHBOURS_TRAIN: ScenarioTemplate[] = [
  {
    id: 'identity-career-change-late',
    domain: 'identity',
    split: 'train',
    ages: [38, 52],
    occupations: ['accountant retraining as a teacher', 'ex-banker on a carpentry course', 'former sales manager training as a nurse'],
    people: [{ key: 'p', relation: { f: 'wife', m: 'husband' } }, { key: 'fr', relation: 'old colleague' }],
    facts: ['{name} left a well-paid job in January to retrain.'],
    event:
      'I left a well-paid job in January to retrain, at forty-something, in a class full of twenty-year-olds. At a dinner last week an old colleague {fr} called it my "midlife gap year" and the whole table laughed, my {p.rel} {p} included.',
    tried: ['I laughed along.', 'I told {p} later that it stung. {p.He} said it was just a joke.'],
    problem: "Some days I think I've thrown away everything I built, and I don't know who I am if I am not good at my job.",
    details: ['"midlife gap year"', 'the class full of twenty-year-olds', 'the dinner', 'January', 'the well-paid job'],
    feelings: ['laughed at', 'unsure', 'exposed'],
    accomplishment: 'I walked away from a safe salary to do something I actually care about, which took real nerve.',
    hooks: ['Someone called my retraining a "midlife gap year" at dinner and everyone laughed', "I'm the oldest in a class full of twenty-year-olds"],
  },
  {
    id: 'neighbours-noise-upstairs',
    domain: 'neighbours',
    split: 'train',
    ages: [22, 70],
    people: [{ key: 'n', relation: 'upstairs neighbour' }],
    facts: ['{name} lives in a flat in an old converted house with thin floors.'],
    event:
      "My upstairs neighbour {n} has a speaker on the floor and plays music until two most nights. I left a polite note. The next night it was louder, and in the morning I found my note stuck back on my door with \"get earplugs\" written on it.",
    tried: ['I left a polite note.', 'I bought earplugs, which work until the bass starts.', 'I emailed the letting agent, who said to keep a log.'],
    problem: "I've slept about four hours a night for two weeks and I'm starting to make mistakes at work.",
    details: ['the speaker on the floor', 'two in the morning', '"get earplugs"', 'the note', 'the bass', 'the log'],
    feelings: ['exhausted', 'disrespected', 'on edge'],
    accomplishment: 'I handled it politely and by the book: a note, then a log, then the agent, without a single shouting match.',
    hooks: ['My note to the upstairs neighbour came back with "get earplugs" written on it', "Music till two every night above my bed, and I'm the one getting told to buy earplugs"],
  },
];

export const IDENTITY_NEIGHBOURS_BENCHMARK: ScenarioTemplate[] = [
  {
    id: 'identity-accent-mocked',
    domain: 'identity',
    split: 'benchmark',
    ages: [22, 50],
    people: [{ key: 'boss', relation: 'team lead' }],
    facts: ['{name} came to the country at nineteen and speaks three languages.'],
    event:
      'In a client call last week my team lead {boss} asked me to "let someone else do the talking, for clarity". Afterwards in the kitchen {boss.he} did an impression of my accent and people laughed.',
    tried: ['I have been practising the presentation out loud at home, recording myself.', 'I asked {boss} for feedback on my English. {boss.He} said it was "fine, don\'t be sensitive".'],
    problem: "I've started staying quiet in meetings even when I know the answer, and I hate who that makes me.",
    details: ['the client call', '"for clarity"', 'the kitchen', 'the impression', 'recording myself'],
    feelings: ['humiliated', 'silenced', 'angry'],
    accomplishment: 'I run client work in my third language, and I still asked my lead for honest feedback.',
    hooks: ['My team lead did an impression of my accent in the office kitchen', 'Got told to "let someone else do the talking, for clarity" on a client call'],
  },
  {
    id: 'neighbours-fence-dispute',
    domain: 'neighbours',
    split: 'benchmark',
    ages: [35, 75],
    people: [{ key: 'n', relation: 'next-door neighbour' }],
    facts: ['{name} has lived in the same house for twelve years and grows vegetables in the back garden.'],
    event:
      'My next-door neighbour {n} cut down the hedge between our gardens while I was at work, and put up a fence that is a foot onto my side. The beans I had growing along the hedge are gone. {n.He} says the old boundary was "always wrong".',
    tried: ['I dug out the house deeds and the plan.', 'I knocked on the door to talk it through. {n.He} shut it halfway through my first sentence.'],
    problem: "I see {n} every day on the drive and I feel like a prisoner in my own garden.",
    details: ['the hedge', 'a foot onto my side', 'the beans', 'the house deeds', 'the drive'],
    feelings: ['violated', 'furious', 'powerless'],
    accomplishment: 'I found the deeds and the boundary plan and tried to talk first instead of going in shouting.',
    hooks: ['My neighbour cut down the hedge while I was at work and put a fence a foot onto my side', "The beans I grew along the hedge are gone, and there's a fence there now"],
  },
];
