import { describe, expect, it } from 'vitest';
import { terminalText } from './terminal-text.js';

describe('terminalText', () => {
  it('escapes ESC, BEL, CR, NUL, DEL and C1 controls as \\xNN', () => {
    expect(terminalText('\x1b]0;PWNED\x07dir')).toBe('\\x1b]0;PWNED\\x07dir');
    expect(terminalText('a\x1b[2Jb\rc\x00d\x7fe\u009bf\u0085g')).toBe('a\\x1b[2Jb\\x0dc\\x00d\\x7fe\\x9bf\\x85g');
  });

  it('keeps newlines, tabs and other Unicode as they are', () => {
    const s = 'line 1\n\tcafé — 日本語 🙂 \u00a0nbsp';
    expect(terminalText(s)).toBe(s);
  });

  it('leaves a backslash alone, so an escaped name reads as it was found', () => {
    expect(terminalText('C:\\Users\\x1b')).toBe('C:\\Users\\x1b');
  });
});
