/**
 * A training dialogue as Markdown, for slides and notes: who the user is and their hidden
 * intention, then each line, every policy reply followed by the user's change, new emotion and how
 * they felt. What the users and the policy wrote is escaped, so it reads as the words they wrote
 * (no stray emphasis, headings or HTML). Pure: no DOM.
 */
import type { TranscriptItem } from '../worker/protocol';

/** Text as Markdown shows it literally: Markdown's marks and HTML's brackets escaped, lines kept. */
export function mdText(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`).replace(/\r?\n/g, '  \n');
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

export function transcriptMarkdown(d: TranscriptItem, title?: string): string {
  const lines = [
    `## ${mdText(title ?? `Step ${d.step}, dialogue ${d.index + 1}: ${d.who}`)}`,
    '',
    `*Hidden intention (the policy never sees it):* ${mdText(d.intentionSummary)}  `,
    `*Emotion:* ${d.startEmotion} → **${d.finalEmotion}**, reward ${d.reward.toFixed(2)}`,
    '',
    `> **User:** ${mdText(d.opening)}`,
    '',
  ];
  for (const t of d.turns) {
    if (t.think !== null) lines.push(`*Thoughts:* ${mdText(t.think)}`, '');
    lines.push(`**Policy:** ${t.reply === '' ? '*(empty reply)*' : mdText(t.reply)}`, '');
    lines.push(`*${signed(t.change)} → emotion ${t.emotion}: ${mdText(t.appraisal.feeling)}*`, '');
    if (t.line !== '') lines.push(`> **User:** ${mdText(t.line)}`, '');
  }
  return lines.join('\n');
}
