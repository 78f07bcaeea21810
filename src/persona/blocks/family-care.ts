/**
 * Scenario templates for the family, parenting and caregiving domains. Data only (slot grammar
 * in ./types.ts); training and benchmark templates in separate arrays, disjoint by design.
 */
import type { ScenarioTemplate } from './types.ts';

export const FAMILY_CARE_TRAIN: ScenarioTemplate[] = [
  {
    id: 'family-wedding-seating',
    domain: 'family',
    split: 'train',
    ages: [24, 45],
    people: [{ key: 'sib', relation: { f: 'sister', m: 'brother' } }, { key: 'mum', relation: 'mother', gender: 'f' }],
    facts: ['{name} and {sib} shared a bedroom until they were teenagers.'],
    event:
      "My {sib.rel} {sib} is getting married in June. The seating plan went round the family group chat yesterday and I'm on the table by the kitchen doors with the plus-ones, not with the family. When I asked, {sib.he} said it was just logistics.",
    tried: ['I asked my mum {mum} to find out what happened. She told me not to make it about me.', 'I drafted a long message to {sib} and deleted it.'],
    problem: "I still have to give a reading at the ceremony, and I don't know how to stand up there pretending everything is fine.",
    details: ["my {sib.rel}'s wedding", 'the seating plan', 'the table by the kitchen doors', 'the family group chat', 'the reading'],
    feelings: ['hurt', 'pushed aside', 'embarrassed'],
    accomplishment: 'I still said yes to doing the reading and have been practising it every night.',
    hooks: ["The seating plan for my {sib.rel}'s wedding came out and I'm by the kitchen doors", "I'm at the plus-ones table at my own {sib.rel}'s wedding"],
  },
  {
    id: 'parenting-teen-screens',
    domain: 'parenting',
    split: 'train',
    ages: [36, 55],
    people: [{ key: 'kid', relation: { f: 'daughter', m: 'son' } }, { key: 'ex', relation: { f: 'ex-wife', m: 'ex-husband' } }],
    vars: { age: ['fourteen', 'fifteen', 'thirteen'] },
    facts: ['{name} shares custody, alternate weeks.'],
    event:
      "My {kid.rel} {kid} is {$age}. At my place I take the phone at ten so {kid.he} sleeps. At {kid.his} other parent's, {ex}, there are no rules at all. Last night {kid} screamed that I'm the reason {kid.he} has no friends and slammed the bedroom door so hard the mirror fell.",
    tried: ['I tried to agree the same rules with {ex}. {ex.He} said I am too controlling.', 'I let {kid} keep the phone till eleven as a compromise.'],
    problem: "I'm the parent {kid} doesn't want to be with any more, and I can't tell if the rule is worth it.",
    details: ['the phone at ten', 'the bedroom door', 'the mirror', 'no rules at the other house', '{$age}'],
    feelings: ['rejected', 'worn down', 'unsure'],
    accomplishment: 'I kept my voice down and did not shout back, even when the mirror came off the wall.',
    hooks: ['My {kid.rel} slammed the door so hard last night the mirror fell off', "I take the phone at ten and apparently that's why my {kid.rel} has no friends"],
  },
  {
    id: 'caregiving-dad-dementia',
    domain: 'caregiving',
    split: 'train',
    ages: [40, 65],
    people: [{ key: 'dad', relation: 'father', gender: 'm' }, { key: 'sib', relation: { f: 'sister', m: 'brother' } }],
    facts: ['{name} drives over to {dad}\'s house four evenings a week after work.'],
    event:
      'My dad {dad} has early dementia. Last Tuesday he left the gas on and the neighbour smelled it. I drive over four evenings a week after work. My {sib.rel} {sib} lives an hour away and visits once a month, and then tells me what I am doing wrong.',
    tried: ['I put a timer switch on the cooker.', 'I asked {sib} to take two evenings. {sib.He} said {sib.his} job is too busy.'],
    problem: "I'm running on empty, and I snapped at Dad on Sunday for asking the same question five times. I keep replaying his face.",
    details: ['the gas left on', 'four evenings a week', 'the timer switch', 'once a month', 'the same question five times'],
    feelings: ['exhausted', 'guilty', 'alone'],
    accomplishment: 'I have kept Dad safe in his own home for a year, and fitted the cooker timer myself.',
    hooks: ['Dad left the gas on again last Tuesday', 'I snapped at my dad on Sunday for asking the same question five times'],
  },
];

export const FAMILY_CARE_BENCHMARK: ScenarioTemplate[] = [
  {
    id: 'family-inheritance-house',
    domain: 'family',
    split: 'benchmark',
    ages: [35, 65],
    people: [{ key: 'sib', relation: { f: 'older sister', m: 'older brother' } }, { key: 'aunt', relation: 'aunt', gender: 'f' }],
    facts: ["{name} spent most of last year clearing out the parents' house."],
    event:
      "After Mum died we agreed to sell the house and split it. Now my {sib.rel} {sib} wants to keep it and buy me out at a price way below what the estate agent said. {sib.He} says I \"never visited anyway\". Our aunt {aunt} is on {sib.his} side.",
    tried: ['I got a second valuation, which came in even higher.', "I suggested a mediator. {sib} called it \"bringing lawyers into Mum's house\"."],
    problem: "Christmas is at {sib}'s this year and I don't know if I should go or make a stand.",
    details: ["Mum's house", 'the second valuation', 'the estate agent', '"never visited anyway"', 'the mediator', 'Christmas'],
    feelings: ['betrayed', 'grieving', 'angry'],
    accomplishment: 'I cleared the whole house myself, room by room, over eight months of weekends.',
    hooks: ["My {sib.rel} wants to buy me out of Mum's house for way less than it's worth", '"You never visited anyway." That\'s what my {sib.rel} said about the house'],
  },
  {
    id: 'parenting-school-call',
    domain: 'parenting',
    split: 'benchmark',
    ages: [30, 50],
    people: [{ key: 'kid', relation: { f: 'daughter', m: 'son' } }, { key: 'head', relation: 'head teacher' }],
    vars: { grade: ['Year 4', 'Year 5', 'second grade'] },
    facts: ['{name} works full time and does the school run in the mornings.'],
    event:
      'The school called me at work because my {kid.rel} {kid}, who is in {$grade}, bit another child at lunch. When I picked {kid.him} up, the head teacher {head} said in front of the other parents that this is "the third incident this term".',
    tried: ['I talked to {kid} at bedtime, and {kid.he} said the other kid had been taking {kid.his} lunch.', 'I emailed {head} to ask for a proper meeting.'],
    problem: 'I have a meeting on Monday and I feel like they have already decided my child is the problem, and maybe that I am.',
    details: ['the call at work', 'the third incident this term', 'the other parents', 'the lunch', 'the meeting on Monday'],
    feelings: ['judged', 'protective', 'ashamed'],
    accomplishment: 'I stayed calm at the gate and got the real story out of {kid} at bedtime.',
    hooks: ['The school rang me at work because my {kid.rel} bit someone', '"The third incident this term", said in front of all the other parents'],
  },
  {
    id: 'caregiving-mum-hospital-discharge',
    domain: 'caregiving',
    split: 'benchmark',
    ages: [38, 66],
    people: [{ key: 'mum', relation: 'mother', gender: 'f' }, { key: 'nurse', relation: 'discharge nurse' }],
    facts: ['{name} has used most of the year\'s annual leave on hospital visits.'],
    event:
      'My mum {mum} broke her hip in October. The hospital discharged her on a Friday evening with a leaflet and a walking frame, and the carers the ward promised did not turn up until Wednesday. I slept on her sofa for five nights.',
    tried: ['I rang the care agency every morning.', 'I asked the discharge nurse {nurse} for a number to complain to, and got a voicemail.'],
    problem: 'Work has started asking when I am back, and Mum keeps saying she does not want to be a burden.',
    details: ['the hip', 'the walking frame', 'Friday evening', 'her sofa', 'five nights', 'the leaflet'],
    feelings: ['abandoned', 'drained', 'torn'],
    accomplishment: 'I got Mum washed, fed and her pills sorted for five days with no help.',
    hooks: ['My mum got sent home from hospital with a leaflet and a walking frame', 'I slept on my mum\'s sofa for five nights because the carers never came'],
  },
];
