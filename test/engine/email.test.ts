import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import validator from 'validator';
import { DEFAULT_EMAIL_PROVIDERS, normalizeEmail, type EmailProviderTable } from '../../src/engine/email.js';

type Row = [raw: string, email: string | null, mailbox?: string];

const PAIRS: Row[] = [
  ['bob@example.com', 'bob@example.com', 'bob@example.com'],
  ['  Bob@Example.COM ', 'bob@example.com', 'bob@example.com'],
  ['bob+news@example.com', 'bob+news@example.com', 'bob+news@example.com'],
  ['b.o.b@example.com', 'b.o.b@example.com', 'b.o.b@example.com'],
  // Gmail: dots and "+tag" ignored, googlemail.com = gmail.com.
  ['John.Smith+news@gmail.com', 'john.smith+news@gmail.com', 'johnsmith@gmail.com'],
  ['j.o.h.n.smith@GoogleMail.com', 'j.o.h.n.smith@googlemail.com', 'johnsmith@gmail.com'],
  ['johnsmith@gmail.com', 'johnsmith@gmail.com', 'johnsmith@gmail.com'],
  ['john.smith+a+b@gmail.com', 'john.smith+a+b@gmail.com', 'johnsmith@gmail.com'],
  ['+tag@gmail.com', '+tag@gmail.com', '+tag@gmail.com'],
  // Google Workspace domains keep their dots.
  ['john.smith@example.org', 'john.smith@example.org', 'john.smith@example.org'],
  // Microsoft consumer mail: "+tag" only; dots are significant; domains stay apart.
  ['John.Smith+shop@outlook.com', 'john.smith+shop@outlook.com', 'john.smith@outlook.com'],
  ['jane+x@hotmail.co.uk', 'jane+x@hotmail.co.uk', 'jane@hotmail.co.uk'],
  ['jane+x@live.com', 'jane+x@live.com', 'jane@live.com'],
  ['jane+x@proton.me', 'jane+x@proton.me', 'jane@proton.me'],
  ['jane+x@fastmail.com', 'jane+x@fastmail.com', 'jane@fastmail.com'],
  // Yahoo and iCloud: left alone (not documented as aliasing to the base mailbox).
  ['jane-shop@yahoo.com', 'jane-shop@yahoo.com', 'jane-shop@yahoo.com'],
  ['jane+shop@icloud.com', 'jane+shop@icloud.com', 'jane+shop@icloud.com'],
  // Unicode.
  ['JOSÉ@Example.com', 'josé@example.com', 'josé@example.com'],
  ['jose\u0301@example.com', 'jos\u00e9@example.com', 'jos\u00e9@example.com'],
  ['a@bücher.ch', 'a@bücher.ch', 'a@bücher.ch'],
  ['"john smith"@example.com', '"john smith"@example.com', '"john smith"@example.com'],
  // Invalid.
  ['bob', null],
  ['bob@', null],
  ['@example.com', null],
  ['bob@example', null],
  ['bob@@example.com', null],
  ['bob..smith@example.com', null],
  ['.bob@example.com', null],
  ['bob @example.com', null],
  ['Bob <bob@example.com>', null],
  ['bob@[127.0.0.1]', null],
  ['bob@example.com\u0000', null],
  ['b\ud800ob@example.com', null],
  ['@', null],
];

describe('normalizeEmail pairs', () => {
  for (const [raw, email, mailbox] of PAIRS) {
    it(`${JSON.stringify(raw)} -> ${email ?? 'invalid'}`, () => {
      const r = normalizeEmail(raw);
      if (email === null) {
        expect(r).toEqual({ ok: false, reason: 'invalid', input: raw });
      } else {
        expect(r.ok).toBe(true);
        if (r.ok) {
          expect(r.value.email).toBe(email);
          expect(r.value.mailbox).toBe(mailbox);
          expect(`${r.value.local}@${r.value.domain}`).toBe(email);
        }
      }
    });
  }

  it('says why an email has no value', () => {
    expect(normalizeEmail('')).toEqual({ ok: false, reason: 'empty', input: '' });
    expect(normalizeEmail('   ')).toMatchObject({ ok: false, reason: 'empty' });
    expect(normalizeEmail(`${'a'.repeat(250)}@x.com`)).toMatchObject({ ok: false, reason: 'too-long' });
    expect(normalizeEmail(null)).toMatchObject({ ok: false, reason: 'empty' });
  });

  it('accepts a provider table as an argument', () => {
    const table: EmailProviderTable = new Map([['example.com', { domain: 'example.net', ignoreDots: false, subaddressSeparator: '-' }]]);
    expect(normalizeEmail('jane-x@example.com', table)).toMatchObject({ value: { mailbox: 'jane@example.net' } });
    expect(normalizeEmail('j.ane+x@gmail.com', new Map())).toMatchObject({ value: { mailbox: 'j.ane+x@gmail.com' } });
    expect(DEFAULT_EMAIL_PROVIDERS.get('googlemail.com')?.domain).toBe('gmail.com');
  });
});

const localPart = fc.stringMatching(/^[a-z0-9]{1,8}(?:[._+-][a-z0-9]{1,8}){0,3}$/);
const domain = fc.constantFrom('gmail.com', 'googlemail.com', 'outlook.com', 'example.com', 'yahoo.com', 'exämple.de');
const address = fc.tuple(localPart, domain).map(([l, d]) => `${l}@${d}`);

describe('normalizeEmail properties', { timeout: 60_000 }, () => {
  it('is total on any string, including huge ones', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), address), (text) => {
        const r = normalizeEmail(text);
        if (!r.ok) expect(r.input).toBe(text);
      }),
      { numRuns: 3000 },
    );
    expect(normalizeEmail(`${'a'.repeat(100_000)}@example.com`).ok).toBe(false);
    expect(normalizeEmail(`a@${'b.'.repeat(50_000)}com`).ok).toBe(false);
    expect(normalizeEmail(`${' '.repeat(100_000)}a@example.com`).ok).toBe(true);
  });

  it('is idempotent on email and on mailbox', () => {
    fc.assert(
      fc.property(fc.oneof(address, fc.string(), fc.string({ unit: 'binary' })), (text) => {
        const r = normalizeEmail(text);
        if (!r.ok) return;
        expect(normalizeEmail(r.value.email)).toEqual(r);
        const m = normalizeEmail(r.value.mailbox);
        expect(m.ok && m.value.mailbox).toBe(r.value.mailbox);
      }),
      { numRuns: 3000 },
    );
  });

  it('ignores case and surrounding space', () => {
    fc.assert(
      fc.property(address, fc.boolean(), (text, upper) => {
        const variant = ` ${upper ? text.toUpperCase() : text}\t`;
        expect(normalizeEmail(variant).ok && normalizeEmail(variant)).toEqual(normalizeEmail(text).ok && normalizeEmail(text));
      }),
    );
  });

  it('gives every dot and +tag spelling of one Gmail address one mailbox', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9]{2,12}$/),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.stringMatching(/^[a-z0-9]{0,6}$/),
        fc.boolean(),
        (base, dots, tag, googlemail) => {
          const chars = base.split('');
          for (const at of dots) {
            const i = 1 + (at % (chars.length - 1));
            if (chars[i] !== '.' && chars[i - 1] !== '.') chars.splice(i, 0, '.');
          }
          const written = `${chars.join('')}${tag ? `+${tag}` : ''}@${googlemail ? 'googlemail.com' : 'gmail.com'}`;
          const r = normalizeEmail(written);
          expect(r.ok && r.value.mailbox).toBe(`${base}@gmail.com`);
        },
      ),
    );
  });
});

describe('normalizeEmail fast path', () => {
  it('accepts exactly what validator.isEmail accepts (lower-cased, trimmed)', () => {
    const chars = fc.constantFrom(...'abxyz019.-_+!#~\'"@ é'.split(''));
    const text = (max: number) => fc.array(chars, { maxLength: max }).map((a) => a.join(''));
    const near = fc
      .tuple(
        fc.oneof(text(10), fc.constantFrom('a'.repeat(64), 'a'.repeat(65))),
        fc.array(fc.oneof(text(6), fc.constantFrom('com', 'c1', 'xn--p1ai', '-x', 'x-')), { minLength: 1, maxLength: 4 }),
      )
      .map(([l, labels]) => `${l}@${labels.join('.')}`);
    fc.assert(
      fc.property(fc.oneof(near, address, text(20)), (t) => {
        const lower = t.trim().toLowerCase();
        const expected = lower.length > 0 && lower.length <= 254 && validator.isEmail(lower.normalize('NFC'));
        expect(normalizeEmail(t).ok, t).toBe(expected);
      }),
      { numRuns: 20_000 },
    );
  });
});
