/**
 * The user's reading of one reply, as the lab shows it everywhere (transcripts, the demo, play):
 * what the reply tries, its fit to the hidden need, and the inner reaction. Text only.
 */
/** An emotion change as the lab writes it: +5, 0, -10. */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** The change of one reply, coloured by its sign. */
export function ChangeBadge({ change }: { change: number }) {
  return (
    <span className={`change ${change > 0 ? 'up' : change < 0 ? 'down' : ''}`} data-testid="change">
      {signed(change)}
    </span>
  );
}

export interface AppraisalText {
  intent: string;
  fit: string;
  inner: string;
}

/** hideFit: the fit names the hidden need, so Play keeps it back until the person's dialogue ends. */
export function AppraisalList({ appraisal, hideFit = false }: { appraisal: AppraisalText; hideFit?: boolean }) {
  return (
    <dl className="kv">
      <dt>What the reply tries</dt>
      <dd>{appraisal.intent}</dd>
      <dt>Fit to the hidden need</dt>
      <dd>{hideFit ? <em>shown when your dialogue ends (it names the need)</em> : appraisal.fit}</dd>
      <dt>Inner reaction</dt>
      <dd>{appraisal.inner}</dd>
    </dl>
  );
}
