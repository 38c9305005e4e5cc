// Seeded randomness for the generator: every byte it writes derives from one seed, so two runs
// with the same seed write the same corpus (Math.random and Date.now are never used).

/** mulberry32: tiny, fast, and good enough for synthetic data (not for cryptography). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random source with the distributions the generator needs. */
export class Rng {
  constructor(seed) {
    this.next = mulberry32(seed);
    this.spare = null;
  }
  /** A fresh, independent stream derived from this one (so one part's draws never shift another's). */
  fork() {
    return new Rng(Math.floor(this.next() * 4294967296));
  }
  chance(p) {
    return this.next() < p;
  }
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick(arr) {
    return arr[Math.floor(this.next() * arr.length)];
  }
  normal() {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    const u = this.next() || 1e-12;
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
  /** Long-tailed sizes: median `median`, spread `sigma`, clamped to [min, max]. */
  logNormal(median, sigma, min, max) {
    const x = Math.round(median * Math.exp(sigma * this.normal()));
    return Math.max(min, Math.min(max, x));
  }
  /** Number of failures before the first success: mean `mean`. */
  geometric(mean) {
    const p = 1 / (1 + mean);
    let n = 0;
    while (!this.chance(p)) n += 1;
    return n;
  }
  hex(n) {
    let s = '';
    while (s.length < n) s += Math.floor(this.next() * 4294967296).toString(16).padStart(8, '0');
    return s.slice(0, n);
  }
  uuid() {
    const h = this.hex(32);
    const variant = '89ab'[Math.floor(this.next() * 4)];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
  base64(n) {
    const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    let s = '';
    for (let i = 0; i < n; i++) s += abc[Math.floor(this.next() * 64)];
    return s;
  }
}

const WORDS = (
  'the a to of and in is that for it on with as this be are from at by not or have an was but ' +
  'function const return import export class interface type async await if else for while new ' +
  'error test build file path config server request response value string number true false null ' +
  'session event model tool result message user assistant data index src lib packages node npm ' +
  'deploy cluster pod namespace kubectl get describe logs commit branch merge rebase diff patch ' +
  'fixture expected received failed passed warning timeout retry cache query table column row ' +
  'résumé naïve café 数据 日志 错誤 🚀 ✅ "quoted" back\\slash tab\there <tag> &amp; {json: 1}'
).split(' ');

/**
 * A pool of text-like bytes (words, code-ish lines, some non-ASCII, quotes and backslashes so
 * JSON escaping is exercised); texts are slices of it, which is fast and still compresses about
 * like real logs (the deflate window is far smaller than the pool).
 */
export function makeTextPool(rng, chars) {
  const parts = [];
  let n = 0;
  let line = 0;
  while (n < chars) {
    const indent = line % 7 === 0 ? '' : '  '.repeat(rng.int(0, 3));
    const len = rng.int(3, 14);
    const words = [];
    for (let i = 0; i < len; i++) words.push(rng.pick(WORDS));
    const s = `${indent}${words.join(' ')}${rng.chance(0.2) ? `; // ${rng.hex(8)}` : ''}\n`;
    parts.push(s);
    n += s.length;
    line += 1;
  }
  return parts.join('');
}

/** Text of `len` characters cut from the pool at a random place. */
export function textFrom(rng, pool, len) {
  if (len <= 0) return '';
  if (len < pool.length) {
    const at = Math.floor(rng.next() * (pool.length - len));
    return pool.slice(at, at + len);
  }
  let s = '';
  while (s.length < len) s += pool;
  return s.slice(0, len);
}
