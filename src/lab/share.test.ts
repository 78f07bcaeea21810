import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { PRESETS, type PresetName } from '../engine/model/config';
import { benchmarkProfiles } from '../persona/sets';
import { defaultRunConfig, parseRunConfig, type RunConfig } from '../rl/config';
import {
  compactConfig,
  decodeShareFragment,
  encodeShareLink,
  fromBase64,
  fromBase64Url,
  LINK_BASELINE_V1,
  LINK_BASELINES,
  toBase64,
  toBase64Url,
} from './share';

const BASE = 'https://lab.example/empathy/';

/** A fragment carrying any payload object, made the way the lab makes them. */
function fragmentOf(payload: unknown, format = 1): string {
  return `#run=${format}.${toBase64Url(deflateSync(strToU8(JSON.stringify(payload))))}`;
}

function decodeOk(hash: string): RunConfig {
  const r = decodeShareFragment(hash);
  if (!r.ok) throw new Error(`expected ok, got: ${r.message}`);
  return r.config;
}

function decodeErr(hash: string): string {
  const r = decodeShareFragment(hash);
  if (r.ok) throw new Error('expected a failure');
  return r.message;
}

describe('share links', () => {
  it('round-trips every preset default and a config changed everywhere', () => {
    for (const preset of Object.keys(PRESETS) as PresetName[]) {
      const config = defaultRunConfig(preset);
      const link = encodeShareLink(config, BASE);
      expect(link.startsWith(`${BASE}#run=2.`)).toBe(true);
      expect(decodeOk(new URL(link).hash)).toEqual(config);
    }
    const changed: RunConfig = {
      ...defaultRunConfig('ci'),
      seed: 123456789,
      algo: 'ppo',
      reward: 'both',
      think: true,
      lr: 2.5e-4,
      temperature: 0.7,
      topP: 0.9,
      klCoef: 0.05,
      klEstimator: 'k1',
      groupSize: 1,
      evalEvery: 10,
      savedAttention: 'f16',
    };
    expect(parseRunConfig(changed).ok).toBe(true);
    expect(decodeOk(encodeShareLink(changed, BASE))).toEqual(changed);
  });

  it('stores only preset, version, seed and the fields that differ from the frozen baseline', () => {
    // Format 2's baseline is the defaults as they were when it was made: a default link holds
    // nothing else but the fields whose default has moved since (the micro recipe, thinkGrammar), and
    // those travel in every link, so the link means the same run whatever the defaults become.
    const moved = (preset: 'ci' | 'micro') =>
      Object.fromEntries(
        Object.entries(defaultRunConfig(preset)).filter(
          ([k, v]) => (LINK_BASELINES[2][preset] as Record<string, unknown>)[k] !== v && k !== 'seed',
        ),
      );
    expect(moved('micro')).toMatchObject({
      thinkGrammar: true,
      reward: 'turn',
      gamma: 0,
      steps: 160,
      klCoef: 0.1,
      repeatPenalty: 0.05,
    });
    expect(compactConfig(defaultRunConfig('micro'))).toEqual({
      ...moved('micro'),
      version: 1,
      preset: 'micro',
      seed: 1,
    });
    const c = { ...defaultRunConfig('ci'), seed: 7, lr: 0.002 };
    expect(compactConfig(c)).toEqual({ ...moved('ci'), version: 1, preset: 'ci', seed: 7, lr: 0.002 });
    expect(decodeShareFragment(encodeShareLink(c, BASE).slice(BASE.length))).toEqual({ ok: true, config: c });
  });

  it('keeps default links short enough for chat apps (well under 2,000 characters)', () => {
    for (const preset of ['ci', 'micro'] as const) {
      const link = encodeShareLink(defaultRunConfig(preset), BASE);
      expect(link.length).toBeLessThan(600);
      const payload = link.slice(link.indexOf('#'));
      console.log(`share link (${preset} default): ${link.length} chars; fragment ${payload.length}: ${payload}`);
    }
    // Even every field changed stays far below the limit.
    const all = {
      ...defaultRunConfig('small'),
      seed: 2 ** 31 - 1,
      algo: 'ppo',
      reward: 'turn',
      think: true,
      steps: 99999,
      lr: 0.01234,
    } as RunConfig;
    expect(encodeShareLink(all, BASE).length).toBeLessThan(600);
  });

  it('replaces a fragment already on the base URL', () => {
    const link = encodeShareLink(defaultRunConfig('ci'), `${BASE}?embed=1#old=stuff`);
    expect(link.startsWith(`${BASE}?embed=1#run=2.`)).toBe(true);
    expect(link).not.toContain('old=stuff');
  });

  it('a format-1 link made today means the same config forever (frozen baseline, not live defaults)', () => {
    // Made with encodeShareLink({...defaultRunConfig('ci'), seed: 42, lr: 0.002}, '') when format 1 shipped.
    // If this fails, old links have changed meaning: keep the old decoder and add a new format.
    const golden = '#run=1.q1YqSy0qzszPU7Iy1FEqKEotTi1RslJKzlTSUSpOTU1RsjIx0lHKKVKyMtAzMDCqBQA';
    expect(decodeOk(golden)).toEqual({ ...LINK_BASELINE_V1.ci, version: 1, preset: 'ci', seed: 42, lr: 0.002 });
    // A field added after format 1 (replay) means what links meant before it: off, though ci now defaults to it.
    expect((decodeOk(golden) as RunConfig).ptxCoef).toBe(0);
    expect(defaultRunConfig('ci').ptxCoef).toBeGreaterThan(0);
    expect((decodeOk(golden) as RunConfig).savedAttention).toBe('f32'); // added later still: f32, as before
    for (const preset of Object.keys(LINK_BASELINE_V1) as PresetName[]) {
      expect(parseRunConfig({ ...LINK_BASELINE_V1[preset], version: 1, preset, seed: 1 }).ok).toBe(true);
    }
  });

  it('a format-2 link decodes against its own frozen baseline, a format-1 link against its own', () => {
    const c = { ...defaultRunConfig('ci'), seed: 42, lr: 0.002 };
    const two = encodeShareLink(c, '');
    expect(two.startsWith('#run=2.')).toBe(true);
    expect(decodeOk(two)).toEqual(c);
    // The same fields on format 1 read against format 1's defaults: no lr warm-up, no format penalty.
    const one = `#run=1.${two.slice('#run=2.'.length)}`;
    const old = decodeOk(one) as RunConfig;
    expect(old.lrWarmupSteps).toBe(0);
    expect(old.thinkFormatPenalty).toBe(0);
    expect(old.truncation).toBe('train');
    for (const preset of Object.keys(PRESETS) as PresetName[])
      expect(parseRunConfig({ ...LINK_BASELINES[2][preset], version: 1, preset, seed: 1 }).ok).toBe(true);
  });

  it('a link made before the think grammar samples think mode freely, as training did then', () => {
    const golden = '#run=1.q1YqSy0qzszPU7Iy1FEqKEotTi1RslJKzlTSUSpOTU1RsjIx0lHKKVKyMtAzMDCqBQA';
    expect(decodeOk(golden)).toMatchObject({ thinkGrammar: false });
    // What a format-2 link of a think run held before the field existed: no thinkGrammar key.
    const free = { ...defaultRunConfig('ci'), think: true, thinkGrammar: false };
    expect(compactConfig(free)).not.toHaveProperty('thinkGrammar');
    expect(decodeOk(encodeShareLink(free, BASE))).toMatchObject({ think: true, thinkGrammar: false });
    // A run made now under the grammar (the default) carries it.
    const ruled = { ...defaultRunConfig('ci'), think: true };
    expect(compactConfig(ruled)).toMatchObject({ thinkGrammar: true });
    expect(decodeOk(encodeShareLink(ruled, BASE))).toEqual(ruled);
  });

  it("a link made before the AdamW fields opens with the optimizer's values of then; a changed one travels", () => {
    const golden = '#run=1.q1YqSy0qzszPU7Iy1FEqKEotTi1RslJKzlTSUSpOTU1RsjIx0lHKKVKyMtAzMDCqBQA';
    expect(decodeOk(golden)).toMatchObject({ adamBeta1: 0.9, adamBeta2: 0.999, adamEps: 1e-8, weightDecay: 0 });
    expect(compactConfig(defaultRunConfig('micro'))).not.toHaveProperty('weightDecay');
    const c = { ...defaultRunConfig('micro'), adamBeta2: 0.99, weightDecay: 0.01 };
    expect(compactConfig(c)).toMatchObject({ adamBeta2: 0.99, weightDecay: 0.01 });
    expect(decodeOk(encodeShareLink(c, BASE))).toEqual(c);
  });

  it('reads the fragment with or without "#", beside other parameters, or inside a whole URL', () => {
    const config = { ...defaultRunConfig('micro'), seed: 9 };
    const link = encodeShareLink(config, BASE);
    const value = link.slice(link.indexOf('#run=') + 5);
    expect(decodeOk(`run=${value}`)).toEqual(config);
    expect(decodeOk(`#hide=charts&run=${value}&tutorial=1`)).toEqual(config);
    expect(decodeOk(link)).toEqual(config);
  });

  it('says when there is no run in the link', () => {
    expect(decodeErr('')).toMatch(/no run/);
    expect(decodeErr('#')).toMatch(/no run/);
  });

  it('says when the fragment belongs to something else', () => {
    expect(decodeErr('#section-2')).toMatch(/not a run from this lab/);
    expect(decodeErr('#c=1.abc&hide=x')).toMatch(/not a run from this lab/);
  });

  it('says when the link is damaged, whichever layer broke', () => {
    const good = encodeShareLink(defaultRunConfig('ci'), BASE);
    const value = good.slice(good.indexOf('#run=') + 5);
    expect(decodeErr('#run=abc')).toMatch(/damaged.*format number/);
    expect(decodeErr('#run=x.abc')).toMatch(/damaged.*format number/);
    expect(decodeErr(`#run=1.${value.slice(2, 10)}*%$`)).toMatch(/damaged.*characters/);
    expect(decodeErr(`#run=${value.slice(0, value.length - 8)}`)).toMatch(/damaged.*(unpack|readable)/);
    expect(decodeErr(`#run=1.${toBase64Url(strToU8('not deflate at all, just text'))}`)).toMatch(/damaged/);
    expect(decodeErr(`#run=1.${toBase64Url(deflateSync(strToU8('{"version":1,')))}`)).toMatch(/damaged.*not readable/);
    expect(decodeErr(fragmentOf([1, 2, 3]))).toMatch(/damaged.*not a set of settings/);
    expect(decodeErr(fragmentOf({ preset: 'ci', seed: 1 }))).toMatch(/damaged.*no config version/);
    expect(decodeErr(`#run=1.${'A'.repeat(9000)}`)).toMatch(/damaged.*characters long/);
  });

  it('refuses a deflate bomb without unpacking all of it', () => {
    const bomb = deflateSync(new Uint8Array(5_000_000).fill(32));
    expect(decodeErr(`#run=1.${toBase64Url(bomb)}`)).toMatch(/damaged.*far more/);
  });

  it('says when the link comes from a newer lab (link format or config version)', () => {
    expect(decodeErr('#run=3.AAAA')).toMatch(/newer version of the lab \(link format 3; this lab reads up to 2/);
    expect(decodeErr(fragmentOf({ version: 2, preset: 'ci', seed: 1 }))).toMatch(
      /newer version of the lab \(run config version 2/,
    );
    expect(decodeErr(fragmentOf({ version: 0, preset: 'ci', seed: 1 }))).toMatch(/version 0 is not one this lab knows/);
  });

  it('shows each field error of a config that fails validation', () => {
    const msg = decodeErr(fragmentOf({ version: 1, preset: 'ci', seed: 1, lr: 5, algo: 'dpo', extra: true }));
    expect(msg).toMatch(/not valid/);
    expect(msg).toMatch(/lr: /);
    expect(msg).toMatch(/algo: /);
    expect(msg).toMatch(/extra/);
    expect(decodeErr(fragmentOf({ version: 1, preset: 'huge', seed: 1 }))).toMatch(/preset: /);
    expect(decodeErr(fragmentOf({ version: 1, preset: 'ci', seed: 1, algo: 'grpo', groupSize: 1 }))).toMatch(
      /groupSize: grpo needs groups/,
    );
  });

  it('never throws on arbitrary input', () => {
    const inputs = [
      '#run=',
      '#run=1.',
      '#run=1.====',
      '#run=1.A',
      '#%E0%A4%A',
      '#run=%',
      '#run=1.' + '_'.repeat(100),
      '#&&&=',
      '#run=999999999999.x',
    ];
    for (const s of inputs) expect(decodeShareFragment(s).ok).toBe(false);
  });
});

describe('base64', () => {
  it('round-trips bytes of every length around the chunk size, standard and url-safe', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 49151, 49152, 49153, 100_000]) {
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) bytes[i] = (i * 131 + 7) & 255;
      expect(Buffer.from(fromBase64(toBase64(bytes))!).equals(bytes)).toBe(true);
      expect(Buffer.from(fromBase64Url(toBase64Url(bytes))!).equals(bytes)).toBe(true);
      expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
      expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }
  });

  it('rejects text that is not base64', () => {
    expect(fromBase64('ab$c')).toBeNull();
    expect(fromBase64('abcde')).toBeNull();
    expect(fromBase64Url('ab+c')).toBeNull();
  });
});

describe("share links with the run's own training users", () => {
  const mine = { ...benchmarkProfiles()[0], id: 'custom-robin', name: 'Robin' };
  const config = { ...defaultRunConfig('ci'), seed: 42 };

  it('carry the users beside the config, and come back checked; a link without them has none', () => {
    const link = encodeShareLink(config, 'https://lab.example/app/', [mine]);
    expect(link).toMatch(/#run=2\.[A-Za-z0-9_-]+&users=1\.[A-Za-z0-9_-]+$/);
    expect(link.length).toBeLessThan(2000);
    const back = decodeShareFragment(link);
    expect(back).toEqual({ ok: true, config, profiles: [mine] });
    const plain = decodeShareFragment(encodeShareLink(config, 'https://lab.example/app/'));
    expect(plain.ok && plain.profiles).toBeUndefined();
  });

  it('a damaged or invalid user gets a clear message', () => {
    const link = encodeShareLink(config, 'https://lab.example/', [mine]);
    const cut = decodeShareFragment(link.slice(0, -12));
    expect(cut).toMatchObject({ ok: false, message: expect.stringMatching(/training users are damaged/) });
    const bad = encodeShareLink(config, 'https://lab.example/', [{ ...mine, age: 7 }]);
    expect(decodeShareFragment(bad)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/training user 1 does not match the profile schema \(age:/),
    });
    expect(decodeShareFragment(`${link.split('&')[0]}&users=9.abc`)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/newer version/),
    });
  });
});
