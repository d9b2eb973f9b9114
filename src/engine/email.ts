/**
 * Email normalization (interface.md 2.2: "a valid email address"). Validation is
 * validator's `isEmail` with its defaults (RFC 5321 lengths, a TLD required, UTF-8 local
 * parts allowed, no display names, no IP-literal domains).
 *
 * For matching, `mailbox` removes the aliasing a provider documents, so that
 * "John.Smith+news@googlemail.com" and "johnsmith@gmail.com" are one mailbox. Rules are
 * data ({@link DEFAULT_EMAIL_PROVIDERS}); a provider not listed is left alone, because
 * removing a "+tag" or a dot where the provider does not ignore it would merge two people.
 */
import isEmailModule from 'validator/lib/isEmail.js';
import type { NormalizeFailure, Normalized, NormalizedEmail } from './types.js';

/** validator's isEmail alone: the whole package (every validator) adds ~50-250 ms to each start. */
const isEmail = isEmailModule.default;

/** How one provider's addresses alias to a mailbox. */
export interface EmailProviderRule {
  /** Canonical domain of the mailbox (googlemail.com -> gmail.com). */
  readonly domain: string;
  /** The provider ignores dots in the local part (Gmail only). */
  readonly ignoreDots: boolean;
  /** Sub-address separator: "+tag" is dropped when the provider delivers it to the base mailbox. */
  readonly subaddressSeparator: string | null;
}

/** Provider rules keyed by lower-case domain. */
export type EmailProviderTable = ReadonlyMap<string, EmailProviderRule>;

const GMAIL: EmailProviderRule = Object.freeze({ domain: 'gmail.com', ignoreDots: true, subaddressSeparator: '+' });

function plusOnly(domain: string): [string, EmailProviderRule] {
  return [domain, Object.freeze({ domain, ignoreDots: false, subaddressSeparator: '+' })];
}

/**
 * Default provider rules.
 * - Gmail: dots in the local part are ignored and "+tag" is delivered to the base address;
 *   googlemail.com is the same service (Google Gmail Help, "Dots don't matter in Gmail
 *   addresses"; "Create task-specific email addresses"). Only the consumer domains: Google
 *   Workspace domains keep their dots.
 * - Microsoft consumer mail (outlook.com, hotmail.*, live.*, msn.com): "+tag" plus
 *   addressing, RFC 5233 sub-addressing (Microsoft, "Plus addressing in Exchange Online";
 *   Outlook.com since 2013). Dots are significant; each domain is its own namespace.
 * - Fastmail and Proton Mail: "+tag" plus addressing (Fastmail Help "Plus addressing and
 *   subdomain addressing"; Proton Support "+aliases").
 * Not listed, on purpose: Yahoo (its "base-keyword" disposable addresses use a base name
 * that is not the account's mailbox, so "-" cannot be stripped), iCloud and others whose
 * behaviour we could not confirm from the provider's own documentation.
 */
export const DEFAULT_EMAIL_PROVIDERS: EmailProviderTable = new Map<string, EmailProviderRule>([
  ['gmail.com', GMAIL],
  ['googlemail.com', GMAIL],
  ...[
    'outlook.com',
    'hotmail.com',
    'live.com',
    'msn.com',
    'passport.com',
    'hotmail.co.uk',
    'hotmail.fr',
    'hotmail.de',
    'hotmail.it',
    'hotmail.es',
    'hotmail.ca',
    'hotmail.com.au',
    'hotmail.co.jp',
    'hotmail.com.br',
    'hotmail.be',
    'hotmail.nl',
    'live.co.uk',
    'live.ca',
    'live.com.au',
    'live.fr',
    'live.de',
    'live.it',
    'live.nl',
    'live.com.mx',
    'outlook.co.uk',
    'outlook.fr',
    'outlook.de',
    'outlook.it',
    'outlook.es',
    'outlook.com.au',
    'outlook.jp',
    'outlook.com.br',
    'fastmail.com',
    'fastmail.fm',
    'proton.me',
    'protonmail.com',
    'protonmail.ch',
    'pm.me',
  ].map(plusOnly),
]);

/** Longest address (characters): RFC 5321 4.5.3.1.3 limits a path to 256 octets, 254 inside the brackets. */
export const MAX_EMAIL_LENGTH = 254;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NON_ASCII = /[\u0080-\uffff]/;

function fail(reason: NormalizeFailure, input: string): Normalized<NormalizedEmail> {
  return { ok: false, reason, input };
}

/**
 * The common address shape (dot-atom local part of at most 64 characters, DNS labels, an
 * alphabetic TLD), which validator's `isEmail` always accepts: recognised without it, a
 * several-fold saving on the addresses nearly every file holds. A property test
 * (test/crm/email-fast-path.test.ts) checks that this shape implies validator's yes.
 */
export const COMMON_EMAIL = /^[\w!#$%&'*+/=?^`{|}~-]+(?:\.[\w!#$%&'*+/=?^`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** True when `text` has the common shape of {@link COMMON_EMAIL} within RFC 5321 lengths. */
export function isCommonEmail(text: string): boolean {
  return text.length <= MAX_EMAIL_LENGTH && COMMON_EMAIL.test(text) && text.indexOf('@') <= 64;
}

function isValidAddress(text: string): boolean {
  if (isCommonEmail(text)) return true;
  // validator throws URIError on lone surrogates; we refuse them first, and guard anyway.
  if (LONE_SURROGATE.test(text)) return false;
  try {
    return isEmail(text);
  } catch {
    return false;
  }
}

/** The mailbox an address delivers to under `providers`' documented aliasing. */
function mailboxOf(local: string, domain: string, email: string, providers: EmailProviderTable): string {
  const rule = providers.get(domain);
  if (rule === undefined) return email;
  let base = local;
  if (rule.subaddressSeparator !== null) {
    const cut = base.indexOf(rule.subaddressSeparator);
    if (cut > 0) base = base.slice(0, cut);
  }
  if (rule.ignoreDots) base = base.replace(/\./g, '');
  if (base.length === 0) base = local;
  return `${base}@${rule.domain}`;
}

/**
 * Normalizes an email address: trimmed, lower-cased (NFC for non-ASCII), validated with
 * validator's `isEmail`; `mailbox` is the delivering mailbox for matching per `providers`
 * (default {@link DEFAULT_EMAIL_PROVIDERS}). Total: any string in, a result out. Idempotent:
 * normalizing `value.email` gives the same value.
 */
export function normalizeEmail(raw: string | null | undefined, providers: EmailProviderTable = DEFAULT_EMAIL_PROVIDERS): Normalized<NormalizedEmail> {
  const input = typeof raw === 'string' ? raw : raw == null ? '' : String(raw);
  let email = input.trim();
  if (email.length === 0) return fail('empty', input);
  if (email.length > MAX_EMAIL_LENGTH) return fail('too-long', input);
  email = email.toLowerCase();
  if (NON_ASCII.test(email) && !LONE_SURROGATE.test(email)) email = email.normalize('NFC');
  if (!isValidAddress(email)) return fail('invalid', input);
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  return { ok: true, value: { email, local, domain, mailbox: mailboxOf(local, domain, email, providers) } };
}
