/** A user mistake or a refused input: the CLI prints the message, without a stack trace. */
export class AnalyzeError extends Error {
  override name = 'AnalyzeError';
}
