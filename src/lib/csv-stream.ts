/**
 * RFC 4180 CSV read in pieces: feed text as it arrives, get back the complete records; a quoted field may span
 * pieces and lines. Memory holds one record at a time (and a bounded field: see MAX_FIELD).
 */

/** A field longer than this is refused (a runaway quote would otherwise read the whole file into one field). */
export const MAX_FIELD = 1_000_000;

export class CsvStreamParser {
  private row: string[] = [];
  private field = '';
  private quoted = false;
  /** In a quoted field, the last character was a quote (the end of the field, or the first of a doubled one). */
  private quoteSeen = false;
  /** The last character ended a record with CR (an LF right after it belongs to it). */
  private afterCr = false;
  private fieldStarted = false;

  /** Parses the next piece of text; returns the records it completes. */
  push(text: string): string[][] {
    const records: string[][] = [];
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (this.afterCr) {
        this.afterCr = false;
        if (ch === '\n') continue;
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (ch === '"') {
            this.field += '"';
            continue;
          }
          this.quoted = false;
          // fall through: the character after the closing quote
        } else if (ch === '"') {
          this.quoteSeen = true;
          continue;
        } else {
          this.append(ch);
          continue;
        }
      }
      if (ch === '"' && !this.fieldStarted) {
        this.quoted = true;
        this.fieldStarted = true;
      } else if (ch === ',') {
        this.endField();
      } else if (ch === '\n' || ch === '\r') {
        this.endField();
        records.push(this.row);
        this.row = [];
        this.afterCr = ch === '\r';
      } else {
        this.append(ch);
      }
    }
    return records;
  }

  /** The last record, if the text did not end with a line break. Throws on an unterminated quote. */
  end(): string[][] {
    if (this.quoted && !this.quoteSeen) throw new SyntaxError('unterminated quoted CSV field at the end of the input');
    if (this.field === '' && this.row.length === 0 && !this.fieldStarted) return [];
    this.endField();
    const last = this.row;
    this.row = [];
    return [last];
  }

  private append(ch: string): void {
    this.fieldStarted = true;
    if (this.field.length >= MAX_FIELD) throw new SyntaxError(`a CSV field is longer than ${MAX_FIELD} characters (an unterminated quote?)`);
    this.field += ch;
  }

  private endField(): void {
    this.row.push(this.field);
    this.field = '';
    this.fieldStarted = false;
    this.quoted = false;
    this.quoteSeen = false;
  }
}
