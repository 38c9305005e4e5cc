import { createHash } from 'node:crypto';

/**
 * Which turns rows repeat an earlier row of their session (tag `repeat`), from the seed's write
 * pattern: a turn's complete row is written at the next prompt or at shutdown, a prompt-only row
 * (null reply) mid-turn, and the previous turn's complete row is written again under a new index
 * when a prompt-only row sits between. Rows are taken in write (rowid) order, per session and
 * prompt text; a null or empty reply counts as none:
 * - a prompt-only row opens its prompt; a complete row closes it;
 * - the user row repeats when its prompt is open (the same turn, written again) or when the same
 *   (prompt, reply) was written before; the assistant row repeats only in the latter case.
 * So a prompt typed twice that got a different reply is not a repeat, nor is a prompt-only row
 * after that prompt's complete row (a new turn). An identical reply to an identical prompt
 * cannot be told from the copy: it counts as one.
 */
export class TurnRepeats {
  private readonly open = new Set<string>();
  private readonly written = new Set<string>();

  /** Whether this row's user and assistant rows repeat; then records the row. */
  see(session: string, prompt: string, reply: string): { user: boolean; assistant: boolean } {
    const p = digest(session, prompt);
    if (reply === '') {
      const user = this.open.has(p);
      this.open.add(p);
      return { user, assistant: false };
    }
    const pr = digest(session, prompt, reply);
    const again = this.written.has(pr);
    const user = again || this.open.has(p);
    this.open.delete(p);
    this.written.add(pr);
    return { user, assistant: again };
  }
}

// A hash, not the texts: a store's replies can be large and every one is remembered.
function digest(...parts: string[]): string {
  const h = createHash('sha1');
  for (const p of parts) h.update(`${p.length}:${p}`);
  return h.digest('base64');
}
