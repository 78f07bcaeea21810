import { describe, expect, it } from 'vitest';
import { decodeShareFragment, encodeShareLink } from './share';
import { defaultRunConfig } from '../rl/config';
import { isHidden, isLocked, readLinkFlags, withoutRun, withView, writeLinkFlags } from './teacher';

describe('teacher links', () => {
  it('reads hide, lock, autoplay, tutorial and view beside a run, and the run still decodes', () => {
    const config = { ...defaultRunConfig('ci'), seed: 9, lr: 0.002 };
    const link = `${encodeShareLink(config, 'https://lab.example/')}&hide=settings,charts:kl,lr&lock=1&autoplay=1&tutorial=1&view=lab`;
    const hash = new URL(link).hash;
    const r = readLinkFlags(hash);
    expect(r.problems).toEqual([]);
    expect(r.hasRun).toBe(true);
    expect(r.flags).toEqual({
      hide: ['settings', 'charts:kl', 'lr'],
      lock: ['*'],
      autoplay: true,
      tutorial: true,
      view: 'lab',
    });
    expect(decodeShareFragment(hash)).toEqual({ ok: true, config });
    expect(isHidden(r.flags, 'charts:kl')).toBe(true);
    expect(isHidden(r.flags, 'charts:reward')).toBe(false);
    expect(isHidden({ hide: ['charts'] }, 'charts:reward')).toBe(true);
    expect(isLocked(r.flags, 'steps')).toBe(true);
    expect(isLocked({ lock: ['lr'] }, 'steps')).toBe(false);
  });

  it('names each unknown or damaged flag and keeps the rest', () => {
    const r = readLinkFlags('#hide=settings,bogus,charts:nope&lock=lr,zap&autoplay=maybe&view=attic&colour=red');
    expect(r.flags).toEqual({ hide: ['settings'], lock: ['lr'], autoplay: false, tutorial: false, view: null });
    expect(r.problems).toHaveLength(6);
    expect(r.problems.join('\n')).toMatch(/hide= names "bogus", which is not a panel or setting/);
    expect(r.problems.join('\n')).toMatch(/hide= names "charts:nope"/);
    expect(r.problems.join('\n')).toMatch(/lock= names "zap"/);
    expect(r.problems.join('\n')).toMatch(/autoplay= is "maybe"; it takes 1 \(on\) or 0 \(off\)/);
    expect(r.problems.join('\n')).toMatch(/view= is "attic", not a view/);
    expect(r.problems.join('\n')).toMatch(/"colour" is not something a lab link can say/);
    expect(readLinkFlags('').problems).toEqual([]);
  });

  it('writes the flags a share dialog ticks, and they read back the same', () => {
    const flags = {
      hide: ['settings', 'charts:losses'],
      lock: ['*'],
      autoplay: true,
      tutorial: false,
      view: 'lab' as const,
    };
    const text = writeLinkFlags(flags);
    expect(text).toBe('hide=settings,charts:losses&lock=1&autoplay=1');
    expect(readLinkFlags(`#${text}`).flags).toEqual({ ...flags, view: null });
    expect(writeLinkFlags({})).toBe('');
  });

  it('moves the view in the fragment and drops a dismissed run, keeping every other part', () => {
    expect(withView('#run=2.abc&hide=settings', 'runs')).toBe('#run=2.abc&hide=settings&view=runs');
    expect(withView('#run=2.abc&view=runs', 'lab')).toBe('#run=2.abc');
    expect(withView('', 'play')).toBe('#view=play');
    expect(withView('#view=play', 'lab')).toBe('');
    expect(withoutRun('#run=2.abc&users=1.x&hide=settings&view=runs')).toBe('#hide=settings&view=runs');
    expect(withoutRun('#run=2.abc')).toBe('');
  });
});
