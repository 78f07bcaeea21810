/**
 * Scenario templates for the health, loss and moving domains. Data only (slot grammar in
 * ./types.ts); training and benchmark templates in separate arrays, disjoint by design.
 */
import type { ScenarioTemplate } from './types.ts';

export const HEALTH_LOSS_MOVING_TRAIN: ScenarioTemplate[] = [
  {
    id: 'health-doctor-dismissed',
    domain: 'health',
    split: 'train',
    ages: [25, 55],
    people: [{ key: 'gp', relation: 'GP' }, { key: 'p', relation: { f: 'partner', m: 'partner' } }],
    facts: ['{name} has had stomach pain on and off for seven months.'],
    event:
      'I have had stomach pain for seven months. I finally got a GP appointment, and {gp} spent six minutes with me, said it was probably stress and told me to try yoga. I had brought a food diary with three months of notes. {gp.He} didn\'t open it.',
    tried: ['I cut out dairy, then gluten, then coffee.', 'I asked for a referral and was told the waiting list is long.'],
    problem: 'My partner {p} has started to think it is in my head too, and I am beginning to wonder.',
    details: ['seven months', 'six minutes', 'the food diary', 'try yoga', 'the referral'],
    feelings: ['dismissed', 'frustrated', 'doubting myself'],
    accomplishment: 'I kept a detailed food diary for three months so I could show the doctor exactly what was happening.',
    hooks: ['Brought my food diary to the GP and {gp.he} told me to try yoga', "Seven months of stomach pain and the doctor says it's stress"],
  },
  {
    id: 'loss-dog-put-down',
    domain: 'loss',
    split: 'train',
    ages: [20, 70],
    people: [{ key: 'vet', relation: 'vet' }, { key: 'col', relation: 'colleague' }],
    vars: { dog: ['Pepper', 'Rufus', 'Lola', 'Bruno', 'Maisie'] },
    facts: ['{name} had {$dog} for thirteen years.'],
    event:
      "On Tuesday I had my dog {$dog} put to sleep. Thirteen years. {$dog} had stopped eating and the vet {vet} said it was time. I held {$dog}'s head the whole way through. I went back to work on Thursday and {col} asked if I was \"getting another one\".",
    tried: ['I put the lead away in a drawer so I would stop seeing it by the door.', 'I told people I was fine.'],
    problem: "Everyone thinks I should be over it by now, and I still put two bowls down in the morning before I remember.",
    details: ['{$dog}', 'thirteen years', 'the lead by the door', 'the two bowls', '"getting another one"'],
    feelings: ['heartbroken', 'empty', 'silly for grieving'],
    accomplishment: 'I stayed with {$dog} and held {$dog} right to the end, even though it was the hardest thing I have done.',
    hooks: ["I had to have {$dog} put down on Tuesday", 'Someone at work asked if I am "getting another one" two days after {$dog} died'],
  },
  {
    id: 'moving-landlord-eviction',
    domain: 'moving',
    split: 'train',
    ages: [24, 50],
    people: [{ key: 'lord', relation: 'landlord' }],
    vars: { weeks: ['eight weeks', 'two months', 'six weeks'] },
    facts: ['{name} has rented the same flat for five years.'],
    event:
      "My landlord {lord} gave me {$weeks} notice because {lord.he} is \"selling up\". I have lived in the flat five years and kept it spotless. Everything I can afford is an hour further out, and the viewings are like auditions with twenty people in the queue.",
    tried: ['I have been to eleven viewings.', 'I offered {lord} more rent to stay. {lord.He} said no.'],
    problem: 'If I do not find somewhere soon I will have to move my stuff into storage and sleep on a friend\'s sofa.',
    details: ['{$weeks} notice', 'five years', 'eleven viewings', 'twenty people in the queue', 'storage'],
    feelings: ['panicked', 'powerless', 'tired'],
    accomplishment: 'I have been to eleven viewings in a month while working full time and kept every document ready.',
    hooks: ['My landlord is "selling up" and I have {$weeks} to get out', "Eleven viewings and nothing, and I've got {$weeks} left"],
  },
];

export const HEALTH_LOSS_MOVING_BENCHMARK: ScenarioTemplate[] = [
  {
    id: 'health-diabetes-diagnosis',
    domain: 'health',
    split: 'benchmark',
    ages: [35, 65],
    people: [{ key: 'p', relation: { f: 'wife', m: 'husband' } }, { key: 'nurse', relation: 'practice nurse' }],
    facts: ['{name} has always been the one who cooks at home.'],
    event:
      'Two weeks ago I was told I have type 2 diabetes. The practice nurse {nurse} gave me a folder of leaflets and a finger-prick kit. Since then my {p.rel} {p} reads every label in the supermarket out loud and comments on everything I put in my mouth.',
    tried: ['I have been doing the finger pricks twice a day and writing them in a notebook.', 'I asked {p} to ease off. {p.He} said {p.he} is only trying to help.'],
    problem: "I feel like a patient in my own kitchen and I'm scared of what this means for the next twenty years.",
    details: ['type 2', 'the finger-prick kit', 'the folder of leaflets', 'the supermarket labels', 'the notebook'],
    feelings: ['scared', 'watched', 'ashamed'],
    accomplishment: 'I have done the finger pricks twice a day for two weeks and logged every one.',
    hooks: ['Got told two weeks ago I have type 2 diabetes', 'My {p.rel} reads every label in the supermarket out loud now'],
  },
  {
    id: 'loss-grandmother-funeral-missed',
    domain: 'loss',
    split: 'benchmark',
    ages: [19, 45],
    people: [{ key: 'gran', relation: 'grandmother', gender: 'f' }, { key: 'mum', relation: { f: 'mother', m: 'father' } }],
    facts: ['{name} lives abroad, a long flight from the family.'],
    event:
      "My grandmother {gran} died three weeks ago. She basically raised me. Flights were impossible to get in time, so I watched the funeral on a shaky video call from my kitchen at three in the morning. My {mum.rel} said afterwards that people noticed I wasn't there.",
    tried: ['I wrote a letter to {gran} and read it out loud to the laptop.', 'I rang my {mum.rel} every day that week.'],
    problem: "I can't grieve properly here, everyone at work has moved on, and that comment keeps going round my head.",
    details: ['the video call', 'three in the morning', 'my kitchen', 'the letter', '"people noticed"'],
    feelings: ['guilty', 'far away', 'grieving'],
    accomplishment: 'I wrote {gran} a letter and read it to her at the funeral, even if it was only through a laptop.',
    hooks: ["Watched my gran's funeral on a video call at three in the morning", 'My {mum.rel} said people noticed I wasn\'t at the funeral'],
  },
  {
    id: 'moving-back-home-thirty',
    domain: 'moving',
    split: 'benchmark',
    ages: [28, 36],
    people: [{ key: 'par', relation: { f: 'mum', m: 'dad' } }, { key: 'sib', relation: { f: 'sister', m: 'brother' } }],
    facts: ['{name} moved back into the childhood bedroom in March.'],
    event:
      'After the breakup I moved back into my old bedroom at my parents\'. I am thirty-one and sleeping under the glow-in-the-dark stars I stuck on the ceiling at twelve. My {par.rel} {par} leaves job adverts on my pillow.',
    tried: ['I pay rent, cook twice a week and keep out of the way.', 'I set myself a deadline of the end of the year to move out.'],
    problem: 'My {sib.rel} {sib} has a mortgage and two kids, and at family dinners I feel like the cautionary tale.',
    details: ['the glow-in-the-dark stars', 'the job adverts on my pillow', 'thirty-one', 'the end of the year', 'family dinners'],
    feelings: ['ashamed', 'stuck', 'small'],
    accomplishment: 'I picked myself up after the breakup, pay my way at home and set a real plan to move out.',
    hooks: ["I'm thirty-one and sleeping under the glow-in-the-dark stars I stuck up at twelve", 'My {par.rel} left another job advert on my pillow'],
  },
];
