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
    occupations: [
      'accountant retraining as a teacher',
      'ex-banker on a carpentry course',
      'former sales manager training as a nurse',
    ],
    people: [
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
      { key: 'fr', relation: 'old colleague' },
    ],
    facts: ['{name} left a well-paid job in January to retrain.'],
    event:
      'I left a well-paid job in January to retrain, at forty-something, in a class full of twenty-year-olds. At a dinner last week an old colleague {fr} called it my "midlife gap year" and the whole table laughed, my {p.rel} {p} included.',
    tried: ['I laughed along.', 'I told {p} later that it stung. {p.He} said it was just a joke.'],
    problem:
      "Some days I think I've thrown away everything I built, and I don't know who I am if I am not good at my job.",
    details: ['"midlife gap year"', 'the class full of twenty-year-olds', 'the dinner', 'January', 'the well-paid job'],
    feelings: ['laughed at', 'unsure', 'exposed'],
    accomplishment: 'I walked away from a safe salary to do something I actually care about, which took real nerve.',
    hooks: [
      'Someone called my retraining a "midlife gap year" at dinner and everyone laughed',
      "I'm the oldest in a class full of twenty-year-olds",
    ],
  },
  {
    id: 'neighbours-noise-upstairs',
    domain: 'neighbours',
    split: 'train',
    ages: [22, 70],
    people: [{ key: 'n', relation: 'upstairs neighbour' }],
    facts: ['{name} lives in a flat in an old converted house with thin floors.'],
    event:
      'My upstairs neighbour {n} has a speaker on the floor and plays music until two most nights. I left a polite note. The next night it was louder, and in the morning I found my note stuck back on my door with "get earplugs" written on it.',
    tried: [
      'I left a polite note.',
      'I bought earplugs, which work until the bass starts.',
      'I emailed the letting agent, who said to keep a log.',
    ],
    problem: "I've slept about four hours a night for two weeks and I'm starting to make mistakes at work.",
    details: ['the speaker on the floor', 'two in the morning', '"get earplugs"', 'the note', 'the bass', 'the log'],
    feelings: ['exhausted', 'disrespected', 'on edge'],
    accomplishment:
      'I handled it politely and by the book: a note, then a log, then the agent, without a single shouting match.',
    hooks: [
      'My note to the upstairs neighbour came back with "get earplugs" written on it',
      "Music till two every night above my bed, and I'm the one getting told to buy earplugs",
    ],
  },
  {
    id: 'identity-coming-out-parents',
    domain: 'identity',
    split: 'train',
    ages: [18, 35],
    people: [
      { key: 'par', relation: { f: 'mum', m: 'dad' } },
      { key: 'sib', relation: { f: 'sister', m: 'brother' } },
    ],
    facts: ['{name} came out to the family at Easter.'],
    event:
      'I came out to my parents at Easter. My {par.rel} {par} said "it\'s a phase" and has not mentioned it since. Last weekend {par.he} asked, in front of my {sib.rel} {sib}, whether I had "met a nice girl or boy yet", the wrong one, on purpose.',
    tried: [
      'I wrote a long letter before telling them, so I would say it right.',
      'I sent {par} a couple of articles. Not read.',
    ],
    problem: 'I feel like I am back in the closet every time I go home.',
    details: ['Easter', '"it\'s a phase"', 'the letter', 'the articles', 'last weekend'],
    feelings: ['erased', 'hurt', 'angry'],
    accomplishment: 'I came out to my parents honestly and carefully, with a letter I worked on for weeks.',
    hooks: [
      'I came out at Easter and my {par.rel} said "it\'s a phase"',
      "Every time I go home it's like Easter never happened",
    ],
  },
  {
    id: 'identity-culture-between-two',
    domain: 'identity',
    split: 'train',
    ages: [18, 35],
    people: [
      { key: 'gran', relation: 'grandmother', gender: 'f' },
      { key: 'friend', relation: 'friend from work' },
    ],
    facts: ['{name} grew up speaking one language at home and another at school.'],
    event:
      'At my cousin\'s wedding my grandmother {gran} told me in front of everyone that my accent in our language is "like a tourist". A week later my friend from work {friend} called my lunch "exotic". I am too foreign for one side and too English for the other.',
    tried: ['I started taking evening classes in our language.', 'I brought my own food to work anyway.'],
    problem: 'I do not know where I belong, and I feel like a fake everywhere.',
    details: ["my cousin's wedding", '"like a tourist"', '"exotic"', 'the evening classes', 'my lunch'],
    feelings: ['out of place', 'hurt', 'fake'],
    accomplishment: 'I signed up for evening classes to get my language back, and I keep bringing my own food.',
    hooks: [
      'My grandmother said my accent is "like a tourist", at a wedding, in front of everyone',
      'My lunch got called "exotic" again',
    ],
  },
  {
    id: 'identity-stopped-religion',
    domain: 'identity',
    split: 'train',
    ages: [20, 45],
    people: [{ key: 'par', relation: { f: 'mother', m: 'father' } }],
    facts: ['{name} grew up in a religious family and went to services every week until last year.'],
    event:
      'I stopped going to services last year. I have not told my {par.rel} {par} why; I just stopped. At Sunday lunch {par.he} asked me to say grace in front of the whole family, looking right at me.',
    tried: [
      'I said grace. It felt like lying.',
      'I tried to explain to {par} once. {par.He} started crying and I stopped.',
    ],
    problem:
      'I do not know how to be honest with my family without breaking their hearts, or keep pretending without breaking mine.',
    details: ['services every week', 'Sunday lunch', 'saying grace', 'the whole family', 'last year'],
    feelings: ['torn', 'guilty', 'split in two'],
    accomplishment: 'I tried to be honest with {par}, gently, even though it hurt us both.',
    hooks: [
      'My {par.rel} made me say grace at Sunday lunch, looking right at me',
      "I stopped going to services last year and haven't said why",
    ],
  },
  {
    id: 'identity-body-after-illness',
    domain: 'identity',
    split: 'train',
    ages: [25, 60],
    people: [{ key: 'friend', relation: 'friend' }],
    facts: ['{name} finished cancer treatment six months ago.'],
    event:
      'I finished treatment six months ago. The scans are clear. My hair came back curly and a different colour. At a party a friend, {friend}, said "you\'re so lucky, you look great!", and I went to the bathroom and stared at someone I did not recognise.',
    tried: ["I went to a survivors' group once.", 'I bought new clothes because nothing fits the same.'],
    problem: 'Everyone thinks I should be celebrating, and I feel like I lost the person I was.',
    details: ['the clear scans', 'my hair', '"you\'re so lucky"', 'the bathroom mirror', 'the new clothes'],
    feelings: ['lost', 'ungrateful', 'strange'],
    accomplishment: "I got through treatment and went to a survivors' group on my own.",
    hooks: [
      "My scans are clear and I don't recognise myself in the mirror",
      'Everyone says "you\'re so lucky" and my hair came back a different colour',
    ],
  },
  {
    id: 'identity-turned-forty-nothing',
    domain: 'identity',
    split: 'train',
    ages: [39, 42],
    people: [{ key: 'friend', relation: 'old friend' }],
    facts: ['{name} turned forty last week.'],
    event:
      'I turned forty last week. At the dinner, my old friend {friend} gave a toast listing what everyone at the table has done: kids, house, business. For me, {friend.he} said "and {name}, well, still our free spirit!". Everybody laughed.',
    tried: ['I laughed along.', 'I made a list of what I have actually done. It is not nothing.'],
    problem: 'I thought I was fine with my life until someone made it a punchline.',
    details: ['forty', 'the toast', '"still our free spirit"', 'the list', 'the dinner'],
    feelings: ['stung', 'behind', 'doubting'],
    accomplishment: 'I built a life on my own terms, and I sat down and wrote out what I have actually done.',
    hooks: [
      'At my fortieth my friend toasted me as "still our free spirit"',
      'I turned forty last week and became a punchline',
    ],
  },
  {
    id: 'neighbours-parking-war',
    domain: 'neighbours',
    split: 'train',
    ages: [28, 75],
    people: [{ key: 'n', relation: 'neighbour across the road' }],
    facts: ['{name} has a disabled parking badge for a bad hip.'],
    event:
      'I have a disabled badge. My neighbour across the road {n} keeps parking {n.his} van in front of my house, so I have to park down the street. I left a note. The next morning there was a note on my windscreen: "you don\'t own the road".',
    tried: ['I knocked and asked politely.', 'I applied to the council for a marked bay. It takes six months.'],
    problem: 'Every trip to the shops now starts with a walk that hurts, and I feel like a prisoner in my own street.',
    details: ['the disabled badge', 'the van', '"you don\'t own the road"', 'the marked bay', 'six months'],
    feelings: ['disrespected', 'angry', 'trapped'],
    accomplishment: 'I asked politely, then did it properly through the council, without a shouting match.',
    hooks: [
      'There was a note on my windscreen saying "you don\'t own the road"',
      'My neighbour parks a van outside my house and I have a disabled badge',
    ],
  },
  {
    id: 'neighbours-dog-barking',
    domain: 'neighbours',
    split: 'train',
    ages: [25, 75],
    people: [{ key: 'n', relation: 'next-door neighbour' }],
    facts: ['{name} works from home three days a week.'],
    event:
      'My next-door neighbour {n} leaves {n.his} dog alone all day. It barks and howls from eight until six. I work from home and have to apologise on every call. When I mentioned it, {n} said the dog "never barks when we\'re in".',
    tried: [
      'I recorded the barking on my phone for a week.',
      'I offered to walk the dog at lunchtime. {n.He} took it as an insult.',
    ],
    problem: 'I feel sorry for the dog and furious with {n}, and I am starting to hate my own house.',
    details: ['eight until six', 'the howling', 'the recordings', '"never barks when we\'re in"', 'every call'],
    feelings: ['frustrated', 'powerless', 'sorry for the dog'],
    accomplishment: 'I tried to solve it kindly, and even offered to walk the dog myself.',
    hooks: [
      'The dog next door howls from eight till six and I work from home',
      'My neighbour says the dog "never barks when we\'re in"',
    ],
  },
  {
    id: 'neighbours-gossip-about-me',
    domain: 'neighbours',
    split: 'train',
    ages: [30, 75],
    people: [
      { key: 'n', relation: 'neighbour' },
      { key: 'n2', relation: 'other neighbour' },
    ],
    facts: ['{name} moved onto the street two years ago.'],
    event:
      'My neighbour {n} told half the street that police came to my house. It was an ambulance, for my mum, who had a fall. Now people go quiet when I walk past, and {n2} asked if "everything is okay at home" in a voice like I am a criminal.',
    tried: [
      'I told {n2} the truth.',
      'I thought about putting a note through every door and decided it would look mad.',
    ],
    problem: 'I feel watched every time I leave the house, and I do not know how to fix a rumour.',
    details: [
      'the ambulance',
      "my mum's fall",
      'half the street',
      '"everything is okay at home"',
      'the note through every door',
    ],
    feelings: ['watched', 'misjudged', 'angry'],
    accomplishment: 'I looked after my mum in an emergency and set the record straight calmly when asked.',
    hooks: [
      'Half my street thinks police came to my house. It was an ambulance',
      'A neighbour asked if "everything is okay at home" like I am a criminal',
    ],
  },
  {
    id: 'neighbours-tree-roots-damage',
    domain: 'neighbours',
    split: 'train',
    ages: [35, 80],
    people: [
      { key: 'n', relation: 'neighbour' },
      { key: 'surv', relation: 'surveyor' },
    ],
    facts: ['{name} has lived in the house for fifteen years.'],
    event:
      'The roots of my neighbour {n}\'s oak tree have cracked my drain and the back wall. The surveyor {surv} wrote it up clearly. {n} says the tree was there first and it is "an act of nature". {n.His} insurance will not talk to me.',
    tried: [
      'I sent {n} a copy of the survey with a polite letter.',
      'I called my own insurer, who want {n.his} insurer to pay.',
    ],
    problem:
      'The crack is getting wider and I am stuck between two insurers and a neighbour who will not answer the door.',
    details: ['the oak tree', 'the cracked drain', 'the back wall', '"an act of nature"', 'the survey'],
    feelings: ['stuck', 'angry', 'worried'],
    accomplishment: 'I got a proper survey done and kept every step in writing and polite.',
    hooks: [
      'My neighbour\'s oak tree cracked my back wall and it\'s "an act of nature"',
      'Two insurers and a survey, and the crack in my wall keeps growing',
    ],
  },
  {
    id: 'neighbours-bins-and-rubbish',
    domain: 'neighbours',
    split: 'train',
    ages: [22, 75],
    people: [
      { key: 'n', relation: 'downstairs neighbour' },
      { key: 'agent', relation: 'managing agent' },
    ],
    facts: ['{name} lives in a block of six flats with a shared bin store.'],
    event:
      'My downstairs neighbour {n} leaves bags of rubbish outside the bin store instead of in it. Foxes rip them open and the whole path is covered in chicken bones. Last week the managing agent {agent} sent a letter to every flat blaming "residents" and fining us all.',
    tried: [
      'I cleaned up the path myself four times.',
      'I told {agent} who it was, with photos. {agent.He} said they cannot single anyone out.',
    ],
    problem: "I am paying a fine for someone else's rubbish and cleaning up after {n.him} too.",
    details: ['the bin store', 'the chicken bones', 'the foxes', 'the letter to every flat', 'the fine'],
    feelings: ['resentful', 'unfairly blamed', 'disgusted'],
    accomplishment: 'I cleaned the path four times and reported it properly with photos.',
    hooks: [
      'The path outside my flat is covered in chicken bones again',
      "I got fined for my downstairs neighbour's rubbish",
    ],
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
    tried: [
      'I have been practising the presentation out loud at home, recording myself.',
      'I asked {boss} for feedback on my English. {boss.He} said it was "fine, don\'t be sensitive".',
    ],
    problem: "I've started staying quiet in meetings even when I know the answer, and I hate who that makes me.",
    details: ['the client call', '"for clarity"', 'the kitchen', 'the impression', 'recording myself'],
    feelings: ['humiliated', 'silenced', 'angry'],
    accomplishment: 'I run client work in my third language, and I still asked my lead for honest feedback.',
    hooks: [
      'My team lead did an impression of my accent in the office kitchen',
      'Got told to "let someone else do the talking, for clarity" on a client call',
    ],
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
    tried: [
      'I dug out the house deeds and the plan.',
      'I knocked on the door to talk it through. {n.He} shut it halfway through my first sentence.',
    ],
    problem: 'I see {n} every day on the drive and I feel like a prisoner in my own garden.',
    details: ['the hedge', 'a foot onto my side', 'the beans', 'the house deeds', 'the drive'],
    feelings: ['violated', 'furious', 'powerless'],
    accomplishment: 'I found the deeds and the boundary plan and tried to talk first instead of going in shouting.',
    hooks: [
      'My neighbour cut down the hedge while I was at work and put a fence a foot onto my side',
      "The beans I grew along the hedge are gone, and there's a fence there now",
    ],
  },
  {
    id: 'identity-adopted-found-birth-family',
    domain: 'identity',
    split: 'benchmark',
    ages: [20, 50],
    people: [
      { key: 'bm', relation: 'birth mother', gender: 'f' },
      { key: 'par', relation: { f: 'mum', m: 'dad' } },
    ],
    facts: ['{name} was adopted as a baby.'],
    event:
      'A DNA test found my birth mother, {bm}. We met for coffee in a station café. She was kind and nervous and showed me photos of three half-siblings who do not know I exist. She asked me not to contact them yet.',
    tried: [
      'I told my {par.rel} {par} about the meeting. {par.He} went very quiet and said "as long as you\'re happy".',
    ],
    problem:
      'I feel like I have to hide part of myself from both families, and I do not know who I am supposed to be loyal to.',
    details: ['the DNA test', 'the station café', 'three half-siblings', '"as long as you\'re happy"', 'the photos'],
    feelings: ['divided', 'guilty', 'curious'],
    accomplishment: 'I met my birth mother and told my {par.rel} honestly, knowing it could hurt.',
    hooks: [
      'A DNA test found my birth mother and we met in a station café',
      'I have three half-siblings who do not know I exist',
    ],
  },
  {
    id: 'neighbours-party-wall-extension',
    domain: 'neighbours',
    split: 'benchmark',
    ages: [30, 75],
    people: [{ key: 'n', relation: 'next-door neighbour' }],
    facts: ['{name} works night shifts and sleeps in the day.'],
    event:
      'My next-door neighbour {n} is building an extension. The drilling starts at half seven, six days a week. I work nights. Last week a crack appeared over my bedroom door, and {n} said it "was probably there already".',
    tried: [
      'I photographed the crack with a date.',
      'I asked {n} for the party wall paperwork. {n.He} said {n.his} builder would sort it.',
    ],
    problem: 'I am not sleeping, my house is cracking, and I still have to smile at {n} on the drive.',
    details: [
      'the extension',
      'half seven',
      'the crack over the bedroom door',
      '"probably there already"',
      'the party wall paperwork',
    ],
    feelings: ['exhausted', 'ignored', 'furious'],
    accomplishment: 'I documented the crack with dated photos and asked for the paperwork properly.',
    hooks: [
      'A crack appeared over my bedroom door since the extension next door started',
      'The drilling next door starts at half seven and I work nights',
    ],
  },
];
