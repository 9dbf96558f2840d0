/**
 * Lowercase ASCII slug of a Latin name: diacritics dropped, apostrophes removed, every other run of
 * non-alphanumerics becomes one hyphen. `Damnak Chang'aeur` -> `damnak-changaeur`, `Kratié` -> `kratie`.
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
