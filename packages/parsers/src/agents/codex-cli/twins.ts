/** The kinds of text Codex writes twice: a response item and an event (or item_completed) copy. */
export type TwinKind = 'user' | 'assistant' | 'thinking';

/** Where a copy comes from: `event_msg` user_message/agent_message/agent_reasoning, or `item_completed`. Each pairs one to one with the items. */
export type TwinFamily = 'event' | 'completed';

/**
 * Pairs the two copies Codex writes of each prompt, reply and reasoning block: the response item
 * (kept, it is the model's input and output) and the `event_msg` user_message / agent_message /
 * agent_reasoning or `item_completed` copy (dropped). They come in either order (the event first
 * for replies, the item first for prompts), so within a turn each side counts what the other has
 * not matched yet. An event copy left without its item when the turn ends (a file cut between
 * the two lines, a build that wrote only the event) is not lost: {@link flush} hands it back to be
 * emitted as a row of its own.
 */
export class TwinTracker<R> {
  /** One tracker per family: a build that writes both an event and an item_completed copy pairs each with the item. */
  static pair<R>(): Record<TwinFamily, TwinTracker<R>> {
    return { event: new TwinTracker<R>(), completed: new TwinTracker<R>() };
  }

  private readonly items = new Map<string, number>();
  private pending: { kind: TwinKind; texts: string[]; row: R }[] = [];

  /** A response item's text (with its alternative spellings: parts, text without image markers). */
  item(kind: TwinKind, texts: readonly string[]): void {
    const keys = unique(texts);
    const i = this.pending.findIndex((p) => p.kind === kind && p.texts.some((t) => keys.includes(t)));
    if (i >= 0) {
      this.pending.splice(i, 1);
      return;
    }
    for (const t of keys) this.items.set(`${kind}\u0000${t}`, (this.items.get(`${kind}\u0000${t}`) ?? 0) + 1);
  }

  /** An event copy: true when its item was seen (a copy, no row); else it waits for the item, with the row it would give. */
  event(kind: TwinKind, texts: readonly string[], row: R): boolean {
    for (const t of unique(texts)) {
      const k = `${kind}\u0000${t}`;
      const n = this.items.get(k) ?? 0;
      if (n > 0) {
        if (n === 1) this.items.delete(k);
        else this.items.set(k, n - 1);
        return true;
      }
    }
    this.pending.push({ kind, texts: unique(texts), row });
    return false;
  }

  /** How many texts wait for a partner (items and copies). */
  get size(): number {
    return this.items.size + this.pending.length;
  }

  /** The end of a turn (or of the file): the event copies that never met their item, in order. */
  flush(): { kind: TwinKind; row: R }[] {
    const out = this.pending.map((p) => ({ kind: p.kind, row: p.row }));
    this.pending = [];
    this.items.clear();
    return out;
  }
}

function unique(texts: readonly string[]): string[] {
  return [...new Set(texts.filter((t) => t !== ''))];
}
