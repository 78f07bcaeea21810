import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../worker/protocol';
import { mdText, transcriptMarkdown } from './transcriptMarkdown';

const turn = (reply: string, change: number, emotion: number, line: string) => ({
  reply,
  think: null,
  wellFormed: true,
  change,
  emotion,
  line,
  appraisal: { intent: 'i', fit: 'f', inner: 'n', feeling: 'Better: heard', reaction: 'r', needMet: false },
});

const d: TranscriptItem = {
  step: 3,
  index: 0,
  group: 0,
  profileId: 'train-007',
  who: 'Maya, 34: work',
  intention: 'venting',
  intentionSummary: 'wants to be listened to while venting',
  opening: 'My boss *again* <b>yelled</b>.',
  startEmotion: 30,
  finalEmotion: 35,
  reward: 0.35,
  endReason: 'cap',
  turns: [turn('That sounds hard.', 5, 35, '# Yes.\nIt was.'), turn('', 0, 35, '')],
};

describe('transcript as Markdown', () => {
  it('writes the need, each line with its change, and escapes what was written', () => {
    const md = transcriptMarkdown(d);
    expect(md).toContain('## Step 3, dialogue 1: Maya, 34: work');
    expect(md).toContain('*Hidden intention (the policy never sees it):* wants to be listened to while venting');
    expect(md).toContain('*Emotion:* 30 → **35**, reward 0.35');
    expect(md).toContain('> **User:** My boss \\*again\\* \\<b\\>yelled\\</b\\>\\.');
    expect(md).toContain('**Policy:** That sounds hard\\.');
    expect(md).toContain('*+5 → emotion 35: Better: heard*');
    expect(md).toContain('> **User:** \\# Yes\\.  \nIt was\\.');
    expect(md).toContain('**Policy:** *(empty reply)*');
    expect(md).not.toContain('<b>');
  });

  it('escapes every Markdown mark', () => {
    expect(mdText('[link](x) _a_ `c` | ~s~')).toBe('\\[link\\]\\(x\\) \\_a\\_ \\`c\\` \\| \\~s\\~');
  });
});
