#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// A batch tool pays for its compiler: in `kh-address resolve` on 100,000 distinct addresses, V8's optimising compiler
// took 17-18% of the process's CPU (perf, by thread), most of it in the first 5,000 rows, because the resolver's large
// functions are compiled again after each deoptimisation as new shapes of input appear. A quarter of the default
// inlining budget (920 bytes of bytecode per optimised function) makes each of those compiles smaller: compiler 13-14%,
// rows per CPU-second about 5% higher, the same per row once warm (bench/PERFORMANCE.md). Set before any of the
// CLI's code is loaded, so before any of it is optimised.
setFlagsFromString('--max-inlined-bytecode-size-cumulative=230');

const { run } = await import('./cli.js');
process.exitCode = await run(process.argv.slice(2));
