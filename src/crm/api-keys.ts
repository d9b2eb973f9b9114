/**
 * API keys (interface.md section 5): GUIDs in 8-4-4-4-12 hexadecimal form, case-insensitive,
 * stored only as the SHA-256 of the lower-cased GUID. A random v4 GUID carries 122 random bits,
 * so an unsalted fast hash cannot be reversed by guessing.
 */
import { createHash, randomUUID } from 'node:crypto';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for the usual 8-4-4-4-12 hexadecimal form, any case. */
export function isGuid(text: string): boolean {
  return GUID.test(text);
}

/** A new random key (v4 GUID, lower case). */
export function newKey(): string {
  return randomUUID();
}

/** The stored form of a key: SHA-256 hex of the trimmed, lower-cased GUID. */
export function hashKey(guid: string): string {
  return createHash('sha256').update(guid.trim().toLowerCase()).digest('hex');
}

/** The first 8 characters, shown in listings so an operator can tell keys apart and revoke one. */
export function keyPrefix(guid: string): string {
  return guid.trim().toLowerCase().slice(0, 8);
}
