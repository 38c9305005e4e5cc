import cliProgress from 'cli-progress';
import { terminalText } from './terminal-text.js';

/** Fields a progress update may carry; shown as `key=value` in plain mode. */
export type ProgressFields = Record<string, string | number>;

/** A progress reporter on stderr: a bar on a terminal, plain lines when piped. */
export interface Progress {
  /** New values; in plain mode a line is printed at most every `intervalMs`. */
  update(fields: ProgressFields): void;
  /** A line for the operator, printed above the bar (never file content or secrets). */
  log(line: string): void;
  /** Clear the bar (or print the last plain line). */
  stop(): void;
}

/** Options of createProgress. */
export interface ProgressOptions {
  label: string;
  /** Default: stderr. */
  stream?: NodeJS.WriteStream;
  /** Force plain lines (default: plain unless the stream is a TTY). */
  plain?: boolean;
  /** Minimum gap between plain lines (default 1000 ms). */
  intervalMs?: number;
  /** Print nothing (e.g. --json callers that want a quiet stderr). */
  silent?: boolean;
}

// Fields and log lines may carry names from the evidence (a user, a path): never raw controls.
function fmt(fields: ProgressFields): string {
  return terminalText(
    Object.entries(fields)
      .map(([k, v]) => `${k}=${v}`)
      .join(' '),
  );
}

/** Create a progress reporter: `update(fields)`, `log(line)`, `stop()`. */
export function createProgress(opts: ProgressOptions): Progress {
  const stream = opts.stream ?? process.stderr;
  if (opts.silent) return { update() {}, log() {}, stop() {} };
  const plain = opts.plain ?? !stream.isTTY;
  const interval = opts.intervalMs ?? 1000;
  let fields: ProgressFields = {};
  if (plain) {
    let last = 0;
    let dirty = false;
    return {
      update(f) {
        fields = { ...fields, ...f };
        dirty = true;
        const now = Date.now();
        if (now - last >= interval) {
          last = now;
          dirty = false;
          stream.write(`${opts.label}: ${fmt(fields)}\n`);
        }
      },
      log(line) {
        stream.write(`${terminalText(line)}\n`);
      },
      stop() {
        if (dirty) stream.write(`${opts.label}: ${fmt(fields)}\n`);
        dirty = false;
      },
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${opts.label} {spinner} {text}`,
      noTTYOutput: true,
      hideCursor: true,
      clearOnComplete: true,
      linewrap: false,
      fps: 8,
    },
    cliProgress.Presets.shades_classic,
  );
  const spin = ['|', '/', '-', '\\'];
  let n = 0;
  bar.start(1, 0, { spinner: spin[0], text: '' });
  return {
    update(f) {
      fields = { ...fields, ...f };
      n += 1;
      const width = (stream.columns ?? 100) - opts.label.length - 4;
      bar.update(0, { spinner: spin[n % spin.length], text: fmt(fields).slice(0, Math.max(10, width)) });
    },
    log(line) {
      // Clear the bar's line, print, and let the next render redraw it.
      stream.write(`\r\x1b[2K${terminalText(line)}\n`);
      bar.render();
    },
    stop() {
      bar.stop();
    },
  };
}
