/**
 * nameFromEmail: the name an email's local part spells, for rows that give none.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NICKNAMES, DEFAULT_PLACEHOLDERS, nameFromEmail } from '../../src/engine/index.js';

const spelt = (email: string): string | null => {
  const n = nameFromEmail(email, DEFAULT_NICKNAMES, DEFAULT_PLACEHOLDERS);
  return n === null ? null : `${n.firstName} ${n.lastName}`;
};

describe('nameFromEmail', () => {
  it('reads separated words, digits dropped, a trailing generation ignored', () => {
    expect(spelt('ali.nasser1800353@gmail.com')).toBe('ali nasser');
    expect(spelt('mary_ann_smith@x.org')).toBe('mary smith');
    expect(spelt('john.smith.jr@x.org')).toBe('john smith');
    expect(spelt('maisie-walsh@hodge.com')).toBe('maisie walsh');
  });

  it('splits a run of letters after the longest given name it begins with, when a surname of 3+ letters is left', () => {
    expect(spelt('christopherburinley121699@gmail.com')).toBe('christopher burinley');
    expect(spelt('arthurbooth25@x.com')).toBe('arthur booth');
    // "isabelle" leaves "h": not "isabel leh".
    expect(spelt('isabelleh97@x.com')).toBeNull();
    expect(spelt('jsalenez8006469@outlook.com')).toBeNull();
  });

  it('reads no name from initials, single words, shared or placeholder mailboxes', () => {
    expect(spelt('l.webb66@smith.com')).toBeNull();
    expect(spelt('e.e@ay.cod')).toBeNull();
    expect(spelt('jacia6895917@gmail.com')).toBeNull();
    expect(spelt('info@clinic.org')).toBeNull();
    expect(spelt('smithfamily@x.com')).toBeNull();
    expect(spelt('none@none.com')).toBeNull();
    expect(spelt('not-an-email')).toBeNull();
  });

  it('is total, and any name it reads is two lower-case words of two letters or more (seeded property)', () => {
    const seed = 2711;
    console.log(`nameFromEmail property seed ${seed}`);
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.emailAddress(), (text, email) => {
        for (const e of [text, email, `${text}@x.org`]) {
          const n = nameFromEmail(e, DEFAULT_NICKNAMES, DEFAULT_PLACEHOLDERS);
          if (n === null) continue;
          expect(n.firstName).toMatch(/^[a-z]{2,}$/);
          expect(n.lastName).toMatch(/^[a-z]{2,}$/);
        }
      }),
      { seed, numRuns: 500 },
    );
  });
});
