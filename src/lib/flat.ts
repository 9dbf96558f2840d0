/**
 * Template strings that come out flat. V8 builds a template (or `+`) of 13 characters or more as a rope: a tree of the
 * pieces, read out only when something needs the whole. Node's check of every header value and fast-json-stringify's
 * check of every string it writes are regular expressions, and V8 runs a regular expression on a rope through the
 * runtime (flatten, then match in C++), not its compiled fast path: measured with perf on `GET /v1/resolve`, 2.6% of
 * the request's CPU went to `Runtime_RegExpExec` on the formatted addresses and the warnings' messages, and on the keyed
 * path 1.2% on the RateLimit header. `Array.prototype.join` writes its result into one flat string.
 *
 *   flat`${a} is in ${b}`   the same text as the template, flat
 */
export function flat(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  const parts: (string | number)[] = [strings[0]!];
  for (let i = 0; i < values.length; i++) parts.push(values[i]!, strings[i + 1]!);
  return parts.join('');
}
