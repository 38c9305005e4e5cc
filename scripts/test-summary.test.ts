import { describe, expect, it } from 'vitest';
import { closingLine, countsOf } from './test-summary.mjs';

describe("npm test's closing line", () => {
  it('says how many tests passed, failed and were skipped, a suite that did not load counting as failed', () => {
    const report = {
      numPassedTests: 10,
      numFailedTests: 1,
      numPendingTests: 2,
      numTodoTests: 1,
      testResults: [
        { status: 'passed', assertionResults: [{}, {}] },
        { status: 'failed', assertionResults: [] },
      ],
    };
    expect(closingLine(countsOf(report))).toBe('10 passed, 2 failed, 3 skipped');
    expect(closingLine({ passed: 0, failed: 1, skipped: 0 })).toMatch(/^\d+ passed, \d+ failed, \d+ skipped$/);
  });
});
