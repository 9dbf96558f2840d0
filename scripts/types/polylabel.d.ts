/** polylabel 2 ships no types: the pole of inaccessibility of a polygon (outer ring, then holes). */
declare module 'polylabel' {
  export default function polylabel(polygon: number[][][], precision?: number, debug?: boolean): number[] & { distance: number };
}
