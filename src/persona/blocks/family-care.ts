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
    people: [
      { key: 'sib', relation: { f: 'sister', m: 'brother' } },
      { key: 'mum', relation: 'mother', gender: 'f' },
    ],
    facts: ['{name} and {sib} shared a bedroom until they were teenagers.'],
    event:
      "My {sib.rel} {sib} is getting married in June. The seating plan went round the family group chat yesterday and I'm on the table by the kitchen doors with the plus-ones, not with the family. When I asked, {sib.he} said it was just logistics.",
    tried: [
      'I asked my mum {mum} to find out what happened. She told me not to make it about me.',
      'I drafted a long message to {sib} and deleted it.',
    ],
    problem:
      "I still have to give a reading at the ceremony, and I don't know how to stand up there pretending everything is fine.",
    details: [
      "my {sib.rel}'s wedding",
      'the seating plan',
      'the table by the kitchen doors',
      'the family group chat',
      'the reading',
    ],
    feelings: ['hurt', 'pushed aside', 'embarrassed'],
    accomplishment: 'I still said yes to doing the reading and have been practising it every night.',
    hooks: [
      "The seating plan for my {sib.rel}'s wedding came out and I'm by the kitchen doors",
      "I'm at the plus-ones table at my own {sib.rel}'s wedding",
    ],
  },
  {
    id: 'parenting-teen-screens',
    domain: 'parenting',
    split: 'train',
    ages: [36, 55],
    people: [
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
      { key: 'ex', relation: { f: 'ex-wife', m: 'ex-husband' } },
    ],
    vars: { age: ['fourteen', 'fifteen', 'thirteen'] },
    facts: ['{name} shares custody, alternate weeks.'],
    event:
      "My {kid.rel} {kid} is {$age}. At my place I take the phone at ten so {kid.he} sleeps. At {kid.his} other parent's, {ex}, there are no rules at all. Last night {kid} screamed that I'm the reason {kid.he} has no friends and slammed the bedroom door so hard the mirror fell.",
    tried: [
      'I tried to agree the same rules with {ex}. {ex.He} said I am too controlling.',
      'I let {kid} keep the phone till eleven as a compromise.',
    ],
    problem: "I'm the parent {kid} doesn't want to be with any more, and I can't tell if the rule is worth it.",
    details: ['the phone at ten', 'the bedroom door', 'the mirror', 'no rules at the other house', '{$age}'],
    feelings: ['rejected', 'worn down', 'unsure'],
    accomplishment: 'I kept my voice down and did not shout back, even when the mirror came off the wall.',
    hooks: [
      'My {kid.rel} slammed the door so hard last night the mirror fell off',
      "I take the phone at ten and apparently that's why my {kid.rel} has no friends",
    ],
  },
  {
    id: 'caregiving-dad-dementia',
    domain: 'caregiving',
    split: 'train',
    ages: [40, 65],
    people: [
      { key: 'dad', relation: 'father', gender: 'm' },
      { key: 'sib', relation: { f: 'sister', m: 'brother' } },
    ],
    facts: ["{name} drives over to {dad}'s house four evenings a week after work."],
    event:
      'My dad {dad} has early dementia. Last Tuesday he left the gas on and the neighbour smelled it. I drive over four evenings a week after work. My {sib.rel} {sib} lives an hour away and visits once a month, and then tells me what I am doing wrong.',
    tried: [
      'I put a timer switch on the cooker.',
      'I asked {sib} to take two evenings. {sib.He} said {sib.his} job is too busy.',
    ],
    problem:
      "I'm running on empty, and I snapped at Dad on Sunday for asking the same question five times. I keep replaying his face.",
    details: [
      'the gas left on',
      'four evenings a week',
      'the timer switch',
      'once a month',
      'the same question five times',
    ],
    feelings: ['exhausted', 'guilty', 'alone'],
    accomplishment: 'I have kept Dad safe in his own home for a year, and fitted the cooker timer myself.',
    hooks: [
      'Dad left the gas on again last Tuesday',
      'I snapped at my dad on Sunday for asking the same question five times',
    ],
  },
  {
    id: 'family-dad-favourite-sibling',
    domain: 'family',
    split: 'train',
    ages: [25, 55],
    people: [
      { key: 'dad', relation: 'father', gender: 'm' },
      { key: 'sib', relation: { f: 'younger sister', m: 'younger brother' } },
    ],
    facts: ["{name} is the one in the family who remembers everyone's birthday."],
    event:
      'I organised Dad\'s seventieth: booked the hall, did the slideshow, called thirty relatives. On the night, {dad} made a speech and thanked my {sib.rel} {sib} for "making it all happen". {sib} had brought the cake.',
    tried: [
      'I said nothing on the night.',
      'I mentioned it to {sib} the next day, and {sib.he} laughed and said "you know what Dad\'s like".',
    ],
    problem:
      'It is a small thing, but it is the same thing my whole life, and I am tired of being the reliable one nobody sees.',
    details: ["Dad's seventieth", 'the slideshow', 'the hall', 'the speech', 'the cake', 'thirty relatives'],
    feelings: ['invisible', 'hurt', 'childish for minding'],
    accomplishment: "I pulled off Dad's whole seventieth: the hall, the slideshow and thirty relatives.",
    hooks: [
      "I organised my dad's whole seventieth and he thanked my {sib.rel} for the cake",
      "Dad's speech thanked everyone but me",
    ],
  },
  {
    id: 'family-mum-criticises-weight',
    domain: 'family',
    split: 'train',
    ages: [20, 45],
    people: [
      { key: 'mum', relation: 'mother', gender: 'f' },
      { key: 'aunt', relation: 'aunt', gender: 'f' },
    ],
    facts: ['{name} visits the family home most Sundays for lunch.'],
    event:
      'At Sunday lunch my mum {mum} put a smaller plate in front of me than everyone else and said, in front of my aunt {aunt}, that she is "only looking out for my health". Aunt {aunt} nodded. I have been going to the gym four times a week for months.',
    tried: [
      'I told Mum once, calmly, that comments about my body hurt. She said I am too sensitive.',
      'I made excuses to skip the last two Sundays.',
    ],
    problem: "I love her and I dread going, and I don't know how to keep seeing her without feeling fourteen again.",
    details: [
      'the smaller plate',
      'Sunday lunch',
      '"only looking out for my health"',
      'the gym four times a week',
      'the last two Sundays',
    ],
    feelings: ['ashamed', 'angry', 'small'],
    accomplishment:
      'I told my mum clearly, without shouting, that the comments hurt, which I had never managed before.',
    hooks: [
      'My mum gave me a smaller plate at Sunday lunch, in front of everyone',
      '"Only looking out for my health", she says, about the smaller plate',
    ],
  },
  {
    id: 'family-brother-addiction',
    domain: 'family',
    split: 'train',
    ages: [22, 55],
    people: [
      { key: 'sib', relation: { f: 'sister', m: 'brother' } },
      { key: 'mum', relation: 'mother', gender: 'f' },
    ],
    vars: { sum: ['two hundred', 'three hundred', 'a hundred and fifty'] },
    facts: ['{name} has lent {sib} money more times than anyone in the family knows.'],
    event:
      'My {sib.rel} {sib} has been drinking heavily for years. Last week {sib.he} asked me for {$sum} for "the electric bill". A friend saw {sib.him} in the pub that same evening. Mum {mum} says I should keep helping because "{sib.he} is family".',
    tried: [
      'I paid {sib.his} bill directly instead of giving cash once. {sib.He} was furious.',
      'I went to one support group meeting for families.',
    ],
    problem: 'I have decided not to give any more money, and now I am the villain in the family group chat.',
    details: ['{$sum}', '"the electric bill"', 'the pub', 'the support group', 'the family group chat'],
    feelings: ['torn', 'guilty', 'angry'],
    accomplishment: 'I set a boundary about money and went to a support group, even though the family turned on me.',
    hooks: [
      'My {sib.rel} borrowed {$sum} for "the electric bill" and was in the pub that night',
      "I said no more money for my {sib.rel} and now I'm the villain in the family chat",
    ],
  },
  {
    id: 'family-christmas-host-in-laws',
    domain: 'family',
    split: 'train',
    ages: [28, 55],
    people: [
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
      { key: 'mil', relation: 'mother-in-law', gender: 'f' },
    ],
    facts: ['{name} hosts every Christmas because the house is the biggest.'],
    event:
      'I cooked Christmas dinner for eleven this year. My mother-in-law {mil} spent the day rearranging my kitchen cupboards and said the turkey was "a bit dry, but never mind". My {p.rel} {p} said nothing all day and then told me afterwards I had been "tense".',
    tried: ['I asked {p} beforehand to please take {mil} out for a walk while I cooked. {p.He} forgot.'],
    problem: '{p} has already invited everyone for Easter, and I feel like a servant in my own home.',
    details: ['dinner for eleven', 'the kitchen cupboards', '"a bit dry, but never mind"', 'the turkey', 'Easter'],
    feelings: ['unappreciated', 'alone', 'resentful'],
    accomplishment: 'I cooked a full Christmas dinner for eleven people and kept my temper all day.',
    hooks: [
      'My mother-in-law rearranged my kitchen cupboards on Christmas Day',
      'Cooked for eleven and the turkey was "a bit dry, but never mind"',
    ],
  },
  {
    id: 'family-coming-home-estranged-dad',
    domain: 'family',
    split: 'train',
    ages: [22, 50],
    people: [
      { key: 'dad', relation: 'father', gender: 'm' },
      { key: 'sib', relation: { f: 'sister', m: 'brother' } },
    ],
    facts: ['{name} has not spoken to {dad} in six years.'],
    event:
      'My dad walked out when I was twelve. Six years ago we had one awful phone call and stopped speaking. On Friday he sent me a friend request and a message: "I\'m not well. Would like to see you." My {sib.rel} {sib} already went to see him and says he has changed.',
    tried: ['I read the message about forty times.', 'I wrote a reply and saved it in drafts.'],
    problem: "If I don't go and he dies, I'll regret it. If I go, I'm twelve years old again.",
    details: ['the friend request', '"I\'m not well"', 'twelve years old', 'the reply in drafts', 'six years'],
    feelings: ['torn', 'angry', 'scared'],
    accomplishment: 'I built a good life on my own after my dad left, and I wrote a reply, even if I have not sent it.',
    hooks: [
      'My dad sent me a friend request after six years',
      '"I\'m not well. Would like to see you." That\'s the whole message from my dad',
    ],
  },
  {
    id: 'parenting-newborn-no-sleep',
    domain: 'parenting',
    split: 'train',
    ages: [24, 42],
    people: [
      { key: 'baby', relation: { f: 'baby daughter', m: 'baby son' } },
      { key: 'p', relation: { f: 'partner', m: 'partner' } },
      { key: 'hv', relation: 'health visitor' },
    ],
    facts: ['{name} is on parental leave with a first baby.'],
    event:
      'My baby {baby} is eleven weeks old and wakes every ninety minutes. My partner {p} went back to work at two weeks. Yesterday the health visitor {hv} said {baby} is "a bit under on weight" and asked how the feeding is going, and I burst into tears in front of {hv.him}.',
    tried: [
      'I have tried the sleep routines from three different books.',
      'I asked {p} to do one night feed. {p.He} did, and was grumpy at me all the next day.',
    ],
    problem:
      'I love {baby}, and I also sometimes sit in the car outside the house for ten minutes just to be alone, and then feel terrible about it.',
    details: [
      'eleven weeks',
      'every ninety minutes',
      '"a bit under on weight"',
      'the three books',
      'the car outside the house',
    ],
    feelings: ['exhausted', 'guilty', 'failing'],
    accomplishment: 'I have kept a newborn fed and loved for eleven weeks on almost no sleep.',
    hooks: [
      'The health visitor said my baby is "a bit under on weight" and I burst into tears',
      'Eleven weeks of waking every ninety minutes',
    ],
  },
  {
    id: 'parenting-teen-caught-vaping',
    domain: 'parenting',
    split: 'train',
    ages: [35, 55],
    people: [
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
    ],
    facts: ['{name} smoked as a teenager and quit at twenty-five.'],
    event:
      "I found a vape in my {kid.rel} {kid}'s school blazer. {kid.He} is fifteen. When I asked, {kid.he} said it was a friend's, then that it was none of my business, then that I smoked at {kid.his} age so I am a hypocrite. My {p.rel} {p} thinks I made it into a huge deal.",
    tried: [
      'I took the vape away and grounded {kid.him} for a week.',
      'I tried talking about it calmly on a drive, and {kid.he} put headphones in.',
    ],
    problem: '{kid} is barely speaking to me, and I do not know if I am being a hypocrite or a parent.',
    details: ['the vape', 'the school blazer', 'fifteen', '"hypocrite"', 'the headphones', 'grounded for a week'],
    feelings: ['worried', 'stung', 'unsure'],
    accomplishment: 'I kept trying to talk to {kid} calmly instead of shouting, even after being called a hypocrite.',
    hooks: ["Found a vape in my {kid.rel}'s school blazer", 'My fifteen-year-old called me a hypocrite over a vape'],
  },
  {
    id: 'parenting-kid-bullied',
    domain: 'parenting',
    split: 'train',
    ages: [30, 50],
    people: [
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
      { key: 'teach', relation: 'class teacher' },
    ],
    vars: { age: ['nine', 'ten', 'eleven'] },
    facts: ['{name} was bullied at school too and has never told anyone the details.'],
    event:
      'My {kid.rel} {kid} is {$age}. For a month {kid.he} has had stomach aches every Sunday night. Last night it came out: a group of kids in {kid.his} class have a chat where they post photos of {kid.him} and laugh at them. The class teacher {teach} says there is "no evidence of a problem in school".',
    tried: [
      'I screenshotted everything {kid} showed me.',
      'I emailed {teach} and got a reply saying it happens outside school hours.',
    ],
    problem: 'I want to march in there and shout, and I know that will make it worse for {kid}.',
    details: [
      'stomach aches every Sunday night',
      'the group chat',
      'the photos',
      '"no evidence of a problem"',
      'the screenshots',
    ],
    feelings: ['protective', 'furious', 'helpless'],
    accomplishment: 'I got {kid} to open up, believed {kid.him} straight away, and kept screenshots of everything.',
    hooks: [
      'My {kid.rel} has had stomach aches every Sunday night for a month and now I know why',
      "Kids in my {$age}-year-old's class have a group chat laughing at photos of {kid.him}",
    ],
  },
  {
    id: 'parenting-adult-child-not-calling',
    domain: 'parenting',
    split: 'train',
    ages: [50, 75],
    people: [
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
      { key: 'inlaw', relation: { f: 'daughter-in-law', m: 'son-in-law' } },
    ],
    facts: ['{name} raised {kid} mostly alone.'],
    event:
      'My {kid.rel} {kid} moved abroad with {kid.his} partner two years ago. We used to talk every Sunday. Now I get a voice note every few weeks. I found out from Facebook that {kid.he} is expecting a baby. {kid.His} partner posted it.',
    tried: [
      'I sent a card and a knitted blanket.',
      'I asked if I could visit after the birth, and got "let\'s see how things are".',
    ],
    problem: 'I raised {kid} on my own and I feel like I am being quietly written out of {kid.his} life.',
    details: ['the voice notes', 'Facebook', 'the knitted blanket', '"let\'s see how things are"', 'every Sunday'],
    feelings: ['shut out', 'heartbroken', 'proud and hurt'],
    accomplishment: 'I raised {kid} on my own and I still sent love, a card and a blanket instead of a complaint.',
    hooks: [
      'Found out from Facebook I am going to be a grandparent',
      'My {kid.rel} sends me a voice note every few weeks now',
    ],
  },
  {
    id: 'parenting-coparent-new-partner',
    domain: 'parenting',
    split: 'train',
    ages: [30, 50],
    people: [
      { key: 'ex', relation: { f: 'ex-wife', m: 'ex-husband' } },
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
      { key: 'np', relation: { f: "ex's new partner", m: "ex's new partner" } },
    ],
    facts: ['{name} and {ex} separated three years ago.'],
    event:
      'My {kid.rel} {kid} came back from {kid.his} weekend with {ex} and called {ex.his} new partner {np} "my new mum or dad, basically" as a joke. Then {kid} asked if {kid.he} could live there more, because they have a trampoline and a dog.',
    tried: ['I smiled and said we can talk about it.', 'I messaged {ex} about it. {ex.He} said I was being insecure.'],
    problem: 'I cannot compete with a trampoline and a dog on my salary, and I feel like I am losing {kid} bit by bit.',
    details: ['the trampoline', 'the dog', '"basically"', 'the weekend', 'my salary'],
    feelings: ['threatened', 'jealous', 'ashamed of being jealous'],
    accomplishment: 'I smiled and kept it light in front of {kid}, even though it tore me up.',
    hooks: [
      'My {kid.rel} wants to live more at the house with the trampoline and the dog',
      'My {kid.rel} came home calling {np} "my new mum or dad, basically"',
    ],
  },
  {
    id: 'caregiving-partner-depression',
    domain: 'caregiving',
    split: 'train',
    ages: [28, 60],
    people: [
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
      { key: 'friend', relation: 'close friend' },
    ],
    facts: ['{name} has been doing all the cooking, shopping and bills since last autumn.'],
    event:
      'My {p.rel} {p} has been depressed since last autumn. Most days {p.he} does not get out of bed before two. I do the shopping, the bills, the cooking and I cover for {p.him} with {p.his} family. Last week I lost my temper about a pile of washing and {p.he} cried for an hour.',
    tried: [
      'I got {p.him} to a GP appointment and went in with {p.him}.',
      'I told my close friend {friend}, who said I should "put myself first", which is not that simple.',
    ],
    problem:
      'I am scared of the days {p.he} is low and resentful on the days {p.he} is fine, and I hate myself for the resentment.',
    details: ['since last autumn', 'before two', 'the pile of washing', 'the GP appointment', '"put myself first"'],
    feelings: ['worn out', 'guilty', 'lonely'],
    accomplishment: 'I got {p} to a doctor and have held the whole household together for months.',
    hooks: [
      'I lost my temper over a pile of washing and my {p.rel} cried for an hour',
      "My {p.rel} hasn't got out of bed before two most days since last autumn",
    ],
  },
  {
    id: 'caregiving-child-disability-appeal',
    domain: 'caregiving',
    split: 'train',
    ages: [30, 50],
    people: [
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
      { key: 'off', relation: 'council caseworker' },
    ],
    facts: ['{name} gave up a full-time job to care for {kid}.'],
    event:
      'My {kid.rel} {kid} is autistic and non-verbal. We applied for more support at school. The council turned it down in a letter that spelled {kid.his} name wrong. The caseworker {off} has not answered in three weeks.',
    tried: [
      'I put together a forty-page folder: reports, videos, diaries.',
      "I joined a parents' forum that helped me draft the appeal.",
    ],
    problem: 'The appeal deadline is in two weeks, and I am running on four hours of sleep and rage.',
    details: ['the letter', 'the name spelled wrong', 'the forty-page folder', 'the appeal deadline', 'three weeks'],
    feelings: ['furious', 'exhausted', 'fierce'],
    accomplishment: 'I put together a forty-page evidence folder for the appeal, on my own, around full-time care.',
    hooks: [
      "The council turned down my {kid.rel}'s support in a letter that spelled {kid.his} name wrong",
      'I have a forty-page folder and two weeks until the appeal deadline',
    ],
  },
  {
    id: 'caregiving-mum-care-home-decision',
    domain: 'caregiving',
    split: 'train',
    ages: [40, 68],
    people: [
      { key: 'mum', relation: 'mother', gender: 'f' },
      { key: 'sib', relation: { f: 'sister', m: 'brother' } },
    ],
    facts: ['{name} promised {mum} years ago that she would never go into a home.'],
    event:
      'Mum {mum} fell twice this month. The second time she lay on the kitchen floor for three hours. The doctor says she cannot live alone any more. Years ago I promised her she would never go into a home. My {sib.rel} {sib} has found a place and wants me to sign the forms.',
    tried: [
      'I looked at having carers four times a day. It is not enough at night.',
      'I visited the home. It was clean and kind, and it smelled of school dinners.',
    ],
    problem: 'Mum keeps saying "you promised", and I have to decide this week.',
    details: ['the kitchen floor', 'three hours', '"you promised"', 'the forms', 'the smell of school dinners'],
    feelings: ['guilty', 'torn', 'grieving'],
    accomplishment: "I looked into every option properly, visited the home myself, and put Mum's safety first.",
    hooks: [
      'My mum lay on the kitchen floor for three hours before anyone found her',
      'Mum keeps saying "you promised" about the care home',
    ],
  },
  {
    id: 'caregiving-young-carer',
    domain: 'caregiving',
    split: 'train',
    ages: [16, 22],
    occupations: ['sixth-form student', 'college student', 'apprentice hairdresser', 'part-time shop assistant'],
    people: [
      { key: 'par', relation: { f: 'mum', m: 'dad' } },
      { key: 'friend', relation: 'best friend' },
    ],
    facts: ['{name} has looked after a parent with multiple sclerosis since the age of thirteen.'],
    event:
      'My {par.rel} {par} has MS. I do the meds, the cooking and help {par.him} shower before college. My best friend {friend} had a birthday at a festival this weekend and I could not go. {friend} posted "missing one person" and everyone asked who.',
    tried: [
      'I asked our neighbour to cover one night, but it fell through.',
      'I looked up the young carers group, but it meets on a weekday afternoon.',
    ],
    problem: 'I love my {par.rel} and I feel like my life is happening to everyone else.',
    details: [
      'the meds',
      'the shower before college',
      'the festival',
      '"missing one person"',
      'the young carers group',
    ],
    feelings: ['left behind', 'guilty', 'tired'],
    accomplishment: 'I have cared for my {par.rel} since I was thirteen and kept up with college.',
    hooks: [
      'My best friend posted "missing one person" from a festival I couldn\'t go to',
      'I help my {par.rel} shower before college every day',
    ],
  },
  {
    id: 'caregiving-grandparent-raising-grandkid',
    domain: 'caregiving',
    split: 'train',
    ages: [55, 75],
    people: [
      { key: 'gk', relation: { f: 'granddaughter', m: 'grandson' } },
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
    ],
    facts: ['{name} took in a grandchild full time two years ago.'],
    event:
      'Two years ago my {kid.rel} {kid} went into rehab and I took in {gk}, who is seven now. At the school gate the other grandparents chat about cruises. I am doing spellings and packed lunches at sixty-something. {kid} rang last week wanting {gk} back "soon".',
    tried: ['I talked to a family solicitor about guardianship.', 'I found a kinship carers group online.'],
    problem: '{gk} is settled with me, and I do not know if {kid} is ready, or if I am just scared to let go.',
    details: [
      'the school gate',
      'spellings and packed lunches',
      'the cruises',
      '"soon"',
      'the family solicitor',
      'seven',
    ],
    feelings: ['tired', 'protective', 'conflicted'],
    accomplishment: 'I gave {gk} two steady years and a real home when {gk.he} needed it most.',
    hooks: [
      'My {kid.rel} rang wanting {gk} back "soon"',
      'Spellings and packed lunches at my age, while everyone at the school gate talks about cruises',
    ],
  },
];

export const FAMILY_CARE_BENCHMARK: ScenarioTemplate[] = [
  {
    id: 'family-inheritance-house',
    domain: 'family',
    split: 'benchmark',
    ages: [35, 65],
    people: [
      { key: 'sib', relation: { f: 'older sister', m: 'older brother' } },
      { key: 'aunt', relation: 'aunt', gender: 'f' },
    ],
    facts: ["{name} spent most of last year clearing out the parents' house."],
    event:
      'After Mum died we agreed to sell the house and split it. Now my {sib.rel} {sib} wants to keep it and buy me out at a price way below what the estate agent said. {sib.He} says I "never visited anyway". Our aunt {aunt} is on {sib.his} side.',
    tried: [
      'I got a second valuation, which came in even higher.',
      'I suggested a mediator. {sib} called it "bringing lawyers into Mum\'s house".',
    ],
    problem: "Christmas is at {sib}'s this year and I don't know if I should go or make a stand.",
    details: [
      "Mum's house",
      'the second valuation',
      'the estate agent',
      '"never visited anyway"',
      'the mediator',
      'Christmas',
    ],
    feelings: ['betrayed', 'grieving', 'angry'],
    accomplishment: 'I cleared the whole house myself, room by room, over eight months of weekends.',
    hooks: [
      "My {sib.rel} wants to buy me out of Mum's house for way less than it's worth",
      '"You never visited anyway." That\'s what my {sib.rel} said about the house',
    ],
  },
  {
    id: 'parenting-school-call',
    domain: 'parenting',
    split: 'benchmark',
    ages: [30, 50],
    people: [
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
      { key: 'head', relation: 'head teacher' },
    ],
    vars: { grade: ['Year 4', 'Year 5', 'second grade'] },
    facts: ['{name} works full time and does the school run in the mornings.'],
    event:
      'The school called me at work because my {kid.rel} {kid}, who is in {$grade}, bit another child at lunch. When I picked {kid.him} up, the head teacher {head} said in front of the other parents that this is "the third incident this term".',
    tried: [
      'I talked to {kid} at bedtime, and {kid.he} said the other kid had been taking {kid.his} lunch.',
      'I emailed {head} to ask for a proper meeting.',
    ],
    problem:
      'I have a meeting on Monday and I feel like they have already decided my child is the problem, and maybe that I am.',
    details: [
      'the call at work',
      'the third incident this term',
      'the other parents',
      'the lunch',
      'the meeting on Monday',
    ],
    feelings: ['judged', 'protective', 'ashamed'],
    accomplishment: 'I stayed calm at the gate and got the real story out of {kid} at bedtime.',
    hooks: [
      'The school rang me at work because my {kid.rel} bit someone',
      '"The third incident this term", said in front of all the other parents',
    ],
  },
  {
    id: 'caregiving-mum-hospital-discharge',
    domain: 'caregiving',
    split: 'benchmark',
    ages: [38, 66],
    people: [
      { key: 'mum', relation: 'mother', gender: 'f' },
      { key: 'nurse', relation: 'discharge nurse' },
    ],
    facts: ["{name} has used most of the year's annual leave on hospital visits."],
    event:
      'My mum {mum} broke her hip in October. The hospital discharged her on a Friday evening with a leaflet and a walking frame, and the carers the ward promised did not turn up until Wednesday. I slept on her sofa for five nights.',
    tried: [
      'I rang the care agency every morning.',
      'I asked the discharge nurse {nurse} for a number to complain to, and got a voicemail.',
    ],
    problem: 'Work has started asking when I am back, and Mum keeps saying she does not want to be a burden.',
    details: ['the hip', 'the walking frame', 'Friday evening', 'her sofa', 'five nights', 'the leaflet'],
    feelings: ['abandoned', 'drained', 'torn'],
    accomplishment: 'I got Mum washed, fed and her pills sorted for five days with no help.',
    hooks: [
      'My mum got sent home from hospital with a leaflet and a walking frame',
      "I slept on my mum's sofa for five nights because the carers never came",
    ],
  },
  {
    id: 'family-sibling-no-show-surgery',
    domain: 'family',
    split: 'benchmark',
    ages: [25, 55],
    people: [
      { key: 'sib', relation: { f: 'twin sister', m: 'twin brother' } },
      { key: 'p', relation: { f: 'girlfriend', m: 'boyfriend' } },
    ],
    facts: ['{name} and {sib} used to be inseparable.'],
    event:
      'I had an operation on my knee two weeks ago. My twin {sib} said {sib.he} would drive me home from the hospital, then texted that morning that something had come up. I got a taxi on crutches. Later I saw on Instagram that {sib.he} had been at a barbecue.',
    tried: [
      'My {p.rel} {p} told me to let it go.',
      'I sent {sib} a message saying "hope the barbecue was nice". No reply.',
    ],
    problem:
      "We have never gone this long without talking, and I can't tell if I'm overreacting or finally seeing clearly.",
    details: ['my knee', 'the taxi on crutches', 'the barbecue', '"something came up"', '"hope the barbecue was nice"'],
    feelings: ['let down', 'hurt', 'bitter'],
    accomplishment: 'I got myself home on crutches and handled the whole recovery without fuss.',
    hooks: [
      'My twin bailed on driving me home from surgery and went to a barbecue',
      'I got a taxi home on crutches after my knee op',
    ],
  },
  {
    id: 'parenting-gap-year-son-gaming',
    domain: 'parenting',
    split: 'benchmark',
    ages: [42, 60],
    people: [
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
    ],
    facts: ['{name} has been the one at home to notice how things are going.'],
    event:
      'My {kid.rel} {kid} is nineteen, dropped out of university at Christmas and has been in {kid.his} room gaming ever since. {kid.He} comes down at midnight for cereal. My {p.rel} {p} says to give {kid.him} space. I found the curtains still shut at four in the afternoon.',
    tried: [
      'I offered to pay for a course of {kid.his} choice.',
      'I knocked and asked if {kid.he} wanted to come for a walk. Every day for a week.',
    ],
    problem: "I don't know if this is laziness, depression, or me failing as a parent.",
    details: [
      'nineteen',
      'cereal at midnight',
      'the curtains shut at four',
      'gaming since Christmas',
      'the walk every day',
    ],
    feelings: ['worried', 'frustrated', 'helpless'],
    accomplishment: 'I kept knocking on that door every single day, kindly, without giving up on {kid}.',
    hooks: [
      "My nineteen-year-old comes down at midnight for cereal and that's the only time I see {kid.him}",
      'The curtains were still shut at four in the afternoon',
    ],
  },
  {
    id: 'caregiving-wife-stroke-recovery',
    domain: 'caregiving',
    split: 'benchmark',
    ages: [55, 80],
    people: [
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
      { key: 'physio', relation: 'physiotherapist' },
    ],
    facts: ['{name} has been married to {p} for thirty-eight years.'],
    event:
      'My {p.rel} {p} had a stroke in the spring. {p.He} came home in June. {p.His} speech is slow and {p.he} gets angry when I finish {p.his} sentences. On Sunday {p.he} threw the physio exercise sheet across the kitchen and said {p.he} would rather be dead than this.',
    tried: [
      'I do the exercises with {p.him} twice a day.',
      'I asked the physiotherapist {physio} if that anger is normal. {physio.He} said "very".',
    ],
    problem:
      'I have not slept properly since the spring and I feel like I am living with a stranger who looks like my {p.rel}.',
    details: [
      'the stroke',
      'the physio exercise sheet',
      'finishing sentences',
      '"rather be dead"',
      'thirty-eight years',
    ],
    feelings: ['scared', 'exhausted', 'lonely'],
    accomplishment: 'I have done the exercises with {p} twice a day since June without missing one.',
    hooks: [
      'My {p.rel} threw the physio exercise sheet across the kitchen on Sunday',
      'Thirty-eight years married and since the stroke it feels like living with a stranger',
    ],
  },
];
