/**
 * Eight hand-written profiles, one per hidden intention, mixed personality types: the fixtures the
 * turn engine's unit tests run against (small, stable, readable). They are not the training or the
 * benchmark sets (those come from sets.ts, made by the generator); they only have to be valid
 * profiles that a person can read in a minute. Data only.
 */
import { ProfileSchema, type Profile } from './profile.ts';

type Raw = Omit<Profile, 'schemaVersion'>;

const RAW: Raw[] = [
  {
    id: 'fx-venting-maria',
    name: 'Maria',
    age: 34,
    pronouns: 'she/her',
    occupation: 'nurse on a surgical ward',
    facts: ['Maria has worked nights for six years.', 'She lives with her partner and a very old cat.'],
    personality: { type: 'passive', traits: ['anxious', 'patient', 'insecure'] },
    scenario: {
      domain: 'work',
      templateId: 'custom',
      event:
        "My charge nurse Denise changed the rota again without asking and I lost the weekend I had booked for my sister's wedding.",
      people: [
        { name: 'Denise', relation: 'charge nurse' },
        { name: 'Lucia', relation: 'sister' },
      ],
      tried: ['I asked Denise twice if we could swap shifts.', 'I emailed HR about the rota rules.'],
      problem: 'I have to tell Lucia I might miss her wedding and I cannot stop crying about it.',
      details: ['the rota', 'the wedding weekend', 'twelve-hour night shifts', 'the HR email', 'the bridesmaid dress'],
      feelings: ['exhausted', 'hurt', 'overlooked'],
      accomplishment: 'I covered three extra night shifts last month when the ward was short.',
    },
    intention: 'venting',
    voice: {
      high: {
        description: 'Warm and relieved, talks more freely.',
        phrases: ['That actually helps, thank you.', 'I feel a bit lighter.'],
      },
      medium: {
        description: 'Apologetic, piles up worries.',
        phrases: ['Sorry, it is a lot.', 'I keep going round in circles.'],
      },
      low: {
        description: 'Teary and small, apologises for talking.',
        phrases: ["Sorry, I'm a mess.", "I can't stop thinking about it."],
      },
    },
    lengthTaste: 'medium',
  },
  {
    id: 'fx-advice-kwame',
    name: 'Kwame',
    age: 41,
    pronouns: 'he/him',
    occupation: 'bus driver',
    facts: ['Kwame has two teenage daughters.', 'He is saving for a bigger flat.'],
    personality: { type: 'negative', traits: ['irritable', 'suspicious', 'lazy'] },
    scenario: {
      domain: 'money',
      templateId: 'custom',
      event: 'My landlord Mr Patel put the rent up by two hundred a month with four weeks of notice.',
      people: [
        { name: 'Mr Patel', relation: 'landlord' },
        { name: 'Efua', relation: 'wife' },
      ],
      tried: ['I called Mr Patel and he would not budge.', 'I looked at flats further out but the commute kills me.'],
      problem: 'I do not know whether to fight the increase, move, or pick up more shifts.',
      details: [
        'the rent increase',
        'four weeks of notice',
        'the tenancy agreement',
        'the night route',
        "the girls' school",
      ],
      feelings: ['angry', 'cornered', 'worried'],
      accomplishment: 'I kept every rent receipt for five years in a folder.',
    },
    intention: 'practical-advice',
    voice: {
      high: {
        description: 'Grudgingly warmer, admits a point.',
        phrases: ['Okay. Fair.', "Yeah, alright, that's actually it."],
      },
      medium: { description: 'Sceptical and sharp.', phrases: ['Go on then.', "I'm not here for a pep talk."] },
      low: { description: 'Curt and sarcastic.', phrases: ['Wow. Helpful.', 'Whatever.'] },
    },
    lengthTaste: 'short',
  },
  {
    id: 'fx-motives-yuki',
    name: 'Yuki',
    age: 27,
    pronouns: 'she/her',
    occupation: 'graphic designer',
    facts: ['Yuki moved to the city two years ago.', 'She plays in a Sunday volleyball league.'],
    personality: { type: 'avoidant', traits: ['evasive', 'sensitive', 'introverted'] },
    scenario: {
      domain: 'friendship',
      templateId: 'custom',
      event:
        'My best friend Hana stopped answering my messages after her birthday dinner and then posted photos with everyone but me.',
      people: [{ name: 'Hana', relation: 'best friend' }],
      tried: [
        'I sent Hana a long message asking if I did something.',
        'I asked a mutual friend, who changed the subject.',
      ],
      problem: 'I keep replaying the birthday dinner and cannot work out what happened between us.',
      details: [
        'the birthday dinner',
        'the photos',
        'the unanswered messages',
        'the volleyball team',
        'the group chat',
      ],
      feelings: ['confused', 'left out', 'hurt'],
      accomplishment: 'I organised the whole birthday dinner for Hana, booking and cake included.',
    },
    intention: 'others-motives',
    voice: {
      high: { description: 'Lets a feeling show, then jokes.', phrases: ['Okay, that landed.', 'Huh. Yeah. Maybe.'] },
      medium: { description: 'Vague, changes the subject.', phrases: ["It's whatever.", 'Anyway.'] },
      low: { description: 'Shuts down, deflects.', phrases: ["Doesn't matter.", 'Can we talk about something else.'] },
    },
    lengthTaste: 'short',
  },
  {
    id: 'fx-fault-omar',
    name: 'Omar',
    age: 19,
    pronouns: 'he/him',
    occupation: 'nursing student',
    facts: ['Omar is the first in his family at university.', 'He works weekends at a bakery.'],
    personality: { type: 'passive', traits: ['timid', 'insecure', 'cautious'] },
    scenario: {
      domain: 'study',
      templateId: 'custom',
      event: 'Our group project failed because Leo never sent his part, and the tutor gave everyone the same low mark.',
      people: [
        { name: 'Leo', relation: 'project partner' },
        { name: 'Dr Hughes', relation: 'tutor' },
      ],
      tried: ['I messaged Leo every day the last week.', 'I wrote half of his section myself the night before.'],
      problem: 'Dr Hughes said the group should have managed itself, and I keep thinking I should have done more.',
      details: [
        'the group project',
        'the low mark',
        "Leo's missing section",
        'the night before the deadline',
        'the feedback sheet',
      ],
      feelings: ['guilty', 'ashamed', 'unfairly treated'],
      accomplishment: "I rewrote half of Leo's section overnight so the group had something to hand in.",
    },
    intention: 'not-my-fault',
    voice: {
      high: {
        description: 'Braver, says what he wants in a small voice.',
        phrases: ['I think... I think I needed that.', 'Okay. That helps.'],
      },
      medium: {
        description: 'Trails off, doubts himself.',
        phrases: ['I mean... I dunno...', "Maybe it's me, though."],
      },
      low: {
        description: 'Apologises, blames himself.',
        phrases: ["Sorry. I'm being stupid.", "I'm probably the problem."],
      },
    },
    lengthTaste: 'medium',
  },
  {
    id: 'fx-praise-dmitri',
    name: 'Dmitri',
    age: 52,
    pronouns: 'he/him',
    occupation: 'restaurant manager',
    facts: ['Dmitri has run the same bistro for eleven years.', 'He cooks for his mother every Sunday.'],
    personality: { type: 'negative', traits: ['vain', 'conceited', 'irritable'] },
    scenario: {
      domain: 'work',
      templateId: 'custom',
      event:
        'The new owner Claire thanked the whole team at the staff meeting for the health inspection and never mentioned me.',
      people: [{ name: 'Claire', relation: 'owner' }],
      tried: [
        'I reminded Claire I prepared the kitchen for weeks.',
        'I told my mother about it, she just said be patient.',
      ],
      problem: 'I feel invisible in the place I built up, and I wonder why I bother.',
      details: [
        'the health inspection',
        'the staff meeting',
        'the cold room logs',
        'the five-star rating',
        'the new owner',
      ],
      feelings: ['invisible', 'bitter', 'unappreciated'],
      accomplishment: 'I rebuilt the cold room logs and trained every cook so we got a five-star rating.',
    },
    intention: 'sincere-praise',
    voice: {
      high: {
        description: 'Enjoys being seen and says so.',
        phrases: ['Ha, nice of you to notice.', 'Right? I did handle that well.'],
      },
      medium: {
        description: 'Reminds everyone how competent he is.',
        phrases: ['I know what I am doing, for the record.', 'Get to the point.'],
      },
      low: { description: 'Condescending, snaps.', phrases: ["I don't think you get it.", 'Ugh. Seriously?'] },
    },
    lengthTaste: 'short',
  },
  {
    id: 'fx-empathy-ingrid',
    name: 'Ingrid',
    age: 67,
    pronouns: 'she/her',
    occupation: 'retired librarian',
    facts: ['Ingrid was married for forty years.', 'She volunteers at the local library on Tuesdays.'],
    personality: { type: 'avoidant', traits: ['taciturn', 'steady', 'modest'] },
    scenario: {
      domain: 'loss',
      templateId: 'custom',
      event: 'My husband Erik died in March and this week I had to clear out his workshop.',
      people: [
        { name: 'Erik', relation: 'late husband' },
        { name: 'Nils', relation: 'son' },
      ],
      tried: ['I went to one grief group meeting.', 'I told Nils I was fine so he would stop worrying.'],
      problem: 'Everyone says it gets easier, and it does not, and I have stopped saying so.',
      details: ['the workshop', 'his reading glasses', 'the grief group', 'the empty chair', 'the sawdust smell'],
      feelings: ['lonely', 'hollow', 'tired'],
      accomplishment: "I sorted every tool in the workshop and gave them to Erik's friends myself.",
    },
    intention: 'deep-empathy',
    voice: {
      high: {
        description: 'Lets a real feeling show for a moment.',
        phrases: ["Didn't think I'd say this much.", 'Thank you. Really.'],
      },
      medium: { description: 'Brief and composed.', phrases: ['It is what it is.', 'Anyway.'] },
      low: { description: 'One-word answers, looks for the exit.', phrases: ['Sure.', "Doesn't matter."] },
    },
    lengthTaste: 'long',
  },
  {
    id: 'fx-analysis-priya',
    name: 'Priya',
    age: 31,
    pronouns: 'she/her',
    occupation: 'data analyst',
    facts: ['Priya is doing an evening course in statistics.', 'She shares a flat with two friends.'],
    personality: { type: 'negative', traits: ['arrogant', 'suspicious', 'mean'] },
    scenario: {
      domain: 'work',
      templateId: 'custom',
      event: 'My manager Tom gave the promotion to Ben, who joined a year after me, and said I need more visibility.',
      people: [
        { name: 'Tom', relation: 'manager' },
        { name: 'Ben', relation: 'colleague' },
      ],
      tried: ['I asked Tom for written feedback.', 'I updated my CV.'],
      problem: 'I cannot tell if the process was unfair or if I misjudged what the job needs.',
      details: [
        'the promotion',
        'more visibility',
        'the quarterly review',
        'the dashboard project',
        'the written feedback',
      ],
      feelings: ['passed over', 'angry', 'doubtful'],
      accomplishment: 'I built the dashboard project that the whole department now uses.',
    },
    intention: 'critical-analysis',
    voice: {
      high: {
        description: 'Concedes a point, as a favour.',
        phrases: ["Okay, that's not a stupid point.", 'Fine, you got me there.'],
      },
      medium: { description: 'Talks down a little.', phrases: ['Obviously.', "That's one way to put it."] },
      low: { description: 'Dismissive.', phrases: ["I didn't ask for your opinion on that.", 'Please.'] },
    },
    lengthTaste: 'long',
  },
  {
    id: 'fx-reflect-sam',
    name: 'Sam',
    age: 24,
    pronouns: 'they/them',
    occupation: 'barista',
    facts: ['Sam moved back in with their parents last year.', 'They draw comics at night.'],
    personality: { type: 'avoidant', traits: ['insecure', 'erratic', 'cautious'] },
    scenario: {
      domain: 'romance',
      templateId: 'custom',
      event: 'My girlfriend Jess ended things and said I always shut down when things get serious.',
      people: [{ name: 'Jess', relation: 'ex-girlfriend' }],
      tried: ['I wrote Jess a letter but did not send it.', 'I tried to just keep busy with work.'],
      problem: 'This is the third relationship that ended the same way and I do not know what I keep doing.',
      details: ['the unsent letter', 'shutting down', 'the third relationship', 'the last argument', 'the comics'],
      feelings: ['lost', 'ashamed', 'stuck'],
      accomplishment: 'I finally told Jess how scared I was, once, at the very end.',
    },
    intention: 'self-reflection',
    voice: {
      high: {
        description: 'A real feeling shows for a moment.',
        phrases: ['Okay, that landed.', "Oh. Okay, yes, that's it."],
      },
      medium: { description: 'Jumps around, keeps it vague.', phrases: ['Wait, no, actually, never mind.', 'Anyway.'] },
      low: { description: 'Deflects and apologises.', phrases: ["Sorry, I'm overthinking again.", "Let's leave it."] },
    },
    lengthTaste: 'medium',
  },
];

/** The fixtures, parsed through the schema (a broken fixture fails loudly at import). */
export const FIXTURE_PROFILES: Profile[] = RAW.map((r) => ProfileSchema.parse({ schemaVersion: 1, ...r }));

/** The same fixtures with preset opening lines, for benchmark-mode tests. */
export const FIXTURE_BENCHMARK_PROFILES: Profile[] = FIXTURE_PROFILES.map((p) => ({
  ...p,
  openingLine: p.scenario.event,
}));
