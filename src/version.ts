import { readFileSync } from 'node:fs';

/** The API's version (package.json), in the OpenAPI info and the ETag. Same relative path from src/ and dist/. */
export const API_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
