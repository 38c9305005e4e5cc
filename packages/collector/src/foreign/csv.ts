import { MAX_RECORD_LINE } from './records.js';

/**
 * Rows of a CSV text (RFC 4180: quoted fields, doubled quotes, newlines inside quotes), streamed
 * from chunks; a field or record past MAX_RECORD_LINE ends the parse with an error.
 */
export async function* csvRows(source: AsyncIterable<Buffer>): AsyncGenerator<string[]> {
  let field = '';
  let row: string[] = [];
  let quoted = false;
  let afterQuote = false;
  let size = 0;
  let bom = true;
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of source) {
    let text = decoder.decode(chunk, { stream: true });
    if (bom) {
      text = text.replace(/^\uFEFF/, '');
      bom = false;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (++size > MAX_RECORD_LINE) throw new Error(`a CSV record longer than ${MAX_RECORD_LINE} characters`);
      if (quoted) {
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i++;
          } else {
            quoted = false;
            afterQuote = true;
          }
        } else field += c;
        continue;
      }
      if (c === '"' && field === '' && !afterQuote) quoted = true;
      else if (c === ',') {
        row.push(field);
        field = '';
        afterQuote = false;
      } else if (c === '\n' || c === '\r') {
        if (c === '\r' && text[i + 1] === '\n') i++;
        row.push(field);
        if (row.length > 1 || row[0] !== '') yield row;
        row = [];
        field = '';
        afterQuote = false;
        size = 0;
      } else field += c;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    yield row;
  }
}

/** CSV rows as objects keyed by the header's names (compared case-insensitively by `col`). */
export async function* csvObjects(source: AsyncIterable<Buffer>): AsyncGenerator<{ get(col: string): string | undefined; line: number }> {
  let header: string[] | undefined;
  let line = 0;
  for await (const row of csvRows(source)) {
    line++;
    if (!header) {
      header = row.map((h) => h.trim().toLowerCase());
      continue;
    }
    const r = row;
    yield {
      line,
      get: (col: string) => {
        const i = header!.indexOf(col.toLowerCase());
        return i < 0 ? undefined : r[i];
      },
    };
  }
}
