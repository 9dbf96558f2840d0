import { foldWords, wordKeys } from '../search/latin.js';

/**
 * The parts of an address outside the gazetteer: house number, street, group (ក្រុម), borey, building, postal code and
 * the country. Each is found by a linear regex (no nested quantifiers, bounded repetition) on the working text and its
 * span is recorded, so the unit matcher skips it.
 */

/** Parts recognised outside the gazetteer, as written (digits ASCII). */
export interface AddressParts {
  house_number: string | null;
  street: string | null;
  group: string | null;
  borey: string | null;
  building: string | null;
  /** A 6-digit postal code found in the text. */
  postal_code: string | null;
  /** A 5-digit code of the former Cambodia Post scheme, when written instead. */
  legacy_postal_code: string | null;
  /** A telephone number, as written (Tel: 012 345 678, ទូរស័ព្ទ៖ ០២៣ ២១៦ ០០០, +855 23 216 000): never read for a unit. */
  phone: string | null;
  /** Whether the country was named (Cambodia, Kingdom of Cambodia, កម្ពុជា; German Kambodscha, French Cambodge). */
  country: boolean;
}

export interface Span {
  start: number;
  end: number;
}

/** One recognised part: its kind, value and span in the working text. */
interface Found extends Span {
  kind: keyof Omit<AddressParts, 'country'> | 'country';
  value: string;
}

const KH = '\\u1780-\\u17FF';
/** Khmer text up to a space, a separator, a Latin letter or a unit word (for named streets and boreys). */
const KHMER_NAME = `(?!ភូមិ|ឃុំ|សង្កាត់|ស្រុក|ខណ្ឌ|ក្រុង|ខេត្ត|រាជធានី)[${KH}]{1,40}?(?=[\\s,;\\n]|$|ភូមិ|ឃុំ|សង្កាត់|ស្រុក|ខណ្ឌ|ក្រុង|ខេត្ត|រាជធានី|ក្រុម|ផ្លូវ|[A-Za-z0-9])`;

/** An optional space between a Khmer word and what follows it: a space, or a zero-width one (Khmer text has many). */
const GAP = String.raw`[\s\u200b-\u200d\ufeff]?`;

/** Latin unit words written before the unit's name (Phum X, Sangkat Y, Khan Z), as alternatives of a pattern. */
const LEADING_UNIT_WORDS = 'phum|phoum|phoom|khum|khom|khoum|sangkat|sangkath|sankat|songkat|sngkat|srok|khan|krong|khet|khaet|khett';

interface Rule {
  kind: Found['kind'];
  pattern: RegExp;
  /**
   * What the pattern cannot match without (the rule is not tried on text that has none): an ASCII digit, Khmer script,
   * an ASCII letter (the patterns' Latin letters match only ASCII ones, `i` flag or not: no `u` flag).
   */
  needs?: readonly ('digit' | 'khmer' | 'latin')[];
  /** The value from the match; the whole match by default. */
  value?: (m: RegExpExecArray) => string;
}

const DIGIT = ['digit'] as const;
const KHMER = ['khmer'] as const;
const LATIN = ['latin'] as const;
const DIGIT_KHMER = ['digit', 'khmer'] as const;
const DIGIT_LATIN = ['digit', 'latin'] as const;

const RULES: Rule[] = [
  // Telephone numbers first (their digits are no postal code, house or village number): after a label (Tel, Phone,
  // ទូរស័ព្ទ, ...), or in Cambodia's forms alone (0 or +855, then 8 or 9 digits in groups: 012 345 678, 023-216-000).
  {
    kind: 'phone',
    pattern: new RegExp(String.raw`(?:(?:លេខ)?(?:ទូរស័ព្ទ|ទូរសព្ទ)(?:លេខ)?|\b(?:Tel|Telephone|Phone|Mobile|Mob|Hotline|Fax|H/P)\b\.?|☎|📞)${GAP}[:៖.]?\s{0,3}`
      + String.raw`(\+?\(?\d[\d ()\-./]{5,24}\d)`, 'gi'),
    value: (m) => m[1]!,
    needs: DIGIT,
  },
  {
    kind: 'phone',
    pattern: /(?<![\dA-Za-z])(?:\+855|\(\+?855\)|0)[ \-.]?\d{2}[ \-.]?\d{3}[ \-.]?\d{3,4}(?!\d)/g,
    needs: DIGIT,
  },
  // Postal codes: six digits standing alone (not part of a longer number or a house number range).
  { kind: 'postal_code', pattern: /(?<![\d\-/#])\d{6}(?![\d\-/])/g, needs: DIGIT },
  { kind: 'country', pattern: /\b(?:the\s+)?(?:Kingdom\s+of\s+)?Cambodia\b|\b(?:Kambodscha|Cambodge)\b|ព្រះរាជាណាចក្រកម្ពុជា|ប្រទេសកម្ពុជា|កម្ពុជា/gi },
  // National road: National Road 5, NR5, NR.5, Route Nationale 5, ផ្លូវជាតិលេខ៥.
  {
    kind: 'street',
    pattern: /\b(?:National\s+(?:Road|Raod|Highway|Rd\.?)|N\.?R\.?|N\.?H\.?|Route\s+Nationale|RN)\s?(?:No\.?\s?|#)?(\d{1,3}[A-Za-z]?)\b/gi,
    value: (m) => `National Road ${m[1]!}`,
    needs: DIGIT_LATIN,
  },
  { kind: 'street', pattern: new RegExp(String.raw`ផ្ល[ូុ]វជាតិ(?:លេខ)?${GAP}(\d{1,3})`, 'g'), value: (m) => `National Road ${m[1]!}`, needs: DIGIT_KHMER },
  // House: ផ្ទះលេខ12, #12, No. 12, № 12, House 12, House № 12, House, 40ABC, 12E0 (a unit on a floor).
  { kind: 'house_number', pattern: new RegExp(String.raw`(?:ផ្ទះលេខ|ផ្ទះ)${GAP}(\d{1,5}(?:[A-Za-z]{1,2}\d{0,3})?(?:[-/]\d{1,5}[A-Za-z]?)?)`, 'g'), value: (m) => m[1]!, needs: DIGIT_KHMER },
  {
    kind: 'house_number',
    pattern: /(?:\bHouse\b,?\s?(?:No\b\.?|Nº|№|#)?|#|№|\b(?:No|Nº|Home)\b\.?)\s{0,2}(\d{1,5}(?:[A-Za-z]{1,4}\d{0,3})?(?:[-/+]\s?\d{1,5}[A-Za-z]{0,4})?)\b/gi,
    value: (m) => m[1]!,
    needs: DIGIT,
  },
  { kind: 'house_number', pattern: /\b\d{1,5}E[0-9]{1,2}\b/g, needs: DIGIT_LATIN },
  // Numbered street: St. 271, Street 271, St.271, Str 2004, Road 60, ផ្លូវលេខ២៧១, ផ្លូវ២៣.
  { kind: 'street', pattern: /\b(?:St|Str|Street|Rd|Road|Ph?lov)\b\.?\s?(?:No\.?\s?|#)?(\d{1,5}[A-Za-z]{0,2}(?:[-/]\d{1,4})?)\b/gi, value: (m) => `St. ${m[1]!}`, needs: DIGIT_LATIN },
  { kind: 'street', pattern: new RegExp(String.raw`ផ្ល[ូុ]វ(?:លេខ)?${GAP}(\d{1,5}(?:[A-Za-z]{1,2})?)`, 'g'), value: (m) => `St. ${m[1]!}`, needs: DIGIT_KHMER },
  // Named boulevards and avenues: Preah Norodom Blvd, Russian Blvd, Monivong Boulevard, Mao Tse Toung Blvd (Bvld, as typed).
  {
    kind: 'street',
    pattern: /\b(?:[A-Z][A-Za-z'’.]{1,20}\s){0,4}[A-Z][A-Za-z'’.]{1,20}\s(?:Blvd|Bvld|Boulevard|Avenue|Ave)\b\.?/g,
    needs: LATIN,
  },
  { kind: 'street', pattern: /\b(?:Blvd|Boulevard|Avenue)\s(?:[A-Z][A-Za-z'’]{1,20}\s?){1,4}/g, needs: LATIN },
  { kind: 'street', pattern: new RegExp(`(?:មហាវិថី|វិថី)${GAP}${KHMER_NAME}`, 'g'), needs: KHMER },
  // Group: ក្រុមទី៣, ក្រុម 3, Krom 3, Group 3.
  { kind: 'group', pattern: new RegExp(String.raw`ក្រុម(?:ទី)?${GAP}(\d{1,3})`, 'g'), value: (m) => m[1]!, needs: DIGIT_KHMER },
  { kind: 'group', pattern: /\b(?:Krom|Group|Grp)\b\.?\s?(?:No\.?\s?)?(\d{1,3})\b/gi, value: (m) => m[1]!, needs: DIGIT_LATIN },
  // Borey: Borey Peng Huoth, បុរីប៉េងហួត. Its name ends before a unit word that comes before a name (`Borey Peng Huoth
  // Sangkat Chak Angrae`, `Street Borey\nSangkat ...`: the sangkat is no part of it).
  { kind: 'borey', pattern: new RegExp(`\\bBorey\\s(?:(?!(?:${LEADING_UNIT_WORDS})\\b)[A-Za-z0-9'’]{1,20}\\s?){1,4}`, 'gi'), needs: LATIN },
  // Not inside a word (អង្គបុរី, ចិត្របុរី, ស្រុកបុរីជលសារ: names).
  { kind: 'borey', pattern: new RegExp(`(?<![${KH}])បុរី${GAP}${KHMER_NAME}`, 'g'), needs: KHMER },
  // Building, floor, room: kept as written up to the next comma.
  { kind: 'building', pattern: /\b(?:Building|Bldg|Tower|Floor|Fl|Room|Rm|Unit)\b\.?\s?[A-Za-z0-9#-]{0,12}/gi, needs: LATIN },
  // អគារលេខ១៣ (building 13: no village ១៣), បន្ទប់ 5, ជាន់ទី៣ (a floor: ជាន់ alone is in names, អូរបីជាន់).
  { kind: 'building', pattern: new RegExp(`(?<![${KH}])(?:(?:អគារ|បន្ទប់)(?:${GAP}លេខ)?|ជាន់${GAP}(?:ទី|លេខ))${GAP}[A-Za-z]{0,2}\\d{1,5}[A-Za-z]{0,2}`, 'g'), needs: DIGIT_KHMER },
  // Legacy 5-digit postal codes, after house numbers and streets have taken their digits.
  { kind: 'legacy_postal_code', pattern: /(?<![\d\-/#])\d{5}(?![\d\-/])/g, needs: DIGIT },
];

/** Finds the parts; later rules skip text an earlier rule took. */
export function findParts(text: string): { parts: AddressParts; spans: Found[] } {
  const spans: Found[] = [];
  const parts: AddressParts = {
    house_number: null, street: null, group: null, borey: null, building: null, postal_code: null, legacy_postal_code: null,
    phone: null, country: false,
  };
  const taken = (start: number, end: number) => spans.some((s) => start < s.end && s.start < end);
  const has = { digit: /\d/.test(text), khmer: /[\u1780-\u17FF]/.test(text), latin: /[A-Za-z]/.test(text) };
  for (const rule of RULES) {
    if (rule.needs && !rule.needs.every((what) => has[what])) continue;
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m !== null; m = rule.pattern.exec(text)) {
      if (m[0].length === 0) {
        rule.pattern.lastIndex++;
        continue;
      }
      const start = m.index;
      const end = start + m[0].length;
      if (taken(start, end)) continue;
      const value = (rule.value ? rule.value(m) : m[0]).trim().replace(/\s+/g, ' ');
      spans.push({ kind: rule.kind, value, start, end });
      if (rule.kind === 'country') parts.country = true;
      else if (parts[rule.kind] === null) parts[rule.kind] = value;
    }
  }
  spans.sort((a, b) => a.start - b.start);
  return { parts, spans };
}

/** BoreyNames' lists, as the address snapshot keeps them. */
export interface SavedBoreyNames {
  khmer: string[];
  latin: { keys: string[]; borey: number }[];
}

/** Whether a value has SavedBoreyNames' shape. */
export function isSavedBoreyNames(value: unknown): value is SavedBoreyNames {
  const v = value as SavedBoreyNames | undefined;
  return Array.isArray(v?.khmer) && v.khmer.every((k) => typeof k === 'string') && Array.isArray(v.latin)
    && v.latin.every((l) => Array.isArray(l?.keys) && l.keys.every((k) => typeof k === 'string') && Number.isInteger(l.borey));
}

/**
 * Place names with the word borey in them: Angkor Borei, Borei Cholsar, Mongkol Borey, អង្គបុរី, ចេត្របុរី. The borey
 * rule reads "Borey ..." and "បុរី..." as a housing estate (Borey Peng Huoth); where the text there is one of these
 * names, it is the name, and the part is dropped (keep).
 */
export class BoreyNames {
  /** Khmer names that start with the borey word, from it on, with ូ as ុ (បុរីជលសារ for បូរីជលសារ). */
  private readonly khmer: string[] = [];
  /** Each Latin name's words as romanization keys (wordKeys), and the position of its borey word. */
  private readonly latin: { keys: string[]; borey: number }[] = [];

  /** From the units' names, or from what saved() gave (the build's snapshot: about 10 ms of CPU at start saved). */
  constructor(names: Iterable<{ km: string; latin: string }>, saved?: SavedBoreyNames) {
    if (saved) {
      this.khmer = saved.khmer;
      this.latin = saved.latin;
      return;
    }
    const boreyKey = wordKeys(['borey']);
    const seen = new Set<string>();
    for (const name of names) {
      const km = /^[បព][ុូ]រី\s?(.{2,})$/.exec(name.km);
      const tail = km ? `បុរី${km[1]!.replace(/\s/g, '').replace(/ូ/g, 'ុ')}` : '';
      if (km && !seen.has(tail)) {
        seen.add(tail);
        this.khmer.push(tail);
      }
      // The borey word's key is para (Borey, Borei, Bori): names without a word like it are passed over unkeyed.
      if (!/\b[bp][aeiouy]+r[aeiouy]+\b/i.test(name.latin)) continue;
      const keys = wordKeys(foldWords(name.latin)).split(' ');
      const borey = keys.indexOf(boreyKey);
      const key = keys.join(' ');
      // A name of the borey word and another at least (a village called Borei alone is no estate's name).
      if (borey >= 0 && keys.length > 1 && !seen.has(key)) {
        seen.add(key);
        this.latin.push({ keys, borey });
      }
    }
  }

  saved(): SavedBoreyNames {
    return { khmer: this.khmer, latin: this.latin };
  }

  /** Drops the borey parts that are one of the names, and sets parts.borey to the first one left (or null). */
  keep(text: string, parts: AddressParts, spans: Found[]): Found[] {
    let words: LatinKeyed[] | undefined;
    const kept = spans.filter((span) => {
      if (span.kind !== 'borey') return true;
      if (/[\u1780-\u17FF]/.test(text.slice(span.start, span.start + 1))) {
        const written = text.slice(span.start, span.start + 60).replace(/\s/g, '').replace(/ូ/g, 'ុ');
        return !this.khmer.some((tail) => written.startsWith(tail));
      }
      return !this.isLatinName((words ??= latinKeyed(text)), span.start);
    });
    if (kept.length !== spans.length) parts.borey = kept.find((span) => span.kind === 'borey')?.value ?? null;
    return kept;
  }

  /** Whether the Latin word at `start` (a Borey) is the borey word of one of the names, in the same part of the text. */
  private isLatinName(words: readonly LatinKeyed[], start: number): boolean {
    const at = words.findIndex((w) => w.start === start);
    if (at < 0) return false;
    return this.latin.some(({ keys, borey }) => {
      const first = at - borey;
      return first >= 0 && keys.every((key, k) => words[first + k]?.key === key && words[first + k]!.part === words[at]!.part);
    });
  }
}

interface LatinKeyed {
  /** The word's romanization key (wordKeys). */
  key: string;
  start: number;
  /** Which part of the text (between commas, semicolons and newlines) it is in. */
  part: number;
}

/** The ASCII words of a text with their keys, in one pass (keys are remembered per word: see wordKeys). */
function latinKeyed(text: string): LatinKeyed[] {
  const words: LatinKeyed[] = [];
  let part = 0;
  for (const m of text.matchAll(/[A-Za-z]+|[,;\n]/g)) {
    if (m[0].length === 1 && /[,;\n]/.test(m[0])) part++;
    else words.push({ key: wordKeys([m[0].toLowerCase()]), start: m.index, part });
  }
  return words;
}
