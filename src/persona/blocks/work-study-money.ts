/**
 * Scenario templates for the work, study and money domains. Data only (slot grammar in
 * ./types.ts). Training and benchmark templates sit in separate arrays so their disjointness is
 * visible at a glance; a test also checks it by id and by event text.
 */
import type { ScenarioTemplate } from './types.ts';

export const WORK_STUDY_MONEY_TRAIN: ScenarioTemplate[] = [
  {
    id: 'work-credit-taken',
    domain: 'work',
    split: 'train',
    ages: [24, 50],
    occupations: [
      'data analyst',
      'junior consultant',
      'marketing coordinator',
      'financial analyst',
      'operations analyst',
    ],
    people: [{ key: 'boss', relation: 'manager' }],
    vars: { deck: ['the quarterly forecast', 'the client churn model', 'the budget spreadsheet'] },
    facts: ['{name} has been at the company for three years and has never had a promotion.'],
    event:
      'I spent two weekends rebuilding {$deck} from scratch. On Monday my manager {boss} presented it to the directors as {boss.his} own work, and when one of them asked a question {boss.he} looked straight past me and answered it with my numbers.',
    tried: [
      'I sent {boss} a message asking if I could present the next version myself. {boss.He} left me on read.',
      'I mentioned it to a colleague, who just said that is how it works here.',
    ],
    problem:
      "There's a review coming up in three weeks and I don't know whether to raise it or just keep my head down.",
    details: ['{$deck}', 'two weekends', 'the directors meeting', 'my numbers', 'the review in three weeks'],
    feelings: ['invisible', 'angry', 'used'],
    accomplishment: 'I rebuilt {$deck} on my own, in my own time, and it was good enough to impress the directors.',
    hooks: [
      'My manager presented {$deck} to the directors like {boss.he} built it',
      'I spent two weekends on {$deck} and someone else took the credit',
    ],
  },
  {
    id: 'study-group-project',
    domain: 'study',
    split: 'train',
    ages: [18, 24],
    occupations: [
      'second-year biology student',
      'business studies student',
      'engineering undergraduate',
      'nursing student',
    ],
    people: [
      { key: 'mate', relation: 'group project partner' },
      { key: 'tutor', relation: 'tutor' },
    ],
    facts: ['{name} is the first person in the family to go to university.'],
    event:
      'Our group project was due Friday. {mate} promised to do the literature review and sent nothing until Thursday night, so I stayed up until four writing it myself. Then the peer marks came back and {mate} gave me a two out of five for "not communicating".',
    tried: [
      'I emailed {tutor} with the message history. {tutor.He} replied that group dynamics are part of the assessment.',
    ],
    problem: 'The mark counts towards my year and I feel like I got punished for being the one who did the work.',
    details: [
      'the literature review',
      'four in the morning',
      'the peer marks',
      'two out of five',
      'the message history',
    ],
    feelings: ['cheated', 'exhausted', 'bitter'],
    accomplishment: 'I wrote the whole literature review in one night and the project still went in on time.',
    hooks: [
      'I stayed up till four doing the literature review and then got marked down by my own group',
      'The peer marks came back and the person who did nothing gave me two out of five',
    ],
  },
  {
    id: 'money-lent-to-friend',
    domain: 'money',
    split: 'train',
    ages: [22, 45],
    people: [{ key: 'friend', relation: 'old school friend' }],
    vars: { sum: ['£800', '$1,200', '€900'] },
    facts: ['{name} has been saving for a deposit on a flat.'],
    event:
      'Last spring I lent {friend} {$sum} for {friend.his} rent when {friend.he} lost {friend.his} job. {friend.He} promised it back by Christmas. Since then {friend.he} has been on holiday twice and posted photos from a festival, and every time I bring up the money {friend.he} changes the subject.',
    tried: [
      'I sent a friendly text about it in January.',
      'I suggested paying it back in small amounts. {friend.He} said "yeah, definitely" and nothing happened.',
    ],
    problem:
      "My deposit savings are short by exactly that amount and I can't tell if I am about to lose the money, the friend, or both.",
    details: ['{$sum}', 'the festival photos', 'by Christmas', 'the deposit', 'the text in January'],
    feelings: ['taken for granted', 'stupid', 'resentful'],
    accomplishment: 'I helped {friend} keep a roof over {friend.his} head when nobody else would.',
    hooks: [
      'I lent {friend} {$sum} and now {friend.he} is posting festival photos',
      'The {$sum} I lent a friend was supposed to come back by Christmas',
    ],
  },
  {
    id: 'work-passed-over',
    domain: 'work',
    split: 'train',
    ages: [30, 55],
    occupations: [
      'warehouse team leader',
      'senior sales assistant',
      'customer service supervisor',
      'lab technician',
      'site engineer',
    ],
    people: [
      { key: 'boss', relation: 'area manager' },
      { key: 'new', relation: 'colleague' },
    ],
    vars: { years: ['nine years', 'eleven years', 'seven years'] },
    facts: ['{name} has trained most of the people on the team, including {new}.'],
    event:
      'The supervisor job came up and I applied. I have been there {$years} and I trained half the team. It went to {new}, who started eighteen months ago and who I showed how to use the stock system. My area manager {boss} told me I am "too valuable where I am".',
    tried: [
      'I asked {boss} for written feedback on the interview. I got three lines.',
      'I congratulated {new} in front of everyone.',
    ],
    problem:
      'Now I have to take instructions from someone I trained, and I am wondering whether {$years} there meant anything.',
    details: [
      'the supervisor job',
      '{$years}',
      'the stock system',
      '"too valuable where I am"',
      'three lines of feedback',
    ],
    feelings: ['overlooked', 'bitter', 'embarrassed'],
    accomplishment:
      'I trained half the team, {new} included, and I congratulated {new.him} publicly even though it hurt.',
    hooks: [
      'The supervisor job went to someone I trained on the stock system',
      'Got told I am "too valuable where I am", which apparently means no promotion',
    ],
  },
  {
    id: 'work-after-layoffs',
    domain: 'work',
    split: 'train',
    ages: [27, 58],
    occupations: [
      'payroll administrator',
      'IT support technician',
      'account manager',
      'office manager',
      'logistics coordinator',
    ],
    people: [{ key: 'boss', relation: 'director' }],
    facts: ['{name} survived two rounds of redundancies at the company this year.'],
    event:
      'In March they cut six people from our department. I kept my job, and I got the work of two of them on top of mine. I have been logging on at seven and finishing at nine. In the all-hands the director {boss} thanked us for "embracing the new lean structure".',
    tried: [
      'I wrote down every task I now cover and sent the list to {boss}. No reply yet.',
      'I stopped eating lunch at my desk for a week, then gave up.',
    ],
    problem:
      "I feel guilty complaining when I still have a job, but I can't keep this up and I've started getting chest tightness on Sunday nights.",
    details: ['six people', 'logging on at seven', '"the new lean structure"', 'the list of tasks', 'Sunday nights'],
    feelings: ['overwhelmed', 'guilty', 'used up'],
    accomplishment:
      'I have kept three jobs running since March, and I wrote out the whole workload clearly for the director.',
    hooks: [
      'They called it "the new lean structure" and I am doing three jobs now',
      "I've been logging on at seven and off at nine since March",
    ],
  },
  {
    id: 'work-customer-screamed',
    domain: 'work',
    split: 'train',
    ages: [18, 45],
    occupations: [
      'supermarket cashier',
      'call-centre agent',
      'receptionist at a GP surgery',
      'airline check-in agent',
      'bank cashier',
    ],
    people: [
      { key: 'cust', relation: 'customer' },
      { key: 'boss', relation: 'shift manager' },
    ],
    facts: ['{name} has never had a formal complaint in four years on the job.'],
    event:
      'A customer, {cust}, screamed at me for ten minutes on Saturday because of a policy I did not write. {cust.He} called me useless and thick in front of the whole queue. My shift manager {boss} came over, apologised to {cust.him}, gave {cust.him} a voucher and then told me to "smile more" for the rest of the day.',
    tried: [
      'I went to the toilets and cried for five minutes, then came back.',
      'I asked {boss} afterwards why {boss.he} did not back me up. {boss.He} said the customer is always right.',
    ],
    problem: "I'm on shift again tomorrow and my stomach turns every time someone raises their voice.",
    details: ['ten minutes', 'the whole queue', 'the voucher', '"smile more"', 'the policy'],
    feelings: ['humiliated', 'unsupported', 'shaky'],
    accomplishment:
      'I kept my voice level and stayed polite for ten minutes while being shouted at, and finished the shift.',
    hooks: [
      'Got screamed at by a customer in front of the whole queue and my manager gave them a voucher',
      'My manager told me to "smile more" right after a customer called me thick',
    ],
  },
  {
    id: 'work-pricing-mistake',
    domain: 'work',
    split: 'train',
    ages: [23, 50],
    occupations: [
      'e-commerce assistant',
      'marketing executive',
      'procurement officer',
      'junior accountant',
      'events coordinator',
    ],
    people: [
      { key: 'boss', relation: 'manager' },
      { key: 'col', relation: 'colleague' },
    ],
    vars: { loss: ['about four thousand pounds', 'nearly five thousand dollars', 'around three thousand euros'] },
    facts: ['{name} checks work twice and is known at the office for being careful.'],
    event:
      'I put a price in the system with a decimal point in the wrong place. It was live for six hours over the weekend and the company lost {$loss} before anyone noticed. My name is on the change log. {col} had approved it, but nobody mentions that.',
    tried: [
      'I owned up to {boss} first thing Monday, before anyone asked.',
      'I wrote a checklist so it cannot happen again and shared it with the team.',
    ],
    problem: 'There is a meeting with HR on Thursday, and I keep replaying the moment I pressed save.',
    details: ['the decimal point', 'six hours', '{$loss}', 'the change log', 'the meeting with HR', 'the checklist'],
    feelings: ['sick', 'ashamed', 'scared'],
    accomplishment:
      'I owned up first thing on Monday before anyone asked and wrote a checklist so it cannot happen again.',
    hooks: [
      'A decimal point in the wrong place cost the company {$loss}',
      'My name is on the change log for a price mistake that lost {$loss}',
    ],
  },
  {
    id: 'work-micromanaged',
    domain: 'work',
    split: 'train',
    ages: [26, 55],
    occupations: ['software developer', 'copywriter', 'architect', 'customer success manager', 'research assistant'],
    people: [{ key: 'boss', relation: 'new manager' }],
    facts: ['{name} used to love the job and worked mostly alone for years.'],
    event:
      'My new manager {boss} started in January. Now there is an activity tracker on my laptop, a check-in call at nine and another at four, and every email I send to a client has to be copied to {boss.him}. Last week {boss.he} rewrote a report I had done for six years without a single complaint.',
    tried: [
      'I asked for a one-to-one to agree how we work. {boss.He} said it is "just visibility".',
      'I started sending {boss.him} a summary every evening so {boss.he} would back off. It made it worse.',
    ],
    problem: "I feel like I'm on probation after eight years and I've started to doubt things I know how to do.",
    details: [
      'the activity tracker',
      'the nine and four check-ins',
      'copied on every email',
      'the report',
      '"just visibility"',
    ],
    feelings: ['distrusted', 'suffocated', 'deskilled'],
    accomplishment: 'I did that report well for six years and I tried to solve this with {boss} directly and calmly.',
    hooks: [
      'My new manager put an activity tracker on my laptop',
      'I have check-in calls at nine and four now, after eight years in the job',
    ],
  },
  {
    id: 'study-exam-results-parents',
    domain: 'study',
    split: 'train',
    ages: [17, 19],
    occupations: ['sixth-form student', 'final-year secondary school student'],
    people: [
      { key: 'par', relation: { f: 'mother', m: 'father' } },
      { key: 'cousin', relation: { f: 'cousin', m: 'cousin' } },
    ],
    vars: { course: ['medicine', 'law', 'engineering', 'pharmacy'] },
    facts: ['{name} has wanted to make the family proud for as long as anyone can remember.'],
    event:
      "Results came out yesterday. I missed the grades for {$course} by one grade in chemistry. My {par.rel} {par} did not say anything in the car, then at dinner mentioned that my cousin {cousin} got straight A's two years ago.",
    tried: [
      'I called the university admissions line three times. The place has gone.',
      'I looked up clearing options at two in the morning.',
    ],
    problem:
      "Everyone keeps asking what I'm going to do now, and I genuinely don't know if I even wanted {$course} or just wanted them to stop worrying.",
    details: [
      'one grade in chemistry',
      '{$course}',
      'the silent car ride',
      "my cousin's straight A's",
      'clearing',
      'the admissions line',
    ],
    feelings: ['crushed', 'a disappointment', 'lost'],
    accomplishment:
      'I got up the same day and phoned the admissions line myself three times and started looking at options.',
    hooks: ['Missed {$course} by one grade in chemistry', 'Results day, and the car ride home was silent'],
  },
  {
    id: 'study-supervisor-ghosting',
    domain: 'study',
    split: 'train',
    ages: [23, 35],
    occupations: [
      'PhD student in chemistry',
      "master's student in history",
      'PhD student in economics',
      'doctoral researcher in linguistics',
    ],
    people: [
      { key: 'sup', relation: 'supervisor' },
      { key: 'p', relation: { f: 'partner', m: 'partner' } },
    ],
    facts: ['{name} is in the third year of a four-year funded research degree.'],
    event:
      'I sent my supervisor {sup} the draft of my second chapter eleven weeks ago. Eighty pages. No reply, except a one-line email saying "will read soon". Meanwhile {sup.he} posts on social media about conferences.',
    tried: [
      'I sent two polite reminders.',
      'I went to the department office to book a meeting. The diary is "managed by the professor".',
    ],
    problem:
      'My funding runs out in fourteen months and I cannot write chapter three until I know if chapter two is even right.',
    details: ['the second chapter', 'eleven weeks', 'eighty pages', '"will read soon"', 'fourteen months of funding'],
    feelings: ['stuck', 'ignored', 'panicky'],
    accomplishment: 'I wrote an eighty-page chapter on my own, on time, and chased it politely.',
    hooks: [
      'Sent my supervisor eighty pages eleven weeks ago and got "will read soon"',
      'My funding runs out in fourteen months and my chapter two is sitting unread',
    ],
  },
  {
    id: 'study-plagiarism-flag',
    domain: 'study',
    split: 'train',
    ages: [18, 26],
    occupations: ['first-year law student', 'psychology undergraduate', 'history student', 'computer science student'],
    people: [
      { key: 'lec', relation: 'module lecturer' },
      { key: 'flat', relation: 'flatmate' },
    ],
    facts: ['{name} works twenty hours a week at a café alongside the degree.'],
    event:
      'My essay got flagged by the plagiarism software at 38 percent. Most of it is the quotes and the reference list, which I formatted the way we were told. The email from {lec} said I\'m invited to an "academic integrity hearing" and I can bring a friend.',
    tried: [
      'I went through the report line by line and highlighted every match.',
      'My flatmate {flat} read it and said it was obviously fine, which did not help.',
    ],
    problem: 'The hearing is in nine days, and I keep imagining being thrown out and having to tell my family.',
    details: [
      '38 percent',
      'the reference list',
      'the academic integrity hearing',
      'nine days',
      'the highlighted report',
    ],
    feelings: ['accused', 'terrified', 'indignant'],
    accomplishment: 'I went through the entire report line by line and documented every match before the hearing.',
    hooks: [
      'My essay got flagged at 38 percent and most of it is the reference list',
      'I have an "academic integrity hearing" in nine days',
    ],
  },
  {
    id: 'study-thinking-of-dropping-out',
    domain: 'study',
    split: 'train',
    ages: [18, 24],
    occupations: [
      'second-year architecture student',
      'first-year engineering student',
      'second-year accounting student',
    ],
    people: [
      { key: 'par', relation: { f: 'mum', m: 'dad' } },
      { key: 'friend', relation: 'friend from home' },
    ],
    facts: ['{name} has a student loan and a part-time job at a supermarket.'],
    event:
      'I am a year and a half into the course and I hate it. I sit in lectures and feel nothing. My friend {friend} is doing an apprenticeship back home, earning money and happy. My {par.rel} {par} took out a loan to help with my rent.',
    tried: [
      'I went to the careers service, who gave me a quiz.',
      'I made a list of pros and cons. It is two pages long and says nothing.',
    ],
    problem:
      'If I leave, the money my {par.rel} borrowed is wasted. If I stay, I have two and a half more years of this.',
    details: [
      'a year and a half',
      'the lectures',
      'the careers quiz',
      'the apprenticeship',
      'the loan',
      'the pros and cons list',
    ],
    feelings: ['trapped', 'guilty', 'numb'],
    accomplishment: 'I have kept my grades up and worked a part-time job, while knowing the course is wrong for me.',
    hooks: [
      "I'm a year and a half into the course and I feel nothing in lectures",
      'The careers service gave me a quiz',
    ],
  },
  {
    id: 'study-adult-night-class',
    domain: 'study',
    split: 'train',
    ages: [35, 60],
    people: [
      { key: 'teach', relation: 'evening class teacher' },
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
    ],
    vars: { subject: ['maths GCSE', 'English qualification', 'bookkeeping certificate'] },
    facts: ['{name} left school at sixteen without qualifications.'],
    event:
      'I left school at sixteen. This year I signed up for an evening class to get my {$subject}. Last week the teacher {teach} handed back the mock with a big red 41 on it and said, in front of the class, that some of us "might want to be realistic".',
    tried: [
      'I have been doing the workbook on my lunch breaks.',
      'My {kid.rel} {kid} tried to help me with the homework, and I ended up snapping at {kid.him}.',
    ],
    problem: 'The real exam is in May and part of me wants to quietly stop going.',
    details: ['the mock', 'a big red 41', '"be realistic"', 'the workbook', 'my lunch breaks', 'May'],
    feelings: ['stupid', 'exposed', 'determined'],
    accomplishment: 'I went back to studying after thirty years and have been doing the workbook every lunch break.',
    hooks: ['Got my mock back with a big red 41 on it', 'My evening class teacher told us to "be realistic"'],
  },
  {
    id: 'money-car-broke-down',
    domain: 'money',
    split: 'train',
    ages: [22, 55],
    occupations: ['home care worker', 'delivery driver', 'mobile hairdresser', 'community nurse', 'electrician'],
    people: [
      { key: 'mech', relation: 'mechanic' },
      { key: 'boss', relation: 'manager' },
    ],
    vars: { bill: ['£1,400', '$1,900', '€1,600'] },
    facts: ['{name} needs the car to get to work; there is no bus that goes there early enough.'],
    event:
      'The car died on the ring road on Tuesday. The mechanic {mech} says it is the gearbox: {$bill}. I have about three hundred in the bank until payday. Without the car I cannot get to work, and without work I cannot pay for the car.',
    tried: [
      'I got two other quotes. Both higher.',
      'I asked {boss} for an advance on my wages. {boss.He} said the company does not do that.',
    ],
    problem:
      "I've been getting lifts from a colleague but that ends next week, and I can't see a way out that doesn't involve a payday loan.",
    details: [
      'the gearbox',
      '{$bill}',
      'the ring road',
      'about three hundred in the bank',
      'the lifts',
      'a payday loan',
    ],
    feelings: ['trapped', 'panicked', 'ashamed'],
    accomplishment: 'I got three quotes, asked for help at work and kept getting to every shift with borrowed lifts.',
    hooks: [
      'The car died on the ring road and the gearbox is {$bill}',
      'I need {$bill} for a gearbox and have about three hundred in the bank',
    ],
  },
  {
    id: 'money-partner-spending',
    domain: 'money',
    split: 'train',
    ages: [25, 50],
    people: [{ key: 'p', relation: { f: 'girlfriend', m: 'boyfriend' } }],
    facts: ['{name} and {p} moved in together last year and share a joint account for bills.'],
    event:
      'We agreed to save for a wedding. I checked the joint account and {p} has spent six hundred this month on trainers, takeaways and a new games console. When I asked, {p.he} said I was "being like my mother" and that {p.he} earns it too.',
    tried: [
      'I made a budget spreadsheet and we both agreed to it in January.',
      'I suggested separate fun money each month. {p.He} said that was controlling.',
    ],
    problem: 'I feel like the only grown-up in the relationship and I am starting to resent every parcel that arrives.',
    details: [
      'the joint account',
      'six hundred',
      'the games console',
      '"being like my mother"',
      'the budget spreadsheet',
      'every parcel',
    ],
    feelings: ['resentful', 'lonely', 'unheard'],
    accomplishment: 'I built us a realistic budget and kept to my half of it every month.',
    hooks: [
      'My {p.rel} spent six hundred from the joint account this month, mostly on a games console',
      'Apparently checking the joint account is "being like my mother"',
    ],
  },
  {
    id: 'money-online-scam',
    domain: 'money',
    split: 'train',
    ages: [45, 80],
    people: [
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
      { key: 'bank', relation: 'bank fraud officer' },
    ],
    vars: { lost: ['£2,300', '$2,900', '€2,500'] },
    facts: ['{name} has always been careful with money.'],
    event:
      'I got a text saying it was the bank, about a suspicious payment. They knew my name and my last transaction. I moved {$lost} to a "safe account" while on the phone with them. When I rang my actual bank afterwards, the fraud officer {bank} said it had gone.',
    tried: [
      'I reported it to the bank and to the police that same afternoon.',
      "I changed every password with my {kid.rel} {kid}'s help.",
    ],
    problem:
      'My {kid.rel} keeps saying "how could you fall for that", and I feel old and stupid in a way I never have.',
    details: [
      'the text from "the bank"',
      'the "safe account"',
      '{$lost}',
      'the police report',
      '"how could you fall for that"',
    ],
    feelings: ['stupid', 'violated', 'old'],
    accomplishment: 'I reported it to the bank and the police within hours and did everything right afterwards.',
    hooks: [
      'I moved {$lost} to a "safe account" and it was a scam',
      'My {kid.rel} keeps asking how I could fall for a text from "the bank"',
    ],
  },
  {
    id: 'money-school-trip',
    domain: 'money',
    split: 'train',
    ages: [28, 48],
    people: [
      { key: 'kid', relation: { f: 'daughter', m: 'son' } },
      { key: 'ex', relation: { f: 'ex-wife', m: 'ex-husband' } },
    ],
    vars: { cost: ['£450', '$600', '€500'], trip: ['a ski trip', 'a week in France', 'an outdoor activity week'] },
    facts: ['{name} raises {kid} mostly alone and works two jobs.'],
    event:
      'The school sent a letter about {$trip} for {$cost}. Everyone in my {kid.rel} {kid}\'s class is going. I cannot afford it. {kid} said "it\'s fine" and went up to {kid.his} room, and I heard {kid.him} crying through the floor.',
    tried: [
      'I asked {ex} to split it. {ex.He} said {ex.he} already pays enough.',
      'I looked at the payment plan, which still needs the first two hundred next week.',
    ],
    problem: 'The deposit is due on Monday and I feel like I am failing {kid} in front of all the other parents.',
    details: ['{$trip}', '{$cost}', 'the letter', '"it\'s fine"', 'crying through the floor', 'the payment plan'],
    feelings: ['ashamed', 'heartbroken', 'angry'],
    accomplishment: 'I work two jobs and keep {kid} fed, clothed and happy nearly all the time, mostly on my own.',
    hooks: [
      'The school wants {$cost} for {$trip} and I heard my {kid.rel} crying through the floor',
      'The deposit for {$trip} is due Monday',
    ],
  },
  {
    id: 'money-rent-rise',
    domain: 'money',
    split: 'train',
    ages: [22, 40],
    people: [
      { key: 'agent', relation: 'letting agent' },
      { key: 'flat', relation: 'flatmate' },
    ],
    vars: { rise: ['£180 a month', '$250 a month', '€200 a month'] },
    facts: ['{name} shares a flat and has lived there three years.'],
    event:
      'The letting agent {agent} emailed: rent goes up by {$rise} from next month. My flatmate {flat} can afford it and just said "ugh, annoying". I already skip lunches and walk to work to save the bus fare.',
    tried: [
      'I asked {agent} if the rise could be phased. The answer was a flat no.',
      'I started a weekend job at a garden centre.',
    ],
    problem: 'Even with the weekend job I am about sixty short every month, and I am tired all the time.',
    details: ['{$rise}', '"ugh, annoying"', 'the bus fare', 'skipped lunches', 'the garden centre', 'sixty short'],
    feelings: ['exhausted', 'squeezed', 'envious'],
    accomplishment:
      'I took on a weekend job straight away and cut everything I could, without asking anyone for money.',
    hooks: [
      'My rent is going up {$rise} and I already skip lunches',
      'Even with a weekend job at the garden centre I am about sixty short',
    ],
  },
];

export const WORK_STUDY_MONEY_BENCHMARK: ScenarioTemplate[] = [
  {
    id: 'work-night-shift-blamed',
    domain: 'work',
    split: 'benchmark',
    ages: [23, 55],
    occupations: ['nurse on a medical ward', 'care assistant in a nursing home', 'night porter at a hospital'],
    people: [
      { key: 'lead', relation: 'charge nurse' },
      { key: 'col', relation: 'colleague on the day shift' },
    ],
    facts: ['{name} has done nights for four years.'],
    event:
      'On the night shift last week a patient had a fall and the incident form came out with my name on it. I was on break, and {col} was covering my bay. {lead} called me in the next morning and talked to me like I had been asleep in the staff room.',
    tried: [
      'I explained the timings to {lead}, and {lead.he} said {lead.he} would "look into it".',
      'I asked {col} to back me up and {col.he} went quiet.',
    ],
    problem: 'Now I feel watched every shift, and I dread going in on Thursday.',
    details: ['the night shift', 'the incident form', 'my break', 'the staff room', 'Thursday'],
    feelings: ['blamed', 'humiliated', 'anxious'],
    accomplishment: 'I wrote a calm, exact account of the timings the same morning instead of losing my temper.',
    hooks: [
      'There was a fall on the night shift and somehow the incident form has my name on it',
      'I got pulled in about an incident form from the night shift and I was on my break',
    ],
  },
  {
    id: 'study-failed-driving-theory',
    domain: 'study',
    split: 'benchmark',
    ages: [17, 30],
    people: [
      { key: 'dad', relation: { f: 'mum', m: 'dad' } },
      { key: 'sib', relation: { f: 'younger sister', m: 'younger brother' } },
    ],
    facts: ['{name} needs a licence for a job offer that starts in spring.'],
    event:
      'I failed my driving theory test for the third time, by two marks. My {sib.rel} {sib} passed first go last month, and at dinner my {dad.rel} joked that maybe I should just buy a bus pass.',
    tried: [
      'I did the practice app every evening for a month.',
      'I booked the next test straight away, but the earliest slot is in seven weeks.',
    ],
    problem: 'The job in spring needs the licence, and I am starting to believe I am just not clever enough for this.',
    details: ['the theory test', 'two marks', 'the bus pass joke', 'the practice app', 'seven weeks'],
    feelings: ['ashamed', 'stupid', 'stung'],
    accomplishment:
      'I kept going back and practising every evening after work, three attempts in, instead of giving up.',
    hooks: [
      'Failed my driving theory again, by two marks',
      'Third time failing the theory test, and my {dad.rel} made a bus pass joke at dinner',
    ],
  },
  {
    id: 'money-overdraft-secret',
    domain: 'money',
    split: 'benchmark',
    ages: [26, 55],
    people: [{ key: 'partner', relation: { f: 'wife', m: 'husband' } }],
    vars: { debt: ['£3,000', '$4,500', '€3,800'] },
    facts: ['{name} handles the household bills.'],
    event:
      'Over the last year I let my credit card creep up to {$debt}, mostly on small things: takeaways, birthday presents, the car repair. I handle the bills, so my {partner.rel} {partner} has no idea. This week the bank letter came while {partner.he} was home.',
    tried: [
      'I moved some money from savings to cover the minimum payment.',
      'I made a spreadsheet of every payment and cut the streaming subscriptions.',
    ],
    problem:
      '{partner} asked what the letter was and I said it was junk mail. Now I have lied on top of everything else.',
    details: ['{$debt}', 'the bank letter', 'the car repair', 'the minimum payment', 'the spreadsheet', 'junk mail'],
    feelings: ['ashamed', 'trapped', 'scared'],
    accomplishment: 'I sat down and wrote out every payment in a spreadsheet and already cut what I could.',
    hooks: [
      'The bank letter about my credit card came while my {partner.rel} was home',
      'My card is at {$debt} and I just told my {partner.rel} the bank letter was junk mail',
    ],
  },
  {
    id: 'work-role-made-redundant-offer',
    domain: 'work',
    split: 'benchmark',
    ages: [40, 62],
    occupations: [
      'regional sales manager',
      'print shop supervisor',
      'branch manager at a bank',
      'newspaper sub-editor',
    ],
    people: [
      { key: 'hr', relation: 'HR partner' },
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
    ],
    facts: ['{name} has worked for the same firm for twenty-two years.'],
    event:
      'I was called into a fifteen-minute video meeting with {hr} from HR and told my role "no longer exists". I can take a junior job in the new structure at a lower grade, or a payout. Twenty-two years. My camera was on, and I could see my own face while {hr.he} read from a script.',
    tried: [
      'I asked for the decision in writing and got the paperwork the same day.',
      'I went through the numbers with my {p.rel} {p} at the kitchen table until one in the morning.',
    ],
    problem: 'I have to decide by Friday and both options feel like losing.',
    details: [
      'the fifteen-minute video meeting',
      '"no longer exists"',
      'the script',
      'twenty-two years',
      'the lower grade',
      'Friday',
    ],
    feelings: ['discarded', 'shocked', 'proud and hurt'],
    accomplishment:
      'I stayed composed on the call, got everything in writing the same day and worked through the numbers properly.',
    hooks: [
      'Twenty-two years and my job "no longer exists", read off a script on a video call',
      'I have till Friday to pick between a lower grade and a payout',
    ],
  },
  {
    id: 'study-language-exam-visa',
    domain: 'study',
    split: 'benchmark',
    ages: [24, 45],
    occupations: ['care assistant', 'kitchen porter', 'warehouse operative', 'cleaner at a hotel'],
    people: [
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
      { key: 'teach', relation: 'language tutor' },
    ],
    facts: [
      '{name} qualified as a nurse in the home country and is working another job while the paperwork goes through.',
    ],
    event:
      'I need a language certificate to get my nursing registration here. I took the exam in June and got 6.5 on writing. I needed 7. The rest was fine. It costs a lot every time, and my {p.rel} {p} works extra shifts so I can take it again.',
    tried: [
      'I paid for ten lessons with a tutor, {teach}.',
      'I write an essay every night after work and get it corrected.',
    ],
    problem: 'The next date is in six weeks and if I miss it again I may have to give up nursing here.',
    details: ['6.5 on writing', 'the nursing registration', 'the exam in June', 'the essay every night', 'six weeks'],
    feelings: ['frustrated', 'indebted', 'stuck'],
    accomplishment: 'I passed everything except one section, in my second language, while working full time.',
    hooks: [
      'Half a point short on the writing, again',
      'I got 6.5 on writing and needed 7 for my nursing registration',
    ],
  },
  {
    id: 'money-cafe-failing',
    domain: 'money',
    split: 'benchmark',
    ages: [30, 60],
    occupations: ['café owner', 'owner of a small bakery', 'owner of a bike repair shop'],
    people: [
      { key: 'p', relation: { f: 'wife', m: 'husband' } },
      { key: 'bank', relation: 'business adviser at the bank' },
    ],
    facts: ['{name} opened the business four years ago with savings and a small loan.'],
    event:
      'I opened my place four years ago. Since energy bills went up, I have been paying the staff before myself. Last month I took nothing home. The business adviser {bank} looked at my accounts and said, kindly, that I should "think about an exit plan".',
    tried: [
      'I cut the opening hours on Mondays and changed suppliers.',
      'I started a loyalty card, which the regulars love.',
    ],
    problem: 'My {p.rel} {p} thinks I should close by summer. Closing feels like admitting four years were a mistake.',
    details: ['the energy bills', 'the loyalty card', 'took nothing home', '"an exit plan"', 'Mondays', 'four years'],
    feelings: ['defeated', 'stubborn', 'scared'],
    accomplishment:
      'I kept the place open through the energy crisis and paid every member of staff on time, every month.',
    hooks: [
      'The bank adviser told me to "think about an exit plan" for my business',
      'Last month I took nothing home so the staff could be paid',
    ],
  },
];
