/** The timeline columns, in order (DESIGN, Outputs of analyze). */
export const TIMELINE_COLUMNS = [
  'timestamp_utc',
  'host',
  'user',
  'agent',
  'session_id',
  'project_path',
  'git_branch',
  'model',
  'turn_type',
  'tool_name',
  'tool_use_id',
  'text',
  'source_file',
  'source_line',
] as const;

/** UTF-8 byte order mark: Excel reads the file as UTF-8 only with it (see docs/formats.md). */
export const CSV_BOM = '\uFEFF';

/**
 * One RFC 4180 field: quoted when it holds a comma, a quote, CR or LF (quotes doubled), else as
 * is. The text is never altered: no formula-injection prefix (docs/formats.md explains why).
 */
export function csvField(value: string | number | null | undefined): string {
  const s = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV record with its CRLF terminator. */
export function csvLine(values: readonly (string | number | null | undefined)[]): string {
  return values.map(csvField).join(',') + '\r\n';
}
