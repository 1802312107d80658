import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sanitizeStyle } from './sanitize-css.js';

describe('sanitizeStyle', () => {
  it('keeps allowed declarations and drops the rest', () => {
    assert.equal(sanitizeStyle('color: red; position: fixed', false), 'color: red;');
    assert.equal(sanitizeStyle('background: url(javascript:alert(1))', false), '');
  });

  it('answers a repeated style the same way, keeping SVG and HTML apart', () => {
    // fill is an SVG property: allowed inside <svg> only, however often the same style comes back
    for (let i = 0; i < 3; i++) {
      assert.equal(sanitizeStyle('fill: red', true), 'fill: red;');
      assert.equal(sanitizeStyle('fill: red', false), '');
    }
  });

  it('gives the same answers once its memory has been filled and cleared', () => {
    const expected = sanitizeStyle('color: blue; margin: 0', false);
    for (let i = 0; i < 2100; i++) sanitizeStyle(`width: ${i % 99}px`, false);
    assert.equal(sanitizeStyle('color: blue; margin: 0', false), expected);
    assert.equal(sanitizeStyle('width: 12px', false), 'width: 12px;');
  });
});
