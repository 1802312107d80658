import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDate } from './dates.js';

/** Asserts that every raw date in the table parses to its expected UTC string. */
function assertAll(table: Record<string, string | undefined>): void {
  for (const [raw, expected] of Object.entries(table)) {
    assert.equal(parseDate(raw), expected, raw);
  }
}

describe('parseDate: RFC 822 and its real-world variants', () => {
  it('reads an RFC 822 date with a day name and GMT', () => {
    assert.equal(parseDate('Mon, 06 Jan 2004 10:11:12 GMT'), '2004-01-06T10:11:12Z');
  });

  it('reads an RFC 822 date without a day name', () => {
    assert.equal(parseDate('06 Jan 2004 10:11:12 +0200'), '2004-01-06T08:11:12Z');
  });

  it('reads a two-digit year as 20xx from 00 to 49', () => {
    assertAll({
      'Tue, 06 Jan 04 10:11:12 GMT': '2004-01-06T10:11:12Z',
      '06 Jan 00 10:11:12 GMT': '2000-01-06T10:11:12Z',
      '06 Jan 49 10:11:12 GMT': '2049-01-06T10:11:12Z',
    });
  });

  it('reads a two-digit year as 19xx from 50 to 99', () => {
    assertAll({
      '06 Jan 50 10:11:12 GMT': '1950-01-06T10:11:12Z',
      'Wed, 06 Jan 99 10:11:12 GMT': '1999-01-06T10:11:12Z',
    });
  });

  it('adds 1900 to a three-digit year, as RFC 2822 says for obsolete dates', () => {
    assert.equal(parseDate('Tue, 06 Jan 104 10:11:12 GMT'), '2004-01-06T10:11:12Z');
  });

  it('assumes zero seconds when they are missing', () => {
    assert.equal(parseDate('Mon, 06 Jan 2004 10:11 GMT'), '2004-01-06T10:11:00Z');
  });

  it('reads a single-digit day and hour', () => {
    assert.equal(parseDate('Tue, 6 Jan 2004 1:02:03 GMT'), '2004-01-06T01:02:03Z');
  });

  it('reads a date without a time as midnight UTC', () => {
    assertAll({ 'Tue, 06 Jan 2004': '2004-01-06T00:00:00Z', '6 Jan 2004': '2004-01-06T00:00:00Z' });
  });

  it('assumes UTC when the zone is missing', () => {
    assert.equal(parseDate('Tue, 06 Jan 2004 10:11:12'), '2004-01-06T10:11:12Z');
  });

  it('reads -0000 as UTC', () => {
    assert.equal(parseDate('Tue, 10 Jun 2003 04:00:00 -0000'), '2003-06-10T04:00:00Z');
  });

  it('reads numeric zones with or without a colon and minutes', () => {
    assertAll({
      'Tue, 06 Jan 2004 10:11:12 +0200': '2004-01-06T08:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 -05:00': '2004-01-06T15:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 +02': '2004-01-06T08:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 +0530': '2004-01-06T04:41:12Z',
      'Tue, 06 Jan 2004 10:11:12+0200': '2004-01-06T08:11:12Z',
    });
  });

  it('reads the broken GMT+2 and GMT-0500 forms as offsets', () => {
    assertAll({
      'Mon, 6 Jan 2004 10:11:12 GMT+2': '2004-01-06T08:11:12Z',
      'Mon, 6 Jan 2004 10:11:12 GMT-0500': '2004-01-06T15:11:12Z',
      'Mon, 6 Jan 2004 10:11:12 UTC+01:00': '2004-01-06T09:11:12Z',
      'Mon, 6 Jan 2004 10:11:12 GMT +0100': '2004-01-06T09:11:12Z',
    });
  });

  it('reads UT, UTC, GMT and Z as UTC', () => {
    for (const zone of ['UT', 'UTC', 'GMT', 'Z']) {
      assert.equal(parseDate(`Tue, 06 Jan 2004 10:11:12 ${zone}`), '2004-01-06T10:11:12Z', zone);
    }
  });

  it('reads the North American zone names of RFC 822', () => {
    assertAll({
      'Tue, 06 Jan 2004 10:11:12 EST': '2004-01-06T15:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 EDT': '2004-01-06T14:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 CST': '2004-01-06T16:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 CDT': '2004-01-06T15:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 MST': '2004-01-06T17:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 MDT': '2004-01-06T16:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 PST': '2004-01-06T18:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 PDT': '2004-01-06T17:11:12Z',
    });
  });

  it('reads common zone abbreviations beyond RFC 822', () => {
    assertAll({
      'Tue, 06 Jul 2004 10:11:12 BST': '2004-07-06T09:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 CET': '2004-01-06T09:11:12Z',
      'Tue, 06 Jul 2004 10:11:12 CEST': '2004-07-06T08:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 EET': '2004-01-06T08:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 AEST': '2004-01-06T00:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 JST': '2004-01-06T01:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 IST': '2004-01-06T04:41:12Z',
      'Tue, 06 Jan 2004 10:11:12 KST': '2004-01-06T01:11:12Z',
    });
  });

  it('reads military zones as the RFC 822 table gives them', () => {
    assertAll({
      'Tue, 06 Jan 2004 10:11:12 A': '2004-01-06T11:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 M': '2004-01-06T22:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 N': '2004-01-06T09:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 Y': '2004-01-05T22:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 Z': '2004-01-06T10:11:12Z',
    });
  });

  it('reads an unknown zone abbreviation after the time as UTC', () => {
    assert.equal(parseDate('Tue, 06 Jan 2004 10:11:12 XYZ'), '2004-01-06T10:11:12Z');
  });

  it('reads a zone only after a time', () => {
    assertAll({
      '06 Jan 2004 X': undefined,
      '06 Jan 2004 GMT': undefined,
      '+0200 06 Jan 2004 10:11': undefined,
    });
  });

  it('prefers a numeric offset over a zone name or comment beside it', () => {
    assertAll({
      'Tue, 06 Jan 2004 10:11:12 -0800 (PST)': '2004-01-06T18:11:12Z',
      'Tue, 06 Jan 2004 10:11:12 -0800 EST': '2004-01-06T18:11:12Z',
    });
  });

  it('ignores extra commas, periods and whitespace', () => {
    assertAll({
      'Tue.,  06. Jan. 2004,  10:11:12 GMT.': '2004-01-06T10:11:12Z',
      'Tue,06 Jan 2004 10:11:12 GMT': '2004-01-06T10:11:12Z',
      '  Tue, 06 Jan 2004 10:11:12 GMT \n': '2004-01-06T10:11:12Z',
      'Tue,, 06 Jan 2004 10:11:12 GMT': '2004-01-06T10:11:12Z',
    });
  });

  it('reads Sept and full month and day names', () => {
    assertAll({
      'Mon, 06 Sept 2004 10:11:12 GMT': '2004-09-06T10:11:12Z',
      'Monday, 06 September 2004 10:11:12 GMT': '2004-09-06T10:11:12Z',
    });
  });

  it('ignores the case of names', () => {
    assertAll({
      'TUE, 06 JAN 2004 10:11:12 GMT': '2004-01-06T10:11:12Z',
      'tue, 06 jan 2004 10:11:12 gmt': '2004-01-06T10:11:12Z',
    });
  });

  it('reads a day name without a comma', () => {
    assert.equal(parseDate('Tue 06 Jan 2004 10:11:12 GMT'), '2004-01-06T10:11:12Z');
  });

  it('ignores a day name that does not match the date', () => {
    assert.equal(parseDate('Fri, 06 Jan 2004 10:11:12 GMT'), '2004-01-06T10:11:12Z');
  });

  it('ignores an unknown word in the day-name slot when a comma follows it', () => {
    assertAll({
      'Foo, 06 Jan 2004 10:11:12 GMT': '2004-01-06T10:11:12Z',
      'Thurs, 06 Jan 2004 10:11:12 GMT': '2004-01-06T10:11:12Z',
      'Xyzday, 06 Jan 2004 10:11:12 GMT': '2004-01-06T10:11:12Z',
    });
  });
});

describe('parseDate: non-English names', () => {
  it('reads German dates', () => {
    assertAll({
      'Di, 14 Okt 2008 10:00:00 +0200': '2008-10-14T08:00:00Z',
      'Mi, 15 Mär 2006 10:00:00 +0100': '2006-03-15T09:00:00Z',
      'Donnerstag, 4. Dezember 2008 um 10:00 Uhr': '2008-12-04T10:00:00Z',
    });
  });

  it('reads French dates', () => {
    assertAll({
      'mar., 14 oct. 2008 10:00:00 +0200': '2008-10-14T08:00:00Z',
      'ven., 5 déc. 2008 10:00:00 +0100': '2008-12-05T09:00:00Z',
      'lundi 4 août 2008': '2008-08-04T00:00:00Z',
      'jeu, 7 févr. 2008 10:00:00 GMT': '2008-02-07T10:00:00Z',
    });
  });

  it('reads Spanish dates', () => {
    assertAll({
      'mié, 15 oct 2008 10:00:00 +0200': '2008-10-15T08:00:00Z',
      '6 de enero de 2004': '2004-01-06T00:00:00Z',
    });
  });

  it('reads Italian dates', () => {
    assertAll({
      'mer, 15 ott 2008 10:00:00 +0200': '2008-10-15T08:00:00Z',
      'lunedì 6 gennaio 2004': '2004-01-06T00:00:00Z',
    });
  });

  it('reads Dutch dates', () => {
    assertAll({
      'wo, 15 okt 2008 10:00:00 +0200': '2008-10-15T08:00:00Z',
      'di 14 mrt 2006 10:00:00 GMT': '2006-03-14T10:00:00Z',
    });
  });

  it('reads Portuguese dates', () => {
    assertAll({
      'qua, 15 out 2008 10:00:00 -0300': '2008-10-15T13:00:00Z',
      'sáb, 6 dez 2008': '2008-12-06T00:00:00Z',
      'segunda-feira, 6 de janeiro de 2004': '2004-01-06T00:00:00Z',
    });
  });

  it('reads Polish dates, abbreviated and in the genitive', () => {
    assertAll({
      'śr, 15 paź 2008 10:00:00 +0200': '2008-10-15T08:00:00Z',
      '14 października 2008': '2008-10-14T00:00:00Z',
    });
  });

  it('reads Swedish, Norwegian and Danish dates', () => {
    assertAll({
      'ons, 15 okt 2008 10:00:00 +0200': '2008-10-15T08:00:00Z',
      'lør, 6 des 2008 10:00:00 +0100': '2008-12-06T09:00:00Z',
      'man, 5 maj 2008': '2008-05-05T00:00:00Z',
      'Fredag 5 Mars 2010': '2010-03-05T00:00:00Z',
    });
  });

  it('reads Czech dates', () => {
    assertAll({
      'st, 15 říj 2008 10:00:00 +0200': '2008-10-15T08:00:00Z',
      'út, 14 října 2008': '2008-10-14T00:00:00Z',
    });
  });

  it('reads Russian dates', () => {
    assertAll({
      'ср, 15 окт 2008 10:00:00 +0400': '2008-10-15T06:00:00Z',
      '14 октября 2008': '2008-10-14T00:00:00Z',
      'Пн, 5 Май 2008': '2008-05-05T00:00:00Z',
    });
  });

  it('reads Greek dates', () => {
    assertAll({
      'Κυρ, 11 Ιούλ 2004 12:00:00 EST': '2004-07-11T17:00:00Z',
      'Τρι, 14 Οκτ 2008 10:00:00 +0300': '2008-10-14T07:00:00Z',
    });
  });

  it('reads Hungarian dates', () => {
    assertAll({
      '2004-július-13T9:15-05:00': '2004-07-13T14:15:00Z',
      '2004-augusztus-13T09:15:00Z': '2004-08-13T09:15:00Z',
      '2004. július 13.': '2004-07-13T00:00:00Z',
    });
  });

  it('reads "mar" as a day name before another month and as March otherwise', () => {
    assertAll({
      'mar, 14 oct 2008': '2008-10-14T00:00:00Z',
      'Mar 6, 2004': '2004-03-06T00:00:00Z',
      '6 mar 2004': '2004-03-06T00:00:00Z',
    });
  });
});

describe('parseDate: ISO 8601 and W3C-DTF', () => {
  it('reads a date-time in UTC', () => {
    assert.equal(parseDate('2004-01-06T10:11:12Z'), '2004-01-06T10:11:12Z');
  });

  it('drops fractional seconds', () => {
    assertAll({
      '2004-01-06T10:11:12.999Z': '2004-01-06T10:11:12Z',
      '2004-01-06T10:11:12,5Z': '2004-01-06T10:11:12Z',
      '2004-01-06T10:11:12.123456789+01:00': '2004-01-06T09:11:12Z',
    });
  });

  it('converts +01:00, +0100 and +01 offsets to UTC', () => {
    assertAll({
      '2004-01-06T10:11:12+01:00': '2004-01-06T09:11:12Z',
      '2004-01-06T10:11:12+0100': '2004-01-06T09:11:12Z',
      '2004-01-06T10:11:12+01': '2004-01-06T09:11:12Z',
      '2004-01-06T10:11:12-05:30': '2004-01-06T15:41:12Z',
    });
  });

  it('assumes UTC when a date-time has no zone', () => {
    assert.equal(parseDate('2004-01-06T10:11:12'), '2004-01-06T10:11:12Z');
  });

  it('reads a year, a year and month, or a date alone as its first midnight', () => {
    assertAll({
      '2004': '2004-01-01T00:00:00Z',
      '2004-02': '2004-02-01T00:00:00Z',
      '2004-01-06': '2004-01-06T00:00:00Z',
    });
  });

  it('reads a date-time without seconds', () => {
    assertAll({
      '2004-01-06T10:11': '2004-01-06T10:11:00Z',
      '2004-01-06T10:11+02:00': '2004-01-06T08:11:00Z',
    });
  });

  it('reads lowercase t and z', () => {
    assert.equal(parseDate('2004-01-06t10:11:12z'), '2004-01-06T10:11:12Z');
  });

  it('reads a space instead of T', () => {
    assertAll({
      '2004-01-06 10:11:12Z': '2004-01-06T10:11:12Z',
      '2004-01-06 10:11:12 +01:00': '2004-01-06T09:11:12Z',
      '2004-01-06 10:11:12 PST': '2004-01-06T18:11:12Z',
    });
  });

  it('reads the compact basic format', () => {
    assertAll({
      '20040106T101112Z': '2004-01-06T10:11:12Z',
      '20040106T1011+0100': '2004-01-06T09:11:00Z',
      '20040106': '2004-01-06T00:00:00Z',
    });
  });

  it('reads ordinal dates', () => {
    assertAll({
      '2004-006': '2004-01-06T00:00:00Z',
      '2004006': '2004-01-06T00:00:00Z',
      '2004-366T12:00:00Z': '2004-12-31T12:00:00Z',
      '2003-366': undefined,
      '2004-000': undefined,
    });
  });

  it('reads week dates, which may fall in the neighbouring year', () => {
    assertAll({
      '2004-W02-2': '2004-01-06T00:00:00Z',
      '2004W022': '2004-01-06T00:00:00Z',
      '2004-W02': '2004-01-05T00:00:00Z',
      '2004-W01-1': '2003-12-29T00:00:00Z',
      '2004-W53-7': '2005-01-02T00:00:00Z',
      '2005-W53-1': undefined,
      '2004-W00-1': undefined,
    });
  });

  it('reads two-digit ISO years with the same pivot as RFC 2822', () => {
    assertAll({
      '03-12-31': '2003-12-31T00:00:00Z',
      '031231': '2003-12-31T00:00:00Z',
      '991231': '1999-12-31T00:00:00Z',
      '031231T10:11:12Z': '2003-12-31T10:11:12Z',
    });
  });

  it('refuses a six-digit date that could also be a year and a month', () => {
    assertAll({ '200401': undefined, '199912': undefined });
  });

  it('reads 24:00:00 as the end of the day', () => {
    assert.equal(parseDate('2004-12-31T24:00:00Z'), '2005-01-01T00:00:00Z');
  });

  it('refuses a time after a year alone', () => {
    assertAll({ '2004T10:11:12Z': undefined, '2004-01T10:11Z': undefined });
  });
});

describe('parseDate: other formats feeds use', () => {
  it('reads asctime and ctime dates', () => {
    assertAll({
      'Sun Jan  4 16:29:06 PST 2004': '2004-01-05T00:29:06Z',
      'Tue Jan 06 10:11:12 2004': '2004-01-06T10:11:12Z',
      'Tue Jan 6 10:11:12 +0100 2004': '2004-01-06T09:11:12Z',
    });
  });

  it('reads MSSQL dates with optional fractional seconds', () => {
    assertAll({
      '2004-01-06 10:11:12': '2004-01-06T10:11:12Z',
      '2004-01-06 10:11:12.000': '2004-01-06T10:11:12Z',
    });
  });

  it('reads Perforce and slash-separated dates', () => {
    assertAll({
      'Fri, 2006/09/15 08:19:53 EDT': '2006-09-15T12:19:53Z',
      '2004/01/06 10:11:12': '2004-01-06T10:11:12Z',
      '2004/1/6': '2004-01-06T00:00:00Z',
    });
  });

  it('reads OnBlog dates in Korean time', () => {
    assertAll({
      '2004년 05월 28일  01:31:15': '2004-05-27T16:31:15Z',
      '2004년 5월 28일 13:31': '2004-05-28T04:31:00Z',
    });
  });

  it('reads Nate dates in Korean time with 오전 and 오후', () => {
    assertAll({
      '2004-05-25 오후 11:23:17': '2004-05-25T14:23:17Z',
      '2004-05-25 오전 11:23:17': '2004-05-25T02:23:17Z',
      '2004-05-25 오전 12:00:00': '2004-05-24T15:00:00Z',
      '2004-05-25 오후 12:00:00': '2004-05-25T03:00:00Z',
      '2004-05-25 오후 13:00:00': undefined,
    });
  });

  it('reads US-style dates with the month first', () => {
    assertAll({
      'Jan 6, 2004 10:11:12 AM': '2004-01-06T10:11:12Z',
      'January 6, 2004': '2004-01-06T00:00:00Z',
      'Tuesday, January 6, 2004 10:11 PM EST': '2004-01-07T03:11:00Z',
      'January 6th, 2004 at 10:11 p.m.': '2004-01-06T22:11:00Z',
    });
  });

  it('reads the day before the month name', () => {
    assertAll({ '6 January 2004': '2004-01-06T00:00:00Z', '6 January 2004 10:11': '2004-01-06T10:11:00Z' });
  });

  it('reads 12 AM as midnight and 12 PM as noon', () => {
    assertAll({
      'Jan 6, 2004 12:30 AM': '2004-01-06T00:30:00Z',
      'Jan 6, 2004 12:30 PM': '2004-01-06T12:30:00Z',
      'Jan 6, 2004 10:11pm': '2004-01-06T22:11:00Z',
    });
  });

  it('refuses AM and PM with an hour outside 1 to 12 or without a time', () => {
    assertAll({
      'Jan 6, 2004 13:00 PM': undefined,
      'Jan 6, 2004 0:30 AM': undefined,
      'Jan 6, 2004 PM': undefined,
    });
  });

  it('refuses numeric timestamps', () => {
    assertAll({ '1073384472': undefined, '1073384472000': undefined, '1073384472.5': undefined });
  });
});

describe('parseDate: conversion to UTC', () => {
  it('moves the date back across a day, month and year boundary', () => {
    assertAll({
      '2004-01-01T00:30:00+01:00': '2003-12-31T23:30:00Z',
      'Thu, 01 Jan 2004 01:00:00 +0200': '2003-12-31T23:00:00Z',
    });
  });

  it('moves the date forward across a day, month and year boundary', () => {
    assertAll({
      'Wed, 31 Dec 2003 23:30:00 -0100': '2004-01-01T00:30:00Z',
      '2004-01-31T22:00:00-05:00': '2004-02-01T03:00:00Z',
    });
  });

  it('knows the length of February in leap and common years', () => {
    assertAll({
      '2004-02-28T23:00:00-02:00': '2004-02-29T01:00:00Z',
      '2003-02-28T23:00:00-02:00': '2003-03-01T01:00:00Z',
      '2004-03-01T00:30:00+01:00': '2004-02-29T23:30:00Z',
    });
  });

  it('keeps years below 100 as written', () => {
    assertAll({ '0050-03-01': '0050-03-01T00:00:00Z', '0099-12-31T23:00:00-02:00': '0100-01-01T01:00:00Z' });
  });

  it('refuses a date that an offset pushes outside the years 1 to 9999', () => {
    assertAll({ '0001-01-01T00:30:00+01:00': undefined, '9999-12-31T23:30:00-01:00': undefined });
  });

  it('accepts the first and last moments of the years 1 to 9999', () => {
    assertAll({
      '0001-01-01T00:00:00Z': '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z': '9999-12-31T23:59:59Z',
    });
  });
});

describe('parseDate: impossible dates', () => {
  it('refuses month 13, day 32, day 0 and 30 February', () => {
    assertAll({
      '2004-13-01': undefined,
      '2004-01-32': undefined,
      '2004-01-00': undefined,
      '2004-02-30': undefined,
      'Mon, 30 Feb 2004 10:11:12 GMT': undefined,
      'Mon, 32 Jan 2004 10:11:12 GMT': undefined,
    });
  });

  it('refuses 29 February outside leap years', () => {
    assertAll({
      '2003-02-29': undefined,
      '1900-02-29': undefined,
      '2000-02-29': '2000-02-29T00:00:00Z',
      '2004-02-29': '2004-02-29T00:00:00Z',
    });
  });

  it('refuses hour 25, minute 60 and second 61', () => {
    assertAll({
      '2004-01-06T25:00:00Z': undefined,
      '2004-01-06T24:00:01Z': undefined,
      '2004-01-06T10:60:00Z': undefined,
      '2004-01-06T10:11:61Z': undefined,
      'Tue, 06 Jan 2004 25:11:12 GMT': undefined,
      'Tue, 06 Jan 2004 10:60:12 GMT': undefined,
    });
  });

  it('clamps a leap second to 59', () => {
    assertAll({
      '2005-12-31T23:59:60Z': '2005-12-31T23:59:59Z',
      'Sat, 31 Dec 2005 23:59:60 GMT': '2005-12-31T23:59:59Z',
    });
  });

  it('refuses an offset of 24 hours or more', () => {
    assertAll({ '2004-01-06T10:11:12+24:00': undefined, 'Tue, 06 Jan 2004 10:11:12 +2400': undefined });
  });

  it('refuses year 0', () => {
    assert.equal(parseDate('0000-01-01T00:00:00Z'), undefined);
  });
});

describe('parseDate: garbage', () => {
  it('returns undefined for empty and blank input', () => {
    assertAll({ '': undefined, '   \t\n': undefined });
  });

  it('returns undefined for text that is not a date', () => {
    assertAll({
      'not a date': undefined,
      yesterday: undefined,
      'Mon, 99 Foo 2004': undefined,
      '2004-13-45': undefined,
      'Jan 2004': undefined,
      '06 Jan': undefined,
      'Foo 06 Jan 2004': undefined,
      'Tue, 06 Jan 2004 10:11:12 GMT and then some': undefined,
      'Tue, 06 Jan 2004 10:11:12 10:11:12': undefined,
      '6 7 Jan 2004': undefined,
      '14.10.2008': undefined,
    });
  });

  it('returns undefined for a 10 kB string, even one that starts with a date', () => {
    assert.equal(parseDate('x'.repeat(10_000)), undefined);
    assert.equal(parseDate(`Tue, 06 Jan 2004 10:11:12 GMT${' '.repeat(10_000)}x`), undefined);
  });

  it('returns undefined for values that are not strings', () => {
    for (const value of [null, undefined, 42, {}, ['2004']]) {
      assert.equal(parseDate(value as unknown as string), undefined);
    }
  });

  it('returns undefined or the ISO form, and never throws, for arbitrary input', () => {
    const pieces = ['0', '12', '2004', ':', '-', '+', ' ', ',', '.', '/', 'T', 'Z', 'W', 'Jan', 'Mon', 'GMT'];
    const more = ['am', 'pm', '(', ')', '오후', '년', 'é', '\u0301', '\ud800', '\u0000', '60', 'mar', 'de'];
    const alphabet = [...pieces, ...more];
    let seed = 42;
    const next = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    for (let i = 0; i < 5000; i++) {
      let raw = '';
      for (let j = next() % 24; j > 0; j--) raw += alphabet[next() % alphabet.length];
      const result = parseDate(raw);
      if (result !== undefined) assert.match(result, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, raw);
    }
  });

  it('answers quickly on inputs built to make regular expressions backtrack', () => {
    const inputs = ['1'.repeat(200), '1:11'.repeat(50), `2004-01-06 ${' '.repeat(180)}x`, 'a.m.'.repeat(50)];
    for (const raw of inputs) {
      const started = process.hrtime.bigint();
      assert.equal(parseDate(raw), undefined);
      assert.ok(process.hrtime.bigint() - started < 100_000_000n, raw.slice(0, 20));
    }
  });
});
