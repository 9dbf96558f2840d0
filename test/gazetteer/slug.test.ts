import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { slugify } from '../../src/gazetteer/slug.js';

describe('slugify', () => {
  it('makes lowercase ASCII slugs from Latin names', () => {
    assert.equal(slugify('Phnom Penh'), 'phnom-penh');
    assert.equal(slugify('Kratié'), 'kratie');
    assert.equal(slugify('Chambâk 1'), 'chambak-1');
    assert.equal(slugify("Damnak Chang'aeur"), 'damnak-changaeur');
    assert.equal(slugify('Veah (Cheang Sar)'), 'veah-cheang-sar');
    assert.equal(slugify('Phum Dab - Prambei'), 'phum-dab-prambei');
    assert.equal(slugify('  Phsar Slab; Leaeng '), 'phsar-slab-leaeng');
  });

  it('gives an empty slug when nothing Latin is left', () => {
    assert.equal(slugify('ភ្នំពេញ'), '');
  });
});
