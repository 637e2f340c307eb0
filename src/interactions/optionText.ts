/**
 * What Discord's client sends for a number option, and so what the bot accepts as text anywhere
 * (console lines, HTTP query parameters): integers as decimal digits, numbers as finite
 * decimals, an optional minus; no exponent, no hex, no spaces.
 */
export const INTEGER_TEXT = /^-?\d{1,16}$/;
export const NUMBER_TEXT = /^-?\d{1,16}(?:\.\d{1,16})?$/;
