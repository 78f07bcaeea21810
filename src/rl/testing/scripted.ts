/**
 * Test fixture: a dialogue as rollout() records it, played from scripted replies against the real
 * simulated user (benchmark mode, seed 0), with no policy and no tokens. Tests only.
 */
import type { Profile } from '../../persona/profile';
import { createSimulatedUser } from '../../persona/user';
import type { DialogueRollout } from '../rollout';

/** Each reply in turn, until the user ends the dialogue; `window` as the rollout would have recorded it. */
export function playScripted(
  profile: Profile,
  replies: readonly string[],
  window: DialogueRollout['window'] = { slides: 0, hidden: [] },
): DialogueRollout {
  const user = createSimulatedUser(profile, { seed: 0, difficulty: 'moderate', mode: 'benchmark' });
  const d: DialogueRollout = {
    profileId: profile.id,
    opening: user.opening,
    turns: [],
    finalEmotion: user.state.emotion,
    reward: 0,
    endReason: 'cap',
    transcript: [{ role: 'user', text: user.opening }],
    window,
  };
  for (const reply of replies) {
    const result = user.respond(reply);
    d.turns.push({
      prompt: [],
      response: [],
      reply,
      think: null,
      wellFormed: true,
      truncated: false,
      logprobs: [],
      result,
    });
    d.transcript.push({ role: 'agent', text: reply }, { role: 'user', text: result.line });
    d.finalEmotion = result.emotion;
    if (result.over) {
      d.endReason = result.endReason ?? 'over';
      break;
    }
  }
  return d;
}
