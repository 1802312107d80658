import type { RequestParams } from '../http/index.js';

// Fever's numbers are plain decimal integers: ids and Unix times. Anything else ("", " ", 0x0, -0,
// 0.0, 1e3, +1, 20 digits) names nothing, so that a malformed group id is never group 0, "everything"
// (issue 22). Fever answers 200 whatever happens: the callers do nothing with what is not a number.
const INTEGER = /^(?:0|[1-9]\d{0,14})$/;

/**
 * The value of a parameter; undefined when absent or given with different values. The same value twice
 * is one value: an app may put a parameter in both the query string and the form, as PHP's $_REQUEST,
 * which Fever read, let it.
 */
export function singleParam(params: RequestParams, name: string): string | undefined {
  const [first, ...others] = params.all(name);
  return others.every((value) => value === first) ? first : undefined;
}

/** A non-negative integer written as one (at most 15 digits, no sign, no leading zero), else undefined. */
export function integerOf(value: string | undefined): number | undefined {
  return value !== undefined && INTEGER.test(value) ? Number(value) : undefined;
}

/** A parameter given once as a non-negative integer; undefined otherwise. */
export function integerParam(params: RequestParams, name: string): number | undefined {
  return integerOf(singleParam(params, name));
}
