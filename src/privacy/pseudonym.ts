/**
 * What a member forgotten on request is called in the records that stay (the books must
 * balance, the canvas keep its colours): `former-` and ten random hex digits, never their
 * Discord id, which no record keeps. It is not a Discord id, so it is never mentioned as one:
 * members read "a former member" (`Translator.member`).
 */
export const PSEUDONYM_PREFIX = 'former-';

export function isPseudonym(id: string): boolean {
  return id.startsWith(PSEUDONYM_PREFIX);
}

/** A fresh pseudonym from `hex(n)` random hex digits of `n` bytes. */
export function newPseudonym(secret: (bytes: number) => string): string {
  return `${PSEUDONYM_PREFIX}${secret(5)}`;
}
