import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimatedCycles, parseDump } from '../../bench/callgrind.js';

// A dump as callgrind writes one with --cache-sim=yes --branch-sim=yes: names compressed to "(n)" after their first
// use, positions relative (+n, -n), trailing zero events left out, and a call's inclusive cost after its `calls=` line.
const DUMP = `version: 1
creator: callgrind-3.19.0
positions: line
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim

ob=(1) /usr/bin/node
fl=(1) ???
fn=(1) main
10 100 20 10 3 2 1 1
+1 50 0 0 0 0 0 0 0 0 8 2
cfn=(2) helper
calls=4 0
+2 400 80 40 9 8 4 2 1 1 16 4 4 1
fn=(2)
5 300 60 30 6 4 2 1
-2 100 20 10 3 4 2 1 1 1 16 4 4 1
ob=(2) /usr/lib/libc.so.6
fn=(3) memcpy
1 7
`;

test('parseDump: self cost of every event by function; calls charged to the caller\'s inclusive cost only', () => {
  const { events, functions } = parseDump(DUMP);
  assert.deepEqual(events, ['Ir', 'Dr', 'Dw', 'I1mr', 'D1mr', 'D1mw', 'ILmr', 'DLmr', 'DLmw', 'Bc', 'Bcm', 'Bi', 'Bim']);
  const main = functions.get('/usr/bin/node\u0000main')!;
  assert.equal(main.self, 150);
  assert.equal(main.calls, 400);
  assert.deepEqual(main.selfEvents, [150, 20, 10, 3, 2, 1, 1, 0, 0, 8, 2, 0, 0]);
  // The second use of a name is by its number alone.
  const helper = functions.get('/usr/bin/node\u0000helper')!;
  assert.deepEqual(helper.selfEvents, [400, 80, 40, 9, 8, 4, 2, 1, 1, 16, 4, 4, 1]);
  assert.equal(helper.calls, 0);
  assert.deepEqual(functions.get('/usr/lib/libc.so.6\u0000memcpy')!.selfEvents, [7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
});

test('parseDump: a dump of instructions alone (no cache simulation) reads as before', () => {
  const { events, functions } = parseDump('events: Ir\nob=(1) a\nfn=(1) f\n1 5\n+1 6\n');
  assert.deepEqual(events, ['Ir']);
  assert.equal(functions.get('a\u0000f')!.self, 11);
  assert.deepEqual(functions.get('a\u0000f')!.selfEvents, [11]);
});

test('estimatedCycles: an instruction 1, a first-level miss 10, a last-level miss 100, a misprediction 10', () => {
  const names = ['Ir', 'Dr', 'Dw', 'I1mr', 'D1mr', 'D1mw', 'ILmr', 'DLmr', 'DLmw', 'Bc', 'Bcm', 'Bi', 'Bim'];
  assert.equal(estimatedCycles(names, [1000, 0, 0, 1, 2, 3, 1, 1, 1, 0, 4, 0, 1]), 1000 + 10 * 6 + 100 * 3 + 10 * 5);
  // Without the cache events, the instructions alone.
  assert.equal(estimatedCycles(['Ir'], [1234]), 1234);
});
