/**
 * Keyboard shortcuts (Space train/pause, N or → step, R reset, S copy the share link, ? this list,
 * Esc close) and the sheet that lists them. None fire while typing in a field; Space on a focused
 * button or summary is left to the browser (it presses that control).
 */
import { useEffect, useRef } from 'react';
import { useUi } from '../state/ui';
import { labActions } from './actions';

const SHORTCUTS: [keys: string[], what: string][] = [
  [['Space'], 'Train / Pause'],
  [['N', '→'], 'One step'],
  [['R'], 'Reset (same seed, same starting weights)'],
  [['S'], 'Copy the share link'],
  [['?'], 'This list'],
  [['Esc'], 'Close it'],
];

const TYPING = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';
const PRESSABLE = 'button, a[href], summary, [role="button"]';

export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest(TYPING)) return;
      const ui = useUi.getState();
      if (e.key === '?') {
        ui.setShortcutsOpen(!ui.shortcutsOpen);
        e.preventDefault();
        return;
      }
      if (e.key === 'Escape') {
        if (ui.shortcutsOpen) ui.setShortcutsOpen(false);
        return;
      }
      if (ui.view !== 'lab' || ui.shortcutsOpen) return;
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      if (key === ' ') {
        if (target?.closest(PRESSABLE)) return;
        labActions.toggle();
      } else if (key === 'n' || key === 'ArrowRight') labActions.step();
      else if (key === 'r') labActions.reset();
      else if (key === 's') labActions.copyShare();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function ShortcutsDialog() {
  const open = useUi((s) => s.shortcutsOpen);
  const setOpen = useUi((s) => s.setShortcutsOpen);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) closeRef.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="overlay" onClick={() => setOpen(false)}>
      <div
        className="dialog panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby="keys-h"
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id="keys-h">Keyboard shortcuts</h2>
        <table className="keys">
          <tbody>
            {SHORTCUTS.map(([keys, what]) => (
              <tr key={what}>
                <th scope="row">
                  {keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 && ' or '}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </th>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted small">They do nothing while you type in a field.</p>
        <button type="button" ref={closeRef} onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </div>
  );
}
