import { describe, expect, it } from 'vitest';
import { TurnRepeats } from './store-repeats.js';

/** Feed turns rows (session, prompt, reply; null for a prompt-only row) in rowid order; `[user, assistant]` repeat flags per row. */
function flags(rows: [string, string, string | null][]): [boolean, boolean][] {
  const t = new TurnRepeats();
  return rows.map(([s, p, r]) => {
    const f = t.see(s, p, r ?? '');
    return [f.user, f.assistant];
  });
}

describe('TurnRepeats (which turns rows repeat an earlier one)', () => {
  it("the seed's Linux round: the complete row written again, and the complete row after its prompt-only row", () => {
    expect(
      flags([
        ['s1', 'p1', 'r1'],
        ['s1', 'p2', null],
        ['s1', 'p1', 'r1'],
        ['s1', 'p2', 'r2'],
        ['s2', 'q1', null],
        ['s2', 'q1', 'qr'],
      ]),
    ).toEqual([
      [false, false],
      [false, false],
      [true, true],
      [true, false],
      [false, false],
      [true, false],
    ]);
  });

  it('a prompt typed twice with a different reply is no repeat; a prompt-only row after a complete one opens a new turn', () => {
    expect(
      flags([
        ['s1', 'continue', 'A'],
        ['s1', 'continue', 'B'],
        ['s1', 'continue', null], // a new turn: the earlier ones are complete
        ['s1', 'continue', null], // the same open turn, written again
        ['s1', 'continue', 'C'], // its complete row
        ['s1', 'continue', null], // another new turn
      ]),
    ).toEqual([
      [false, false],
      [false, false],
      [false, false],
      [true, false],
      [true, false],
      [false, false],
    ]);
  });

  it('is per session, and the same reply to another prompt is its own turn', () => {
    expect(
      flags([
        ['s1', 'p', 'A'],
        ['s2', 'p', 'A'],
        ['s1', 'other', 'A'],
        ['', 'p', 'A'],
      ]),
    ).toEqual([
      [false, false],
      [false, false],
      [false, false],
      [false, false],
    ]);
  });

  it('an identical reply to an identical prompt cannot be told from the copy', () => {
    expect(
      flags([
        ['s1', 'p', 'A'],
        ['s1', 'p', 'A'],
      ]),
    ).toEqual([
      [false, false],
      [true, true],
    ]);
  });
});
