import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.js';

/** A stand-in for stderr that records what is written. */
function fakeStream(isTTY: boolean): NodeJS.WriteStream & { text: () => string } {
  const parts: string[] = [];
  return {
    isTTY,
    columns: 80,
    write(s: string) {
      parts.push(s);
      return true;
    },
    on() {
      return this;
    },
    removeListener() {
      return this;
    },
    text: () => parts.join(''),
  } as unknown as NodeJS.WriteStream & { text: () => string };
}

describe('createProgress', () => {
  it('prints plain key=value lines when the stream is not a terminal', () => {
    const s = fakeStream(false);
    const p = createProgress({ label: 'collect', stream: s, intervalMs: 0 });
    p.update({ user: 'sean', files: 1 });
    p.update({ files: 2 });
    p.log('error: /home/sean/x: permission denied (EACCES)');
    p.stop();
    expect(s.text()).toBe(
      'collect: user=sean files=1\ncollect: user=sean files=2\nerror: /home/sean/x: permission denied (EACCES)\n',
    );
  });
  it('prints the last state on stop when updates came faster than the interval', () => {
    const s = fakeStream(false);
    const p = createProgress({ label: 'x', stream: s, intervalMs: 3_600_000 });
    p.update({ n: 1 });
    p.update({ n: 2 });
    p.update({ n: 3 });
    p.stop();
    expect(s.text()).toBe('x: n=1\nx: n=3\n');
  });
  it('prints nothing when silent', () => {
    const s = fakeStream(false);
    const p = createProgress({ label: 'x', stream: s, silent: true });
    p.update({ n: 1 });
    p.log('line');
    p.stop();
    expect(s.text()).toBe('');
  });
  it('escapes control sequences from the evidence in log lines and fields, plain and on a terminal', () => {
    for (const tty of [false, true]) {
      const s = fakeStream(tty);
      const p = createProgress({ label: 'collect', stream: s, intervalMs: 0 });
      p.update({ user: 'se\x1b]0;T\x07an', current: '\u009b2J' });
      p.log('error: /home/\x1b]0;PWNED\x07dir: permission denied (EACCES)');
      p.stop();
      const text = s.text();
      expect(text).toContain('error: /home/\\x1b]0;PWNED\\x07dir: permission denied (EACCES)');
      expect(text).toContain('user=se\\x1b]0;T\\x07an current=\\x9b2J');
      // On a terminal the bar's own cursor codes remain (ESC 7, ESC [?7l ...); the evidence's OSC, BEL and CSI do not.
      expect(text).not.toMatch(/\x1b\]|[\x07\x9b]/);
    }
  });
});
