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
    people: [
      { key: 'gp', relation: 'GP' },
      { key: 'p', relation: { f: 'partner', m: 'partner' } },
    ],
    facts: ['{name} has had stomach pain on and off for seven months.'],
    event:
      "I have had stomach pain for seven months. I finally got a GP appointment, and {gp} spent six minutes with me, said it was probably stress and told me to try yoga. I had brought a food diary with three months of notes. {gp.He} didn't open it.",
    tried: [
      'I cut out dairy, then gluten, then coffee.',
      'I asked for a referral and was told the waiting list is long.',
    ],
    problem: 'My partner {p} has started to think it is in my head too, and I am beginning to wonder.',
    details: ['seven months', 'six minutes', 'the food diary', 'try yoga', 'the referral'],
    feelings: ['dismissed', 'frustrated', 'doubting myself'],
    accomplishment:
      'I kept a detailed food diary for three months so I could show the doctor exactly what was happening.',
    hooks: [
      'Brought my food diary to the GP and {gp.he} told me to try yoga',
      "Seven months of stomach pain and the doctor says it's stress",
    ],
  },
  {
    id: 'loss-dog-put-down',
    domain: 'loss',
    split: 'train',
    ages: [20, 70],
    people: [
      { key: 'vet', relation: 'vet' },
      { key: 'col', relation: 'colleague' },
    ],
    vars: { dog: ['Pepper', 'Rufus', 'Lola', 'Bruno', 'Maisie'] },
    facts: ['{name} had {$dog} for thirteen years.'],
    event:
      'On Tuesday I had my dog {$dog} put to sleep. Thirteen years. {$dog} had stopped eating and the vet {vet} said it was time. I held {$dog}\'s head the whole way through. I went back to work on Thursday and {col} asked if I was "getting another one".',
    tried: ['I put the lead away in a drawer so I would stop seeing it by the door.', 'I told people I was fine.'],
    problem:
      'Everyone thinks I should be over it by now, and I still put two bowls down in the morning before I remember.',
    details: ['{$dog}', 'thirteen years', 'the lead by the door', 'the two bowls', '"getting another one"'],
    feelings: ['heartbroken', 'empty', 'silly for grieving'],
    accomplishment:
      'I stayed with {$dog} and held {$dog} right to the end, even though it was the hardest thing I have done.',
    hooks: [
      'I had to have {$dog} put down on Tuesday',
      'Someone at work asked if I am "getting another one" two days after {$dog} died',
    ],
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
      'My landlord {lord} gave me {$weeks} notice because {lord.he} is "selling up". I have lived in the flat five years and kept it spotless. Everything I can afford is an hour further out, and the viewings are like auditions with twenty people in the queue.',
    tried: ['I have been to eleven viewings.', 'I offered {lord} more rent to stay. {lord.He} said no.'],
    problem: "If I do not find somewhere soon I will have to move my stuff into storage and sleep on a friend's sofa.",
    details: ['{$weeks} notice', 'five years', 'eleven viewings', 'twenty people in the queue', 'storage'],
    feelings: ['panicked', 'powerless', 'tired'],
    accomplishment: 'I have been to eleven viewings in a month while working full time and kept every document ready.',
    hooks: [
      'My landlord is "selling up" and I have {$weeks} to get out',
      "Eleven viewings and nothing, and I've got {$weeks} left",
    ],
  },
  {
    id: 'health-back-injury-off-work',
    domain: 'health',
    split: 'train',
    ages: [30, 60],
    occupations: ['scaffolder', 'warehouse operative', 'plasterer', 'care assistant', 'removals driver'],
    people: [
      { key: 'boss', relation: 'foreman' },
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
    ],
    facts: ['{name} has done physical work since leaving school.'],
    event:
      'I slipped a disc lifting at work in February. Ten weeks off so far. My foreman {boss} rings every Friday asking when I will be back, like I am skiving. I cannot put my socks on without help from my {p.rel} {p}.',
    tried: [
      'I do the physio exercises three times a day.',
      'I asked {boss} about light duties. There are "none at the moment".',
    ],
    problem: 'I have only ever been good with my body, and if my back does not come right I do not know what I am for.',
    details: ['the slipped disc', 'ten weeks', 'the Friday calls', 'my socks', 'light duties', 'the physio exercises'],
    feelings: ['useless', 'scared', 'guilty'],
    accomplishment: 'I have done the physio exercises three times a day for ten weeks, even on the bad days.',
    hooks: [
      'Ten weeks off with a slipped disc and my foreman rings every Friday',
      "I can't put my socks on without help",
    ],
  },
  {
    id: 'health-panic-attack-at-work',
    domain: 'health',
    split: 'train',
    ages: [20, 45],
    people: [
      { key: 'boss', relation: 'manager' },
      { key: 'col', relation: 'colleague' },
    ],
    facts: ['{name} has had anxiety on and off since university.'],
    event:
      'I had a panic attack in the middle of a team meeting on Wednesday. I could not breathe and thought I was having a heart attack. My colleague {col} walked me out. The next day {boss} asked if I was "fit to be client-facing".',
    tried: [
      'I booked a GP appointment and started a breathing app.',
      'I told {boss} it was anxiety and that I was getting help.',
    ],
    problem: 'Everyone is being careful around me now, and I am terrified it will happen again in front of them.',
    details: ['the team meeting', 'Wednesday', '"fit to be client-facing"', 'the breathing app', 'walked me out'],
    feelings: ['exposed', 'ashamed', 'afraid'],
    accomplishment: 'I got help the very next day and was honest with my manager about what happened.',
    hooks: [
      'Had a panic attack in the middle of a team meeting on Wednesday',
      'My manager asked if I am "fit to be client-facing"',
    ],
  },
  {
    id: 'health-lump-waiting-results',
    domain: 'health',
    split: 'train',
    ages: [30, 65],
    people: [
      { key: 'p', relation: { f: 'partner', m: 'partner' } },
      { key: 'friend', relation: 'friend' },
    ],
    facts: ['{name} is the one everybody else leans on.'],
    event:
      'I found a lump three weeks ago. I had the scan and the biopsy last Thursday. The results take ten days. I have not told anyone except my partner {p}, who keeps saying "it will be nothing".',
    tried: [
      'I went to work every day as normal.',
      'I told my friend {friend} I was "just tired" when {friend.he} asked.',
    ],
    problem: 'I lie awake doing the maths on everything, and I cannot say any of it out loud.',
    details: ['the lump', 'the biopsy', 'ten days', '"it will be nothing"', '"just tired"'],
    feelings: ['frightened', 'alone', 'on hold'],
    accomplishment: 'I acted quickly, got checked straight away, and kept going to work through the wait.',
    hooks: ['Waiting ten days for biopsy results', 'My partner keeps saying "it will be nothing"'],
  },
  {
    id: 'health-quit-drinking-party',
    domain: 'health',
    split: 'train',
    ages: [25, 55],
    people: [
      { key: 'friend', relation: 'friend' },
      { key: 'col', relation: 'colleague' },
    ],
    vars: { days: ['ninety days', 'four months', 'sixty days'] },
    facts: ['{name} stopped drinking {$days} ago.'],
    event:
      'I stopped drinking {$days} ago. At my friend {friend}\'s birthday on Saturday {friend.he} kept pushing a glass at me and said "one won\'t kill you" and "you used to be fun". People laughed. I left at ten.',
    tried: ['I told {friend} beforehand that I was not drinking.', 'I brought my own alcohol-free beer.'],
    problem: 'I feel like I have to choose between staying sober and having a social life.',
    details: ['{$days}', '"one won\'t kill you"', '"you used to be fun"', 'the alcohol-free beer', 'left at ten'],
    feelings: ['isolated', 'angry', 'proud'],
    accomplishment: 'I have stayed sober {$days}, and I held firm at the party when everyone was pushing.',
    hooks: [
      '{$days} sober and my friend said "you used to be fun"',
      'I left a birthday at ten because someone kept pushing a glass at me',
    ],
  },
  {
    id: 'health-chronic-fatigue-friends',
    domain: 'health',
    split: 'train',
    ages: [22, 50],
    people: [{ key: 'friend', relation: 'friend' }],
    facts: ['{name} was diagnosed with chronic fatigue syndrome two years ago.'],
    event:
      'I have chronic fatigue. Some days a shower wipes me out. I cancelled on my friend {friend}\'s birthday weekend last minute because I could not stand up. {friend.He} told the group I "always have an excuse".',
    tried: ['I sent {friend} a long message explaining what a crash is.', 'I paid my share anyway.'],
    problem:
      'People can see I look fine, so they decide I am fine, and I am losing friends one cancellation at a time.',
    details: ['the shower', 'the last-minute cancellation', '"always have an excuse"', 'a crash', 'my share'],
    feelings: ['disbelieved', 'lonely', 'angry'],
    accomplishment: 'I explained my illness honestly and still paid my share for a party I could not go to.',
    hooks: [
      'Cancelled last minute because I could not stand up and now I "always have an excuse"',
      'Some days a shower wipes me out and nobody sees it',
    ],
  },
  {
    id: 'loss-friend-suicide',
    domain: 'loss',
    split: 'train',
    ages: [20, 50],
    people: [{ key: 'friend', relation: 'friend' }],
    facts: ['{name} knew {friend} since their first job.'],
    event:
      'My friend {friend} took {friend.his} own life last month. Two days before, {friend.he} sent me a meme and I replied with a laughing emoji. I have read that message a hundred times. At the funeral everyone said "there were no signs".',
    tried: [
      'I went to a bereavement group for people who lost someone to suicide.',
      'I wrote {friend.him} a letter I will never send.',
    ],
    problem: 'I keep thinking that if I had called instead of sending an emoji, things might be different.',
    details: ['the meme', 'the laughing emoji', '"there were no signs"', 'the letter', 'last month'],
    feelings: ['guilty', 'shocked', 'grieving'],
    accomplishment: 'I found a bereavement group and went, even though walking in was the hardest thing.',
    hooks: [
      'The last thing I sent my friend was a laughing emoji',
      'Everyone at the funeral said "there were no signs"',
    ],
  },
  {
    id: 'loss-miscarriage',
    domain: 'loss',
    split: 'train',
    ages: [25, 42],
    people: [
      { key: 'p', relation: { f: 'partner', m: 'partner' } },
      { key: 'col', relation: 'colleague' },
    ],
    facts: ['{name} and {p} had been trying for a baby for two years.'],
    event:
      'We lost the pregnancy at eleven weeks. We had just told our parents. Back at work, a colleague {col} who knew said "at least it was early" and "you can try again". My partner {p} went straight back to normal, or looks like it.',
    tried: ['I took a week off.', 'I put the scan photo in a box in the wardrobe.'],
    problem: 'People act like it was not a real loss, and I feel alone in it, even with {p}.',
    details: ['eleven weeks', 'the scan photo', '"at least it was early"', 'the box in the wardrobe', 'our parents'],
    feelings: ['empty', 'alone', 'invalidated'],
    accomplishment: 'I went back to work and kept going, and I am still trying to talk to {p} about it.',
    hooks: ['Someone at work said "at least it was early"', 'The scan photo is in a box in the wardrobe now'],
  },
  {
    id: 'loss-job-identity-retirement-forced',
    domain: 'loss',
    split: 'train',
    ages: [58, 70],
    occupations: ['retired police officer', 'retired firefighter', 'retired head teacher', 'retired factory manager'],
    people: [
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
      { key: 'old', relation: 'former colleague' },
    ],
    facts: ['{name} worked thirty-five years in the same service.'],
    event:
      'I was medically retired in the spring, three years earlier than I planned. Thirty-five years. The leaving do was a sandwich buffet and a card. My old team have a group chat I am not in any more. My {p.rel} {p} keeps giving me jobs around the house.',
    tried: [
      'I volunteered at the charity shop two mornings a week.',
      'I met my former colleague {old} for a pint. {old.He} talked about work the whole time.',
    ],
    problem: 'I do not know who I am when nobody needs me to turn up.',
    details: ['the sandwich buffet', 'the card', 'the group chat', 'thirty-five years', 'the charity shop'],
    feelings: ['lost', 'useless', 'grieving'],
    accomplishment: 'I served thirty-five years and I am already volunteering two mornings a week.',
    hooks: [
      'Thirty-five years and the leaving do was a sandwich buffet and a card',
      "My old team have a group chat I'm not in any more",
    ],
  },
  {
    id: 'loss-house-fire',
    domain: 'loss',
    split: 'train',
    ages: [25, 70],
    people: [
      { key: 'ins', relation: 'insurance assessor' },
      { key: 'sib', relation: { f: 'sister', m: 'brother' } },
    ],
    facts: ['{name} is staying with {sib} since the fire.'],
    event:
      "There was a fire in our flat in January. An electrical fault. Nobody was hurt. Everything else is gone: the photos, my grandad's watch, my kid's drawings. The insurance assessor {ins} keeps asking for receipts for things I bought ten years ago.",
    tried: [
      'I made a spreadsheet of everything I can remember owning.',
      'I moved in with my {sib.rel} {sib} while it gets sorted.',
    ],
    problem: 'Everyone says "it\'s only stuff" and "you\'re all safe", and I feel ungrateful for grieving a watch.',
    details: [
      "my grandad's watch",
      'the photos',
      'the drawings',
      'the receipts',
      '"it\'s only stuff"',
      'the spreadsheet',
    ],
    feelings: ['grieving', 'ungrateful', 'exhausted'],
    accomplishment: 'I listed everything we owned from memory and kept the family going through it.',
    hooks: [
      'The fire took my grandad\'s watch and everyone says "it\'s only stuff"',
      'The insurance wants receipts for things I bought ten years ago',
    ],
  },
  {
    id: 'loss-parent-sudden-heart-attack',
    domain: 'loss',
    split: 'train',
    ages: [25, 55],
    people: [
      { key: 'par', relation: 'father', gender: 'm' },
      { key: 'boss', relation: 'manager' },
    ],
    facts: ['{name} spoke to {par} most days on the phone.'],
    event:
      'My dad {par} had a heart attack in the garden three months ago. No warning. Our last phone call was about whether I had sorted my car tax. My manager {boss} gave me five days\' compassionate leave and then asked if I was "back to full speed".',
    tried: ['I went back to work after the five days.', 'I listen to his old voicemails in the car.'],
    problem: 'I am functioning on the outside and falling apart in the car park, and nobody at work asks any more.',
    details: ['the garden', 'the car tax', 'five days', '"back to full speed"', 'the voicemails', 'the car park'],
    feelings: ['grieving', 'numb', 'alone'],
    accomplishment: 'I got through the funeral, the paperwork and back to work in three months.',
    hooks: ['The last call with my dad was about my car tax', "I listen to my dad's old voicemails in the car park"],
  },
  {
    id: 'moving-emigrated-regret',
    domain: 'moving',
    split: 'train',
    ages: [25, 50],
    people: [
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
      { key: 'mum', relation: 'mother', gender: 'f' },
    ],
    vars: { country: ['Canada', 'Australia', 'the Netherlands', 'New Zealand'] },
    facts: ['{name} moved to {$country} with {p} a year ago.'],
    event:
      "We emigrated to {$country} a year ago for my {p.rel} {p}'s job. {p.He} loves it. I have a job I am overqualified for and no friends yet. On the video call at Christmas my mum {mum} looked so much older, and she cried when we hung up.",
    tried: [
      'I joined a community choir to meet people.',
      'I said to {p} that I miss home. {p.He} said "give it time".',
    ],
    problem: "Going back would wreck {p}'s career, and staying feels like slowly disappearing.",
    details: ['{$country}', 'the video call at Christmas', 'overqualified', 'the choir', '"give it time"'],
    feelings: ['homesick', 'guilty', 'stuck'],
    accomplishment: 'I rebuilt my life in a new country, got a job, and joined a choir to meet people.',
    hooks: ['My mum cried when we hung up the video call at Christmas', 'A year in {$country} and my {p.rel} loves it'],
  },
  {
    id: 'moving-downsizing-family-home',
    domain: 'moving',
    split: 'train',
    ages: [60, 80],
    people: [{ key: 'kid', relation: { f: 'daughter', m: 'son' } }],
    facts: ['{name} has lived in the same house for forty years.'],
    event:
      'I am selling the house I have lived in for forty years and moving into a flat. My {kid.rel} {kid} arranged the house clearance without asking me and a skip turned up outside on Saturday. {kid.He} put my records in it.',
    tried: [
      'I took the records back out of the skip.',
      'I asked {kid} to give me two more weeks to sort things myself.',
    ],
    problem: 'I know it is sensible to move. It feels like my life is being boxed up and thrown away around me.',
    details: ['forty years', 'the skip', 'my records', 'the house clearance', 'the flat'],
    feelings: ['steamrollered', 'grieving', 'old'],
    accomplishment: 'I made the sensible decision to move and I stood up for what I wanted to keep.',
    hooks: [
      'A skip turned up outside my house on Saturday and my records were in it',
      'Forty years in this house and my {kid.rel} booked the clearance without asking',
    ],
  },
  {
    id: 'moving-new-job-new-city-regret',
    domain: 'moving',
    split: 'train',
    ages: [22, 35],
    people: [
      { key: 'boss', relation: 'new manager' },
      { key: 'friend', relation: 'best friend back home' },
    ],
    facts: ['{name} moved across the country for a first proper job six weeks ago.'],
    event:
      'Six weeks ago I moved across the country for my first proper job. The job is not what was advertised. My new manager {boss} has me doing admin. My best friend {friend} back home just got engaged and I watched the party on {friend.his} story.',
    tried: [
      'I asked {boss} when I will get the project work I was promised.',
      'I checked train prices home every night.',
    ],
    problem: 'I feel like I gave up everything for a job I might not even want.',
    details: ['six weeks', 'the admin', 'the engagement party', 'the story', 'train prices'],
    feelings: ['regretful', 'homesick', 'stuck'],
    accomplishment: 'I took a big risk and moved on my own, and I have already asked for the work I was promised.',
    hooks: [
      'Six weeks into my first proper job and I am doing admin',
      "Watched my best friend's engagement party on a story, three hundred miles away",
    ],
  },
  {
    id: 'moving-house-purchase-collapsed',
    domain: 'moving',
    split: 'train',
    ages: [27, 45],
    people: [
      { key: 'p', relation: { f: 'partner', m: 'partner' } },
      { key: 'sol', relation: 'solicitor' },
    ],
    facts: ['{name} and {p} had been saving for a house for five years.'],
    event:
      'Our house purchase fell through two days before exchange. The seller pulled out for a higher offer. We had already given notice on our rental, packed half the flat, and paid the survey and the solicitor {sol}.',
    tried: [
      'I rang the landlord to ask if we could stay. The flat is already re-let.',
      'I spent the weekend on every property site there is.',
    ],
    problem: "We have three weeks to find somewhere to live and I can't stop blaming myself for not seeing it coming.",
    details: ['two days before exchange', 'the higher offer', 'half the flat packed', 'the survey', 'three weeks'],
    feelings: ['gutted', 'panicked', 'cheated'],
    accomplishment: 'I kept us organised all the way to exchange and started searching again the same weekend.',
    hooks: [
      'Our house fell through two days before exchange',
      'Half our flat is in boxes and we have nowhere to go in three weeks',
    ],
  },
  {
    id: 'moving-care-for-town-gentrified',
    domain: 'moving',
    split: 'train',
    ages: [30, 65],
    people: [
      { key: 'lord', relation: 'new landlord' },
      { key: 'n', relation: 'neighbour' },
    ],
    facts: ['{name} grew up on the same street and still lives there.'],
    event:
      'The building I grew up in was sold to a developer. The new landlord {lord} is "refurbishing" and wants everyone out by the end of summer. My neighbour {n} has lived there fifty years. The corner shop where I had my first job is a coffee place now.',
    tried: ["I helped organise a tenants' meeting.", 'I got a housing advice charity to read the notices.'],
    problem: 'I can afford somewhere, just not here, and it feels like the place I come from is being erased.',
    details: ['the developer', '"refurbishing"', 'the end of summer', 'the corner shop', "the tenants' meeting"],
    feelings: ['displaced', 'angry', 'sad'],
    accomplishment: "I organised the tenants' meeting and got proper advice for everyone in the building.",
    hooks: [
      'My building got sold and the new landlord is "refurbishing"',
      'The corner shop where I had my first job is a coffee place now',
    ],
  },
];

export const HEALTH_LOSS_MOVING_BENCHMARK: ScenarioTemplate[] = [
  {
    id: 'health-diabetes-diagnosis',
    domain: 'health',
    split: 'benchmark',
    ages: [35, 65],
    people: [
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
      { key: 'nurse', relation: 'practice nurse' },
    ],
    facts: ['{name} has always been the one who cooks at home.'],
    event:
      'Two weeks ago I was told I have type 2 diabetes. The practice nurse {nurse} gave me a folder of leaflets and a finger-prick kit. Since then my {p.rel} {p} reads every label in the supermarket out loud and comments on everything I put in my mouth.',
    tried: [
      'I have been doing the finger pricks twice a day and writing them in a notebook.',
      'I asked {p} to ease off. {p.He} said {p.he} is only trying to help.',
    ],
    problem: "I feel like a patient in my own kitchen and I'm scared of what this means for the next twenty years.",
    details: ['type 2', 'the finger-prick kit', 'the folder of leaflets', 'the supermarket labels', 'the notebook'],
    feelings: ['scared', 'watched', 'ashamed'],
    accomplishment: 'I have done the finger pricks twice a day for two weeks and logged every one.',
    hooks: [
      'Got told two weeks ago I have type 2 diabetes',
      'My {p.rel} reads every label in the supermarket out loud now',
    ],
  },
  {
    id: 'loss-grandmother-funeral-missed',
    domain: 'loss',
    split: 'benchmark',
    ages: [19, 45],
    people: [
      { key: 'gran', relation: 'grandmother', gender: 'f' },
      { key: 'mum', relation: { f: 'mother', m: 'father' } },
    ],
    facts: ['{name} lives abroad, a long flight from the family.'],
    event:
      "My grandmother {gran} died three weeks ago. She basically raised me. Flights were impossible to get in time, so I watched the funeral on a shaky video call from my kitchen at three in the morning. My {mum.rel} said afterwards that people noticed I wasn't there.",
    tried: [
      'I wrote a letter to {gran} and read it out loud to the laptop.',
      'I rang my {mum.rel} every day that week.',
    ],
    problem: "I can't grieve properly here, everyone at work has moved on, and that comment keeps going round my head.",
    details: ['the video call', 'three in the morning', 'my kitchen', 'the letter', '"people noticed"'],
    feelings: ['guilty', 'far away', 'grieving'],
    accomplishment: 'I wrote {gran} a letter and read it to her at the funeral, even if it was only through a laptop.',
    hooks: [
      "Watched my gran's funeral on a video call at three in the morning",
      "My {mum.rel} said people noticed I wasn't at the funeral",
    ],
  },
  {
    id: 'moving-back-home-thirty',
    domain: 'moving',
    split: 'benchmark',
    ages: [28, 36],
    people: [
      { key: 'par', relation: { f: 'mum', m: 'dad' } },
      { key: 'sib', relation: { f: 'sister', m: 'brother' } },
    ],
    facts: ['{name} moved back into the childhood bedroom in March.'],
    event:
      "After the breakup I moved back into my old bedroom at my parents'. I am thirty-one and sleeping under the glow-in-the-dark stars I stuck on the ceiling at twelve. My {par.rel} {par} leaves job adverts on my pillow.",
    tried: [
      'I pay rent, cook twice a week and keep out of the way.',
      'I set myself a deadline of the end of the year to move out.',
    ],
    problem: 'My {sib.rel} {sib} has a mortgage and two kids, and at family dinners I feel like the cautionary tale.',
    details: [
      'the glow-in-the-dark stars',
      'the job adverts on my pillow',
      'thirty-one',
      'the end of the year',
      'family dinners',
    ],
    feelings: ['ashamed', 'stuck', 'small'],
    accomplishment: 'I picked myself up after the breakup, pay my way at home and set a real plan to move out.',
    hooks: [
      "I'm thirty-one and sleeping under the glow-in-the-dark stars I stuck up at twelve",
      'My {par.rel} left another job advert on my pillow',
    ],
  },
  {
    id: 'health-hearing-loss-work',
    domain: 'health',
    split: 'benchmark',
    ages: [40, 65],
    people: [
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
      { key: 'col', relation: 'colleague' },
    ],
    facts: ['{name} was fitted with hearing aids last month.'],
    event:
      'I got hearing aids last month. In meetings I miss half of what is said and nod along. Last week {col} made a joke about me "selectively hearing" and the whole table laughed. At home my {p.rel} {p} sighs when I ask {p.him} to repeat things.',
    tried: ['I asked for meetings to have captions.', 'I sit at the front now, near whoever is talking.'],
    problem: 'I have started avoiding the pub and the meetings, and I can feel my world getting smaller.',
    details: ['the hearing aids', '"selectively hearing"', 'the captions', 'the pub', 'nodding along'],
    feelings: ['embarrassed', 'isolated', 'old'],
    accomplishment: 'I got the hearing aids and asked for captions at work, which took nerve.',
    hooks: [
      'Someone at work joked that I am "selectively hearing"',
      'I nod along in meetings since I got the hearing aids',
    ],
  },
  {
    id: 'loss-pet-cat-missing',
    domain: 'loss',
    split: 'benchmark',
    ages: [18, 70],
    people: [{ key: 'n', relation: 'neighbour' }],
    vars: { cat: ['Mango', 'Pickle', 'Smudge', 'Luna'] },
    facts: ['{name} adopted {$cat} from a shelter nine years ago.'],
    event:
      'My cat {$cat} went out three weeks ago and never came back. I put posters on every lamp post and checked every garage. A neighbour, {n}, said {n.he} saw a cat "like that" by the main road, but could not be sure.',
    tried: [
      'I put up posters and posted in every local group.',
      'I rang every vet and rescue centre within ten miles.',
    ],
    problem: 'Not knowing is the worst part. I leave the back door open a crack every night.',
    details: ['{$cat}', 'the posters', 'the lamp posts', 'the main road', 'the back door', 'three weeks'],
    feelings: ['heartbroken', 'guilty', 'stuck'],
    accomplishment: 'I searched everywhere, posters, groups and every vet within ten miles, for three weeks.',
    hooks: [
      '{$cat} went out three weeks ago and never came back',
      'I still leave the back door open a crack for {$cat}',
    ],
  },
  {
    id: 'moving-refugee-qualification',
    domain: 'moving',
    split: 'benchmark',
    ages: [28, 55],
    occupations: ['cleaner', 'delivery driver', 'kitchen assistant', 'night warehouse operative'],
    people: [
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
      { key: 'off', relation: 'job centre adviser' },
    ],
    facts: ['{name} was an engineer before leaving home two years ago.'],
    event:
      'I was an engineer for fifteen years at home. Here my qualifications do not count. I clean offices at five in the morning. My {kid.rel} {kid} translated a letter for me last week, and {kid.he} was embarrassed, I could see it.',
    tried: [
      'I started a conversion course online at night.',
      'The job centre adviser {off} told me to "be realistic".',
    ],
    problem: 'I am grateful to be safe, and I am losing myself, and I cannot say the second part to anyone.',
    details: ['fifteen years', 'five in the morning', 'the letter', 'the conversion course', '"be realistic"'],
    feelings: ['diminished', 'grateful and sad', 'ashamed'],
    accomplishment: 'I work before dawn and study at night to get my profession back, for my family.',
    hooks: [
      'I was an engineer for fifteen years and now I clean offices at five in the morning',
      'My {kid.rel} had to translate a letter for me and I saw {kid.him} go red',
    ],
  },
];
