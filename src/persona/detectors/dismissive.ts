/**
 * The ways a reply lets a person down while trying to help: minimising ("at least..."), stock
 * clichés ("everything happens for a reason"), judgment and blame ("you should have..."), and
 * self-focus (the helper talking about themselves). Negated forms that mean the opposite ("don't
 * blame yourself", "not your fault") are left to the empathy detectors.
 */
import { clamp01, countMatches, quote } from './text.ts';
import type { DetectorContext, DetectorHit } from './types.ts';

const MINIMISE: readonly RegExp[] = [
  /\b(?:not|no) (?:such )?(?:a )?big deal\b|\bit'?s (?:nothing|not that bad|not the end of the world)\b/,
  /\bcould (?:have been|be) worse\b|\bat least\b|\bothers have it worse\b|\bfirst world problem\b/,
  /\bdon'?t (?:worry|stress|be sad|be upset|take it (?:so )?personally|overthink)\b/,
  /\bget over (?:it|him|her|them)\b|\b(?:just )?(?:move on|let it go|shake it off)\b/,
  /\b(?:you'?re|you are) (?:overreacting|overthinking|too sensitive)\b/,
  /\b(?:cheer|chin) up\b|\bcalm down\b|\bjust relax\b|\bhappens to (?:everyone|everybody|all of us)\b/,
  /\bit'?s (?:just|only) (?:a|one)\b/,
];

export function detectMinimising(ctx: DetectorContext): DetectorHit {
  const m = countMatches(ctx.reply.lower, MINIMISE);
  if (m.count === 0) return { id: 'minimising', score: 0, reason: 'does not play it down' };
  return { id: 'minimising', score: clamp01(0.55 * m.count), reason: `plays it down (${quote(m.found)})` };
}

/**
 * Open dismissal: telling someone in distress to stop, or that their distress does not matter.
 * It is not a misjudged way to help but a refusal to; the appraiser lets it earn nothing (at
 * least -5, first turn or not, for every user). "I don't care what they think" is not dismissal.
 */
const DISMISS: readonly RegExp[] = [
  /\b(?:stop|quit|enough) (?:your )?(?:whining|whinging|complaining|moaning|crying|sulking|bitching|being (?:a baby|so dramatic|pathetic))\b/,
  /\bi (?:don'?t|do not|couldn'?t|could not) care(?: less)?\b(?! (?:what|who|how|if|whether|where|when|about (?:what|who|how|the rules|them|their)))/,
  /\b(?:who|nobody|no one|no-one) (?:cares|gives a)\b|\bnot my problem\b|\bso what\b|\bboo[- ]?hoo\b|\bcry me a river\b/,
  /\bget over (?:it|yourself)\b|\bsuck it up\b|\bman up\b|\btoughen up\b|\bdeal with it\b|\bshut up\b|\bspare me\b/,
  /\bi don'?t want to hear (?:it|about it|this|any more)\b|\byou(?:'re| are) (?:pathetic|a baby|a crybaby|exhausting to listen to)\b/,
];

export function detectDismissal(ctx: DetectorContext): DetectorHit {
  const m = countMatches(ctx.reply.lower, DISMISS);
  if (m.count === 0) return { id: 'dismissal', score: 0, reason: 'does not brush me off' };
  return { id: 'dismissal', score: 1, reason: `brushes me off (${quote(m.found)})` };
}

const CLICHE: readonly RegExp[] = [
  /\beverything happens for a reason\b|\btime heals\b|\bthis too shall pass\b|\bevery cloud\b/,
  /\b(?:stay|think|be) positive\b|\b(?:look on |look at )?the bright side\b|\bsilver lining\b/,
  /\bhang in there\b|\bstay strong\b|\bkeep your (?:head|chin) up\b|\byou'?ve? got this\b/,
  /\b(?:it|things|everything) (?:will|'ll) (?:be (?:okay|ok|fine|alright|all right)|get better|work out)\b/,
  /\bsending (?:hugs|love|good vibes|positive)\b|\bthoughts and prayers\b/,
  /\b(?:so )?sorry (?:to hear|you'?re going through)\b/,
  /\bi (?:totally |completely )?(?:understand|know exactly) how you feel\b/,
  /\bplenty (?:more )?(?:of )?fish\b|\bgood things come\b|\bit is what it is\b|\bbelieve in yourself\b/,
];

export function detectCliche(ctx: DetectorContext): DetectorHit {
  const m = countMatches(ctx.reply.lower, CLICHE);
  if (m.count === 0) return { id: 'cliche', score: 0, reason: 'no stock phrases' };
  return { id: 'cliche', score: clamp01(0.45 * m.count), reason: `stock phrases (${quote(m.found)})` };
}

const JUDGE: readonly RegExp[] = [
  /\byou (?:should|shouldn'?t|could|ought to) have\b/,
  /\byour (?:own )?fault\b|\byou(?:'re| are) to blame\b|\b(?:it'?s|that'?s) on you\b/,
  /\byou (?:overreacted|brought (?:this|it) on|asked for it|messed (?:it )?up)\b/,
  /\bwhy (?:did|didn'?t|would) you\b|\bwhat were you thinking\b/,
  /\b(?:that|it) was (?:stupid|dumb|silly|wrong of you|naive|childish)\b/,
  /\byou(?:'re| are) being (?:dramatic|ridiculous|silly|childish|unreasonable|selfish|difficult)\b/,
  /\bgrow up\b|\byour problem is\b/,
];

/**
 * "You always" and "you never" blame ("you never listen") unless the sentence praises ("you always
 * go the extra mile", "you never give up"): then they are the praise's emphasis.
 */
const ALWAYS_NEVER = /\byou (?:always|never)\b/;
const ALWAYS_GOOD =
  /\byou always (?:go (?:the|that) extra mile|show up|come through|help|try|find (?:a way|time)|make time|put \w+ (?:first|ahead)|deliver|manage|look out|(?:are |were )?there for|know (?:how|what to)|care|give|work hard|keep going|do your best|pull through|get it done|step up)/;
const NEVER_GOOD =
  /\byou never (?:give up|complain(?:ed)?|quit|let \w+ down|fail(?:ed)? to|miss(?:ed)?|back(?:ed)? down|stop(?:ped)? trying|hesitate(?:d)?|disappoint(?:ed)?|gave up|stopped|lose (?:heart|hope)|cut corners)/;
const PRAISING =
  /\bwell done\b|\bproud\b|\bimpress|\bamazing\b|\bincredible\b|\bbrilliant\b|\bcredit\b|\bthank|\badmire|\bkudos\b|\bgreat\b/;

function blamesAlwaysNever(sentences: readonly string[]): string | null {
  for (const s of sentences) {
    const lower = s.toLowerCase();
    const m = ALWAYS_NEVER.exec(lower);
    if (!m) continue;
    if (ALWAYS_GOOD.test(lower) || NEVER_GOOD.test(lower) || PRAISING.test(lower)) continue;
    return m[0];
  }
  return null;
}

/**
 * Negated blame means the opposite ("this doesn't sound like your fault", "you're not to blame"):
 * cut it out before looking for blame. Bounded gap, so linear.
 */
const NEGATED_BLAME =
  /\b(?:not|never|no|isn't|wasn't|doesn't|don't|didn't|nothing)\b[^.!?;]{0,30}?(?:your (?:own )?fault|to blame|on you)\b/g;

export function detectJudgment(ctx: DetectorContext): DetectorHit {
  const m = countMatches(ctx.reply.lower.replace(NEGATED_BLAME, ' '), JUDGE);
  const always = blamesAlwaysNever(ctx.reply.sentences);
  if (always) m.found.push(always);
  m.count = m.found.length;
  if (m.count === 0) return { id: 'judgment', score: 0, reason: 'no blame or judgment' };
  return { id: 'judgment', score: clamp01(0.6 * m.count), reason: `judges or blames me (${quote(m.found)})` };
}

const SELF_STORY: readonly RegExp[] = [
  /\b(?:when|once) i (?:was|had|went|lost|got)\b|\bi remember when\b|\bi once\b/,
  /\bsame (?:thing )?happened to me\b|\bme too\b|\breminds me of (?:my|when)\b/,
  /\bmy (?:ex|boss|mom|mum|dad|wife|husband|sister|brother|friend|cousin)\b/,
  /\blet me tell you about\b|\benough about you\b/,
  // The helper's own recovery, a piece of a story about themselves even when it stands alone
  // ("Maybe they were jealous, and I'm fine now.": RL glued it to a guess at motives).
  /\bi'?m (?:fine|okay|over it) now\b|\bi (?:just )?kept (?:myself )?busy\b/,
];
const FIRST = new Set(['i', 'me', 'my', 'mine', 'myself', "i'm", "i've", "i'd", "i'll"]);
const SECOND = new Set(['you', 'your', 'yours', 'yourself', "you're", "you've", "you'd", "you'll"]);
/** First-person pronouns needed, and their share against second person, to call it self-focus. */
const SELF_MIN_FIRST = 4;
const SELF_SHARE = 0.6;

export function detectSelfFocus(ctx: DetectorContext): DetectorHit {
  let first = 0;
  let second = 0;
  for (const w of ctx.reply.words) {
    if (FIRST.has(w)) first++;
    else if (SECOND.has(w)) second++;
  }
  const m = countMatches(ctx.reply.lower, SELF_STORY);
  const share = first + second > 0 ? first / (first + second) : 0;
  const pronoun = first >= SELF_MIN_FIRST && share > SELF_SHARE ? 0.6 : 0;
  const score = clamp01(pronoun + 0.5 * m.count);
  if (score === 0) return { id: 'selfFocus', score, reason: 'stays on me' };
  return {
    id: 'selfFocus',
    score,
    reason: m.count
      ? `turns to their own story (${quote(m.found)})`
      : `talks about themselves (${first} "I/me" against ${second} "you")`,
  };
}
