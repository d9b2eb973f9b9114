/** The source of a bulk import cannot be read; the message says why, for the user. */
export class SourceError extends Error {
  override readonly name = 'SourceError';
}
