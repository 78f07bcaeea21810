/**
 * The lab's think-block rule on text (engine/model/format.ts parseAgentTurn does it on tokens):
 * a turn that opens with `<think>` and holds exactly one `<think>` and one `</think>` shows the user
 * only what follows `</think>`; any other turn shows its text with the markers removed. The verl
 * interaction (integrations/verl) applies the same rule, and the fixture test holds the two equal.
 */
export function stripThink(text: string): string {
  const open = '<think>';
  const close = '</think>';
  const count = (s: string): number => text.split(s).length - 1;
  const body = text.trim();
  if (body.startsWith(open) && count(open) === 1 && count(close) === 1 && body.indexOf(close) > 0)
    return body.slice(body.indexOf(close) + close.length).trim();
  return text.split(open).join('').split(close).join('').trim();
}
