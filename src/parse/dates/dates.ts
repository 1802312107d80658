import { DAY_NAMES, foldName, MONTHS, ZONES } from './date-names.js';

/** A day in the proleptic Gregorian calendar; month and day are 1-based. */
interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

interface Clock {
  hour: number;
  minute: number;
  second: number;
}

// No real date is longer; the bound keeps every regular expression below on short input.
const MAX_DATE_CHARS = 200;
// Date.UTC reads the years 0-99 as 1900-1999. Shifting by one 400-year Gregorian cycle (146097 days,
// a whole number of weeks) keeps month, day and weekday and avoids that.
const CYCLE_YEARS = 400;
const MIDNIGHT: Clock = { hour: 0, minute: 0, second: 0 };
const KOREA_MINUTES = 9 * 60;

/** Parses a date as feeds write it; returns ISO 8601 in UTC, 'YYYY-MM-DDTHH:MM:SSZ', or undefined when it cannot be read. */
export function parseDate(raw: string): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (text.length === 0 || text.length > MAX_DATE_CHARS) return undefined;
  return (
    parseRfc822Fast(text) ??
    parseIsoFast(text) ??
    parseIso(text) ??
    parseHungarian(text) ??
    parseKorean(text) ??
    parseWords(text)
  );
}

// --- fast paths: the two formats nearly every feed uses, one anchored expression each ---

// RFC 822 as RSS 2.0 feeds write it: "Mon, 06 Jan 2004 10:11:12 GMT", "06 Jan 04 10:11 +0200".
const RFC822_FAST =
  /^(?:[A-Za-z]{3}, ?)?(\d{1,2}) ([A-Za-z]{3}) (\d{4}|\d{2}) (\d{1,2}):(\d{2})(?::(\d{2}))? ([+-]\d{4}|[A-Za-z]{1,5})$/;

function parseRfc822Fast(text: string): string | undefined {
  const m = RFC822_FAST.exec(text);
  if (m === null) return undefined;
  const month = MONTHS.get(m[2]!.toLowerCase());
  const offset = readZone(m[7]!);
  if (month === undefined || offset === undefined) return undefined;
  const date = { year: expandYear(m[3]!), month, day: Number(m[1]) };
  return toUtc(date, clockOf(m[4], m[5], m[6]), offset);
}

// W3C-DTF and RFC 3339 as Atom feeds write them: "2004-01-06T10:11:12Z", "2004-01-06t10:11:12.5+01:00",
// and the MSSQL style "2004-01-06 10:11:12.000".
const ISO_FAST =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

function parseIsoFast(text: string): string | undefined {
  const m = ISO_FAST.exec(text);
  if (m === null) return undefined;
  const offset = m[7] === undefined ? 0 : readZone(m[7]);
  if (offset === undefined) return undefined;
  return toUtc(dateOf(m[1], m[2], m[3]), clockOf(m[4], m[5], m[6]), offset);
}

// --- the rest of ISO 8601 ---

const ISO_SPLIT = /^([\dw-]+)(?:(?:t|\s+)(.+))?$/;
// The hour has two digits, or one before a colon: "T9:15" (Hungarian feeds) but not "T915".
const ISO_TIME =
  /^(\d{1,2}(?=:)|\d{2}):?(\d{2})(?::?(\d{2}))?(?:[.,]\d+)?\s*(z|[+-]\d{2}(?::?\d{2})?|[a-z]{2,5})?$/;

// Reduced precision ("2004", "2004-01"), basic format ("20040106T101112Z"), ordinal ("2004-006") and
// week ("2004-W02-2") dates, and the two-digit years the Universal Feed Parser reads ("03-12-31").
function parseIso(text: string): string | undefined {
  const m = ISO_SPLIT.exec(text.toLowerCase());
  if (m === null) return undefined;
  const date = readIsoDate(m[1]!, m[2] === undefined);
  const time = m[2] === undefined ? { clock: MIDNIGHT, offset: 0 } : readIsoTime(m[2]);
  return date && time && toUtc(date, time.clock, time.offset);
}

function readIsoDate(text: string, isDateOnly: boolean): CalendarDate | undefined {
  // W3C-DTF allows a time only after a complete date.
  const reduced = /^(\d{4})(?:-(\d{2}))?$/.exec(text);
  if (reduced) return isDateOnly ? dateOf(reduced[1], reduced[2] ?? '1', '1') : undefined;
  const calendar = /^(\d{4})(-?)(\d{2})\2(\d{2})$/.exec(text);
  if (calendar) return dateOf(calendar[1], calendar[3], calendar[4]);
  const ordinal = /^(\d{4})-?(\d{3})$/.exec(text);
  if (ordinal) return fromOrdinalDate(Number(ordinal[1]), Number(ordinal[2]));
  const week = /^(\d{4})-?w(\d{2})(?:-?([1-7]))?$/.exec(text);
  if (week) return fromWeekDate(Number(week[1]), Number(week[2]), Number(week[3] ?? 1));
  const short = /^(\d{2})(-?)(\d{2})\2(\d{2})$/.exec(text);
  // "200401" reads as YYMMDD (2020-04-01) and as YYYYMM (January 2004), which ISO 8601 forbids for
  // this reason; refuse the compact form when both readings make sense.
  if (short === null || /^(?:19|20)\d\d(?:0[1-9]|1[0-2])$/.test(text)) return undefined;
  return { year: expandYear(short[1]!), month: Number(short[3]), day: Number(short[4]) };
}

function readIsoTime(text: string): { clock: Clock; offset: number } | undefined {
  const m = ISO_TIME.exec(text);
  if (m === null) return undefined;
  const offset = m[4] === undefined ? 0 : readZone(m[4]);
  return offset === undefined ? undefined : { clock: clockOf(m[1], m[2], m[3]), offset };
}

function fromOrdinalDate(year: number, dayOfYear: number): CalendarDate | undefined {
  if (dayOfYear < 1 || dayOfYear > (isLeapYear(year) ? 366 : 365)) return undefined;
  return shiftDays({ year, month: 1, day: 1 }, dayOfYear - 1);
}

function fromWeekDate(year: number, week: number, weekday: number): CalendarDate | undefined {
  // ISO 8601: week 1 holds the year's first Thursday, so it always holds 4 January; a year has 53
  // weeks when it starts or ends on a Thursday.
  const weeks = isoWeekday(year, 1, 1) === 4 || isoWeekday(year, 12, 31) === 4 ? 53 : 52;
  if (week < 1 || week > weeks) return undefined;
  return shiftDays({ year, month: 1, day: 4 }, (week - 1) * 7 + weekday - isoWeekday(year, 1, 4));
}

// --- dates in local forms the Universal Feed Parser learned from real feeds ---

// Hungarian feeds: "2004-július-13T9:15-05:00".
const HUNGARIAN = /^(\d{4})-(\p{L}+)-(\d{1,2})t(.+)$/u;

function parseHungarian(text: string): string | undefined {
  const m = HUNGARIAN.exec(text.toLowerCase());
  if (m === null) return undefined;
  const month = MONTHS.get(foldName(m[2]!));
  const time = readIsoTime(m[4]!);
  if (month === undefined || time === undefined) return undefined;
  return toUtc({ year: Number(m[1]), month, day: Number(m[3]) }, time.clock, time.offset);
}

// Korean blogging services, both in Korean time (UTC+09:00): OnBlog writes "2004년 05월 28일  01:31:15",
// Nate writes "2004-05-25 오후 11:23:17" with 오전 (a.m.) or 오후 (p.m.).
const ONBLOG = /^(\d{4})년\s*(\d{1,2})월\s*(\d{1,2})일\s+(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const NATE = /^(\d{4})-(\d{2})-(\d{2})\s+(오전|오후)\s*(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

function parseKorean(text: string): string | undefined {
  const onblog = ONBLOG.exec(text);
  if (onblog)
    return toUtc(
      dateOf(onblog[1], onblog[2], onblog[3]),
      clockOf(onblog[4], onblog[5], onblog[6]),
      KOREA_MINUTES,
    );
  const nate = NATE.exec(text);
  if (nate === null) return undefined;
  const hour = to24Hour(Number(nate[5]), nate[4] === '오후' ? 'pm' : 'am');
  if (hour === undefined) return undefined;
  const clock = { ...clockOf(nate[5], nate[6], nate[7]), hour };
  return toUtc(dateOf(nate[1], nate[2], nate[3]), clock, KOREA_MINUTES);
}

// --- everything else, read word by word ---
// RFC 822 variants and their non-English cousins ("Di, 14 Okt 2008", "mar., 14 oct. 2008"), asctime
// ("Sun Jan  4 16:29:06 PST 2004"), US style ("Jan 6, 2004 10:11:12 AM"), Perforce
// ("Fri, 2006/09/15 08:19:53 EDT"). Every word must be understood, or the date is refused.

type Token =
  | { kind: 'comma' }
  | { kind: 'number'; digits: string }
  | { kind: 'word'; name: string }
  | { kind: 'time'; clock: Clock }
  | { kind: 'offset'; minutes: number }
  | { kind: 'date'; date: CalendarDate };

/** What the word reader has found so far; each field may be set once. */
interface WordState {
  month: number | undefined;
  numbers: string[];
  date: CalendarDate | undefined;
  clock: Clock | undefined;
  meridiem: 'am' | 'pm' | undefined;
  /** From a zone name; a numeric offset wins over it ("-0800 PST"). */
  zone: number | undefined;
  offset: number | undefined;
}

// "6 de enero de 2004", "January 6, 2004 at 10:11 am" (WordPress), "6. Januar 2004 um 10:11 Uhr".
const FILLER_WORDS: ReadonlySet<string> = new Set(['de', 'del', 'of', 'at', 'um', 'uhr']);
const TIME_CHUNK = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(.*)$/;
const DATE_CHUNK = /^(\d{4})([/-])(\d{1,2})\2(\d{1,2})$/;
const NUMBER_CHUNK = /^(\d{1,4})(?:st|nd|rd|th)?$/;
const WORD_CHUNK = /^\p{L}+(?:-\p{L}+)?$/u;
// After a time, an abbreviation we do not know is a time zone; like the Universal Feed Parser we read it
// as UTC rather than lose the date.
const UNKNOWN_ZONE = /^[a-z]{2,5}$/;

function parseWords(text: string): string | undefined {
  const tokens = tokenize(normalizeWords(text));
  if (tokens === undefined) return undefined;
  const state: WordState = {
    month: undefined,
    numbers: [],
    date: undefined,
    clock: undefined,
    meridiem: undefined,
    zone: undefined,
    offset: undefined,
  };
  const start = isLeadingDayName(tokens) ? 1 : 0;
  for (const token of tokens.slice(start)) {
    if (!absorbToken(state, token)) return undefined;
  }
  return finishWords(state);
}

function normalizeWords(text: string): string {
  return foldName(text)
    .replace(/\([^()]*\)/g, ' ') // RFC 2822 comments: "-0800 (PST)"
    .replace(/(?<![a-z])([ap])\.m\.?/g, '$1m')
    .replace(/,/g, ' , ')
    .replace(/(?<!\d)\.|\.(?!\d)/g, ' '); // "mar.", "6. Januar", but not "10:11:12.000"
}

function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  for (const chunk of text.split(/\s+/)) {
    if (chunk === '') continue;
    const read = readChunk(chunk);
    if (read === undefined) return undefined;
    tokens.push(...read);
  }
  return tokens;
}

function readChunk(chunk: string): Token[] | undefined {
  if (chunk === ',') return [{ kind: 'comma' }];
  const time = TIME_CHUNK.exec(chunk);
  if (time) {
    const clock: Token = { kind: 'time', clock: clockOf(time[1], time[2], time[3]) };
    if (time[4] === '') return [clock];
    // "10:11:12+0200", "10:11:12Z", "10:11pm"
    const [tail] = readChunk(time[4]!) ?? [];
    return tail?.kind === 'word' || tail?.kind === 'offset' ? [clock, tail] : undefined;
  }
  const date = DATE_CHUNK.exec(chunk);
  if (date) return [{ kind: 'date', date: dateOf(date[1], date[3], date[4]) }];
  const number = NUMBER_CHUNK.exec(chunk);
  if (number) return [{ kind: 'number', digits: number[1]! }];
  if (WORD_CHUNK.test(chunk)) return [{ kind: 'word', name: chunk }];
  const minutes = readNumericZone(chunk);
  return minutes === undefined ? undefined : [{ kind: 'offset', minutes }];
}

// The first word is the day name when it is one ("Mon", "Di", "mar.") or when a comma follows it, so a
// misspelt day ("Thurs,") does not lose the date. "Mar" is also Tuesday in French, Spanish and Italian:
// a word that is a month too is the day name only when another word gives the month.
function isLeadingDayName(tokens: readonly Token[]): boolean {
  const [first, next] = tokens;
  if (first?.kind !== 'word') return false;
  if (!DAY_NAMES.has(first.name) && next?.kind !== 'comma') return false;
  if (!MONTHS.has(first.name)) return true;
  return tokens.some((token, i) => i > 0 && token.kind === 'word' && MONTHS.has(token.name));
}

function absorbToken(state: WordState, token: Token): boolean {
  switch (token.kind) {
    case 'comma':
      return true;
    case 'number':
      state.numbers.push(token.digits);
      return state.numbers.length <= 2;
    case 'word':
      return absorbWord(state, token.name);
    case 'time':
      if (state.clock !== undefined) return false;
      state.clock = token.clock;
      return true;
    case 'offset':
      if (state.clock === undefined || state.offset !== undefined) return false;
      state.offset = token.minutes;
      return true;
    case 'date':
      if (state.date !== undefined) return false;
      state.date = token.date;
      return true;
  }
}

function absorbWord(state: WordState, name: string): boolean {
  if (name === 'am' || name === 'pm') {
    if (state.meridiem !== undefined) return false;
    state.meridiem = name;
    return true;
  }
  if (FILLER_WORDS.has(name)) return true;
  const month = MONTHS.get(name);
  if (month !== undefined && state.month === undefined) {
    state.month = month;
    return true;
  }
  if (DAY_NAMES.has(name) && (state.clock === undefined || !ZONES.has(name))) return true;
  // A zone follows the time in every format we read; before it, "X" would be a zone out of nothing.
  if (state.clock === undefined || state.zone !== undefined) return false;
  state.zone = ZONES.get(name) ?? (UNKNOWN_ZONE.test(name) ? 0 : undefined);
  return state.zone !== undefined;
}

function finishWords(state: WordState): string | undefined {
  const hasParts = state.month !== undefined || state.numbers.length > 0;
  const date =
    state.date === undefined ? dateFromParts(state.month, state.numbers) : hasParts ? undefined : state.date;
  let clock = state.clock ?? MIDNIGHT;
  if (state.meridiem !== undefined) {
    const hour = state.clock && to24Hour(state.clock.hour, state.meridiem);
    if (hour === undefined) return undefined;
    clock = { ...clock, hour };
  }
  return date && toUtc(date, clock, state.offset ?? state.zone ?? 0);
}

// "06 Jan 2004", "Jan 6, 2004", "2004. július 13.", asctime's "Jan  4 ... 2004": a number of three or
// four digits is the year wherever it stands; of two short numbers, the day comes first (RFC 822).
function dateFromParts(month: number | undefined, numbers: readonly string[]): CalendarDate | undefined {
  const [first, second] = numbers;
  if (month === undefined || first === undefined || second === undefined) return undefined;
  const isYearFirst = first.length > 2 && second.length <= 2;
  const dayDigits = isYearFirst ? second : first;
  const yearDigits = isYearFirst ? first : second;
  if (dayDigits.length > 2 || yearDigits.length < 2) return undefined;
  return { year: expandYear(yearDigits), month, day: Number(dayDigits) };
}

// --- shared pieces ---

// "+0200", "-05:00", "+02", and the broken "GMT+2", "GMT-0500", "UTC+01:00" that some feeds write.
const NUMERIC_ZONE = /^(?:gmt|utc|ut)?([+-])(\d{1,2})(?::?(\d{2}))?$/;

function readNumericZone(text: string): number | undefined {
  const m = NUMERIC_ZONE.exec(text);
  if (m === null) return undefined;
  const hours = Number(m[2]);
  const minutes = Number(m[3] ?? 0);
  if (hours > 23 || minutes > 59) return undefined;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** Returns the offset in minutes east of UTC for a numeric or named zone, or undefined if unknown. */
function readZone(text: string): number | undefined {
  const lower = text.toLowerCase();
  return readNumericZone(lower) ?? ZONES.get(lower);
}

// RFC 2822 section 4.3: a two-digit year 00-49 is 20xx and 50-99 is 19xx; a three-digit year adds 1900.
// The ISO 8601 two-digit forms use the same rule, so the result never depends on today's date.
function expandYear(digits: string): number {
  const year = Number(digits);
  if (digits.length === 2) return year < 50 ? 2000 + year : 1900 + year;
  return digits.length === 3 ? 1900 + year : year;
}

function to24Hour(hour: number, meridiem: 'am' | 'pm'): number | undefined {
  if (hour < 1 || hour > 12) return undefined;
  return (hour % 12) + (meridiem === 'pm' ? 12 : 0);
}

function dateOf(year: string | undefined, month: string | undefined, day: string | undefined): CalendarDate {
  return { year: Number(year), month: Number(month), day: Number(day) };
}

function clockOf(hour: string | undefined, minute: string | undefined, second: string | undefined): Clock {
  return { hour: Number(hour ?? 0), minute: Number(minute ?? 0), second: Number(second ?? 0) };
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isoWeekday(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year + CYCLE_YEARS, month - 1, day)).getUTCDay() || 7;
}

function shiftDays(date: CalendarDate, days: number): CalendarDate {
  const shifted = new Date(Date.UTC(date.year + CYCLE_YEARS, date.month - 1, date.day + days));
  return {
    year: shifted.getUTCFullYear() - CYCLE_YEARS,
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
  };
}

function isInRange(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

function isValidClock({ hour, minute, second }: Clock): boolean {
  // ISO 8601 lets 24:00:00 name the end of a day; RFC 3339 allows a leap second as :60.
  if (hour === 24) return minute === 0 && second === 0;
  return isInRange(hour, 0, 23) && isInRange(minute, 0, 59) && isInRange(second, 0, 60);
}

function toUtc(date: CalendarDate, clock: Clock, offsetMinutes: number): string | undefined {
  const { year, month, day } = date;
  if (!isInRange(year, 1, 9999) || !isInRange(month, 1, 12)) return undefined;
  if (!isInRange(day, 1, daysInMonth(year, month)) || !isValidClock(clock)) return undefined;
  // A JavaScript date has no leap second; the second before it is the closest we can say.
  const second = Math.min(clock.second, 59);
  const ms = Date.UTC(year + CYCLE_YEARS, month - 1, day, clock.hour, clock.minute - offsetMinutes, second);
  const utc = new Date(ms);
  const utcYear = utc.getUTCFullYear() - CYCLE_YEARS;
  if (utcYear < 1 || utcYear > 9999) return undefined;
  const pad = (n: number): string => String(n).padStart(2, '0');
  const ymd = `${String(utcYear).padStart(4, '0')}-${pad(utc.getUTCMonth() + 1)}-${pad(utc.getUTCDate())}`;
  return `${ymd}T${pad(utc.getUTCHours())}:${pad(utc.getUTCMinutes())}:${pad(utc.getUTCSeconds())}Z`;
}
