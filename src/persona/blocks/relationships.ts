/**
 * Scenario templates for the romance, friendship and loneliness domains. Data only (slot grammar
 * in ./types.ts); training and benchmark templates in separate arrays, disjoint by design.
 */
import type { ScenarioTemplate } from './types.ts';

export const RELATIONSHIPS_TRAIN: ScenarioTemplate[] = [
  {
    id: 'romance-forgotten-anniversary',
    domain: 'romance',
    split: 'train',
    ages: [23, 45],
    people: [{ key: 'p', relation: { f: 'girlfriend', m: 'boyfriend' } }],
    vars: { place: ['the little Italian place where we had our first date', 'the Thai restaurant by the river', 'the rooftop bar we went to on our first date'] },
    facts: ['{name} has been with {p} for four years.'],
    event:
      'It was our fourth anniversary on Saturday. I booked {$place} weeks ago. {p} texted at seven saying {p.he} was stuck at a colleague\'s leaving drinks and would "make it up to me". {p.He} got home at midnight and went straight to sleep.',
    tried: ["I told {p} the next morning that it hurt. {p.He} said I was being dramatic about a date on a calendar."],
    problem: "It isn't the dinner. It's that I seem to be the only one who keeps track of us.",
    details: ['{$place}', 'the text at seven', 'the leaving drinks', 'midnight', 'our fourth anniversary'],
    feelings: ['forgotten', 'lonely', 'hurt'],
    accomplishment: 'I planned the whole evening weeks ahead and told {p} calmly how I felt instead of sulking.',
    hooks: ['I sat alone at {$place} on our anniversary', 'Four years together and {p.he} went to leaving drinks instead of our anniversary dinner'],
  },
  {
    id: 'friendship-left-out-trip',
    domain: 'friendship',
    split: 'train',
    ages: [19, 40],
    people: [{ key: 'f1', relation: 'best friend' }, { key: 'f2', relation: 'friend from the group' }],
    vars: { place: ['Lisbon', 'a cabin in the Lake District', 'Barcelona', 'a lake house upstate'] },
    facts: ['{name} has been in the same friend group since university.'],
    event:
      "I found out from Instagram that my whole friend group went to {$place} for a long weekend. My best friend {f1} posted a photo of everyone at dinner. Nobody had said a word to me. When I asked {f2}, {f2.he} said they assumed I couldn't afford it.",
    tried: ['I liked the photo so it would not look like I cared.', 'I messaged {f1} "looks fun!" and got a thumbs up back.'],
    problem: "I don't know if I'm being phased out or just overthinking one trip, and I can't stop checking the group chat.",
    details: ['{$place}', 'the dinner photo', 'Instagram', 'the thumbs up', 'the group chat'],
    feelings: ['left out', 'humiliated', 'insecure'],
    accomplishment: 'I asked {f2} directly what happened instead of stewing on it for weeks.',
    hooks: ['Found out from Instagram that everyone went to {$place} without me', 'My best friend posted a dinner photo from {$place} and I wasn\'t invited'],
  },
  {
    id: 'loneliness-new-city-weekends',
    domain: 'loneliness',
    split: 'train',
    ages: [22, 38],
    people: [{ key: 'mum', relation: { f: 'mum', m: 'dad' } }],
    facts: ['{name} moved for a job eight months ago and knows almost nobody in the city.'],
    event:
      "I moved here eight months ago for work. Weekdays are fine, but from Friday night to Monday morning I don't speak to anyone except the guy at the corner shop. Last Sunday I realised I had not said a word out loud all day.",
    tried: ['I joined a running club and went twice, but everyone already had their people.', 'I downloaded a friendship app and had one coffee that went nowhere.'],
    problem: "When my {mum.rel} {mum} calls I say I'm doing great, and I'm starting to dread Fridays.",
    details: ['eight months', 'the corner shop', 'last Sunday', 'the running club', 'Friday night'],
    feelings: ['lonely', 'invisible', 'embarrassed'],
    accomplishment: 'I kept trying: the running club, the app, the coffee. I put myself out there in a city where I knew nobody.',
    hooks: ["Last Sunday I realised I hadn't said a word out loud all day", "I only talk to the guy at the corner shop at weekends, that's where I'm at"],
  },
];

export const RELATIONSHIPS_BENCHMARK: ScenarioTemplate[] = [
  {
    id: 'romance-phone-message',
    domain: 'romance',
    split: 'benchmark',
    ages: [25, 50],
    people: [{ key: 'p', relation: { f: 'wife', m: 'husband' } }, { key: 'x', relation: { f: "partner's colleague", m: "partner's colleague" } }],
    facts: ['{name} and {p} have been married for nine years.'],
    event:
      'My {p.rel} {p} left {p.his} phone on the kitchen counter and a message lit up from {x}, a colleague: "last night was fun, our secret ;)". When I asked, {p} laughed and said it was about a quiz team they joined. {p.He} did not show me the rest of the thread.',
    tried: ["I didn't check the phone, even though I wanted to.", 'I asked once, calmly, and let it go.'],
    problem: "I can't sleep, and I don't know if I am being paranoid or if I am the last to know.",
    details: ['the kitchen counter', '"our secret"', 'the quiz team', 'the rest of the thread', 'nine years'],
    feelings: ['suspicious', 'sick', 'foolish'],
    accomplishment: "I asked {p} straight out and stayed calm, and I did not go through {p.his} phone.",
    hooks: ['A message lit up on my {p.rel}\'s phone saying "our secret"', 'My {p.rel} says "our secret" was about a quiz team'],
  },
  {
    id: 'friendship-best-friend-engaged-distant',
    domain: 'friendship',
    split: 'benchmark',
    ages: [24, 40],
    people: [{ key: 'f', relation: 'best friend' }],
    facts: ['{name} and {f} have been friends since primary school.'],
    event:
      "My best friend {f} got engaged and asked someone {f.he} met two years ago at work to be maid of honour instead of me. We've been friends since we were seven. {f.He} told me over text, with a heart emoji.",
    tried: ['I said congratulations and that of course I understood.'],
    problem: "I'm supposed to help plan the hen do, and every time the group chat pings I feel sick.",
    details: ['since we were seven', 'the heart emoji', 'the hen do', 'someone from work', 'maid of honour'],
    feelings: ['replaced', 'hurt', 'petty'],
    accomplishment: 'I congratulated {f} warmly even though it stung, and I still offered to help plan.',
    hooks: ['My best friend since we were seven picked someone from work as maid of honour', 'Got told over text, with a heart emoji, that I am not the maid of honour'],
  },
  {
    id: 'loneliness-retired-empty-days',
    domain: 'loneliness',
    split: 'benchmark',
    ages: [62, 80],
    people: [{ key: 'kid', relation: { f: 'daughter', m: 'son' } }],
    occupations: ['retired bus driver', 'retired teacher', 'retired postal worker', 'retired accountant'],
    facts: ['{name} retired last year after thirty-one years in the same job.'],
    event:
      'I retired last year. I thought I would love it. Now the days are long and the only calls I get are about my car warranty. My {kid.rel} {kid} rings on Sundays for ten minutes, and {kid.he} is always driving.',
    tried: ['I went to a coffee morning at the library. Everyone was twenty years older than me, or felt like it.', 'I started walking to the shops instead of driving, just to see people.'],
    problem: "I don't want to be a burden on {kid}, but I feel like I'm fading out.",
    details: ['the car warranty calls', 'ten minutes on Sundays', 'the coffee morning', 'the library', 'thirty-one years'],
    feelings: ['lonely', 'useless', 'forgotten'],
    accomplishment: 'I made myself go to the coffee morning on my own, which I would never have done before.',
    hooks: ["The only calls I get now are about my car warranty", 'My {kid.rel} rings on Sundays for ten minutes, always from the car'],
  },
];
