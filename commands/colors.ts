/** Embed colours, one name each. */
export const COOKIE_BROWN = 0xc8813b;
export const DISCORD_BLURPLE = 0x5865f2;
