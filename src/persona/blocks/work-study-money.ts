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
    occupations: ['data analyst', 'junior consultant', 'marketing coordinator', 'financial analyst', 'operations analyst'],
    people: [{ key: 'boss', relation: 'manager' }],
    vars: { deck: ['the quarterly forecast', 'the client churn model', 'the budget spreadsheet'] },
    facts: ['{name} has been at the company for three years and has never had a promotion.'],
    event:
      'I spent two weekends rebuilding {$deck} from scratch. On Monday my manager {boss} presented it to the directors as {boss.his} own work, and when one of them asked a question {boss.he} looked straight past me and answered it with my numbers.',
    tried: ['I sent {boss} a message asking if I could present the next version myself. {boss.He} left me on read.', 'I mentioned it to a colleague, who just said that is how it works here.'],
    problem: "There's a review coming up in three weeks and I don't know whether to raise it or just keep my head down.",
    details: ['{$deck}', 'two weekends', 'the directors meeting', 'my numbers', 'the review in three weeks'],
    feelings: ['invisible', 'angry', 'used'],
    accomplishment: 'I rebuilt {$deck} on my own, in my own time, and it was good enough to impress the directors.',
    hooks: ['My manager presented {$deck} to the directors like {boss.he} built it', 'I spent two weekends on {$deck} and someone else took the credit'],
  },
  {
    id: 'study-group-project',
    domain: 'study',
    split: 'train',
    ages: [18, 24],
    occupations: ['second-year biology student', 'business studies student', 'engineering undergraduate', 'nursing student'],
    people: [{ key: 'mate', relation: 'group project partner' }, { key: 'tutor', relation: 'tutor' }],
    facts: ['{name} is the first person in the family to go to university.'],
    event:
      'Our group project was due Friday. {mate} promised to do the literature review and sent nothing until Thursday night, so I stayed up until four writing it myself. Then the peer marks came back and {mate} gave me a two out of five for "not communicating".',
    tried: ['I emailed {tutor} with the message history. {tutor.He} replied that group dynamics are part of the assessment.'],
    problem: 'The mark counts towards my year and I feel like I got punished for being the one who did the work.',
    details: ['the literature review', 'four in the morning', 'the peer marks', 'two out of five', 'the message history'],
    feelings: ['cheated', 'exhausted', 'bitter'],
    accomplishment: 'I wrote the whole literature review in one night and the project still went in on time.',
    hooks: ['I stayed up till four doing the literature review and then got marked down by my own group', 'The peer marks came back and the person who did nothing gave me two out of five'],
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
    tried: ['I sent a friendly text about it in January.', 'I suggested paying it back in small amounts. {friend.He} said "yeah, definitely" and nothing happened.'],
    problem: 'My deposit savings are short by exactly that amount and I can\'t tell if I am about to lose the money, the friend, or both.',
    details: ['{$sum}', 'the festival photos', 'by Christmas', 'the deposit', 'the text in January'],
    feelings: ['taken for granted', 'stupid', 'resentful'],
    accomplishment: 'I helped {friend} keep a roof over {friend.his} head when nobody else would.',
    hooks: ['I lent {friend} {$sum} and now {friend.he} is posting festival photos', 'The {$sum} I lent a friend was supposed to come back by Christmas'],
  },
];

export const WORK_STUDY_MONEY_BENCHMARK: ScenarioTemplate[] = [
  {
    id: 'work-night-shift-blamed',
    domain: 'work',
    split: 'benchmark',
    ages: [23, 55],
    occupations: ['nurse on a medical ward', 'care assistant in a nursing home', 'night porter at a hospital'],
    people: [{ key: 'lead', relation: 'charge nurse' }, { key: 'col', relation: 'colleague on the day shift' }],
    facts: ['{name} has done nights for four years.'],
    event:
      'On the night shift last week a patient had a fall and the incident form came out with my name on it. I was on break, and {col} was covering my bay. {lead} called me in the next morning and talked to me like I had been asleep in the staff room.',
    tried: ['I explained the timings to {lead}, and {lead.he} said {lead.he} would "look into it".', 'I asked {col} to back me up and {col.he} went quiet.'],
    problem: 'Now I feel watched every shift, and I dread going in on Thursday.',
    details: ['the night shift', 'the incident form', 'my break', 'the staff room', 'Thursday'],
    feelings: ['blamed', 'humiliated', 'anxious'],
    accomplishment: 'I wrote a calm, exact account of the timings the same morning instead of losing my temper.',
    hooks: ['There was a fall on the night shift and somehow the incident form has my name on it', 'I got pulled in about an incident form from the night shift and I was on my break'],
  },
  {
    id: 'study-failed-driving-theory',
    domain: 'study',
    split: 'benchmark',
    ages: [17, 30],
    people: [{ key: 'dad', relation: { f: 'mum', m: 'dad' } }, { key: 'sib', relation: { f: 'younger sister', m: 'younger brother' } }],
    facts: ['{name} needs a licence for a job offer that starts in spring.'],
    event:
      'I failed my driving theory test for the third time, by two marks. My {sib.rel} {sib} passed first go last month, and at dinner my {dad.rel} joked that maybe I should just buy a bus pass.',
    tried: ['I did the practice app every evening for a month.', 'I booked the next test straight away, but the earliest slot is in seven weeks.'],
    problem: 'The job in spring needs the licence, and I am starting to believe I am just not clever enough for this.',
    details: ['the theory test', 'two marks', 'the bus pass joke', 'the practice app', 'seven weeks'],
    feelings: ['ashamed', 'stupid', 'stung'],
    accomplishment: 'I kept going back and practising every evening after work, three attempts in, instead of giving up.',
    hooks: ['Failed my driving theory again, by two marks', 'Third time failing the theory test, and my {dad.rel} made a bus pass joke at dinner'],
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
    tried: ['I moved some money from savings to cover the minimum payment.', 'I made a spreadsheet of every payment and cut the streaming subscriptions.'],
    problem: '{partner} asked what the letter was and I said it was junk mail. Now I have lied on top of everything else.',
    details: ['{$debt}', 'the bank letter', 'the car repair', 'the minimum payment', 'the spreadsheet', 'junk mail'],
    feelings: ['ashamed', 'trapped', 'scared'],
    accomplishment: 'I sat down and wrote out every payment in a spreadsheet and already cut what I could.',
    hooks: ['The bank letter about my credit card came while my {partner.rel} was home', 'My card is at {$debt} and I just told my {partner.rel} the bank letter was junk mail'],
  },
];
