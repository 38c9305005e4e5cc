import { asString, isObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { ParseContext, Row, TurnType } from '../../sdk/types.js';

/** A row before its common fields are filled. */
export interface Draft {
  turn: TurnType;
  text: string;
  tool_name?: string;
  tool_use_id?: string;
  tag?: string;
  /** Epoch ms or ISO; '' or undefined for none. */
  ts?: unknown;
}

/**
 * What the parsers of one task folder share: its id (the session id), the model and mode last
 * reported (a change gives a `model` / `permission_mode` row), and the last time seen.
 */
export class TaskState {
  model = '';
  mode = '';
  lastTs = '';

  constructor(
    readonly ctx: ParseContext,
    readonly sessionId: string,
  ) {}

  /** A finished row. */
  row(d: Draft, line: number | null): Row {
    const ts = d.ts === undefined || d.ts === '' ? '' : toUtc(d.ts);
    if (ts) this.lastTs = ts;
    return makeRow(d.turn, d.text, {
      timestamp_utc: ts,
      session_id: this.sessionId,
      model: d.turn === 'assistant' || d.turn === 'thinking' || d.tag === 'model' ? this.model : '',
      tool_name: d.tool_name ?? '',
      tool_use_id: d.tool_use_id ?? '',
      source_line: line,
      ...(d.tag ? { tag: d.tag } : {}),
    });
  }

  /**
   * Rows for a change of model or mode that a message's `modelInfo` states (Cline 3.x: every UI
   * row and API reply carries `{modelId, providerId, mode}`; the SDK store `{id, provider}`).
   */
  modelInfo(info: unknown, ts: unknown): Draft[] {
    if (!isObject(info)) return [];
    const out: Draft[] = [];
    const id = asString(info.modelId) ?? asString(info.id) ?? '';
    const provider = asString(info.providerId) ?? asString(info.provider) ?? '';
    if (id && id !== this.model) {
      this.model = id;
      out.push({ turn: 'system', text: `model: ${id}${provider ? ` provider=${provider}` : ''}`, tag: 'model', ts });
    }
    const mode = asString(info.mode) ?? '';
    if (mode && mode !== this.mode) {
      this.mode = mode;
      out.push({ turn: 'system', text: `mode: ${mode}`, tag: 'permission_mode', ts });
    }
    return out;
  }
}

/** The task id as the start time when it is one (Cline names a task by its creation time in epoch ms). */
export function taskIdTime(taskId: string): string {
  return /^1\d{12}$/.test(taskId) ? toUtc(Number(taskId)) : '';
}
