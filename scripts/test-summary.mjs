// The closing line of `npm test`, from vitest's JSON report and the checks run before it.

/**
 * Counts from a vitest JSON report: passed and failed tests, a suite that failed to load (no
 * tests to count, still a failure), and skipped ones (skipped, todo).
 * @param {{ numPassedTests: number, numFailedTests: number, numPendingTests?: number, numTodoTests?: number, testResults: { status: string, assertionResults: unknown[] }[] }} r
 */
export function countsOf(r) {
  const brokenSuites = r.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length;
  return { passed: r.numPassedTests, failed: r.numFailedTests + brokenSuites, skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0) };
}

/** `N passed, N failed, N skipped` (the before-stop hook and CI read "passed, "). */
export function closingLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}
