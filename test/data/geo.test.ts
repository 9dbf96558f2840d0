import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildDataset } from '../../scripts/build-data.js';
import { orderBox, validateGeo } from '../../scripts/data/geo.js';
import { readSources } from '../../scripts/data/sources.js';
import { unit } from '../helper.js';

describe('geography in the dataset', () => {
  const built = buildDataset();

  it('rebuilds the 928 boxes that listed two corners, and drops the centroids shared with a namesake', () => {
    assert.equal(built.geo.repairs.filter((r) => r.rule === 'bbox-corner-order').length, 928);
    const raw = readSources().units.find((u) => u.code === '250704')!;
    assert.deepEqual(raw.geo!.bbox, { min_lat: 12.0386959, max_lat: 105.5612789, min_lng: 11.9829099, max_lng: 105.4714971 });
    assert.deepEqual(unit('250704').geo!.bbox, { min_lat: 11.9829099, max_lat: 12.0386959, min_lng: 105.4714971, max_lng: 105.5612789 });
    // Kraya: 060402 and 060705 had one centroid; it lies in the 2014 polygon of 060705.
    assert.equal(unit('060402').geo, null);
    assert.ok(unit('060705').geo);
    assert.equal(unit('250705').geo, null); // Chirou Ti Pir: the point is Chirou Ti Muoy's
    assert.ok(built.geo.problemsBefore >= 928);
  });

  it('has every centroid in Cambodia and in its own box, and no two units on one centroid', () => {
    assert.deepEqual(validateGeo(built.dataset.units), []);
    const withGeo = built.dataset.units.filter((u) => u.geo);
    assert.ok(withGeo.length > 1400, `${withGeo.length}`);
  });

  it('catches a centroid outside its box or Cambodia, a scrambled box and a shared centroid', () => {
    const box = { min_lat: 11, max_lat: 12, min_lng: 104, max_lng: 105 };
    assert.match(validateGeo([{ code: '01', geo: { lat: 13, lng: 104.5, bbox: box } }]).join(), /outside its box/);
    assert.match(validateGeo([{ code: '01', geo: { lat: 21, lng: 104.5 } }]).join(), /not in Cambodia/);
    assert.match(validateGeo([{ code: '01', geo: { lat: 11.5, lng: 104.5, bbox: { min_lat: 12, max_lat: 105, min_lng: 11, max_lng: 104 } } }]).join(), /not \[south/);
    assert.match(validateGeo([{ code: '01', geo: { lat: 11.5, lng: 104.5 } }, { code: '02', geo: { lat: 11.5, lng: 104.5 } }]).join(), /shared with 01/);
    assert.deepEqual(orderBox({ min_lat: 12.8, max_lat: 105.5, min_lng: 12.4, max_lng: 105.1 }), { min_lat: 12.4, max_lat: 12.8, min_lng: 105.1, max_lng: 105.5 });
    assert.equal(orderBox({ min_lat: 1, max_lat: 2, min_lng: 3, max_lng: 4 }), undefined);
  });
});
