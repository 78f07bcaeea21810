/**
 * The share link and what it asks of the page that opens it: for a class, hide the settings (or
 * show them read-only), hide the other views, start training on open after a countdown, open the
 * tour. Each tick rewrites (and copies) the link; the teacher flags are src/lab/teacher.ts.
 */
import { useState } from 'react';
import type { LinkFlags } from '../../lab/teacher';
import { useUi } from '../state/ui';
import { labActions } from './actions';

const OTHER_VIEWS = ['runs', 'warm-start', 'play', 'chat'];

interface Ticks {
  hideSettings: boolean;
  lock: boolean;
  hideViews: boolean;
  autoplay: boolean;
  tutorial: boolean;
}

function flagsOf(t: Ticks): Partial<LinkFlags> {
  return {
    hide: [...(t.hideSettings ? ['settings'] : []), ...(t.hideViews ? OTHER_VIEWS : [])],
    lock: t.lock && !t.hideSettings ? ['*'] : [],
    autoplay: t.autoplay,
    tutorial: t.tutorial,
  };
}

export function ShareDialog({ link, copied, clipboardOk }: { link: string; copied: boolean; clipboardOk: boolean }) {
  const open = useUi((s) => s.shareOpen);
  const [ticks, setTicks] = useState<Ticks>({
    hideSettings: false,
    lock: false,
    hideViews: false,
    autoplay: false,
    tutorial: false,
  });
  if (!open) return null;
  const change = (next: Ticks) => {
    setTicks(next);
    labActions.copyShare(flagsOf(next));
  };
  const tick = (key: keyof Ticks, label: string) => (
    <label className="inline">
      <input type="checkbox" checked={ticks[key]} onChange={(e) => change({ ...ticks, [key]: e.target.checked })} />{' '}
      {label}
    </label>
  );
  return (
    <div className="share-link" data-testid="share-dialog">
      <label htmlFor="share-link">
        {copied
          ? 'Share link (copied to the clipboard)'
          : clipboardOk
            ? 'Share link (copy it from here)'
            : 'Share link'}
      </label>
      <input id="share-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      <fieldset className="share-flags">
        <legend>When the link is opened</legend>
        {tick('hideSettings', 'hide the settings')}
        {tick('lock', 'show the settings read-only')}
        {tick('hideViews', 'hide the other views (Runs, Warm start, Play, Chat)')}
        {tick('autoplay', 'start training on open (after a countdown a click cancels)')}
        {tick('tutorial', 'open the guided tour')}
        <button
          type="button"
          onClick={() => change({ ...ticks, hideSettings: true, autoplay: true, lock: false })}
          disabled={ticks.hideSettings && ticks.autoplay}
        >
          For a class: hide the settings, start on open
        </button>
        <button type="button" onClick={() => useUi.getState().setShareOpen(false)}>
          Close
        </button>
      </fieldset>
    </div>
  );
}
