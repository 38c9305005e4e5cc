import type { Row } from '@aitrail/parsers';

/** A row as the analyzer carries it: the parser's row plus where it came from and its order. */
export interface TimelineRow extends Row {
  host: string;
  user: string;
  agent: string;
  source_file: string;
  /** Global order: artifact (by input, archive path, parser) then row within it. */
  ord: number;
  /** From a secondary artifact. */
  sec?: boolean;
}
