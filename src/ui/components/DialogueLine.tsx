/**
 * One line of a dialogue, the bubble every transcript in the lab draws: who speaks (`.who`) and what
 * they said (`.text`), in an element of class `line line-<role>` that the styles and the end-to-end
 * tests select on. Text is rendered as text, never HTML. What sits around a line (the appraisal
 * box, a folded think block) is passed in: `before` goes between the speaker and the text, children
 * after the text.
 */
import type { ReactNode } from 'react';

export function DialogueLine({
  role,
  who,
  text,
  emptyText,
  as = 'li',
  before,
  children,
  testId,
}: {
  /** 'user' or 'agent' (the class `line-user` / `line-agent`). */
  role: string;
  who: ReactNode;
  text: string;
  /** Shown in italics when the text is empty (a policy can reply with nothing). */
  emptyText?: string;
  /** 'li' in a list of lines; 'div' inside a turn's own list item. */
  as?: 'li' | 'div';
  before?: ReactNode;
  children?: ReactNode;
  testId?: string;
}) {
  const Tag = as;
  return (
    <Tag className={`line line-${role}`} data-testid={testId}>
      <span className="who">{who}</span>
      {before}
      <span className="text">{text === '' && emptyText !== undefined ? <em>{emptyText}</em> : text}</span>
      {children}
    </Tag>
  );
}

/** What an agent line shows when the policy replied with nothing. */
export const EMPTY_REPLY = '(empty reply)';
