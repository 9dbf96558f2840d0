/** RFC 4180 CSV: fields with a comma, quote, CR or LF are quoted, quotes doubled, records end in CRLF. */
export function csvRow(fields: readonly (string | number | null)[]): string {
  return fields.map(csvField).join(',') + '\r\n';
}

function csvField(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Parses RFC 4180 CSV (CRLF or LF line ends) into rows of fields. Throws on an unterminated quote. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  // The field was quoted (so a last record of one empty quoted field, "", is still a record).
  let quoted = false;
  let i = 0;
  const endField = () => {
    row.push(field);
    field = '';
    quoted = false;
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"' && field === '') {
      const close = findClosingQuote(text, i + 1);
      field = text.slice(i + 1, close).replaceAll('""', '"');
      quoted = true;
      i = close + 1;
      continue;
    }
    if (ch === ',') {
      endField();
    } else if (ch === '\n' || ch === '\r') {
      endField();
      rows.push(row);
      row = [];
      if (ch === '\r' && text[i + 1] === '\n') i++;
    } else {
      field += ch;
    }
    i++;
  }
  if (field !== '' || quoted || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

function findClosingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] !== '"') continue;
    if (text[i + 1] === '"') {
      i++;
      continue;
    }
    return i;
  }
  throw new SyntaxError(`unterminated quoted CSV field starting at offset ${from - 1}`);
}

/** Parses CSV with a header row into objects keyed by the header's names. */
export function parseCsvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows.map((fields, index) => {
    if (fields.length !== header.length) {
      throw new SyntaxError(`CSV row ${index + 2} has ${fields.length} fields, the header has ${header.length}`);
    }
    return Object.fromEntries(header.map((name, j) => [name, fields[j]!]));
  });
}
