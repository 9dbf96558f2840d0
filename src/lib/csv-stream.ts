/**
 * RFC 4180 CSV read in pieces: feed text as it arrives, get back the complete records; a quoted field may span
 * pieces and lines. Memory holds one record at a time (and a bounded field: see MAX_FIELD).
 */

/** A field longer than this is refused (a runaway quote would otherwise read the whole file into one field). */
export const MAX_FIELD = 1_000_000;

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

export class CsvStreamParser {
  private row: string[] = [];
  private field = '';
  private quoted = false;
  /** In a quoted field, the last character was a quote (the end of the field, or the first of a doubled one). */
  private quoteSeen = false;
  /** The last character ended a record with CR (an LF right after it belongs to it). */
  private afterCr = false;
  private fieldStarted = false;

  /**
   * Parses the next piece of text; returns the records it completes. Runs of ordinary characters are appended as one
   * slice, not character by character.
   */
  push(text: string): string[][] {
    const records: string[][] = [];
    const n = text.length;
    let i = 0;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (this.afterCr) {
        this.afterCr = false;
        if (c === LF) {
          i++;
          continue;
        }
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (c === QUOTE) {
            this.append(text, i, i + 1);
            i++;
            continue;
          }
          this.quoted = false;
          // fall through: the character after the closing quote
        } else if (c === QUOTE) {
          this.quoteSeen = true;
          i++;
          continue;
        } else {
          let j = i + 1;
          while (j < n && text.charCodeAt(j) !== QUOTE) j++;
          this.append(text, i, j);
          i = j;
          continue;
        }
      }
      if (c === QUOTE && !this.fieldStarted) {
        this.quoted = true;
        this.fieldStarted = true;
        i++;
      } else if (c === COMMA) {
        this.endField();
        i++;
      } else if (c === LF || c === CR) {
        this.endField();
        records.push(this.row);
        this.row = [];
        this.afterCr = c === CR;
        i++;
      } else {
        // An unquoted field: up to the next comma or line break (a quote inside it is a character like any other).
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === COMMA || d === LF || d === CR) break;
          j++;
        }
        this.append(text, i, j);
        i = j;
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

  /** Appends text[from, to) to the field. */
  private append(text: string, from: number, to: number): void {
    this.fieldStarted = true;
    if (this.field.length + (to - from) > MAX_FIELD) throw new SyntaxError(`a CSV field is longer than ${MAX_FIELD} characters (an unterminated quote?)`);
    this.field += text.slice(from, to);
  }

  private endField(): void {
    this.row.push(this.field);
    this.field = '';
    this.fieldStarted = false;
    this.quoted = false;
    this.quoteSeen = false;
  }
}
