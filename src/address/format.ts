/**
 * The canonical address of a resolved unit, in Khmer and in Latin script, in the conventional orders:
 *   Khmer: ផ្ទះលេខ… ផ្លូវ… ក្រុម… ភូមិ… ឃុំ/សង្កាត់… ស្រុក/ក្រុង/ខណ្ឌ… ខេត្ត/រាជធានី… postal code
 *   Latin: house, street, group, Phum, Khum/Sangkat, Srok/Krong/Khan, Province/Capital, postal code
 * Each unit's word is its own type in the dataset (សង្កាត់/Sangkat in towns, ខណ្ឌ/Khan in Phnom Penh...).
 */
import type { Unit } from '../gazetteer/types.js';
import { flat } from '../lib/flat.js';
import type { AddressParts } from './parts.js';
import type { Chain } from './candidate.js';

export interface FormattedAddress {
  km: string;
  latin: string;
}

const KHMER_DIGITS = '០១២៣៤៥៦៧៨៩';

/** ASCII digits written as Khmer digits (a loop: a replace() with a callback per digit cost more than the rest). */
function khmerDigits(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out += c >= 48 && c <= 57 ? KHMER_DIGITS[c - 48]! : text[i]!;
  }
  return out;
}

/** The unit's Khmer name with its unit word, unless the name already starts with it (ភូមិថ្មី). */
function khmerUnit(unit: Unit): string {
  return unit.name_km.startsWith(unit.unit_type_km) ? unit.name_km : `${unit.unit_type_km}${unit.name_km}`;
}

function latinUnit(unit: Unit): string {
  if (unit.level === 'province') return `${unit.name_latin} ${unit.type === 'capital' ? 'Capital' : 'Province'}`;
  const word = unit.unit_type_latin;
  return unit.name_latin.toLowerCase().startsWith(`${word.toLowerCase()} `) ? unit.name_latin : `${word} ${unit.name_latin}`;
}

/** Each unit's written forms, made once (every answer that names the unit writes the same). */
const written = new WeakMap<Unit, { km: string; latin: string; postalKm: string }>();
function writtenUnit(unit: Unit): { km: string; latin: string; postalKm: string } {
  let forms = written.get(unit);
  if (forms === undefined) written.set(unit, (forms = { km: khmerUnit(unit), latin: latinUnit(unit), postalKm: khmerDigits(unit.postal_code) }));
  return forms;
}

function khmerStreet(street: string): string {
  const national = /^National Road (.+)$/.exec(street);
  if (national) return `ផ្លូវជាតិលេខ${khmerDigits(national[1]!)}`;
  const numbered = /^St\. (.+)$/.exec(street);
  if (numbered) return `ផ្លូវលេខ${khmerDigits(numbered[1]!)}`;
  return /^[\u1780-\u17FF]/.test(street) ? street : `ផ្លូវ ${street}`;
}

export function formatAddress(chain: Chain, parts: Pick<AddressParts, 'house_number' | 'street' | 'group' | 'borey'>): FormattedAddress {
  const units = [chain.village, chain.commune, chain.district, chain.province].filter((u): u is Unit => u !== null);
  // The postal code of the most specific unit (a village carries its commune's).
  const postal = units[0]!.postal_code;
  const postalKm = writtenUnit(units[0]!).postalKm;
  const km: string[] = [];
  const latin: string[] = [];
  if (parts.house_number) {
    km.push(`ផ្ទះលេខ${khmerDigits(parts.house_number)}`);
    latin.push(`No. ${parts.house_number}`);
  }
  if (parts.street) {
    km.push(khmerStreet(parts.street));
    latin.push(/^[\u1780-\u17FF]/.test(parts.street) ? parts.street : parts.street);
  }
  if (parts.group) {
    km.push(`ក្រុមទី${khmerDigits(parts.group)}`);
    latin.push(`Krom ${parts.group}`);
  }
  if (parts.borey) {
    km.push(/^[\u1780-\u17FF]/.test(parts.borey) ? parts.borey : `បុរី ${parts.borey.replace(/^Borey\s+/i, '')}`);
    latin.push(/^[\u1780-\u17FF]/.test(parts.borey) ? parts.borey : parts.borey);
  }
  for (const unit of units) {
    const forms = writtenUnit(unit);
    km.push(forms.km);
    latin.push(forms.latin);
  }
  // Flat strings (see lib/flat.ts): the serializer checks each with a regular expression.
  return { km: flat`${km.join(' ')} ${postalKm}`, latin: flat`${latin.join(', ')} ${postal}` };
}
