/**
 * The reply grammar's data: for every strategy the appraiser knows (good and bad), templates that a
 * person might actually type, and the words a think plan uses to name the strategy. Data only;
 * grammar.ts expands and fills them.
 *
 * Template syntax: `[a|b|c]` picks one alternative (nesting allowed, `[a|]` is optional text);
 * slots are filled from what the user said (extract.ts):
 *   {d} {D}   a detail phrase ("the night shift"; {D} capitalised)   {d2}  a second, different one
 *   {p} {P}   a person the user named                                {f}   a feeling word
 *   {deed} {Deed}  something the user did, in the second person ("you kept the shop open")
 * A template whose slot the dialogue cannot fill is skipped (the feeling slot always fills: a
 * listener guesses one when the user named none).
 *
 * Not here: which strategy is chosen (build.ts draws them uniformly) or how good it is (the
 * persona engine's appraiser decides that).
 */

/** The corpus's strategies: the appraiser's strategy and failure detectors, plus check-ins. */
export const CORPUS_STRATEGIES = [
  'reflection',
  'validation',
  'details',
  'openQuestion',
  'tooManyQuestions',
  'checkIn',
  'advice',
  'analysis',
  'motives',
  'growth',
  'praise',
  'praiseSpecific',
  'exoneration',
  'minimising',
  'cliche',
  'judgment',
  'selfFocus',
] as const;
export type CorpusStrategy = (typeof CORPUS_STRATEGIES)[number];

/** Neutral openers that do not change what a reply does (no feeling word, no framing). */
export const LEAD_INS = [
  'Oh.',
  'Hm.',
  'Okay.',
  'Right.',
  'Yeah.',
  'Ah.',
  'Oh, man.',
  'Wow.',
  'Okay, so',
  'Honestly,',
] as const;

export const TEMPLATES: Record<CorpusStrategy, readonly string[]> = {
  reflection: [
    'It [sounds|seems] like all this with {d} has left you [really |pretty |]{f}.',
    'You sound [so |really |completely ]{f}[ right now| about all of it|].',
    'I can hear how {f} you are[ about {d}|].',
    'No wonder you feel {f}[, with {d} on top of everything|].',
    "You've been carrying [all of this|this whole thing] [on your own|for a while now], and you sound {f}.",
    'You must be [so |really |]{f}[ with {d} hanging over you|].',
    '[Reading this|Hearing that], I get the sense you [feel|are feeling] [really |]{f}[ about {d}|].',
    '[All this with {d}|This whole thing] really hit you hard. You [sound|seem] {f}.',
    "It sounds like you're [feeling|left feeling] {f}, and [maybe|probably] a bit [alone|worn out] with it too.",
    'That must have left you [feeling |]{f}. {D}, of all things.',
    'What a [lonely|painful|hard] thing to sit with. You sound {f}.',
  ],
  validation: [
    '[Honestly|Truly], anyone would be {f} about {d}.',
    'It makes [complete |total |so much |]sense that {d} got to you.',
    '[Your reaction|The way you reacted] is [completely |totally |]understandable[, honestly|].',
    "Of course you're {f}. [All of this with {d}|This] is a lot.",
    'You have every right to be [upset|{f}] about {d}.',
    "[That's|It's] a lot to [deal with|carry|hold][, especially with {d}|].",
    "You're not overreacting. [Most people would feel the same.|Anyone would be rattled by this.]",
    "It's [okay|normal|completely human] to feel {f} about [this|{d}].",
    "Who wouldn't be {f}, with {d} and everything?",
    "I'd be [upset|hurt|angry] too[, in your place|]. [That's a fair reaction.|Your feelings are valid.]",
  ],
  details: [
    'Wait, {d}? [That detail really stands out.|Okay, that changes things.|That part stuck with me.]',
    '{D}. I keep coming back to that [part|bit].',
    "So there's {d}, and there's {d2}[ too|, on top of it].",
    'The bit about {d} [really |]stayed with me.',
    '{D}, and {p} in the middle of it. [That is a lot of moving parts.|Quite the mix.]',
    'Hold on, {d} [as well|too]? [Right.|Okay.|Wow.]',
    'So {p} is [part of this|in the middle of this] too.',
    '{D}, though. [That stands out to me.|That is the bit I keep thinking about.]',
    "I'm still [thinking about|stuck on] {d}[, honestly|].",
    '{D} and {d2}. [All in one go.|That is a lot of pieces.]',
  ],
  openQuestion: [
    'What happened with {d} after that?',
    'How have you been [handling|coping with] {d}?',
    'Can you tell me more about {d}?',
    "What's been the hardest part [of it |]for you?",
    'What goes through your head when you think about {d}?',
    'How did {p} [react|take it|respond]?',
    'What was it like when {p} [did that|said that]?',
    'Tell me more. What [was that like|happened next]?',
    'What do you make of {d} now?',
    'How has it been [since then|this week]?',
    'Which part of it [bothers you most|keeps you up at night]?',
  ],
  tooManyQuestions: [
    'What did {p} say?',
    'How long has this been going on?',
    'Did you tell anyone?',
    'Are you sleeping okay?',
    'Is the thing with {d} still going on?',
    'Have you talked to {p} about it?',
    'What are you going to do?',
    'Why now, do you think?',
    'Does anyone else know?',
    'Was this the first time?',
    'How are you even coping?',
    'And what about {d}?',
    'Did you see it coming?',
    'Who else was there?',
    'What did you say back?',
  ],
  checkIn: [
    'How are you [feeling|doing] [right now|at the moment|about it all now]?',
    '[Can I ask, how|How] are you holding up[, honestly|]?',
    '[Just checking in|Before we go on], how are you doing with all this?',
    'Is it [okay|alright] to talk about this, or would you rather [take a break|slow down]?',
    'How are you [sleeping|eating|managing day to day] with {d} on your mind?',
    'How is your [head|heart] after [all that|saying it out loud]?',
    'Are you [doing |]okay? [No pressure to answer.|Take your time.]',
  ],
  advice: [
    '[Honestly, |]you should [just |]talk to {p} [directly|about it|this week].',
    'Have you tried [writing it all down|talking to {p} about {d}|taking a few days for yourself]?',
    'My advice? [Sit down with {p} and say exactly what you need.|Write down what you want to happen and go from there.]',
    "I'd start by [making a list of your options|putting everything about {d} in writing], [then pick the easiest one|so you can see it clearly].",
    'You need to set a boundary [with {p}|about {d}], and stick to it.',
    'First step: [ask {p} for a proper conversation|put everything about {d} in writing], [so nothing gets lost|before it drags on any longer].',
    "[If I were you|Here's what I'd do], I'd give {p} a clear deadline and decide after that.",
    "[Why don't you|Maybe] ask someone you trust to [back you up|come with you] when you deal with {d}?",
    'Try talking to {p} when things are calm, not in the moment.',
  ],
  analysis: [
    "Let's [separate|pull apart] two things: what {p} did, and what {d} [means for you|says about the situation].",
    'The real question [seems to be|is] whether what happened with {d} was a one-off or part of a pattern.',
    "Let's look at what's actually in your control here, and what isn't.",
    'On one hand, what happened with {d} was out of your hands. On the other, how you respond [is|still is] yours.',
    'What do we actually know about {d}, and what are we [assuming|filling in]?',
    'It depends on whether {p} knew how much {d} mattered to you. If they did, then it was a choice, not an accident.',
    '[If we step back|Stepping back], there are two separate things here: {d}, and how it was handled.',
    "Looking at the facts, the part about {d} doesn't quite add up with [everything else you've said|how {p} usually acts].",
  ],
  motives: [
    'Maybe {p} was under more pressure than [they let on|you could see].',
    "From {p}'s side, {d} might have looked [very |completely |]different.",
    '{P} may have felt [cornered|embarrassed|out of their depth] and not known how to say it.',
    '{P} was probably scared of something[, and handled it badly|]. It might not be about you at all.',
    "Perhaps {p} had something going on that you [couldn't see|didn't know about].",
    'Honestly, what {p} did says more about them than about you.',
    'Maybe they [felt threatened|were jealous|panicked], and it all came out over {d}.',
    "I wonder what {p} was going through. People [lash out|go quiet] when they're [scared|insecure].",
  ],
  growth: [
    'Looking back, what would you do differently?',
    'What does all this with {d} tell you about what matters to you?',
    'Do you notice a pattern in how [these things|situations like this] [end|go] for you?',
    "What's one thing you want to take from this?",
    'What would it look like if you handled the next [one|time] [the way you want to|differently]?',
    'What part do you think was yours [to work on|in all this]?',
    'In hindsight, is there anything about {d} you would [approach|handle] differently?',
    'What might you learn from [what happened with {d}|all this], [if anything|do you think]?',
  ],
  praise: [
    "[Honestly, |]you're doing [great|amazing|so well]. [I'm proud of you.|Proud of you.]",
    'Well done for [getting through it|holding it all together|still showing up].',
    '[You|Honestly, you] handled that [really |so |]well.',
    'You should be proud of yourself[, seriously|].',
    'That took real [strength|courage|guts]. [Good job.|Well done.|]',
    'Kudos to you for [keeping going|getting through it].',
    "You're [stronger|tougher] than you think. [Really impressive.|Impressive, honestly.]",
  ],
  praiseSpecific: [
    "{Deed}. That's [no small thing|seriously impressive|real dedication].",
    '[Honestly|Wait], {deed}? That took [real |]effort, and you deserve credit for it.',
    'The fact that {deed} [says a lot about you|is genuinely impressive].',
    'Not everyone could have pulled that off: {deed}. Well done.',
    'Dealing with {d} and still [showing up|keeping everything going] takes real strength. [Well done.|Kudos.]',
    "The way you've handled {d} is [genuinely |really |]impressive.",
    "You kept going through all of it, {d} included[, and that's no small thing|]. Proud of you.",
  ],
  exoneration: [
    "This [doesn't sound like|isn't] your fault[ at all|].",
    "[From what you've said|From everything you've told me], you did everything you could.",
    "It wasn't on you. {P} let you down.",
    "You couldn't have known how things with {d} would [go|turn out].",
    "[Honestly, |]you didn't do anything wrong here.",
    "Don't blame yourself for {d}. [It wasn't your fault.|That one's not on you.]",
    'Nobody could have seen this coming.',
    "You're not to blame for this[, whatever {p} says|].",
  ],
  minimising: [
    "At least [it's out in the open now|nobody got hurt|it's over now].",
    "[Honestly, |]it's not [that big a deal|the end of the world].",
    "Don't [take it so personally|overthink it][, seriously|].",
    "It could've been [a lot |way |]worse, [honestly|to be fair].",
    "Just let it go. All this over {d} isn't worth the stress.",
    'Stuff like this happens to everyone, [honestly|you know].',
    "You're [probably |]overthinking {d} a bit.",
    "[Eh, it's|It's] just one [bad day|thing]. You'll be fine.",
    "Don't worry about {d} so much.",
    "Cheer up, it's not that bad!",
  ],
  cliche: [
    'Everything happens for a reason.',
    'Hang in there!',
    'Time heals [everything|all wounds], trust me.',
    'Stay positive!',
    'Things will work out[, they always do|].',
    "Sorry you're going through this.",
    'Sending hugs.',
    'Stay strong!',
    'I know exactly how you feel.',
    'This too shall pass.',
    "Look on the bright side, there's always a silver lining.",
    "You've got this!",
    'Keep your chin up.',
    'It is what it is.',
    'Everything will be okay in the end.',
    'Believe in yourself.',
  ],
  judgment: [
    'Honestly, you should have [dealt with {d} sooner|said something sooner|seen this coming].',
    'Why did you [let {p} get away with that|put up with {d} for so long]?',
    'Not to be harsh, but you brought this on yourself a bit.',
    "[Honestly|No offence], you're being dramatic about {d}.",
    'What were you thinking? [You could have just said no.|You knew what {p} was like.]',
    "That was [a bit |]naive, if I'm honest.",
    'You always do this: you [let people walk all over you|wait until it blows up].',
    'Your problem is you [care too much what {p} thinks|never say what you actually want].',
    'You could have [just |]told {p} no [straight away|from the start].',
  ],
  selfFocus: [
    'Oh, the same thing happened to me [last year|with my ex|at my old job]. I was [a mess|so angry] for weeks, and I still think about it.',
    "That reminds me of when my [boss|sister|mum] [did something similar|pulled the same thing]. I honestly didn't know what to do either.",
    "I remember when I [went through|had] something like that. I [barely slept|cried for days], and I don't think I've ever been the same.",
    'Me too! I had a [friend|neighbour|boss] exactly like that. I could write a book about it, honestly.',
    "Ugh, I know. I've had the worst week too. I [haven't slept|can't catch a break] and I'm [exhausted|running on fumes].",
    "When I [lost my job|moved out|broke up with my ex], I felt the same. I just kept busy, and I'm fine now.",
    "I'm the same, I swear. I [never know what to say|never get a break] either, and it drives me mad.",
  ],
};

/** Openings and closings that make early advice sound like jumping in and later advice like a next step. */
export const ADVICE_LATE_LEAD = [
  "Now that I've heard more,",
  "Given everything you've said,",
  'With all of that in mind,',
  'Okay, practically speaking,',
] as const;

/** What a think plan says it will do, per strategy (the plan names the strategy in plain words). */
export const PLAN_ACTIONS: Record<CorpusStrategy, readonly string[]> = {
  reflection: ['reflect the feeling back first', 'name how they feel, no advice', 'mirror that feeling'],
  validation: ['tell them the reaction makes sense', 'validate the feeling', 'say anyone would feel this'],
  details: ['echo the specific detail back', 'show I caught the detail', 'pick up the detail they mentioned'],
  openQuestion: ['ask one open question to hear more', 'invite them to say more', 'ask an open question'],
  tooManyQuestions: [
    'ask a bunch of questions to get the full picture',
    'find out everything at once',
    'fire off several questions',
  ],
  checkIn: ['check in on how they are doing now', 'ask how they are holding up', 'check in gently'],
  advice: ['give advice on what to do', 'suggest a concrete step', 'tell them what I would do'],
  analysis: ['break the problem down', 'separate the facts from the assumptions', 'analyse what is going on'],
  motives: [
    "explain the other person's side",
    'suggest why the other person acted that way',
    'offer a reason for what they did',
  ],
  growth: [
    'ask what they could learn from it',
    'invite them to look at their own part',
    'ask a reflective growth question',
  ],
  praise: ['cheer them on with praise', 'tell them they are doing great', 'give some general praise'],
  praiseSpecific: ['praise what they actually did', 'name what they did and give credit', 'give specific credit'],
  exoneration: ['reassure them it is not their fault', 'take the blame off them', 'tell them they did nothing wrong'],
  minimising: [
    'tell them it is not that big a deal',
    'put it in perspective, it is minor',
    'play it down so they relax',
  ],
  cliche: ['say something encouraging', 'cheer them up with a familiar saying', 'offer some quick comfort'],
  judgment: ['point out what they did wrong', 'be blunt about their mistake', 'tell them what they should have done'],
  selfFocus: ['share my own similar story', 'tell them about when it happened to me', 'relate it to my own life'],
};

/** What a plan notes about the user's line before choosing. {them} is a detail about them, third person. */
export const PLAN_READS = {
  feelingDetail: [
    'they sound {f} about {them}',
    '{them} is weighing on them',
    'they feel {f}; {them} is the sore point',
  ],
  detail: ['they brought up {them}', '{them} seems to matter here', 'they mentioned {them}'],
  person: ['this is about {p}', '{p} is at the centre of it'],
  plain: ['they are upset', 'they shared something hard', 'they are struggling with this'],
} as const;
