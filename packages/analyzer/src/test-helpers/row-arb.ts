import fc from 'fast-check';
import { TEXT_TAGS } from '../record.js';
import type { TimelineRow } from '../row.js';

/** Column text for property tests: any UTF-16, and long runs of what CSV, JSON and UTF-8 treat apart (quotes, CR, LF, NUL, lone surrogates). */
export const textArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('a', '"', ',', '\n', '\r', '\r\n', '\\', '\u0000', '\u001f', '\u007f', '\u00ff', 'é', '\u2028', '😀', '\ud800', '\udc00', ' '), maxLength: 6000 }),
);

/** A timeline row with every column drawn from {@link textArb}, a time or none, a line or none, a tag or none. */
export const rowArb = fc.record({
  timestamp_utc: fc.oneof(fc.constant(''), fc.date({ min: new Date(0), max: new Date(253402300799999), noInvalidDate: true }).map((d) => d.toISOString())),
  host: textArb,
  user: textArb,
  agent: textArb,
  session_id: textArb,
  project_path: textArb,
  git_branch: textArb,
  model: textArb,
  turn_type: fc.constantFrom('system', 'user', 'assistant', 'thinking', 'tool_use', 'tool_result'),
  tool_name: textArb,
  tool_use_id: textArb,
  text: textArb,
  source_file: textArb,
  source_line: fc.oneof(fc.constant(null), fc.nat()),
  ord: fc.nat(),
  tag: fc.oneof(fc.constant(undefined), fc.constantFrom(...TEXT_TAGS, 'bad_line', 'x,"y"', '\ud800')),
  sec: fc.boolean(),
}) as fc.Arbitrary<TimelineRow>;
