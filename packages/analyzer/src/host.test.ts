import { describe, expect, it } from 'vitest';
import { formatSummary, globRoot, OUTPUT_FILES } from './host.js';
import * as main from './index.js';

// What the entry loads is checked on the build, in packages/cli/src/e2e/start-up.test.ts.
describe('the host entry (@aitrail/analyzer/host)', () => {
  it('exports the same functions as the main entry', () => {
    expect(formatSummary).toBe(main.formatSummary);
    expect(globRoot).toBe(main.globRoot);
    expect(OUTPUT_FILES).toBe(main.OUTPUT_FILES);
    expect(globRoot('.copilot/session-state/**/events.jsonl')).toBe('.copilot/session-state');
  });
});
