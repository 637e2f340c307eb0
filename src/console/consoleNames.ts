/** A member's name as typed: letters of any script (`jürgen`, `zoë`), digits, `_`, `.`, `-`. */
export const MEMBER_NAME = /^@?[\p{L}\p{N}_.-]+$/u;

/**
 * A role's name as typed: `@VIP`, `VIP`, `@"Cookie Monster"` (spaces inside, never at an end),
 * at most Discord's 100 characters.
 */
export const ROLE_NAME = /^@?[\p{L}\p{N}_.-](?:[\p{L}\p{N}_. -]{0,98}[\p{L}\p{N}_.-])?$/u;
