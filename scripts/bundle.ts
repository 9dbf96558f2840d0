/**
 * Bundles the compiled server (dist/server.js) and everything it imports, the npm packages included, into one file,
 * dist/server.bundle.js, which `npm start` runs. Part of `npm run build`, after tsc and the snapshots.
 *
 * Why: loading the server's ~400 modules one by one (resolving each path, reading package.json files, compiling each
 * module apart, the CommonJS lexer for every package an ES module imports) took about 380 ms of CPU before the first
 * line of the server ran (2026-11-27, `--cpu-prof` of the start on a 2-core EPYC VM); the same code as one file loads in
 * about 150 ms. Nothing else changes: the bundle is the same code, and dist/server.js still runs on its own.
 *
 * Paths: modules find their files from their own location (`new URL('../../data/gazetteer.json', import.meta.url)`),
 * and some packages from `__dirname` (the API docs' static files, for one). In the bundle every module keeps the
 * location it had: each `import.meta.url` becomes its module's URL, and `__dirname` and `__filename` its package
 * file's, both written relative to the bundle's own URL, so that a built checkout can move.
 *
 *   tsx scripts/bundle.ts
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const BUNDLE_ENTRY = `${root}dist/server.js`;
export const BUNDLE_PATH = `${root}dist/server.bundle.js`;

/** The bundle's own URL, read once at its top (see the banner). */
const BUNDLE_URL = '__khBundleUrl';

/** `file` relative to the bundle's directory, as a URL path ('./gazetteer/load.js', '../node_modules/x/index.js'). */
function fromBundle(file: string): string {
  const path = relative(dirname(BUNDLE_PATH), file).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/** Keeps each module's own location (see the header). */
const ownLocation: Plugin = {
  name: 'own-location',
  setup(bundle) {
    bundle.onLoad({ filter: /\.(js|cjs|mjs)$/ }, (args) => {
      let contents = readFileSync(args.path, 'utf8');
      const usesUrl = contents.includes('import.meta.url');
      const usesDir = /\b__(dirname|filename)\b/.test(contents);
      if (!usesUrl && !usesDir) return undefined;
      const url = `new URL(${JSON.stringify(fromBundle(args.path))}, ${BUNDLE_URL}).href`;
      if (usesUrl) contents = contents.replaceAll('import.meta.url', `(${url})`);
      // A CommonJS module is wrapped in a function in the bundle: these declarations are its own.
      if (usesDir) {
        contents = `var __filename = __khFileUrlToPath(${url}); var __dirname = __khDirname(__filename);\n${contents}`;
      }
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/** Bundles dist/server.js into `outfile` (by default dist/server.bundle.js); returns its size in bytes. */
export async function bundleServer(outfile = BUNDLE_PATH): Promise<number> {
  const result = await build({
    entryPoints: [BUNDLE_ENTRY],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Native addons and what loads them stay packages on disk; so does pg, imported only when DATABASE_URL asks for it.
    external: ['better-sqlite3', 'pg', 'pg-native'],
    // Packages written as CommonJS call require() for Node's own modules: give them one.
    banner: {
      js: [
        "import { createRequire as __khCreateRequire } from 'node:module';",
        "import { fileURLToPath as __khFileUrlToPath } from 'node:url';",
        "import { dirname as __khDirname } from 'node:path';",
        `const ${BUNDLE_URL} = import.meta.url;`,
        `const require = __khCreateRequire(${BUNDLE_URL});`,
      ].join('\n'),
    },
    plugins: [ownLocation],
    logLevel: 'warning',
    metafile: true,
  });
  return Object.values(result.metafile.outputs).reduce((total, output) => total + output.bytes, 0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bytes = await bundleServer();
  console.log(`server bundle written: ${BUNDLE_PATH} (${(bytes / 1e6).toFixed(1)} MB)`);
}
