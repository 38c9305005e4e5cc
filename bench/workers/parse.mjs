// Child process of the parse benchmark: node bench/workers/parse.mjs <mode> <corpus dir>
//   parser: the copilot-cli events parser from @aitrail/parsers (built dist), rows counted
//   lines:  the SDK's readJsonLines alone (the fallback while the parser is not registered)
//   bare:   the baseline, a bare line split + JSON.parse loop over the same bytes
// Prints one JSON line: {mode, label, files, bytes, rows, ms}.
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadParsers } from '../lib/packages.mjs';

const [mode, corpusDir] = process.argv.slice(2);
const corpus = JSON.parse(readFileSync(join(corpusDir, 'corpus.json'), 'utf8'));
const files = corpus.sessions.map((s) => ({ home: join(corpusDir, s.user), user: s.user, rel: s.rel, bytes: s.bytes }));
const bytes = files.reduce((a, f) => a + f.bytes, 0);

async function bare() {
  let rows = 0;
  for (const f of files) {
    const stream = createReadStream(join(f.home, f.rel), { encoding: 'utf8' });
    let carry = '';
    for await (const chunk of stream) {
      const parts = (carry + chunk).split('\n');
      carry = parts.pop();
      for (const line of parts) {
        try {
          JSON.parse(line);
          rows += 1;
        } catch {
          // a cut line
        }
      }
    }
    if (carry) {
      try {
        JSON.parse(carry);
        rows += 1;
      } catch {
        // a cut last line
      }
    }
  }
  return { label: 'bare split + JSON.parse', rows };
}

async function lines(sdk) {
  let rows = 0;
  for (const f of files) for await (const l of sdk.readJsonLines(createReadStream(join(f.home, f.rel)))) if (l.value) rows += 1;
  return { label: 'readJsonLines only (events parser not registered yet)', rows };
}

async function parser(sdk, p) {
  let rows = 0;
  const ctx = { options: { includeThinking: false }, fact() {}, warn() {} };
  for (const f of files) {
    const a = sdk.artifactFromFile(f.home, f.rel, { user: f.user, host: 'bench' });
    for await (const _row of p.parse(a, ctx)) rows += 1;
  }
  return { label: `${p.agent}/${p.name ?? 'events'} parser`, rows };
}

const t0 = performance.now();
let out;
if (mode === 'bare') out = await bare();
else {
  const { sdk, eventsParser } = await loadParsers(files[0]?.rel ?? '.copilot/session-state/00000000-0000-4000-8000-000000000000/events.jsonl');
  out = mode === 'parser' && eventsParser ? await parser(sdk, eventsParser) : await lines(sdk);
}
console.log(JSON.stringify({ mode, ...out, files: files.length, bytes, ms: performance.now() - t0 }));
