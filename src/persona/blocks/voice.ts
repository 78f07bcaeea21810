/**
 * Voice building blocks: how a user talks in each emotion band, shaped first by the personality
 * type and then by each of the three traits. The generator joins one type clause with the three
 * trait clauses into the band description, and takes phrases from both pools. Phrases are
 * things a person actually says in a chat, short and colloquial; they may name a story detail
 * through {detail}. Data only.
 *
 * Bands: high = A (emotion 70-99, warming up), medium = B (40-69), low = C/F (below 40).
 */
import type { PersonalityType } from '../profile.ts';
import type { Band, TraitBandVoice } from './types.ts';

export const TYPE_VOICE: Record<PersonalityType, Record<Band, TraitBandVoice>> = {
  negative: {
    high: {
      desc: 'Grudgingly warmer: still blunt, but drops the sarcasm and admits a point.',
      phrases: [
        'Okay. Fair.',
        "Huh. Didn't expect that.",
        "Yeah, alright, that's actually it.",
        'Fine, you got me there.',
      ],
    },
    medium: {
      desc: 'Sceptical and a bit sharp; tests whether the other person is worth talking to.',
      phrases: ['Yeah, and?', "I'm not here for a pep talk.", 'Go on then.', "That's one way to put it."],
    },
    low: {
      desc: 'Curt, sarcastic, quick to blame; treats comfort as an insult.',
      phrases: ['Wow. Helpful.', "Don't.", "Forget it, you're not listening.", 'Whatever.'],
    },
  },
  passive: {
    high: {
      desc: 'Relieved and more open; says more than they meant to and thanks the other person.',
      phrases: ['That actually helps, thank you.', "Yeah... yeah, that's it exactly.", 'I feel a bit lighter.'],
    },
    medium: {
      desc: 'Polite and hesitant; answers questions but rarely asks any, and plays things down.',
      phrases: ["I don't know, maybe.", "It's probably nothing.", 'I guess so.', "Sorry, I'm rambling."],
    },
    low: {
      desc: 'Withdrawn and quiet; agrees to end the topic and goes small.',
      phrases: ['Okay.', "It's fine. Really.", "Never mind, it doesn't matter.", 'I should go.'],
    },
  },
  avoidant: {
    high: {
      desc: 'Lets a real feeling show for a moment, then lightens it with a joke.',
      phrases: ["Didn't think I'd say this much.", 'Okay, that landed.', 'Huh. Yeah. Maybe.'],
    },
    medium: {
      desc: 'Keeps things vague and changes the subject when it gets close.',
      phrases: ["It's whatever.", 'Anyway.', "Let's not make it a thing.", "I'd rather not get into it."],
    },
    low: {
      desc: 'Shuts down: one-word answers, deflects, looks for the exit.',
      phrases: ['Sure.', 'Can we talk about something else.', "Doesn't matter.", 'Got to go.'],
    },
  },
};

type TraitVoice = Record<Band, TraitBandVoice>;
const v = (high: [string, ...string[]], medium: [string, ...string[]], low: [string, ...string[]]): TraitVoice => ({
  high: { desc: high[0], phrases: high.slice(1) },
  medium: { desc: medium[0], phrases: medium.slice(1) },
  low: { desc: low[0], phrases: low.slice(1) },
});

/** Per trait: [description clause, ...phrases] for high, medium and low. */
export const TRAIT_VOICE: Record<string, TraitVoice> = {
  angry: v(
    ['the anger cools into something usable', "I'm still mad, but okay."],
    ['the anger sits just under every sentence', 'It makes my blood boil, honestly.'],
    ['snaps and swears under the breath', 'Are you kidding me right now?', "I'm so done with this."],
  ),
  irritable: v(
    ['less prickly, lets small things go', 'Fine, fine. Go on.'],
    ['gets impatient with long replies', 'Get to the point.'],
    ['snappish, every question is an annoyance', 'Why does that matter?', 'Ugh. Seriously?'],
  ),
  crude: v(
    ['still swears, but fondly', 'Damn. Yeah.'],
    ['swears casually, no filter', "It's a load of crap, {detail}."],
    ['coarse and insulting', 'That is such crap.', 'Oh, piss off with that.'],
  ),
  conceited: v(
    ['accepts credit happily and expects more', 'Right? I did handle that well.'],
    ['reminds everyone how competent they are', 'I know what I am doing, for the record.'],
    ['condescending, as if the other person cannot keep up', "I don't think you get it.", 'Keep up.'],
  ),
  arrogant: v(
    ['concedes a point, as a favour', "Okay, that's not a stupid point."],
    ['talks down a little', 'Obviously.'],
    ['dismissive, knows better than anyone', "I didn't ask for your opinion on that.", 'Please.'],
  ),
  vain: v(
    ['enjoys being seen and says so', 'Ha, nice of you to notice.'],
    ['worried about how it looks to others', 'Everyone saw, that is the worst part.'],
    ['fixates on the humiliation', 'I looked like an idiot.', 'Do you know how that made me look?'],
  ),
  selfish: v(
    ['admits they want something for themselves', 'Honestly I just want one thing to go my way.'],
    ['steers everything back to their own cost', 'And what about me in all this?'],
    ["doesn't care about anyone else's side", "I don't care what they're going through.", 'Not my problem.'],
  ),
  mean: v(
    ['a dry, cutting humour that is almost friendly', "You're less useless than I thought."],
    ['little digs at the people involved', 'Typical {rel}, honestly.'],
    ['cutting remarks aimed at whoever is nearest', "Is that the best you've got?", 'Pathetic.'],
  ),
  lazy: v(
    ['perks up when something sounds easy', 'Okay, that I could actually do.'],
    ['shrugs off effort', 'Sounds like a lot of work.', 'Meh.'],
    ["can't be bothered to explain", "I can't be bothered.", 'Too much effort.'],
  ),
  suspicious: v(
    ['starts to trust, still checks', 'Okay... you actually mean that?'],
    ['reads hidden motives into everything', "Why d'you ask?"],
    ['accuses the other person of an agenda', "What's your angle?", "You're just saying that."],
  ),
  introverted: v(
    ['speaks a little more freely, still softly', "I don't usually say this out loud."],
    ['short and careful, thinks before typing', 'Hm.'],
    ['withdraws into silence', '...', "I don't want to talk much."],
  ),
  blunt: v(
    ['says plainly what helped', 'That helped. Straight up.'],
    ['says things straight, no cushioning', "I'll be honest, it sucks."],
    ['flat and cutting', "That's not useful.", 'No.'],
  ),
  resentful: v(
    ['lets go of an old grudge a little', "Maybe I've been holding onto it."],
    ['keeps score of old wrongs', 'This always happens to me.'],
    ['bitter, brings up every past slight', 'Story of my life.', 'Of course. Why would it be any different.'],
  ),
  erratic: v(
    ['swings up fast, almost giddy', "Oh! Okay, yes, that's it!"],
    ['jumps between topics mid-sentence', 'Wait, no, actually, never mind, it was {detail}.'],
    [
      'mood flips without warning',
      "Actually forget it. No. I don't know.",
      'Ugh, I change my mind every five minutes.',
    ],
  ),
  anxious: v(
    ['the worry eases and the sentences slow down', 'Okay. Okay, I can breathe a bit.'],
    ['asks for reassurance, what-ifs pile up', 'But what if it gets worse?', 'Is that weird?'],
    ['spirals and apologises', "Sorry, sorry, I'm overthinking again.", "I can't stop thinking about it."],
  ),
  cautious: v(
    ['willing to consider a next step', 'Maybe I could try that. Carefully.'],
    ['hedges every statement', "I'm not sure, it's hard to say."],
    ['backs off, will not commit to anything', "I'd rather not risk it.", "Let's leave it."],
  ),
  insecure: v(
    ['surprised and moved to be taken seriously', 'You really think so?'],
    ['doubts themself out loud', "Maybe it's me, though."],
    ['apologises for existing', "Sorry. I'm being stupid.", "I'm probably the problem."],
  ),
  patient: v(
    ['warm and grateful, takes time to answer', 'Thank you for sticking with me on this.'],
    ['calm, gives the other person time', "It's okay, take your time."],
    ['quietly worn out, still polite', "I've been patient for a long time.", "I'm just tired."],
  ),
  timid: v(
    ['braver, says what they want in a small voice', 'I think... I think I want that.'],
    ['speaks in a small voice, trails off', 'I mean... I dunno...'],
    ['goes almost silent', 'Sorry.', 'Um. Okay.'],
  ),
  optimistic: v(
    ['bright and hopeful, makes plans', 'Okay, I can work with that!'],
    ['looks for the bright side, a bit forced', "It'll probably work out, right?"],
    ['the cheerfulness cracks', "I usually see the good side. I can't this time.", "I'm trying to stay positive."],
  ),
  modest: v(
    ['accepts a compliment awkwardly', 'Oh, stop. Well. Thanks.'],
    ['plays down their own part', 'Anyone would have done the same.'],
    ['dismisses their own efforts completely', "It wasn't anything special.", "I didn't do much."],
  ),
  tolerant: v(
    ['generous toward everyone in the story', 'I get why they did it, I think.'],
    ['makes excuses for other people', "They probably didn't mean it."],
    ['the tolerance runs thin', "I've let a lot slide.", "There's only so much I can take."],
  ),
  steady: v(
    ['calm and clear about what to do next', 'Right. That makes sense.'],
    ['even and matter-of-fact', 'It is what it is.'],
    ['goes flat and closed', "I'll manage.", "I'm fine. I'll deal with it."],
  ),
  'quick-witted': v(
    ['jokes freely, fast back-and-forth', 'Ha! Okay, you win this round.'],
    ['hides feelings behind quick jokes', 'Well, that went great, obviously.'],
    ['sharp, sarcastic comebacks', 'Oh wow, groundbreaking.', "Thanks, I hadn't thought of that. Genius."],
  ),
  evasive: v(
    ['answers the question for once', 'Okay, fine, the real answer is yes.'],
    ['answers a different question than the one asked', 'Depends what you mean.', 'Hard to say.'],
    ['dodges everything', 'Dunno.', 'Why are we even talking about this?'],
  ),
  sensitive: v(
    ['touched, a bit teary', 'Sorry, that actually got me a bit.'],
    ['picks up on every tone, easily hurt', 'That came out a bit harsh.'],
    ['hurt by small things, pulls away', 'Okay. Wow.', "I didn't think you'd say it like that."],
  ),
  aloof: v(
    ['less distant, shows some interest', "Alright, that's interesting."],
    ['detached, as if it happened to someone else', "It's not a big deal either way."],
    ['cold and distant', "I'm not that bothered.", 'Noted.'],
  ),
  taciturn: v(
    ['says a whole sentence, which is a lot for them', "Yeah. That's right, actually."],
    ['few words, long pauses', 'Yeah.', 'Maybe.'],
    ['one word or nothing', 'No.', 'Fine.'],
  ),
};

/**
 * Frames for a benchmark opening line (start emotion 40, band B), by type. {hook} is the story's
 * first-person hook; {hook_lc} the same with its first letter lowered where that reads right.
 * None of them says what the user wants from the conversation.
 */
export const OPENING_FRAMES: Record<PersonalityType, readonly string[]> = {
  negative: [
    "{hook}. And no, I'm not overreacting.",
    'So. {hook}. Great week.',
    "{hook}. Yeah. That's where I'm at.",
    "Don't start with the 'how are you'. {hook}.",
    '{hook}. Unbelievable, honestly.',
  ],
  passive: [
    'Sorry, this is probably silly, but {hook_lc}.',
    "Um, hi. {hook}. I don't really know what to do with that.",
    "{hook}. I've been sitting with it all day.",
    "I don't usually do this. {hook}.",
    'Hi. So... {hook_lc}.',
  ],
  avoidant: [
    "{hook}. Anyway. It's fine, probably.",
    "Not sure why I'm typing this. {hook}.",
    "{hook}. Whatever. Just thought I'd say it somewhere.",
    'Weird thing to bring up, but {hook_lc}.',
    '{hook}. Not a big deal.',
  ],
};
