import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactPassword } from './redact.js';

describe('redactPassword', () => {
  it('hides the password of a URL and keeps the rest', () => {
    assert.equal(
      redactPassword('postgres://ann:secret@db.example:5432/t'),
      'postgres://ann:***@db.example:5432/t',
    );
    assert.equal(redactPassword('sqlite:/tmp/x.db'), 'sqlite:/tmp/x.db');
  });

  it('names a value that is no URL, so that the user sees what was wrong', () => {
    assert.equal(redactPassword('notaurl'), '"notaurl"');
  });

  it('never shows what could be a password in a value that is no URL', () => {
    const shown = redactPassword('postgres://ann:p@ss word@db host/t');
    assert.doesNotMatch(shown, /p@ss|ann/);
    assert.match(shown, /db host\/t/);
  });
});
