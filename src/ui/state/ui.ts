/**
 * Store: what the page shows, apart from the run itself: the view (lab, runs, warm start, play,
 * chat; kept in the URL fragment so Back and Forward move between views), chart smoothing and log
 * scale, whether the settings drawer is open, the last run on screen (reopened after a reload), the
 * tour's place (these four kept in localStorage), the step whose dialogues are open, the shortcut
 * sheet, a run link opened from the URL fragment with its teacher flags (hide, lock, autoplay,
 * tutorial), and the share link last copied.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { decodeShareFragment, encodeShareLink, type ShareDecodeResult } from '../../lab/share';
import {
  NO_FLAGS,
  readLinkFlags,
  withoutRun,
  withView,
  writeLinkFlags,
  type LinkFlags,
  type View,
} from '../../lab/teacher';
import type { Profile } from '../../persona/profile';
import type { RunConfig } from '../../rl/config';

export type { View } from '../../lab/teacher';

interface UiState {
  view: View;
  smoothing: number;
  logScale: boolean;
  /** The settings drawer: open on a first visit, folded once a run starts. */
  settingsOpen: boolean;
  /** The run last on screen: the Lab reopens it after a reload (null after Reset). */
  lastRunId: string | null;
  /** The step whose dialogues the transcripts show; null = the latest. */
  transcriptStep: number | null;
  shortcutsOpen: boolean;
  /** The run link in the URL fragment, decoded (or why it could not be), until dismissed. */
  shared: ShareDecodeResult | null;
  /** The teacher flags of the link the page was opened with. */
  flags: LinkFlags;
  /** What in those flags could not be read (shown until dismissed). */
  flagProblems: string[];
  /** The tour: the step open now (null: closed), and where it was left (to resume). */
  tourStep: number | null;
  tourLeftAt: number | null;
  shareLink: string | null;
  shareCopied: boolean;
  shareOpen: boolean;
  setView(v: View): void;
  setSmoothing(w: number): void;
  setLogScale(on: boolean): void;
  setSettingsOpen(open: boolean): void;
  setLastRun(id: string | null): void;
  showStep(step: number | null): void;
  setShortcutsOpen(open: boolean): void;
  /** Read `location.hash`: the view, the flags and the run link (a run already read is not shown again). */
  readFragment(hash: string): void;
  dismissShared(): void;
  dismissFlagProblems(): void;
  setTourStep(step: number | null): void;
  /** The tour ran to its end: nothing to resume. */
  finishTour(): void;
  setShareOpen(open: boolean): void;
  copyShareLink(config: RunConfig, profiles?: readonly Profile[], flags?: Partial<LinkFlags>): Promise<void>;
}

const FLAG_KEYS = ['hide', 'lock', 'autoplay', 'tutorial', 'view'];

/** The `run=` value last read, so moving between views (which rewrites the fragment) does not reopen it. */
let lastRunValue: string | null = null;
/** Flag problems the person dismissed: Back and Forward (which read the fragment again) do not show them again. */
const dismissedProblems = new Set<string>();
/** `tutorial=1` opens the tour once per page: Back and Forward (which read the fragment again) do not reopen it. */
let tourOffered = false;

export const useUi = create<UiState>()(
  persist(
    (set, get) => ({
      view: 'lab',
      smoothing: 0.6,
      logScale: false,
      // A first visit on a wide screen opens the drawer beside the run; on a phone it would push Train down.
      settingsOpen: typeof matchMedia === 'function' ? matchMedia('(min-width: 1024px)').matches : true,
      lastRunId: null,
      transcriptStep: null,
      shortcutsOpen: false,
      shared: null,
      flags: NO_FLAGS,
      flagProblems: [],
      tourStep: null,
      tourLeftAt: null,
      shareLink: null,
      shareCopied: false,
      shareOpen: false,
      setView(view) {
        if (view === get().view) return;
        set({ view });
        // A new history entry per view: Back and Forward move between them.
        const hash = withView(location.hash, view);
        history.pushState(null, '', location.pathname + location.search + hash);
      },
      setSmoothing: (smoothing) => set({ smoothing }),
      setLogScale: (logScale) => set({ logScale }),
      setSettingsOpen: (settingsOpen) => set({ settingsOpen }),
      setLastRun: (lastRunId) => set({ lastRunId }),
      showStep: (transcriptStep) => set({ transcriptStep }),
      setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
      readFragment(hash) {
        const fragment = hash.replace(/^#/, '').trim();
        const read = readLinkFlags(fragment);
        const params = new URLSearchParams(fragment);
        const runValue = params.get('run');
        // A fragment with no run and nothing a lab link says is a foreign link: share.ts words that.
        const foreign = fragment !== '' && !read.hasRun && !FLAG_KEYS.some((k) => params.has(k));
        let shared = get().shared;
        if (foreign) shared = decodeShareFragment(fragment);
        else if (runValue === null) shared = null;
        else if (runValue !== lastRunValue) shared = decodeShareFragment(fragment);
        lastRunValue = runValue;
        set({
          view: read.flags.view ?? 'lab',
          flags: read.flags,
          flagProblems: foreign ? [] : read.problems.filter((p) => !dismissedProblems.has(p)),
          shared,
          ...(read.flags.tutorial && !tourOffered && get().tourStep === null
            ? { tourStep: get().tourLeftAt ?? 0 }
            : {}),
        });
        if (read.flags.tutorial) tourOffered = true;
      },
      dismissShared() {
        set({ shared: null });
        // Leave the address without the run (the flags stay), so a reload does not bring the panel back.
        history.replaceState(null, '', location.pathname + location.search + withoutRun(location.hash));
      },
      dismissFlagProblems() {
        for (const p of get().flagProblems) dismissedProblems.add(p);
        set({ flagProblems: [] });
      },
      setTourStep(tourStep) {
        set((s) => ({ tourStep, tourLeftAt: tourStep === null ? s.tourLeftAt : tourStep }));
      },
      finishTour: () => set({ tourStep: null, tourLeftAt: null }),
      setShareOpen: (shareOpen) => set({ shareOpen }),
      async copyShareLink(config, profiles, flags) {
        const extra = flags ? writeLinkFlags(flags) : '';
        const link = encodeShareLink(config, location.href, profiles) + (extra ? `&${extra}` : '');
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
    {
      name: 'empathy-rl-lab/view',
      version: 1,
      partialize: (s) => ({
        smoothing: s.smoothing,
        logScale: s.logScale,
        settingsOpen: s.settingsOpen,
        lastRunId: s.lastRunId,
        tourLeftAt: s.tourLeftAt,
      }),
    },
  ),
);
