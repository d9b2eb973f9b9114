/** The linkage layer's one error class: a bad input file or option, worded for the user. */

/** A bad input or option: the message is for the user (one line, no stack). */
export class LinkageInputError extends Error {
  override readonly name = 'LinkageInputError';
}
