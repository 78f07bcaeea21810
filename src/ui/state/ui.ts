/**
 * Store: what the page shows, apart from the run itself: the view (lab, runs, warm start, play, chat), chart
 * smoothing and log scale (kept in localStorage), the step whose dialogues are open, the shortcut
 * sheet, a run link opened from the URL fragment, and the share link last copied.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { decodeShareFragment, encodeShareLink, type ShareDecodeResult } from '../../lab/share';
import type { Profile } from '../../persona/profile';
import type { RunConfig } from '../../rl/config';

export type View = 'lab' | 'runs' | 'warm-start' | 'play' | 'chat';

interface UiState {
  view: View;
  smoothing: number;
  logScale: boolean;
  /** The step whose dialogues the transcripts show; null = the latest. */
  transcriptStep: number | null;
  shortcutsOpen: boolean;
  /** The run link in the URL fragment, decoded (or why it could not be), until dismissed. */
  shared: ShareDecodeResult | null;
  shareLink: string | null;
  shareCopied: boolean;
  setView(v: View): void;
  setSmoothing(w: number): void;
  setLogScale(on: boolean): void;
  showStep(step: number | null): void;
  setShortcutsOpen(open: boolean): void;
  /** Read `location.hash`; an empty fragment clears the panel. */
  readFragment(hash: string): void;
  dismissShared(): void;
  copyShareLink(config: RunConfig, profiles?: readonly Profile[]): Promise<void>;
}

export const useUi = create<UiState>()(
  persist(
    (set) => ({
      view: 'lab',
      smoothing: 0.6,
      logScale: false,
      transcriptStep: null,
      shortcutsOpen: false,
      shared: null,
      shareLink: null,
      shareCopied: false,
      setView: (view) => set({ view }),
      setSmoothing: (smoothing) => set({ smoothing }),
      setLogScale: (logScale) => set({ logScale }),
      showStep: (transcriptStep) => set({ transcriptStep }),
      setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
      readFragment(hash) {
        const fragment = hash.replace(/^#/, '').trim();
        if (fragment === '') return set({ shared: null });
        set({ shared: decodeShareFragment(fragment), view: 'lab' });
      },
      dismissShared() {
        set({ shared: null });
        // Leave the address without the fragment, so a reload does not bring the panel back.
        history.replaceState(null, '', location.pathname + location.search);
      },
      async copyShareLink(config, profiles) {
        const link = encodeShareLink(config, location.href, profiles);
        let copied = false;
        try {
          await navigator.clipboard.writeText(link);
          copied = true;
        } catch {
          // No clipboard permission (or an insecure context): the link is shown to copy by hand.
        }
        set({ shareLink: link, shareCopied: copied });
      },
    }),
    { name: 'empathy-rl-lab/view', version: 1, partialize: (s) => ({ smoothing: s.smoothing, logScale: s.logScale }) },
  ),
);
