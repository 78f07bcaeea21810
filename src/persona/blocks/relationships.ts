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
    vars: {
      place: [
        'the little Italian place where we had our first date',
        'the Thai restaurant by the river',
        'the rooftop bar we went to on our first date',
      ],
    },
    facts: ['{name} has been with {p} for four years.'],
    event:
      'It was our fourth anniversary on Saturday. I booked {$place} weeks ago. {p} texted at seven saying {p.he} was stuck at a colleague\'s leaving drinks and would "make it up to me". {p.He} got home at midnight and went straight to sleep.',
    tried: ['I told {p} the next morning that it hurt. {p.He} said I was being dramatic about a date on a calendar.'],
    problem: "It isn't the dinner. It's that I seem to be the only one who keeps track of us.",
    details: ['{$place}', 'the text at seven', 'the leaving drinks', 'midnight', 'our fourth anniversary'],
    feelings: ['forgotten', 'lonely', 'hurt'],
    accomplishment: 'I planned the whole evening weeks ahead and told {p} calmly how I felt instead of sulking.',
    hooks: [
      'I sat alone at {$place} on our anniversary',
      'Four years together and {p.he} went to leaving drinks instead of our anniversary dinner',
    ],
  },
  {
    id: 'friendship-left-out-trip',
    domain: 'friendship',
    split: 'train',
    ages: [19, 40],
    people: [
      { key: 'f1', relation: 'best friend' },
      { key: 'f2', relation: 'friend from the group' },
    ],
    vars: { place: ['Lisbon', 'a cabin in the Lake District', 'Barcelona', 'a lake house upstate'] },
    facts: ['{name} has been in the same friend group since university.'],
    event:
      "I found out from Instagram that my whole friend group went to {$place} for a long weekend. My best friend {f1} posted a photo of everyone at dinner. Nobody had said a word to me. When I asked {f2}, {f2.he} said they assumed I couldn't afford it.",
    tried: [
      'I liked the photo so it would not look like I cared.',
      'I messaged {f1} "looks fun!" and got a thumbs up back.',
    ],
    problem:
      "I don't know if I'm being phased out or just overthinking one trip, and I can't stop checking the group chat.",
    details: ['{$place}', 'the dinner photo', 'Instagram', 'the thumbs up', 'the group chat'],
    feelings: ['left out', 'humiliated', 'insecure'],
    accomplishment: 'I asked {f2} directly what happened instead of stewing on it for weeks.',
    hooks: [
      'Found out from Instagram that everyone went to {$place} without me',
      "My best friend posted a dinner photo from {$place} and I wasn't invited",
    ],
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
    tried: [
      'I joined a running club and went twice, but everyone already had their people.',
      'I downloaded a friendship app and had one coffee that went nowhere.',
    ],
    problem: "When my {mum.rel} {mum} calls I say I'm doing great, and I'm starting to dread Fridays.",
    details: ['eight months', 'the corner shop', 'last Sunday', 'the running club', 'Friday night'],
    feelings: ['lonely', 'invisible', 'embarrassed'],
    accomplishment:
      'I kept trying: the running club, the app, the coffee. I put myself out there in a city where I knew nobody.',
    hooks: [
      "Last Sunday I realised I hadn't said a word out loud all day",
      "I only talk to the guy at the corner shop at weekends, that's where I'm at",
    ],
  },
  {
    id: 'romance-partner-wont-move-in',
    domain: 'romance',
    split: 'train',
    ages: [27, 45],
    people: [{ key: 'p', relation: { f: 'girlfriend', m: 'boyfriend' } }],
    facts: ['{name} has been seeing {p} for three years and still lives across town.'],
    event:
      'Three years together. I found a flat we could afford, two bedrooms, near both our jobs. I showed {p} the listing on Sunday and {p.he} went quiet, then said {p.he} "likes things how they are". We have had this conversation twice before.',
    tried: [
      'I asked what {p.he} is worried about. {p.He} said "nothing, I just like my own space".',
      'I gave it six months after the last time.',
    ],
    problem: 'I do not know whether to wait longer or accept that we want different things.',
    details: ['the listing', 'two bedrooms', '"likes things how they are"', 'three years', 'Sunday'],
    feelings: ['rejected', 'confused', 'impatient'],
    accomplishment:
      'I found a flat that actually worked for both of us and asked {p} openly what was holding {p.him} back.',
    hooks: [
      'I showed my {p.rel} a flat for us and {p.he} "likes things how they are"',
      'Three years in and my {p.rel} still went quiet at the flat listing',
    ],
  },
  {
    id: 'romance-ghosted-after-months',
    domain: 'romance',
    split: 'train',
    ages: [20, 40],
    people: [{ key: 'p', relation: { f: 'woman I was dating', m: 'man I was dating' } }],
    facts: ['{name} does not usually open up to people quickly.'],
    event:
      'I was seeing {p} for four months. I met {p.his} friends. We had a weekend away planned. Then {p.he} stopped replying. Two weeks of nothing, and yesterday I saw {p.him} on a dating app again.',
    tried: [
      'I sent one message asking if {p.he} was okay. Read, no reply.',
      'I deleted the chat and then went looking at the app anyway.',
    ],
    problem: 'I keep going over what I did wrong, and I am scared to let anyone in again.',
    details: ['four months', 'the weekend away', 'the dating app', 'read, no reply', 'two weeks'],
    feelings: ['discarded', 'foolish', 'hurt'],
    accomplishment:
      'I opened up to someone after a long time, which is brave for me, and I sent one dignified message.',
    hooks: [
      'After four months of seeing someone I found {p.him} back on a dating app',
      'Two weeks of nothing, and the weekend away was booked',
    ],
  },
  {
    id: 'romance-partner-jealous-texts',
    domain: 'romance',
    split: 'train',
    ages: [19, 35],
    people: [
      { key: 'p', relation: { f: 'girlfriend', m: 'boyfriend' } },
      { key: 'f', relation: 'friend from work' },
    ],
    facts: ['{name} has been with {p} for a year and a half.'],
    event:
      'Every time I go out without {p}, my phone starts: "where are you", "who is there", "send a photo". Last Friday I went for a drink with my friend from work {f}, and {p} rang eleven times. When I got home {p.he} had gone through my messages.',
    tried: ['I started sending photos before {p.he} asks.', 'I stopped going out on Fridays.'],
    problem: 'My friends say it is not normal. {p} says it is because {p.he} loves me. I no longer know which it is.',
    details: ['eleven calls', '"send a photo"', 'last Friday', 'my messages', 'the drink after work'],
    feelings: ['confused', 'watched', 'guilty'],
    accomplishment: 'I noticed that something was wrong and started talking about it, which takes courage.',
    hooks: [
      'My {p.rel} rang eleven times while I was out for one drink',
      'I send photos before my {p.rel} even asks now',
    ],
  },
  {
    id: 'romance-divorce-papers',
    domain: 'romance',
    split: 'train',
    ages: [35, 60],
    people: [
      { key: 'ex', relation: { f: 'wife', m: 'husband' } },
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
    ],
    facts: ['{name} was married to {ex} for fourteen years.'],
    event:
      'The divorce papers came on Monday. {ex} wants the house sold. We agreed to be "amicable", but {ex.his} solicitor\'s letter reads like I am a criminal. Our {kid.rel} {kid} asked me last night which house {kid.he} will live in at Christmas.',
    tried: ['I signed up for mediation.', 'I kept every conversation with {ex} polite and in writing.'],
    problem: 'I cannot answer {kid}, and I am grieving a marriage I also know had to end.',
    details: ['the divorce papers', "the solicitor's letter", '"amicable"', 'the house', 'Christmas', 'fourteen years'],
    feelings: ['grieving', 'angry', 'numb'],
    accomplishment: "I have kept every exchange with {ex} calm and polite for {kid}'s sake.",
    hooks: [
      "The divorce papers came on Monday and the solicitor's letter reads like I am a criminal",
      'My {kid.rel} asked which house {kid.he} lives in at Christmas',
    ],
  },
  {
    id: 'romance-long-distance-missed-visit',
    domain: 'romance',
    split: 'train',
    ages: [20, 35],
    people: [{ key: 'p', relation: { f: 'girlfriend', m: 'boyfriend' } }],
    vars: { city: ['Toronto', 'Seoul', 'Berlin', 'Nairobi', 'Melbourne'] },
    facts: ['{name} and {p} have been long-distance for a year.'],
    event:
      '{p} lives in {$city}. I saved for five months for flights to see {p.him} in April. Last week {p.he} said {p.his} work had a big project and could I come in June instead. The tickets are non-refundable.',
    tried: [
      'I looked at changing the dates. It costs almost as much again.',
      'I suggested I come anyway and we see each other in the evenings. {p.He} said it would be stressful.',
    ],
    problem: 'It is not the money. It is that I seem to be the only one fighting for this.',
    details: ['{$city}', 'five months of saving', 'the non-refundable tickets', 'April', 'the big project'],
    feelings: ['unwanted', 'lonely', 'foolish'],
    accomplishment: 'I saved for five months and tried to find a solution that worked for both of us.',
    hooks: [
      'I saved five months for flights to {$city} and my {p.rel} wants me to come in June instead',
      'The tickets to {$city} are non-refundable',
    ],
  },
  {
    id: 'friendship-friend-always-cancels',
    domain: 'friendship',
    split: 'train',
    ages: [20, 45],
    people: [{ key: 'f', relation: 'friend' }],
    facts: ['{name} is usually the one who makes plans in the friendship.'],
    event:
      "{f} cancelled on me again on Saturday, an hour before, the fourth time since summer. I'd booked the table and taken the train in. Then {f.he} posted a story from a house party that same night.",
    tried: [
      'I said "no worries!" three times.',
      'The fourth time I said it hurt. {f.He} said I was making {f.him} feel guilty when {f.he} was already stressed.',
    ],
    problem: 'I do not know if I should stop making plans and see if {f.he} notices, or if that is petty.',
    details: [
      'an hour before',
      'the fourth time since summer',
      'the train in',
      'the house party story',
      '"no worries!"',
    ],
    feelings: ['unimportant', 'hurt', 'petty'],
    accomplishment: 'I told {f} honestly that it hurt, after swallowing it three times.',
    hooks: [
      'My friend cancelled an hour before, the fourth time since summer, then posted from a house party',
      'I said "no worries!" three times and I am out of no worries',
    ],
  },
  {
    id: 'friendship-friend-said-something-cruel',
    domain: 'friendship',
    split: 'train',
    ages: [18, 40],
    people: [{ key: 'f', relation: 'close friend' }],
    facts: ['{name} has struggled with anxiety since school and told only a few people.'],
    event:
      'At a party, a bit drunk, my close friend {f} told a group of people about my panic attacks as a funny story. I was standing right there. Everyone laughed, and someone did an impression of me breathing into a paper bag.',
    tried: [
      'I left early without saying anything.',
      '{f} texted the next day "hope you got home ok x", like nothing happened.',
    ],
    problem: 'I have not replied, and I cannot work out if I should say something or quietly drift away.',
    details: ['the party', 'the panic attacks', 'the paper bag', '"hope you got home ok x"', 'the group'],
    feelings: ['betrayed', 'humiliated', 'exposed'],
    accomplishment: 'I got myself out of that room calmly instead of having a panic attack right there.',
    hooks: [
      'My close friend told a whole party about my panic attacks as a funny story',
      'Someone did an impression of me with a paper bag and my friend laughed',
    ],
  },
  {
    id: 'friendship-new-mum-friend-gone',
    domain: 'friendship',
    split: 'train',
    ages: [27, 42],
    people: [{ key: 'f', relation: 'best friend' }],
    facts: ['{name} and {f} were inseparable through their twenties.'],
    event:
      'Since my best friend {f} had a baby a year ago, everything is about the baby. I have offered to babysit, brought food, gone to every first birthday thing. Last week I told {f.him} I got engaged, and {f.he} said "oh nice" and went back to talking about nap schedules.',
    tried: [
      'I kept showing up and asking about the baby.',
      'I suggested a night out, just us. It keeps getting moved.',
    ],
    problem: 'I miss my friend, and I feel selfish for wanting some room in the friendship too.',
    details: ['the baby', '"oh nice"', 'nap schedules', 'the engagement', 'the night out'],
    feelings: ['lonely', 'selfish', 'sad'],
    accomplishment: 'I have shown up for {f} all year: babysitting, meals, every birthday thing.',
    hooks: [
      'I told my best friend I got engaged and {f.he} said "oh nice" and went back to nap schedules',
      'A year of babysitting and bringing food, and I miss my friend',
    ],
  },
  {
    id: 'friendship-money-business-friend',
    domain: 'friendship',
    split: 'train',
    ages: [25, 50],
    people: [{ key: 'f', relation: 'friend and business partner' }],
    facts: ['{name} started a small business with {f} two years ago.'],
    event:
      'My friend {f} and I started a small online shop two years ago. I found out last week that {f.he} has been paying {f.him}self an extra "admin fee" out of the account since the start. It adds up to a few thousand. {f.He} says we agreed it. We did not.',
    tried: [
      'I went through every statement and made a list.',
      'I asked {f} to sit down and go through it. {f.He} got defensive and left.',
    ],
    problem: 'I do not know if I can save the business, the friendship, or neither.',
    details: ['the online shop', 'the "admin fee"', 'every statement', 'a few thousand', 'two years'],
    feelings: ['betrayed', 'stupid', 'angry'],
    accomplishment: 'I went through two years of statements line by line and asked {f} to talk face to face.',
    hooks: [
      'My friend has been paying {f.him}self an "admin fee" out of our shop account for two years',
      'I went through every statement for our shop and found a few thousand missing',
    ],
  },
  {
    id: 'friendship-drifted-after-move',
    domain: 'friendship',
    split: 'train',
    ages: [25, 55],
    people: [{ key: 'f', relation: 'oldest friend' }],
    facts: ['{name} moved away from the home town three years ago.'],
    event:
      'My oldest friend {f} turned forty last weekend. I found out from photos that there was a party back home. Nobody thought to tell me because I "live so far now". It is a three-hour train.',
    tried: [
      'I sent a card and a present, late.',
      'I messaged {f} to say I would have come. {f.He} said "we didn\'t think you\'d want to bother".',
    ],
    problem: 'I feel like I left the town and got quietly unsubscribed from my own past.',
    details: ['the fortieth', 'the photos', '"live so far now"', 'a three-hour train', 'the late card'],
    feelings: ['forgotten', 'sad', 'homesick'],
    accomplishment: 'I reached out and told {f} I would have come, instead of going silent.',
    hooks: [
      'My oldest friend had a fortieth party and nobody told me',
      'Apparently I "live so far now". It is a three-hour train',
    ],
  },
  {
    id: 'loneliness-night-shift-no-friends',
    domain: 'loneliness',
    split: 'train',
    ages: [25, 55],
    occupations: ['night security guard', 'night-shift nurse', 'warehouse night supervisor', 'overnight baker'],
    people: [{ key: 'col', relation: 'only colleague on nights' }],
    facts: ['{name} has worked nights for three years.'],
    event:
      'I have worked nights for three years. I sleep when everyone is awake and I am awake when everyone sleeps. The only person I talk to most weeks is {col}, the other guard, and we mostly talk about football. My phone has not rung with a personal call in a month.',
    tried: [
      'I asked to switch to days. There is a waiting list.',
      'I joined a gaming server to talk to people at 4 a.m.',
    ],
    problem: 'I think I have forgotten how to make friends, and I am not sure anyone would notice if I disappeared.',
    details: ['the night shift', '4 a.m.', 'the gaming server', 'football', 'a month without a call'],
    feelings: ['isolated', 'invisible', 'flat'],
    accomplishment: 'I have held down nights for three years, and I am still trying to find people, even at 4 a.m.',
    hooks: [
      "Three years on nights and my phone hasn't rung with a personal call in a month",
      'The only person I talk to is the other guard, about football',
    ],
  },
  {
    id: 'loneliness-widowed-dinners',
    domain: 'loneliness',
    split: 'train',
    ages: [60, 85],
    occupations: ['retired teacher', 'retired engineer', 'retired shopkeeper', 'retired nurse'],
    people: [
      { key: 'late', relation: { f: 'late wife', m: 'late husband' } },
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
    ],
    facts: ['{name} was married to {late} for forty-four years.'],
    event:
      'My {late.rel} {late} died eighteen months ago. The worst part is dinner. I still cook for two by accident. I eat in front of the TV now because the empty chair is too much. My {kid.rel} {kid} thinks I should "get out more".',
    tried: [
      'I went to a bereavement café twice.',
      'I joined a walking group, but it finishes at eleven and the afternoon is still long.',
    ],
    problem: 'People think I should be moving on, and evenings feel like they last for days.',
    details: [
      'cooking for two',
      'the empty chair',
      'the TV dinners',
      '"get out more"',
      'the walking group',
      'eighteen months',
    ],
    feelings: ['lonely', 'aching', 'tired'],
    accomplishment: 'I keep going: the walking group, the bereavement café, getting dressed and out every morning.',
    hooks: [
      'I still cook for two by accident, eighteen months on',
      'The empty chair at dinner is why I eat in front of the TV now',
    ],
  },
  {
    id: 'loneliness-remote-worker',
    domain: 'loneliness',
    split: 'train',
    ages: [24, 45],
    occupations: [
      'remote software tester',
      'freelance illustrator',
      'remote customer support agent',
      'freelance translator',
    ],
    people: [{ key: 'mgr', relation: 'manager' }],
    facts: ['{name} has worked from home alone in a studio flat for two years.'],
    event:
      'I have worked from home for two years. Some weeks my only conversation is the Monday video call, and last Monday my manager {mgr} forgot to unmute me, so I did not even get that. I realised I was looking forward to the delivery driver.',
    tried: ['I tried a co-working space. It was expensive and nobody talked.', 'I joined a book club and went once.'],
    problem:
      'I have got so out of practice with people that the idea of a conversation makes me tired before it starts.',
    details: ['the Monday video call', 'unmuted', 'the delivery driver', 'the co-working space', 'the book club'],
    feelings: ['isolated', 'rusty', 'embarrassed'],
    accomplishment:
      'I keep trying new things, the co-working space and the book club, even though each one costs me a lot.',
    hooks: [
      'I realised I was looking forward to the delivery driver',
      'My one conversation of the week is the Monday video call and I got left on mute',
    ],
  },
  {
    id: 'loneliness-international-student',
    domain: 'loneliness',
    split: 'train',
    ages: [18, 28],
    occupations: [
      'international student in business',
      "international master's student",
      'exchange student in engineering',
    ],
    people: [
      { key: 'mum', relation: { f: 'mum', m: 'dad' } },
      { key: 'flat', relation: 'flatmate' },
    ],
    vars: { holiday: ['Lunar New Year', 'Eid', 'Diwali', 'Christmas'] },
    facts: ['{name} moved abroad to study eight months ago.'],
    event:
      'It was {$holiday} this week. At home the whole family would be together. Here I ate instant noodles in my room. My flatmates had a party in the kitchen and {flat} invited me, but they were talking so fast and laughing at jokes I did not get.',
    tried: ['I went to the party for twenty minutes.', 'I video called my {mum.rel} {mum} and pretended I had plans.'],
    problem:
      'I do not want my family to worry when they spent so much to send me here, so I tell them everything is great.',
    details: ['{$holiday}', 'the instant noodles', 'the kitchen party', 'twenty minutes', 'the video call'],
    feelings: ['homesick', 'lonely', 'out of place'],
    accomplishment: 'I moved to another country on my own and went to that party even though I was scared.',
    hooks: [
      'Ate instant noodles alone in my room on {$holiday}',
      'I told my {mum.rel} I had plans for {$holiday}. I did not',
    ],
  },
  {
    id: 'loneliness-married-but-alone',
    domain: 'loneliness',
    split: 'train',
    ages: [42, 68],
    people: [{ key: 'p', relation: { f: 'wife', m: 'husband' } }],
    facts: ['{name} and {p} have been married for twenty years.'],
    event:
      'My {p.rel} {p} and I have been married twenty years. We are polite. We talk about the bins and the car. Last night I told {p.him} about something that had upset me at work, and {p.he} kept scrolling on {p.his} phone and said "mm".',
    tried: [
      'I suggested a weekend away. {p.He} said it was a waste of money.',
      'I tried putting phones away at dinner. It lasted two days.',
    ],
    problem: 'I am lonelier in this house than I was when I lived alone, and I cannot say that to anyone who knows us.',
    details: ['the bins and the car', '"mm"', 'the phone', 'the weekend away', 'twenty years'],
    feelings: ['lonely', 'invisible', 'sad'],
    accomplishment: 'I keep trying to reach {p}: the weekend away, phones off at dinner, telling {p.him} about my day.',
    hooks: [
      'I told my {p.rel} about my day and got "mm" while {p.he} scrolled',
      'Twenty years married and we talk about the bins',
    ],
  },
];

export const RELATIONSHIPS_BENCHMARK: ScenarioTemplate[] = [
  {
    id: 'romance-phone-message',
    domain: 'romance',
    split: 'benchmark',
    ages: [25, 50],
    people: [
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
      { key: 'x', relation: { f: "partner's colleague", m: "partner's colleague" } },
    ],
    facts: ['{name} and {p} have been married for nine years.'],
    event:
      'My {p.rel} {p} left {p.his} phone on the kitchen counter and a message lit up from {x}, a colleague: "last night was fun, our secret ;)". When I asked, {p} laughed and said it was about a quiz team they joined. {p.He} did not show me the rest of the thread.',
    tried: ["I didn't check the phone, even though I wanted to.", 'I asked once, calmly, and let it go.'],
    problem: "I can't sleep, and I don't know if I am being paranoid or if I am the last to know.",
    details: ['the kitchen counter', '"our secret"', 'the quiz team', 'the rest of the thread', 'nine years'],
    feelings: ['suspicious', 'sick', 'foolish'],
    accomplishment: 'I asked {p} straight out and stayed calm, and I did not go through {p.his} phone.',
    hooks: [
      'A message lit up on my {p.rel}\'s phone saying "our secret"',
      'My {p.rel} says "our secret" was about a quiz team',
    ],
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
    hooks: [
      'My best friend since we were seven picked someone from work as maid of honour',
      'Got told over text, with a heart emoji, that I am not the maid of honour',
    ],
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
    tried: [
      'I went to a coffee morning at the library. Everyone was twenty years older than me, or felt like it.',
      'I started walking to the shops instead of driving, just to see people.',
    ],
    problem: "I don't want to be a burden on {kid}, but I feel like I'm fading out.",
    details: [
      'the car warranty calls',
      'ten minutes on Sundays',
      'the coffee morning',
      'the library',
      'thirty-one years',
    ],
    feelings: ['lonely', 'useless', 'forgotten'],
    accomplishment: 'I made myself go to the coffee morning on my own, which I would never have done before.',
    hooks: [
      'The only calls I get now are about my car warranty',
      'My {kid.rel} rings on Sundays for ten minutes, always from the car',
    ],
  },
  {
    id: 'romance-proposal-said-no',
    domain: 'romance',
    split: 'benchmark',
    ages: [26, 42],
    people: [
      { key: 'p', relation: { f: 'girlfriend', m: 'boyfriend' } },
      { key: 'sib', relation: { f: 'sister', m: 'brother' } },
    ],
    facts: ['{name} had been with {p} for five years.'],
    event:
      'I proposed to {p} at {p.his} parents\' anniversary dinner, with a ring I had saved for since last year. {p.He} said "can we talk about this later" in front of twenty people. Later {p.he} said {p.he} is "not sure about forever".',
    tried: [
      'I gave {p.him} space for a week.',
      'My {sib.rel} {sib} returned the ring for me because I could not face the shop.',
    ],
    problem: 'We still live together and I do not know if we are together or just waiting to say it.',
    details: ['the ring', 'the anniversary dinner', 'twenty people', '"not sure about forever"', 'the shop'],
    feelings: ['humiliated', 'heartbroken', 'confused'],
    accomplishment: 'I put my heart out there in front of everyone, and then gave {p} the space {p.he} asked for.',
    hooks: [
      'I proposed at an anniversary dinner in front of twenty people and got "can we talk about this later"',
      '"Not sure about forever", after five years and a ring',
    ],
  },
  {
    id: 'friendship-friend-borrowed-dress-ruined',
    domain: 'friendship',
    split: 'benchmark',
    ages: [18, 35],
    people: [{ key: 'f', relation: 'flatmate and friend' }],
    vars: { item: ["my grandmother's ring", 'my good camera', 'the jacket my mum made'] },
    facts: ['{name} and {f} have shared a flat for two years.'],
    event:
      'My flatmate {f} borrowed {$item} without asking for a night out and lost it. {f.He} told me two days later, laughing nervously, and said "it\'s just a thing". It was not just a thing.',
    tried: [
      "I checked the club's lost property and the taxi company.",
      'I told {f} how much it meant to me. {f.He} offered fifty quid.',
    ],
    problem: 'We still share a kitchen and a bathroom, and every time I see {f.him} I feel it again.',
    details: ['{$item}', 'the night out', '"it\'s just a thing"', 'lost property', 'fifty quid'],
    feelings: ['grieving', 'furious', 'disrespected'],
    accomplishment: 'I searched everywhere properly and told {f} calmly what it meant to me.',
    hooks: ['My flatmate lost {$item} and says "it\'s just a thing"', '{f} offered fifty quid for {$item}'],
  },
  {
    id: 'loneliness-new-parent-isolated',
    domain: 'loneliness',
    split: 'benchmark',
    ages: [26, 42],
    people: [
      { key: 'baby', relation: { f: 'baby daughter', m: 'baby son' } },
      { key: 'p', relation: { f: 'partner', m: 'partner' } },
    ],
    facts: ["{name} moved to a new town for the partner's job just before the baby was born."],
    event:
      "We moved here for my partner {p}'s job, and six weeks later {baby} was born. I know nobody. The baby group on Tuesdays is all mums who have known each other since school. I have pushed the pram round the same park for three months.",
    tried: [
      'I went to the baby group four times and said hello to everyone.',
      "I posted in a local parents' page. One person replied with a thumbs up.",
    ],
    problem: '{p} comes home and asks about my day, and there is nothing to tell.',
    details: ['the baby group on Tuesdays', 'the pram', 'the same park', 'three months', 'the thumbs up'],
    feelings: ['isolated', 'invisible', 'bored and guilty'],
    accomplishment: 'I have gone to that baby group four times in a town where I know no one.',
    hooks: [
      'I have pushed the pram round the same park for three months',
      'The Tuesday baby group is all people who have known each other since school',
    ],
  },
];
